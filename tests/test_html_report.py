"""The HTML report and run-diff page, read as HTML (the browser test drives the same pages
in Chromium)."""

from __future__ import annotations

import base64
import copy
import hashlib
import json
import os
import re
import shutil
import subprocess
import sys
from html import unescape
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

import pytest

from lobstack_eval.main import main
from replay.html import _format as fmt
from replay.html import render_report, render_run_diff, write_report, write_run_diff
from replay.html._plots import HEATMAP_NUMBERS_MAX_MODELS, pareto_front
from scorer.errors import ResultsError, SuiteError

SAMPLE = Path(__file__).parent / "fixtures" / "reports_sample"
GOLDEN = SAMPLE / "index.golden.html"
MODELS = ("alpha_oracle", "beta_mixed", "gamma_evil")
SCRIPT = "<script>alert(1)</script>"
IMG = '"><img src=x onerror=alert(1)>'


def _results(slug: str) -> dict[str, Any]:
    return json.loads((SAMPLE / slug / "results.json").read_text(encoding="utf-8"))


def _suite() -> dict[str, Any]:
    return json.loads((SAMPLE / "suite.json").read_text(encoding="utf-8"))


@pytest.fixture(scope="module")
def html() -> str:
    return render_report([_results(s) for s in MODELS], _suite())


class _Rows(HTMLParser):
    """The rows of ``<table id=...>``'s tbody: each row's attributes and its cells' (attrs,
    text chunks)."""

    def __init__(self, table_id: str) -> None:
        super().__init__()
        self.table_id = table_id
        self.depth = 0  # >0 while inside the table
        self.in_body = False
        self.rows: list[tuple[dict[str, str], list[tuple[dict[str, str], list[str]]]]] = []
        self.cell: list[str] | None = None

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = {k: v or "" for k, v in attrs}
        if tag == "table" and (self.depth or a.get("id") == self.table_id):
            self.depth += 1
        elif self.depth and tag == "tbody":
            self.in_body = True
        elif self.in_body and tag == "tr":
            self.rows.append((a, []))
        elif self.in_body and tag in ("td", "th"):
            self.cell = []
            self.rows[-1][1].append((a, self.cell))

    def handle_endtag(self, tag: str) -> None:
        if self.depth and tag == "table":
            self.depth -= 1
            self.in_body = self.in_body and self.depth > 0
        elif tag in ("td", "th"):
            self.cell = None

    def handle_data(self, data: str) -> None:
        if self.cell is not None and data.strip():
            self.cell.append(data.strip())


def _rows(
    page: str, table_id: str
) -> list[tuple[dict[str, str], list[tuple[dict[str, str], list[str]]]]]:
    parser = _Rows(table_id)
    parser.feed(page)
    return parser.rows


def _data_block(page: str) -> dict[str, Any]:
    m = re.search(r'<script type="application/json" id="case-data">(.*?)</script>', page, re.S)
    assert m is not None
    return json.loads(m.group(1))


def _svg(page: str, plot_id: str) -> str:
    m = re.search(rf'<svg [^>]*id="{plot_id}".*?</svg>', page, re.S)
    assert m is not None, plot_id
    return m.group(0)


