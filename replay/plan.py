"""Which case-runs ``record`` should record: those missing, unrecorded under this suite, or errored
by transport.

With ``--repeats K`` every case has K case-runs; each is planned on its own, so ``--repeats 5``
after 3 were recorded records only repeats 4 and 5. The plan is repeat-major (every case's repeat 1,
then every case's repeat 2, ...), so an interrupted run leaves whole repeats behind rather than a
few cases with every repeat.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from recorder.manifest import MANIFEST
from recorder.manifest_read import read_manifest
from recorder.repeats import CaseRun, check_repeats, run_cassette_path
from recorder.slug import model_slug
from replay.case_replay import replay_case
from scorer.suite.model import Suite


def runs_to_record(
    cassettes: Path,
    model: str,
    suite: Suite,
    requested: Sequence[str] = (),
    rerecord: bool = False,
    repeats: int = 1,
) -> list[CaseRun]:
    """Case-runs to record for repeats 1..``repeats``, repeat-major, cases in suite order. Without
    ``rerecord``, a case-run is recorded only when its replay under ``suite`` is unrecorded
    (missing, or the suite now asks something never recorded), its cassette is corrupt, or it
    errored on a transport error; every answer already paid for is kept."""
    check_repeats(repeats)
    wanted = [case for case in suite.cases if not requested or case.id in set(requested)]
    every = [CaseRun(case.id, n) for n in range(1, repeats + 1) for case in wanted]
    model_dir = cassettes / model_slug(model)
    if rerecord or not (model_dir / MANIFEST).is_file():
        return every
    manifest = read_manifest(model_dir)
    if manifest.model != model or manifest.suite["name"] != suite.name:
        return every  # record() then explains the conflict
    cases = {case.id: case for case in wanted}
    todo = []
    for run in every:
        entry = manifest.entry(run.case_id, run.repeat)
        if entry is None or entry.record_again:
            todo.append(run)
            continue
        # A cassette that cannot be used (corrupt, or not matching run.json) replays as
        # unrecorded too.
        if (
            replay_case(suite, cases[run.case_id], manifest, model_dir, run.repeat).status
            == "unrecorded"
        ):
            todo.append(run)
    return todo


def cases_to_record(
    cassettes: Path, model: str, suite: Suite, requested: Sequence[str] = (), rerecord: bool = False
) -> list[str]:
    """Case ids to record for a single run (repeat 1), in suite order: ``runs_to_record`` with K
    = 1."""
    return [run.case_id for run in runs_to_record(cassettes, model, suite, requested, rerecord)]


def runs_without_cassette(
    cassettes: Path, model: str, suite: Suite, requested: Sequence[str] = (), repeats: int = 1
) -> list[CaseRun]:
    """Case-runs (repeats 1..``repeats``, repeat-major, cases in suite order) that have no recording
    at all: no run.json entry or no cassette file. This is pytest-recording's ``once`` at the
    grain of a case-run: a case-run that has a cassette is never recorded again."""
    check_repeats(repeats)
    only = set(requested)
    wanted = [case.id for case in suite.cases if not only or case.id in only]
    every = [CaseRun(case_id, n) for n in range(1, repeats + 1) for case_id in wanted]
    model_dir = cassettes / model_slug(model)
    if not (model_dir / MANIFEST).is_file():
        return every
    manifest = read_manifest(model_dir)
    return [
        run
        for run in every
        if manifest.entry(run.case_id, run.repeat) is None
        or not run_cassette_path(model_dir, run.case_id, run.repeat).is_file()
    ]
