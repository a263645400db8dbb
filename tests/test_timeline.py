"""The HTML report's timeline (issue 31): for a model with a history, Overall with its interval per
run, a ring where the recorded identity changed, and drift's verdict on those runs with its
change point marked (the same test: tests/test_drift_e2e.py checks the marked runs are the ones
``drift`` names). Built from the committed history (cassettes/history/), rescored here."""

from __future__ import annotations

import json
import re
import shutil
from datetime import date, timedelta
from pathlib import Path
from typing import Any

import pytest

from lobstack_eval.main import main
from replay.drift.timeline import ChangePoint, read_history, timelines
from replay.html import render_report
from tests.conftest import ROOT

SUITE = ROOT / "evals" / "suite.json"
DAYS = [(date(2026, 10, 21) + timedelta(days=n)).isoformat() for n in range(20)]


@pytest.fixture
def history(scored_history: tuple[Path, Path]) -> Path:
    """The committed runs' report dirs, as the watch recipe writes them:
    <run-id>/<model-slug>/results.json (rescored once a session, conftest.py)."""
    return scored_history[0]


def suite_dict() -> dict[str, Any]:
    return json.loads(SUITE.read_text(encoding="utf-8"))


def test_a_timeline_per_model_with_its_runs_in_order(history: Path) -> None:
    found = timelines(read_history(history))
    assert [t.model for t in found] == ["ref/drifting", "ref/flaky"]
    drifting = found[0]
    assert [p.run_id for p in drifting.points] == DAYS
    assert [p.date for p in drifting.points] == DAYS
    # the identity changed once, at run 16 (ref/drifting-v1 -> v2), never for ref/flaky
    assert [p.run_id for p in drifting.points if p.identity_changed] == ["2026-11-05"]
    assert not any(p.identity_changed for p in found[1].points)
    assert drifting.change == ChangePoint("2026-11-04", "2026-11-05")  # drift's, run 15 -> 16
    assert found[1].change is None
    for point, day in zip(drifting.points, DAYS, strict=True):
        document = json.loads((history / day / "ref_drifting" / "results.json").read_text("utf-8"))
        assert point.overall == document["metrics"]["overall"]["rate"]
        assert list(point.ci or ()) == document["metrics"]["overall"]["ci"]


def test_plain_results_and_single_runs_have_no_timeline(history: Path) -> None:
    one_run = {
        p: json.loads(p.read_text("utf-8")) for p in (history / DAYS[0]).glob("*/results.json")
    }
    assert timelines(one_run) == []
    plain = json.loads((ROOT / "reports" / "ref_oracle" / "results.json").read_text("utf-8"))
    assert timelines({Path("a.json"): plain, Path("b.json"): plain}) == []
    page = render_report([plain], suite_dict())
    assert 'id="timeline"' not in page


def _section(page: str) -> str:
    match = re.search(r'<section id="timeline">(.*?)</section>', page, re.S)
    assert match, "no timeline section"
    return match.group(1)


def test_the_page_draws_each_timeline_with_drifts_verdict(history: Path) -> None:
    documents = read_history(history)
    latest = [d for d in documents.values() if d["run"]["id"] == DAYS[-1]]
    section = _section(render_report(latest, suite_dict(), timelines(documents)))
    assert section.count("<svg") == 2
    assert (
        "ref/drifting: drift: changed between run 2026-11-04 and run 2026-11-05; detected at run "
        in section  # a run whose id is its date is named once
    )
    assert "ref/flaky: drift: no change in 20 runs since 2026-10-21." in section
    assert section.count(">change<") == 1  # the dashed line's label, in ref/drifting's drawing only
    assert "<td>ref/drifting-v2 (changed)</td>" in section
    assert section.count("(changed)") == 1
    assert "<td>2026-10-21</td><td>2026-10-21</td>" in section
    # the same inputs, the same bytes
    assert render_report(latest, suite_dict(), timelines(documents)) == render_report(
        latest, suite_dict(), timelines(documents)
    )


def test_a_short_or_untestable_history_marks_nothing_and_says_why(history: Path) -> None:
    documents = read_history(history)
    short = {p: d for p, d in documents.items() if d["run"]["id"] in DAYS[:5]}
    latest = [d for d in short.values() if d["run"]["id"] == DAYS[4]]
    section = _section(render_report(latest, suite_dict(), timelines(short)))
    assert (
        "ref/flaky: drift: not tested yet: 5 runs since 2026-10-21; the test needs 11 runs"
        in section
    )
    assert ">change<" not in section
    bumped = {
        p: d | {"suite": d["suite"] | {"version": "9.9.9"}} if d["run"]["id"] == DAYS[-1] else d
        for p, d in documents.items()
    }
    drifting = timelines(bumped)[0]
    assert drifting.change is None and drifting.drift is None
    assert drifting.drift_error and "2 suite versions" in drifting.drift_error
    # the runs are named by the files read, under the history dir given
    assert f"9.9.9' ({history / DAYS[-1] / 'ref_drifting' / 'results.json'})" in (
        drifting.drift_error
    )
    section = _section(render_report(latest, suite_dict(), [drifting]))
    assert "ref/drifting: drift: not tested: a history holds one model on one suite file" in section


def test_report_history_option(
    history: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    latest = tmp_path / DAYS[-1]  # a copy: report writes index.html beside the results
    shutil.copytree(history / DAYS[-1], latest)
    assert main(["report", str(latest), "--suite", str(SUITE), "--history", str(history)]) == 0
    page = (latest / "index.html").read_text(encoding="utf-8")
    assert _section(page).count("<svg") == 2
    capsys.readouterr()
    assert main(["report", str(latest), "--suite", str(SUITE), "--history", str(latest)]) == 1
    err = capsys.readouterr().err
    assert f"error: {latest}: no runs (expected <run-id>/<model-slug>/results.json" in err