class TestLeaderboard:
    def test_one_row_per_model_best_overall_first(self, html: str) -> None:
        """Rows follow Overall 100 > 50 > 33.3, whatever order the files came in."""
        assert [r[0]["data-model"] for r in _rows(html, "board")] == [
            "alpha/oracle",
            "beta/mixed",
            "gamma/evil",
        ]

    def test_cells_show_rate_interval_dash_latency_cost(self, html: str) -> None:
        """beta/mixed: Overall 50% [15.0, 85.0] over 4 of its 6 cases (partial: marked 4/6), no
        chains (dash), 800 ms, $0.05, 4 scored, 1 errored."""
        cells = [texts for _, texts in _rows(html, "board")[1][1]]
        assert cells == [
            ["beta/mixed"],
            ["50.0%", "(4/6)", "15.0–85.0"],
            ["33.3%", "6.2–79.2"],
            ["100.0%", "43.9–100.0"],
            ["0.0%", "0.0–56.1"],
            ["–"],
            ["–"],
            ["100.0%", "20.6–100.0"],
            ["800 ms"],
            ["$0.05"],
            ["4"],
            ["1"],
            ["1"],
            ["no"],
        ]

    def test_sort_values_and_missing_values_empty(self, html: str) -> None:
        """data-v holds the unrounded rate (the sort key); a missing rate or cost is empty,
        sorted last."""
        gamma = _rows(html, "board")[2][1]
        assert gamma[1][0]["data-v"] == repr(100 * 2 / 6)
        assert gamma[9][0]["data-v"] == ""  # unpriced
        assert gamma[9][1] == ["–"]
        assert gamma[13][1] == ["yes"]  # temperature ignored

    def test_suite_identity_and_caveats_on_top(self, html: str) -> None:
        head = html[: html.index('id="leaderboard"')]
        assert "lobstack-sample" in head and "0.1.0" in head
        assert "0f3c1d4e5b6a79881726354433221100ffeeddccbbaa99887766554433221100" in head
        assert "temperature 0" in head and "Nex" in head
        # Nex is said to be what the model auto is, and what it does (issue 25: "Nex"
        # was unexplained)
        assert "The model auto is Nex, Lobstack&#39;s router: for each request it picks" in head

    def test_model_with_every_case_errored_has_dashes_and_comes_last(self) -> None:
        """No scores at all (method page: a model with every case errored has no scores)."""
        dead = copy.deepcopy(_results("beta_mixed"))
        dead["model"] = "aaa/dead"
        for table in ("metrics", "groups"):
            for key in dead[table]:
                dead[table][key] = {"count": 0, "of": 0, "rate": None, "ci": None}
        dead["latency_p50_ms"] = dead["cost_per_100_cases_usd"] = None
        for r in dead["results"]:
            r.update(status="errored", steps=[], attempts=[])
        dead["cases"] = {
            "total": len(dead["results"]),
            "scored": 0,
            "errored": len(dead["results"]),
            "unrecorded": 0,
        }
        page = render_report([dead, _results("gamma_evil")], _suite())
        rows = _rows(page, "board")
        assert [r[0]["data-model"] for r in rows] == ["gamma/evil", "aaa/dead"]
        # Overall says on how many cases it rests: none (docs/METHOD.md#partial-models-marked)
        assert [texts for _, texts in rows[1][1][1:10]] == [
            ["–", f"(0/{len(dead['results'])})"]
        ] + [["–"]] * 8
        assert {a.get("class") for a, _ in _rows(page, "grid")[1][1][1:]} == {"e"}

    def test_no_models_still_renders(self) -> None:
        page = render_report([], _suite())
        assert _rows(page, "board") == []
        assert "no models" in _svg(page, "plot-rates") and "no models" in _svg(page, "plot-groups")

    def test_suites_that_differ_are_flagged(self) -> None:
        older = _results("beta_mixed")
        older["suite"] = {"name": "lobstack-sample", "version": "0.0.9", "sha256": "00"}
        page = render_report([_results("alpha_oracle"), older], _suite())
        assert "scored against different suites" in page


