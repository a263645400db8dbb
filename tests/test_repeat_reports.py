"""What the reports show with repeats: K, pass^k and flaky in every leaderboard, indistinguishable neighbours,
each case's repeats in the HTML grid and drill-down, power in rescore's output; and nothing of it for K = 1."""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path
from typing import Any

import pytest

from lobstack_eval.main import main
from recorder.files import read_suite
from replay.html import render_report
from replay.leaderboard import leaderboard_csv, leaderboard_md
from replay.rescore import rescore_model
from replay.ties import neighbours
from tests.conftest import MINI_SUITE, ROOT

SUITE = read_suite(MINI_SUITE)


@pytest.fixture(scope="module")
def documents(repeat_cassettes: Path) -> dict[str, dict[str, Any]]:
    return {
        slug: rescore_model(repeat_cassettes / slug, SUITE) for slug in ("ref_oracle", "ref_flaky", "ref_first-tool")
    }


def test_markdown_shows_k_pass_k_flaky_and_neighbours(documents: dict[str, dict[str, Any]]) -> None:
    text = leaderboard_md(list(documents.values()), SUITE)
    header = next(line for line in text.splitlines() if line.startswith("| Model"))
    assert header.split(" | ")[:5] == ["| Model", "Overall", "Repeats", "pass^k", "Flaky"]
    assert header.endswith("| vs next |")
    rows = {line.split(" | ")[0][2:]: line.split(" | ") for line in text.splitlines() if line.startswith("| ref/")}
    assert list(rows) == ["ref/oracle", "ref/flaky", "ref/first-tool"]
    flaky = documents["ref_flaky"]["metrics"]
    assert rows["ref/flaky"][2] == "5"
    assert rows["ref/flaky"][3].startswith(f"{flaky['pass_all_k']['rate']:.1f} [")
    assert rows["ref/flaky"][4].startswith(f"{flaky['flaky']['rate']:.1f} [")
    assert rows["ref/first-tool"][2:5] == ["1", "-", "-"]  # a single run beside repeated ones
    assert rows["ref/first-tool"][-1] == " |"  # the last model has no next one
    assert "Holm-corrected" in text


def test_csv_appends_the_repeat_columns(documents: dict[str, dict[str, Any]]) -> None:
    table = list(csv.DictReader(io.StringIO(leaderboard_csv(list(documents.values())))))
    committed = (ROOT / "reports" / "leaderboard.csv").read_text().splitlines()[0].split(",")
    assert list(table[0])[: len(committed)] == committed  # the K = 1 columns first, unchanged
    flaky = next(row for row in table if row["model"] == "ref/flaky")
    metrics = documents["ref_flaky"]["metrics"]
    assert (flaky["repeats"], flaky["flaky_count"], flaky["flaky_of"]) == (
        "5",
        str(metrics["flaky"]["count"]),
        str(metrics["flaky"]["of"]),
    )
    assert flaky["pass_any_k"] == repr(metrics["pass_any_k"]["rate"])
    last = next(row for row in table if row["model"] == "ref/first-tool")
    assert (last["pass_all_k"], last["next_p_holm"], last["indistinguishable_from_next"]) == ("", "", "")


def _doc(model: str, statuses: list[str], repeats: list[tuple[int, int]] | None = None) -> dict[str, Any]:
    results = []
    for i, status in enumerate(statuses):
        result: dict[str, Any] = {"id": f"c{i:02d}", "status": status}
        if repeats is not None:
            result["passed_repeats"], result["scored_repeats"] = repeats[i]
        results.append(result)
    return {"model": model, "repeats": 1 if repeats is None else 5, "results": results}


def test_neighbours_paired_and_holm_corrected() -> None:
    top = _doc("top", ["passed"] * 20)
    twin = _doc("twin", ["passed"] * 20)
    low = _doc("low", ["passed"] * 6 + ["failed"] * 14)
    pairs = neighbours([top, twin, low])
    assert [(p.upper, p.lower, p.cases) for p in pairs] == [("top", "twin", 20), ("twin", "low", 20)]
    assert (pairs[0].p, pairs[0].indistinguishable) == (1.0, True)
    # 14 discordant pairs all one way: McNemar p = 2 / 2^14; Holm doubles the smaller of the two p-values.
    assert pairs[1].p == 2 / 2**14 and pairs[1].p_holm == 4 / 2**14 and not pairs[1].indistinguishable
    # With repeats the sign-flip test on pass rates: 4 cases a little worse is not enough.
    steady = _doc("steady", ["passed"] * 20, [(5, 5)] * 20)
    wobbly = _doc("wobbly", ["passed"] * 16 + ["failed"] * 4, [(5, 5)] * 16 + [(4, 5)] * 4)
    (pair,) = neighbours([steady, wobbly])
    assert pair.p == 2 / 2**4 and pair.indistinguishable


