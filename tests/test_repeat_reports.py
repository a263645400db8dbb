"""What the reports show with repeats: K, pass^k and flaky in every leaderboard, the tiers, each
case's repeats in the HTML grid and drill-down, power behind rescore's --power; and nothing of
the repeats for K = 1."""

from __future__ import annotations

import csv
import io
import json
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from lobstack_eval.main import main
from recorder.files import read_suite
from replay.html import render_report
from replay.leaderboard.tables import leaderboard_csv, leaderboard_md, ordered
from replay.rescore import rescore_model
from replay.results.read import results_of
from replay.ties import letter_groups, tiers
from scorer.summarize import empty
from scorer.summary import CaseTally, ModelSummary
from tests.conftest import MINI_SUITE, ROOT

SUITE = read_suite(MINI_SUITE)


@pytest.fixture(scope="module")
def documents(repeat_cassettes: Path) -> dict[str, dict[str, Any]]:
    return {
        slug: rescore_model(repeat_cassettes / slug, SUITE)
        for slug in ("ref_oracle", "ref_flaky", "ref_first-tool")
    }


def _typed(documents: dict[str, dict[str, Any]]) -> list[ModelSummary]:
    return [results_of(d).summary for d in documents.values()]


def test_markdown_shows_k_pass_k_flaky_and_tiers(documents: dict[str, dict[str, Any]]) -> None:
    text = leaderboard_md(_typed(documents), SUITE)
    header = next(line for line in text.splitlines() if line.startswith("| Model"))
    assert header.split(" | ")[:5] == ["| Model", "Overall", "Repeats", "pass^k", "Flaky"]
    assert header.endswith("| Tier |")
    rows = {
        line.split(" | ")[0][2:]: line.split(" | ")
        for line in text.splitlines()
        if line.startswith("| ref/")
    }
    assert list(rows) == ["ref/oracle", "ref/flaky", "ref/first-tool"]
    flaky = documents["ref_flaky"]["metrics"]
    assert rows["ref/flaky"][2] == "5"
    assert rows["ref/flaky"][3].startswith(f"{flaky['pass_all_k']['rate']:.1f} [")
    assert rows["ref/flaky"][4].startswith(f"{flaky['flaky']['rate']:.1f} [")
    assert rows["ref/first-tool"][2:5] == ["1", "-", "-"]  # a single run beside repeated ones
    letters = tiers(ordered(_typed(documents))).letters
    assert [row[-1] for row in rows.values()] == [f"{letters[m]} |" for m in rows] and letters[
        "ref/oracle"
    ] == "a"
    assert (
        "Tier: a shared letter = not told apart (all pairs paired-tested, Holm, 5%)."
        in text.splitlines()
    )


def test_csv_appends_the_repeat_columns(documents: dict[str, dict[str, Any]]) -> None:
    table = list(csv.DictReader(io.StringIO(leaderboard_csv(_typed(documents)))))
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
    assert (last["pass_all_k"], last["tier"]) == (
        "",
        tiers(ordered(_typed(documents))).letters["ref/first-tool"],
    )
    assert "next_p_holm" not in table[0]  # the adjacent-pair relation is gone


def _doc(
    model: str, statuses: list[str], repeats: list[tuple[int, int]] | None = None
) -> ModelSummary:
    """A model's summary with only what the tiers read: its repeats and per-case tallies."""
    tallies = tuple(
        CaseTally(
            f"c{i:02d}",
            *(repeats[i] if repeats else (int(s == "passed"), int(s in ("passed", "failed")))),
        )
        for i, s in enumerate(statuses)
    )
    return replace(empty(model, model), repeats=1 if repeats is None else 5, tallies=tallies)