class TestGridAndDetails:
    def test_grid_has_a_status_per_model_and_case(self, html: str) -> None:
        rows = _rows(html, "grid")
        beta = [a.get("class") for a, _ in rows[1][1][1:]]
        assert [r[1][0][1] for r in rows] == [["alpha/oracle"], ["beta/mixed"], ["gamma/evil"]]
        assert beta == ["f", "p", "f", "p", "e", "u"]

    def test_grid_reads_without_colour_and_has_one_tab_stop(self, html: str) -> None:
        """Each cell carries its status as a mark (not colour alone), the legend names every mark,
        the first cell is the grid's one tab stop, and a header row names every case (its id,
        visible over the column)."""
        rows = _rows(html, "grid")
        assert [texts for _, texts in rows[1][1][1:]] == [["✗"], ["✓"], ["✗"], ["✓"], ["!"], ["?"]]
        tab_stops = [
            (r, c)
            for r, (_, cells) in enumerate(rows)
            for c, (a, _) in enumerate(cells)
            if "tabindex" in a
        ]
        assert tab_stops == [(0, 1)]
        assert re.search(
            r'<table id="grid" class="grid" role="grid" aria-label="[^"]+" '
            r'aria-describedby="grid-help">',
            html,
        )
        ids = re.findall(r'<th scope="col"><span class="cid">([^<]+)</span></th>', html)
        assert ids == [c["id"] for c in _suite()["cases"]]
        legend = re.search(r'<p class="legend">(.*?)</p>', html, re.S)
        assert legend is not None
        assert re.sub(r"<[^>]+>", "", legend.group(1)).split() == [
            "✓", "passed", "✗", "failed", "!", "errored", "?", "unrecorded"
        ]  # fmt: skip

    def test_details_hold_suite_case_and_model_answer(self, html: str) -> None:
        data = _data_block(html)
        assert data["models"] == ["alpha/oracle", "beta/mixed", "gamma/evil"]
        assert [c["id"] for c in data["cases"]] == [
            "selection-01",
            "arguments-01",
            "near_misses-01",
            "no_call-01",
            "parallel-01",
            "chains-01",
        ]
        assert data["cases"][1]["steps"][0]["calls"][0]["args"]["start_line"] == {"eq": 10}
        beta_parallel = data["cells"][1][4]
        assert beta_parallel["status"] == "errored"
        assert [a["outcome"] for a in beta_parallel["attempts"]] == ["http_503"] * 4

    def test_case_only_in_results_is_appended_and_marked(self) -> None:
        suite = _suite()
        suite["cases"] = [c for c in suite["cases"] if c["id"] != "selection-01"]
        page = render_report([_results(s) for s in MODELS], suite)
        data = _data_block(page)
        assert data["cases"][-1]["id"] == "selection-01"
        assert data["cases"][-1]["in_suite"] is False
        assert "case texts come from" not in page  # same suite name and version: no warning

    def test_case_missing_from_a_file_reads_unrecorded(self) -> None:
        beta = _results("beta_mixed")
        beta["results"] = [r for r in beta["results"] if r["id"] != "no_call-01"]
        page = render_report([beta], _suite())
        assert [a.get("class") for a, _ in _rows(page, "grid")[0][1][1:]] == [
            "f",
            "p",
            "f",
            "u",
            "e",
            "u",
        ]
        assert _data_block(page)["cells"][0][3] is None


