"""A history's bookkeeping (scorer/drift/history.py, replay/drift/load.py): runs ordered by recorded
date then id, errored cases left out of their run, the moved-case rule, identity changes, and
real results.json files (rescore's output, with the ``run`` object added) read as runs."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from lobstack_eval.main import main
from replay.drift.load import run_record
from scorer.drift.history import (
    Identity,
    MovedCase,
    RunRecord,
    analyse,
    identity_changes,
    tally_cases,
)
from scorer.errors import HistoryError
from scorer.summary import CaseTally
from tests.conftest import ROOT
from tests.drifthistory import results_doc


def _run(run_id: str, date: str, cases: dict[str, tuple[int, int]], fp: str = "a") -> RunRecord:
    tallies = tuple(CaseTally(c, p, n) for c, (p, n) in cases.items())
    return RunRecord(
        f"{run_id}.json", run_id, date, "m", "s 1.0.0", Identity(system_fingerprint=(fp,)), tallies
    )


def test_runs_are_ordered_by_date_then_id_and_errored_cases_are_left_out() -> None:
    runs = [
        _run("b", "2026-01-02", {"x": (1, 1), "y": (0, 0)}),  # y errored: left out of Overall
        _run("a", "2026-01-02", {"x": (0, 1), "y": (1, 1)}),
        _run("z", "2026-01-01", {"x": (1, 1), "y": (1, 1)}),
    ]
    report = analyse(runs)
    assert [(r.run_id, r.overall) for r in report.runs] == [("z", 100.0), ("a", 50.0), ("b", 100.0)]
    assert report.status == "baseline"


def test_a_runs_cases_are_tallied_in_first_seen_order_counting_only_scored_repeats() -> None:
    repeats = [("y", "failed"), ("x", "passed"), ("y", "errored"), ("x", "failed"), ("y", "passed")]
    assert tally_cases([*repeats, ("z", "unrecorded")]) == (
        CaseTally("y", 1, 2),
        CaseTally("x", 1, 2),
        CaseTally("z", 0, 0),
    )


def test_a_run_id_twice_is_an_error() -> None:
    with pytest.raises(HistoryError, match=r"run id 'a' appears twice: a\.json and a\.json"):
        analyse([_run("a", "2026-01-01", {}), _run("a", "2026-01-02", {})])


def test_identity_changes_between_consecutive_runs_only() -> None:
    runs = [
        _run("1", "2026-01-01", {}, "a"),
        _run("2", "2026-01-02", {}, "a"),
        _run("3", "2026-01-03", {}, "b"),
    ]
    runs.insert(2, RunRecord("n", "2b", "2026-01-02", "m", "s", None, ()))  # no identity: skipped
    (change,) = identity_changes(sorted(runs, key=lambda r: (r.date, r.run_id)))
    assert (change.field, change.before_run, change.after_run, change.old, change.new) == (
        "system_fingerprint", "2", "3", ("a",), ("b",)
    )  # fmt: skip


def test_cases_moved_by_half_or_from_never_failing() -> None:
    """20 stable runs, then: case s (always passed) fails once in 3, case h (passed 10 of 20) fails
    all 3, case f (passed 16 of 20) passes 2 of 3: s and h moved, f did not; every other case
    breaks to raise the alarm."""
    runs = []
    for n in range(23):
        after = n >= 20
        cases = {f"c{i}": (0 if after else 1, 1) for i in range(20)}
        cases["s"] = (0 if n == 21 else 1, 1)
        cases["h"] = (0 if after else n % 2, 1)
        cases["f"] = (1 if (after and n < 22) or (not after and n % 5) else 0, 1)
        runs.append(_run(f"r{n:02d}", f"2026-01-{n + 1:02d}", cases))
    report = analyse(runs)
    assert report.status == "changed" and report.last_stable == 19
    # the 20 broken cases (drop 1) in id order, then h (drop 0.5), then s (1/3)
    broken = tuple(MovedCase(c, 20, 20, 0, 3) for c in sorted(f"c{i}" for i in range(20)))
    assert report.moved == (*broken, MovedCase("h", 10, 20, 0, 3), MovedCase("s", 20, 20, 2, 3))


def test_repeats_count_passed_and_scored_trials() -> None:
    doc = results_doc(
        "m", "r", "2026-01-01", {"a": ["passed", "errored", "failed"], "b": ["passed"] * 3}
    )
    run = run_record(Path("x.json"), doc)
    assert run.cases == (CaseTally("a", 1, 2), CaseTally("b", 3, 3))


def test_real_results_files_with_a_run_object_are_runs(tmp_path: Path, capsys) -> None:
    """rescore's own results.json (ref/noisy, with answers, attempts and metrics), 12 copies
    dated a day apart."""
    source = json.loads(
        (ROOT / "reports" / "ref_noisy" / "results.json").read_text(encoding="utf-8")
    )
    for n in range(1, 13):
        doc = source | {"run": {"id": f"n{n}", "date": f"2026-03-{n:02d}", "recorded_at": None}}
        (tmp_path / f"n{n}").mkdir()
        (tmp_path / f"n{n}" / "results.json").write_text(json.dumps(doc), encoding="utf-8")
    shutil.copytree(tmp_path, tmp_path.parent / "copy", dirs_exist_ok=True)
    assert main(["drift", str(tmp_path)]) == 0
    out = capsys.readouterr().out
    assert out.splitlines()[0] == "drift: no change in 12 runs since 2026-03-01"
    scored = [r for r in source["results"] if r["status"] in ("passed", "failed")]
    overall = 100 * sum(r["status"] == "passed" for r in scored) / len(scored)
    assert f"Overall: {overall:.1f}% a run on average" in out