def test_tiers_compare_every_pair_with_holm() -> None:
    top = _doc("top", ["passed"] * 20)
    twin = _doc("twin", ["passed"] * 20)
    low = _doc("low", ["passed"] * 6 + ["failed"] * 14)
    board = tiers([top, twin, low])
    # top-low and twin-low: 14 discordant pairs all one way, McNemar p = 2 / 2^14, times 3 (Holm
    # over 3 pairs).
    assert board.tests == 3
    assert board.separated == {("top", "low"), ("twin", "low")}
    assert board.letters == {"top": "a", "twin": "a", "low": "b"}
    assert board.groups == (("a", ("top", "twin")), ("b", ("low",)))
    # With repeats the sign-flip test on pass rates: 4 cases a little worse (p = 2 / 2^4) is
    # not enough.
    steady = _doc("steady", ["passed"] * 20, [(5, 5)] * 20)
    wobbly = _doc("wobbly", ["passed"] * 16 + ["failed"] * 4, [(5, 5)] * 16 + [(4, 5)] * 4)
    assert tiers([steady, wobbly]).letters == {"steady": "a", "wobbly": "a"}


def test_a_model_with_no_scores_is_left_out_of_the_tiers() -> None:
    """It gets no letter and does not enter the family (which would weaken every other test)."""
    top = _doc("top", ["passed"] * 20)
    low = _doc("low", ["failed"] * 20)
    ghost = _doc("ghost", ["errored"] * 20)
    board = tiers([top, low, ghost])
    assert board.tests == 1
    assert board.letters == {"top": "a", "low": "b", "ghost": ""}


def test_tiers_are_a_compact_letter_display_of_non_adjacent_pairs() -> None:
    """A beats C but neither is told apart from B: A 'a', B 'ab', C 'b' (the adjacent-pair chain
    said A ≈ B ≈ C). Two models share a letter exactly when they are not separated."""
    assert letter_groups(["A", "B", "C"], {("A", "C")}) == [["A", "B"], ["B", "C"]]
    names = ["m1", "m2", "m3", "m4", "m5"]
    separated = {("m1", "m3"), ("m1", "m4"), ("m1", "m5"), ("m2", "m5"), ("m3", "m5")}
    groups = letter_groups(names, separated)
    for i, x in enumerate(names):
        for y in names[i + 1 :]:
            together = any(x in g and y in g for g in groups)
            assert together == ((x, y) not in separated), (x, y)
    assert groups == [["m1", "m2"], ["m2", "m3", "m4"], ["m4", "m5"]]


def test_html_shows_each_repeat(documents: dict[str, dict[str, Any]]) -> None:
    suite = json.loads(MINI_SUITE.read_text())
    html = render_report(list(documents.values()), suite)
    flaky = documents["ref_flaky"]
    letters = {"passed": "p", "failed": "f", "errored": "e", "unrecorded": "u"}
    marks = {
        "passed": "✓",
        "failed": "✗",
        "errored": "!",
        "unrecorded": "?",
    }  # the aggregate mark, then the strip
    row = html.split('<th scope="row">ref/flaky</th>', 1)[1].split("</tr>", 1)[0]
    for result in flaky["results"]:
        strip = "".join(letters[s] for s in result["repeat_statuses"])
        cell = f'<td class="{letters[result["status"]]}" data-r="{strip}">{marks[result["status"]]}'
        assert cell + "".join(f'<i class="{c}"></i>' for c in strip) + "</td>" in row
    data = json.loads(
        html.split('<script type="application/json" id="case-data">', 1)[1].split("</script>", 1)[0]
    )
    flaky_cells = data["cells"][data["models"].index("ref/flaky")]
    assert [len(cell["runs"]) for cell in flaky_cells] == [5] * len(SUITE.cases)
    assert flaky_cells[0]["runs"][2]["status"] == flaky["results"][0]["repeat_statuses"][2]
    assert "runs" not in data["cells"][data["models"].index("ref/first-tool")][0]
    assert (
        html.count("sha256-") == 2 and "Repeats: " in html
    )  # repeats.js is in, and allowed by the CSP
    assert '<button type="button">pass^k</button>' in html and 'class="tiers"' in html