class TestUntrusted:
    def test_hostile_strings_are_text_not_markup(self, html: str) -> None:
        """gamma/evil's answers and routed model name never reach the page as tags or attributes."""
        assert SCRIPT not in html
        assert "<img" not in html
        assert "<b>" not in html
        assert html.count("<script") == 2  # the JSON block and our own script
        assert "&lt;b&gt;routed&lt;/b&gt;&#34;&gt;&lt;img src=x onerror=alert(1)&gt;" in html
        assert not re.search(r"""(href|src)\s*=\s*["']?\s*javascript:""", html, re.I)

    def test_json_block_escapes_markup_and_round_trips(self, html: str) -> None:
        block = re.search(r'id="case-data">(.*?)</script>', html, re.S)
        assert block is not None
        assert "<" not in block.group(1) and ">" not in block.group(1) and "&" not in block.group(1)
        gamma = _data_block(html)["cells"][2]
        assert gamma[0]["steps"][0]["response"]["content"] == f"Sure! {SCRIPT}"
        assert (
            json.loads(gamma[1]["steps"][0]["response"]["tool_calls"][0]["arguments"])["path"]
            == IMG
        )

    def test_model_name_with_markup_and_dollars_is_escaped_in_plots(self) -> None:
        """matplotlib writes the name as SVG text: escaped, and ``$...$`` not taken for mathtext."""
        alpha = _results("alpha_oracle")
        alpha["model"] = f"{SCRIPT}$x^2$"
        page = render_report([alpha, _results("beta_mixed")], _suite())
        assert SCRIPT not in page
        for plot in ("plot-rates", "plot-cost", "plot-groups"):
            assert "&lt;script&gt;alert(1)&lt;/script&gt;$x^2$" in _svg(page, plot)

    def test_csp_allows_exactly_the_inline_script_and_no_network(self, html: str) -> None:
        csp = re.search(r'http-equiv="Content-Security-Policy" content="([^"]+)"', html)
        script = re.search(r"<script>(.*?)</script>", html, re.S)
        assert csp is not None and script is not None
        policy = unescape(csp.group(1))
        digest = base64.b64encode(hashlib.sha256(script.group(1).encode()).digest()).decode()
        assert f"script-src 'sha256-{digest}';" in policy
        assert "default-src 'none'" in policy

    def test_page_loads_nothing_from_outside(self, html: str) -> None:
        assert not re.search(r"""(src|href)\s*=\s*["']?(https?:)?//""", html)
        assert set(re.findall(r'xlink:href="(.)', html)) <= {"#"}
        ids = re.findall(r'\sid="([^"]+)"', html)
        assert len(ids) == len(set(ids))


class TestPlots:
    def test_four_inline_svg_plots(self, html: str) -> None:
        for plot in ("plot-rates", "plot-cost", "plot-latency", "plot-groups"):
            svg = _svg(html, plot)
            assert "alpha/oracle" in svg
        assert "Pareto front" in _svg(html, "plot-cost")
        assert "1 model without it not shown" in _svg(html, "plot-cost")  # gamma/evil is unpriced
        assert "Near misses" in _svg(html, "plot-groups")

    def test_heat_map_writes_numbers_for_few_models_a_colour_bar_for_many(self, html: str) -> None:
        assert "Overall, %" not in _svg(html, "plot-groups")
        many = []
        for i in range(HEATMAP_NUMBERS_MAX_MODELS + 1):
            r = _results("beta_mixed")
            r["model"] = f"m{i:02d}"
            many.append(r)
        assert "Overall, %" in _svg(render_report(many, _suite()), "plot-groups")

    @pytest.mark.parametrize(
        ("points", "front"),
        [
            pytest.param([(1, 50), (2, 60), (3, 55), (0.5, 10)], [3, 0, 1], id="dominated-dropped"),
            pytest.param([(1, 50), (1, 40), (1, 50)], [0], id="ties-keep-first"),
            pytest.param([(2, 90), (1, 90)], [1], id="same-y-cheaper-wins"),
            pytest.param([], [], id="empty"),
        ],
    )
    def test_pareto_front(self, points: list[tuple[float, float]], front: list[int]) -> None:
        assert pareto_front(points) == front

    def test_a_partial_model_is_never_on_the_front_and_pushes_no_complete_model_off(self) -> None:
        # (cost, Overall): 1 is partial, cheaper and as good as 0; 2 is dearer and worse than 1 only
        points = [(0.2, 100.0), (0.1, 100.0), (0.15, 90.0)]
        assert pareto_front(points) == [1]
        assert pareto_front(points, [False, True, False]) == [2, 0]


