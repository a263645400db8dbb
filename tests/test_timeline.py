"""The HTML report's timeline (issue 31): for a model with a history, Overall with its interval per run, a ring
where the recorded identity changed, and the change point marked when one is given (``drift`` gives it). Built
from the committed history (cassettes/history/), rescored here."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from lobstack_eval.main import main
from replay.html import render_report
from replay.rescore import rescore
from replay.timeline import ChangePoint, read_history, timelines
from tests.conftest import ROOT

SUITE = ROOT / "evals" / "suite.json"
DAYS = [f"2026-10-{day}" for day in range(21, 29)]


@pytest.fixture(scope="module")
def history(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The committed runs' report dirs, as the watch recipe writes them: <run-id>/<model-slug>/results.json."""
    reports = tmp_path_factory.mktemp("timeline") / "history"
    for day in DAYS:
        rescore(ROOT / "cassettes" / "history" / day, SUITE, reports / day, html=False)
    return reports


def suite_dict() -> dict[str, Any]:
    return json.loads(SUITE.read_text(encoding="utf-8"))


def test_a_timeline_per_model_with_its_runs_in_order(history: Path) -> None:
    found = timelines(read_history(history))
    assert [t.model for t in found] == ["ref/drifting", "ref/flaky"]
    drifting = found[0]
    assert [p.run_id for p in drifting.points] == DAYS
    assert [p.date for p in drifting.points] == DAYS
    # the identity changed once, at run 6 (ref/drifting-v1 -> v2), never for ref/flaky
    assert [p.run_id for p in drifting.points if p.identity_changed] == ["2026-10-26"]
    assert not any(p.identity_changed for p in found[1].points)
    assert drifting.change is None  # no change point until drift gives one
    for point, day in zip(drifting.points, DAYS, strict=True):
        document = json.loads((history / day / "ref_drifting" / "results.json").read_text("utf-8"))
        assert point.overall == document["metrics"]["overall"]["rate"]
        assert list(point.ci or ()) == document["metrics"]["overall"]["ci"]


def test_plain_results_and_single_runs_have_no_timeline(history: Path) -> None:
    one_run = [json.loads(p.read_text("utf-8")) for p in (history / DAYS[0]).glob("*/results.json")]
    assert timelines(one_run) == []
    plain = json.loads((ROOT / "reports" / "ref_oracle" / "results.json").read_text("utf-8"))
    assert timelines([plain, plain]) == []
    page = render_report([plain], suite_dict())
    assert 'id="timeline"' not in page


def _section(page: str) -> str:
    match = re.search(r'<section id="timeline">(.*?)</section>', page, re.S)
    assert match, "no timeline section"
    return match.group(1)


def test_the_page_draws_each_timeline_and_marks_the_change_point_given(history: Path) -> None:
    documents = read_history(history)
    latest = [d for d in documents if d["run"]["id"] == DAYS[-1]]
    unmarked = _section(render_report(latest, suite_dict(), timelines(documents)))
    assert unmarked.count("<svg") == 2 and unmarked.count("no change point marked") == 2
    assert ">change<" not in unmarked
    change = {"ref_drifting": ChangePoint("2026-10-25", "2026-10-26")}
    marked = _section(render_report(latest, suite_dict(), timelines(documents, change)))
    assert "ref/drifting: changed between run 2026-10-25 and run 2026-10-26." in marked
    assert marked.count(">change<") == 1  # the dashed line's label, in ref/drifting's drawing only
    assert "<td>ref/drifting-v2 (changed)</td>" in marked
    assert marked.count("(changed)") == 1
    assert "<td>2026-10-21</td><td>2026-10-21</td>" in marked
    # the same inputs, the same bytes
    assert render_report(latest, suite_dict(), timelines(documents, change)) == render_report(
        latest, suite_dict(), timelines(documents, change)
    )


def test_report_history_option(history: Path, capsys: pytest.CaptureFixture[str]) -> None:
    latest = history / DAYS[-1]
    assert main(["report", str(latest), "--suite", str(SUITE), "--history", str(history)]) == 0
    page = (latest / "index.html").read_text(encoding="utf-8")
    assert _section(page).count("<svg") == 2
    capsys.readouterr()
    assert main(["report", str(latest), "--suite", str(SUITE), "--history", str(latest)]) == 1
    err = capsys.readouterr().err
    assert f"error: {latest}: no runs (expected <run-id>/<model-slug>/results.json" in err