def test_html_of_single_runs_has_nothing_of_repeats() -> None:
    html = (ROOT / "reports" / "index.html").read_text()
    assert "data-r=" not in html and "Repeats: " not in html and html.count("sha256-") == 1


def test_rescore_prints_k_tiers_and_power_only_when_asked(
    repeat_cassettes: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "reports"
    args = [
        "rescore",
        str(repeat_cassettes),
        "--suite",
        str(MINI_SUITE),
        "--out",
        str(out),
        "--no-html",
    ]
    assert main([*args, "--detect", "10"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert any("pass^k" in line for line in lines[:4])
    assert (
        lines[-1] == "Tier: a shared letter = not told apart (all pairs paired-tested, Holm, 5%)."
    )
    assert not any("power" in line.lower() for line in lines)
    assert main([*args, "--detect", "10", "--power"]) == 0
    lines = capsys.readouterr().out.splitlines()
    power = lines[lines.index(next(line for line in lines if line.startswith("Re-run power"))) :]
    assert power[1].split() == [
        "Model",
        "K",
        "Drop",
        "seen",
        "(points)",
        "Repeats",
        "for",
        "10",
        "points",
    ]
    assert power[2].split()[:3] == ["ref/oracle", "3", "about"]
    assert power[3].split()[:3] == ["ref/flaky", "5", "about"]
    assert power[4].split()[:4] == [
        "ref/first-tool",
        "1",
        "none",
        "(Overall",
    ]  # 0%: nothing to drop
    assert power[5].startswith("Assumes the drop is spread over every case")
    assert main([*args, "--detect", "0"]) == 2
    expected = "error: --detect: expected points between 0 and 100, got '0'\n"
    assert capsys.readouterr().err == expected


def test_html_shows_tiers_only_with_two_models(documents: dict[str, dict[str, Any]]) -> None:
    suite = json.loads(MINI_SUITE.read_text())
    one = render_report([documents["ref_flaky"]], suite)
    assert 'class="tiers"' not in one and 'class="power"' in one
    two = render_report([documents["ref_oracle"], documents["ref_first-tool"]], suite)
    assert '<p class="tiers">Tiers on Overall' in two
    assert "<strong>a</strong>: ref/oracle; <strong>b</strong>: ref/first-tool." in two


def test_the_repeated_boards_say_their_intervals_are_clustered_by_case(
    documents: dict[str, dict[str, Any]],
) -> None:
    """With repeats the intervals are not plain Wilson intervals: the header says what they are
    (decision 120), and nothing claims plain Wilson for the pooled rates. K = 1 boards keep their
    words (the committed reports)."""
    clustered = (
        "Rates in % with 95% intervals clustered by case (Wilson's at the effective number of "
        "trials; plain Wilson for pass^k and Flaky, one value per case); `-` where nothing applies."
    )
    lines = leaderboard_md(_typed(documents), SUITE).splitlines()
    assert lines[2] == f"Suite sha256 `{SUITE.sha256}`. {clustered}"
    assert lines[4] == (  # after "Made-up tool: lower is better. ..."
        "With repeats, rates are over every scored case-run; pass^k: cases that passed every "
        "repeat; Flaky: cases whose repeats disagree."
    )
    html = render_report(list(documents.values()), json.loads(MINI_SUITE.read_text()))
    assert (
        "Rates are shares of scored case-runs (or calls) with their 95% interval clustered by case"
        in html
    )
    assert "Wilson 95% interval;" not in html
    single = (ROOT / "reports" / "leaderboard.md").read_text().splitlines()[2]
    assert single.endswith(
        ". Rates in % with 95% Wilson intervals (Valid args and Made-up tool: clustered by case, "
        "Wilson's at the effective number of trials); `-` where nothing applies."
    )  # calls cluster by case at every K (METHOD.md#clustered-interval-rule)
    assert (
        "with their Wilson 95% interval (for calls clustered by case: Wilson's at the effective "
        "number of trials); a dash" in (ROOT / "reports" / "index.html").read_text()
    )