@pytest.mark.parametrize(
    ("func", "value", "text"),
    [
        pytest.param(fmt.rate, 64.1025641025641, "64.1%", id="rate"),
        pytest.param(fmt.rate, None, "–", id="rate-none"),
        pytest.param(fmt.interval, [52.99, 73.9], "53.0–73.9", id="ci"),
        pytest.param(fmt.interval, None, "", id="ci-none"),
        pytest.param(fmt.latency, 812.5, "812 ms", id="ms"),
        pytest.param(fmt.latency, 1250.0, "1.25 s", id="s"),
        pytest.param(fmt.cost, 0.013333, "$0.0133", id="cost-small"),
        pytest.param(fmt.cost, 3.456, "$3.46", id="cost-dollars"),
        pytest.param(fmt.cost, 250.4, "$250", id="cost-large"),
        pytest.param(fmt.cost, None, "–", id="cost-unpriced"),
        pytest.param(fmt.sort_value, True, "1", id="sort-bool"),
        pytest.param(fmt.sort_value, 3, "3.0", id="sort-int"),
    ],
)
def test_format(func: Any, value: Any, text: str) -> None:
    assert func(value) == text


class TestDeterminism:
    def test_same_bytes_whatever_the_input_order(self, html: str) -> None:
        assert render_report([_results(s) for s in reversed(MODELS)], _suite()) == html

    def test_same_bytes_in_another_process(self, html: str, tmp_path: Path) -> None:
        """A fresh interpreter with another hash seed renders the very same page."""
        code = (
            "import json, sys\nfrom pathlib import Path\nfrom replay.html import render_report\nd "
            f"= Path({str(SAMPLE)!r})\nslugs = ('gamma_evil', 'alpha_oracle', 'beta_mixed')\nr = "
            "[json.loads((d / s / 'results.json').read_text()) for s in slugs]\n"
            "sys.stdout.buffer.write(render_report(r, json.loads((d / "
            "'suite.json').read_text())).encode())\n"
        )
        env = {**os.environ, "PYTHONHASHSEED": "12345"}
        out = subprocess.run(
            [sys.executable, "-c", code], capture_output=True, check=True, env=env
        ).stdout
        assert out == html.encode()

    def test_write_report_matches_the_golden_file(self, tmp_path: Path) -> None:
        """The committed golden page; regenerate with LOBSTACK_UPDATE_GOLDEN=1 after a
        deliberate change."""
        reports = tmp_path / "reports"
        shutil.copytree(SAMPLE, reports, ignore=shutil.ignore_patterns("*.html"))
        out = write_report(reports, reports / "suite.json")
        assert out == reports / "index.html"
        if os.environ.get("LOBSTACK_UPDATE_GOLDEN") == "1":
            GOLDEN.write_bytes(out.read_bytes())
        assert out.read_bytes() == GOLDEN.read_bytes()
        assert write_report(reports, reports / "suite.json").read_bytes() == GOLDEN.read_bytes()