def test_html_shows_each_repeat(documents: dict[str, dict[str, Any]]) -> None:
    suite = json.loads(MINI_SUITE.read_text())
    html = render_report(list(documents.values()), suite)
    flaky = documents["ref_flaky"]
    letters = {"passed": "p", "failed": "f", "errored": "e", "unrecorded": "u"}
    marks = {"passed": "✓", "failed": "✗", "errored": "!", "unrecorded": "?"}  # the aggregate mark, then the strip
    row = html.split('<th scope="row">ref/flaky</th>', 1)[1].split("</tr>", 1)[0]
    for result in flaky["results"]:
        strip = "".join(letters[s] for s in result["repeat_statuses"])
        cell = f'<td class="{letters[result["status"]]}" data-r="{strip}">{marks[result["status"]]}'
        assert cell + "".join(f'<i class="{c}"></i>' for c in strip) + "</td>" in row
    data = json.loads(html.split('<script type="application/json" id="case-data">', 1)[1].split("</script>", 1)[0])
    flaky_cells = data["cells"][data["models"].index("ref/flaky")]
    assert [len(cell["runs"]) for cell in flaky_cells] == [5] * len(SUITE.cases)
    assert flaky_cells[0]["runs"][2]["status"] == flaky["results"][0]["repeat_statuses"][2]
    assert "runs" not in data["cells"][data["models"].index("ref/first-tool")][0]
    assert html.count("sha256-") == 2 and "Repeats: " in html  # repeats.js is in, and allowed by the CSP
    assert '<button type="button">pass^k</button>' in html and 'class="ties"' in html


def test_html_of_single_runs_has_nothing_of_repeats() -> None:
    html = (ROOT / "reports" / "index.html").read_text()
    assert "data-r=" not in html and "Repeats: " not in html and html.count("sha256-") == 1


def test_rescore_prints_k_neighbours_and_power(
    repeat_cassettes: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "reports"
    args = ["rescore", str(repeat_cassettes), "--suite", str(MINI_SUITE), "--out", str(out), "--no-html"]
    assert main([*args, "--detect", "10"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert any("pass^k" in line for line in lines[:4])
    assert any(line.startswith("Paired test on shared cases, Holm-corrected, alpha 0.05: ") for line in lines)
    power = lines[lines.index(next(line for line in lines if line.startswith("Smallest Overall drop"))) :]
    assert power[0].endswith("and repeats for 10:")
    assert power[1].startswith("  ref/oracle (K=3): ") and "10 points needs" in power[1]
    assert power[2].startswith("  ref/flaky (K=5): ")
    assert power[3].startswith("  ref/first-tool (K=1): at most ")
    assert main([*args, "--detect", "0"]) == 2
    assert "--detect 0" in capsys.readouterr().err


def test_html_says_nothing_of_neighbours_for_one_repeated_model(documents: dict[str, dict[str, Any]]) -> None:
    # One model has no neighbour: neither "not distinguishable" nor "every model is distinguishable" applies.
    suite = json.loads(MINI_SUITE.read_text())
    assert 'class="ties"' not in render_report([documents["ref_flaky"]], suite)
    two = render_report([documents["ref_oracle"], documents["ref_first-tool"]], suite)
    assert 'class="ties"' in two and "distinguishable" in two


def test_the_repeated_boards_say_their_intervals_are_clustered_by_case(documents: dict[str, dict[str, Any]]) -> None:
    """With repeats the intervals are not plain Wilson intervals: the header says what they are (decision 120),
    and nothing claims plain Wilson for the pooled rates. K = 1 boards keep their words (the committed reports)."""
    clustered = (
        "Rates in % with 95% intervals clustered by case (Wilson's at the effective number of trials; plain Wilson "
        "for pass^k and Flaky, one value per case); `-` where nothing applies."
    )
    lines = leaderboard_md(list(documents.values()), SUITE).splitlines()
    assert lines[2] == f"Suite sha256 `{SUITE.sha256}`. {clustered}"
    assert lines[4] == (  # after "Made-up tool: lower is better. ..."
        "With repeats, rates are over every scored case-run; pass^k: cases that passed every repeat; Flaky: cases "
        "whose repeats disagree."
    )
    html = render_report(list(documents.values()), json.loads(MINI_SUITE.read_text()))
    assert "Rates are shares of scored case-runs (or calls) with their 95% interval clustered by case" in html
    assert "Wilson 95% interval;" not in html
    single = (ROOT / "reports" / "leaderboard.md").read_text().splitlines()[2]
    assert single.endswith(
        ". Rates in % with 95% Wilson intervals (Valid args and Made-up tool: clustered by case, Wilson's at the "
        "effective number of trials); `-` where nothing applies."
    )  # calls cluster by case at every K (METHOD.md#clustered-interval-rule)
    assert (
        "with their Wilson 95% interval (for calls clustered by case: Wilson's at the effective number of "
        "trials); a dash" in (ROOT / "reports" / "index.html").read_text()
    )
