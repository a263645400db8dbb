"""Partial models (rates over fewer scored cases than they have) say so next to Overall wherever
models are ranked or plotted, and are never on the Pareto front
(docs/METHOD.md#partial-models-marked). Read from the committed reports: ref/error-in-200 has 8
of 80 cases errored."""

from __future__ import annotations

import copy
import csv
import io
import json
import re

import pytest

from recorder.files import read_suite
from replay.html._report import render_report
from replay.html._view import plot_model
from replay.leaderboard.tables import leaderboard_csv, leaderboard_md
from replay.partial import Partial, partial
from replay.results.read import results_of
from scorer.errors import ResultsError
from scorer.suite.model import Suite
from tests.conftest import ROOT

REPORTS = ROOT / "reports"
DOCUMENTS = [
    json.loads(p.read_text(encoding="utf-8")) for p in sorted(REPORTS.glob("*/results.json"))
]
SUITE_DICT = json.loads((ROOT / "evals" / "suite.json").read_text(encoding="utf-8"))


TYPED = [results_of(d).summary for d in DOCUMENTS]


@pytest.fixture(scope="module")
def suite() -> Suite:
    """The suite, read when a test asks rather than at import: reading validates it with the
    scorer's checks, and a module that fails to import stops a mutation run before any test."""
    return read_suite(ROOT / "evals" / "suite.json")


def _doc(model: str) -> dict:
    return next(d for d in DOCUMENTS if d["model"] == model)


def _typed(model: str):
    return results_of(_doc(model)).summary


def test_partial_reads_the_counts_results_json_has() -> None:
    assert partial(_typed("ref/error-in-200")) == Partial(72, 80)
    assert partial(_typed("ref/oracle")) is None
    repeated = copy.deepcopy(_doc("ref/oracle"))
    repeated["case_runs"] = {"total": 240, "scored": 239, "errored": 1, "unrecorded": 0}
    # with repeats the rates rest on case-runs
    assert partial(results_of(repeated).summary) == Partial(239, 240)
    garbage = {**_doc("ref/oracle"), "cases": "garbage"}
    with pytest.raises(ResultsError, match="'cases'"):  # refused when read, never guessed at
        _ = results_of(garbage).summary


def test_markdown_marks_overall_and_names_the_partial_model(suite: Suite) -> None:
    md = leaderboard_md(TYPED, suite)
    row = next(line for line in md.splitlines() if line.startswith("| ref/error-in-200 |"))
    assert row.split(" | ")[1] == "100.0 [95-100] (72/80)"
    oracle = next(line for line in md.splitlines() if line.startswith("| ref/oracle |"))
    assert oracle.split(" | ")[1] == "100.0 [95-100]"
    assert "ref/error-in-200 72/80." in md.split("| Model |", 1)[0]


def test_a_board_of_complete_models_says_nothing_about_partial(suite: Suite) -> None:
    complete = [d for d in DOCUMENTS if partial(results_of(d).summary) is None]
    assert "Partial" not in leaderboard_md([results_of(d).summary for d in complete], suite)
    assert "(72/80)" not in render_report(complete, SUITE_DICT)


def test_csv_has_a_partial_column() -> None:
    rows = list(csv.DictReader(io.StringIO(leaderboard_csv(TYPED))))
    assert {r["model"]: r["partial"] for r in rows if r["partial"] == "true"} == {
        "ref/error-in-200": "true"
    }
    assert all(r["partial"] == "false" for r in rows if r["model"] != "ref/error-in-200")


def test_html_marks_overall_plots_and_keeps_it_off_the_front() -> None:
    html = render_report(DOCUMENTS, SUITE_DICT)
    row = re.search(r'<tr data-model="ref/error-in-200">(.*?)</tr>', html, re.S)
    assert row is not None and '<span class="partial"' in row.group(1) and "(72/80)" in row.group(1)
    assert html.count('<span class="partial"') == 1
    assert "ref/error-in-200 72/80." in html
    assert "partial (not on the front)" in html  # the legend of the trade-off plots
    assert plot_model(_typed("ref/error-in-200")).name == "ref/error-in-200 (72/80)"
    assert plot_model(_typed("ref/error-in-200")).partial