class TestWriteReportErrors:
    @pytest.fixture
    def reports(self, tmp_path: Path) -> Path:
        reports = tmp_path / "reports"
        shutil.copytree(SAMPLE, reports, ignore=shutil.ignore_patterns("*.html"))
        return reports

    def test_folders_that_are_not_models_are_ignored(self, reports: Path) -> None:
        """A folder without results.json (a model's results removed, plots, notes) is not a
        model: no error."""
        (reports / "beta_mixed" / "results.json").unlink()
        (reports / "plots").mkdir()
        (reports / "notes.txt").write_text("not a model")
        page = write_report(reports, reports / "suite.json").read_text()
        assert "alpha/oracle" in page and "gamma/evil" in page and "beta/mixed" not in page

    @pytest.mark.parametrize(
        ("text", "match"),
        [
            pytest.param("{", "is not valid JSON .* at line 1", id="corrupt"),
            pytest.param("[]", "not a results object", id="array"),
            pytest.param(
                '{"model": "x", "metrics": {}}', "missing field 'suite.version'", id="no-suite"
            ),
            pytest.param(
                "BAD_COUNT", "field 'metrics.overall.count' must be a whole number", id="bad-count"
            ),
        ],
    )
    def test_corrupt_results_file_is_named(self, reports: Path, text: str, match: str) -> None:
        if text == "BAD_COUNT":  # a well-formed file whose summary has a field of the wrong type
            document = _results("gamma_evil")
            document["metrics"]["overall"]["count"] = "3"
            text = json.dumps(document)
        (reports / "gamma_evil" / "results.json").write_text(text)
        with pytest.raises(ResultsError, match=rf"gamma_evil/results\.json.*{match}"):
            write_report(reports, reports / "suite.json")
        assert not (reports / "index.html").exists()

    def test_no_model_directory(self, tmp_path: Path) -> None:
        (tmp_path / "plots").mkdir()
        with pytest.raises(
            ResultsError, match=r"no model directories \(folders with a results\.json\)"
        ):
            write_report(tmp_path, SAMPLE / "suite.json")

    def test_one_models_dir_names_the_dir_it_is_in(
        self, reports: Path, capsys: pytest.CaptureFixture[str]
    ) -> None:
        """`report reports/alpha_oracle` (a model dir): the line names the reports dir to give,
        where it said there were no model directories."""
        model_dir = reports / "alpha_oracle"
        assert main(["report", str(model_dir), "--suite", str(reports / "suite.json")]) == 1
        assert capsys.readouterr().err == (
            f"error: {model_dir}: one model's results (it holds a results.json), not a reports "
            f"dir of model dirs: name the dir it is in, {reports}\n"
        )
        assert not (model_dir / "index.html").exists()

    def test_missing_suite(self, reports: Path) -> None:
        with pytest.raises(SuiteError, match=r"nope\.json: no such suite file"):
            write_report(reports, reports / "nope.json")

    def test_cli_writes_the_report(self, reports: Path, capsys: pytest.CaptureFixture[str]) -> None:
        assert main(["report", str(reports), "--suite", str(reports / "suite.json")]) == 0
        assert capsys.readouterr().out.strip() == f"wrote {reports / 'index.html'}"
        assert (reports / "index.html").read_bytes() == GOLDEN.read_bytes()

    @pytest.mark.parametrize(
        ("name", "edit", "problem"),
        [
            (
                "suite.yaml",
                None,
                "(top level): a suite must be a YAML mapping (name: ..., cases: ...), not a list",
            ),
            ("suite.json", "maybe", 'steps[0].expect: must be "call" or "none"'),
        ],
    )
    def test_cli_an_invalid_suite_is_suite_checks_error_and_no_page(
        self,
        reports: Path,
        capsys: pytest.CaptureFixture[str],
        name: str,
        edit: str | None,
        problem: str,
    ) -> None:
        """Not a page built from a broken suite: the first problem suite check lists."""
        bad = reports.parent / name
        if edit is None:
            bad.write_text("- name: a\n- name: b\n", encoding="utf-8")
        else:
            data = json.loads((SAMPLE / "suite.json").read_text(encoding="utf-8"))
            data["cases"][0]["steps"][0]["expect"] = edit
            bad.write_text(json.dumps(data), encoding="utf-8")
            problem = f"case {data['cases'][0]['id']}.{problem}"
        assert main(["suite", "check", str(bad)]) == 1
        assert capsys.readouterr().err.splitlines()[0].endswith(problem)
        assert main(["report", str(reports), "--suite", str(bad)]) == 1
        assert capsys.readouterr() == ("", f"error: {bad}: {problem}\n")
        assert not (reports / "index.html").exists()

    def test_cli_another_suite_than_the_results_is_a_warning(
        self, reports: Path, capsys: pytest.CaptureFixture[str]
    ) -> None:
        """The page shows the suite file's cases; results scored with another suite say so on the
        terminal too, one line per suite, as rescore says an older recording."""
        other = reports.parent / "other.json"
        data = json.loads((SAMPLE / "suite.json").read_text(encoding="utf-8"))
        other.write_text(json.dumps({**data, "version": "0.2.0"}), encoding="utf-8")
        assert main(["report", str(reports), "--suite", str(other)]) == 0
        out, err = capsys.readouterr()
        assert out == f"wrote {reports / 'index.html'}\n"
        assert err == (
            f"warning: 3 models were scored with suite 0.1.0; the page shows the cases of 0.2.0 "
            f"({other})\n"
        )
        page = (reports / "index.html").read_text(encoding="utf-8")
        assert "The case texts come from suite lobstack-sample 0.2.0" in page
        shutil.rmtree(reports / "beta_mixed")
        shutil.rmtree(reports / "gamma_evil")
        other.write_text(json.dumps({**data, "name": "mine"}), encoding="utf-8")
        assert main(["report", str(reports), "--suite", str(other)]) == 0
        assert capsys.readouterr().err == (
            "warning: alpha_oracle was scored with suite lobstack-sample 0.1.0; the page shows the "
            f"cases of mine 0.1.0 ({other})\n"
        )

    def test_cli_error_is_one_line(self, reports: Path, capsys: pytest.CaptureFixture[str]) -> None:
        (reports / "alpha_oracle" / "results.json").write_text("nope")
        assert main(["report", str(reports), "--suite", str(reports / "suite.json")]) == 1
        err = capsys.readouterr().err
        assert err.startswith(
            f"error: {reports / 'alpha_oracle' / 'results.json'}: the results file is not valid "
            "JSON"
        )
        assert err.count("\n") == 1


@pytest.fixture(scope="module")
def diff() -> str:
    """beta/mixed (A) against gamma/evil's results relabelled as beta/mixed (B)."""
    a = _results("beta_mixed")
    b = _results("gamma_evil")
    b["model"] = a["model"]
    return render_run_diff(a, b, _suite())


class TestRunDiff:
    def test_cases_show_the_gates_verdict(self, diff: str) -> None:
        """The page renders the gate's verdict: one flip at one sample per case is noise, not a
        regression (the gate passes these runs), and cases not scored in A have nothing to
        regress from."""
        rows = {r[0]["data-case"]: r[0]["data-verdict"] for r in _rows(diff, "case-table")}
        assert rows == {
            "selection-01": "known_failure",
            "arguments-01": "noise",
            "near_misses-01": "fix",
            "no_call-01": "unchanged",
            "parallel-01": "not_scored",
            "chains-01": "not_scored",
        }
        assert "<strong>No regression</strong>" in diff
        summary = " ".join(diff.split())
        counts = (
            '0 regressions</span>, 0 lost, <span class="better">1 fix</span>, '
            "0 counted in the paired test, 1 noise"
        )
        assert counts in summary
        assert "1 known failure, 1 unchanged, 2 other." in summary
        assert "the paired test cannot tell it from noise" in diff

    def test_metrics_show_both_rates_and_the_delta(self, diff: str) -> None:
        assert re.search(
            r"Overall</th>\s*<td[^>]*>50.0%<span[^>]*>15.0–85.0</span></td>\s*"
            r"<td[^>]*>33.3%<span[^>]*>9.7–70.0</span></td>\s*<td class=\"num worse\">-16.7 pp",
            diff,
        )
        assert re.search(r"Right tool</th>.*?<td class=\"num better\">\+26.7 pp", diff, re.S)
        # Made-up tool went up: that is worse.
        assert re.search(r"Made-up tool</th>.*?<td class=\"num worse\">\+16.7 pp", diff, re.S)
        assert re.search(r"Chains</th>.*?<td class=\"num \">–</td>", diff, re.S)

    def test_changed_cases_show_reasons_and_request_as_text(self, diff: str) -> None:
        assert "Show me lines 10 to 20 of src/app.py" in diff
        assert "made-up tool &#34;&gt;&lt;img src=x onerror=alert(1)&gt;" in diff
        assert "<img" not in diff and "<script" not in diff

    def test_without_suite_uses_result_order(self) -> None:
        a = _results("alpha_oracle")
        b = copy.deepcopy(a)
        b["results"][0]["status"] = "failed"
        page = render_run_diff(a, b, None)
        rows = _rows(page, "case-table")
        assert [r[0]["data-case"] for r in rows][:2] == ["selection-01", "arguments-01"]
        # The same answer with another status: a scoring change, which the gate always counts.
        assert rows[0][0]["class"] == "regression" and rows[0][0]["data-verdict"] == "regression"
        assert page == render_run_diff(copy.deepcopy(a), copy.deepcopy(b), None)

    def test_write_run_diff(self, tmp_path: Path) -> None:
        out = write_run_diff(
            SAMPLE / "alpha_oracle" / "results.json",
            SAMPLE / "beta_mixed" / "results.json",
            tmp_path / "diff.html",
            SAMPLE / "suite.json",
        )
        assert out == tmp_path / "diff.html"
        assert out.read_text(encoding="utf-8") == render_run_diff(
            _results("alpha_oracle"), _results("beta_mixed"), _suite()
        )
        with pytest.raises(ResultsError, match=r"nope\.json"):
            write_run_diff(tmp_path / "nope.json", out, tmp_path / "x.html", None)


def test_each_plot_is_keyed_by_only_what_it_shows() -> None:
    """The plot cache keys each plot by ``drawn``'s models and draws it from them
    (replay/html/_report.py): a figure the plot does not show leaves its key alone (a rescore
    changing one interval draws one plot again, not four), one it shows changes it. That the
    plots drawn from them are the same bytes is the golden pages' check (both have a partial
    model and one without a cost: ``TestDeterminism``, tests/test_plot_cache.py)."""
    from dataclasses import replace

    from replay.html._plot_model import Interval, PlotModel, drawn

    metrics = {
        "overall": Interval(62.5, 51.0, 72.9),
        "right_tool": Interval(80.0, None, None),
        "right_args": None,
    }
    models = [
        PlotModel("m-a", metrics, {"selection": 50.0, "chains": None}, 0.42, 900.0),
        PlotModel("m-b (partial)", {"overall": Interval(70.0, 1, 2)}, {}, 0.1, None, partial=True),
        PlotModel("m-d", {"overall": None}, {"selection": 0.0}, None, 10.0),
    ]
    plots = ("rates", "cost", "latency", "groups")

    def kept(changed: list[PlotModel]) -> list[str]:
        return [p for p in plots if drawn(changed, p) == drawn(models, p)]

    assert drawn(models, "cost")[1] == replace(
        models[1], metrics={"overall": Interval(70.0, None, None)}, groups={}, latency_p50_ms=None
    )
    interval = {**metrics, "overall": Interval(62.5, 50.0, 75.0)}
    assert kept([replace(models[0], metrics=interval), *models[1:]]) == [
        "cost",
        "latency",
        "groups",
    ]
    rate = {**metrics, "overall": Interval(60.0, 51.0, 72.9)}
    assert kept([replace(models[0], metrics=rate), *models[1:]]) == ["groups"]
    assert kept([replace(models[0], cost_per_100=0.5), *models[1:]]) == [
        "rates",
        "latency",
        "groups",
    ]
    assert kept([replace(models[0], latency_p50_ms=1.0), *models[1:]]) == [
        "rates",
        "cost",
        "groups",
    ]
    assert kept([replace(models[0], groups={"selection": 5.0}), *models[1:]]) == list(plots[:3])
    assert kept([models[0], replace(models[1], partial=False), models[2]]) == ["rates", "groups"]
    assert kept([replace(models[0], name="m-z"), *models[1:]]) == []
    assert kept(models[:2]) == []
    with pytest.raises(ValueError, match="unknown plot"):
        drawn(models, "pie")
