"""Which cases ``record`` should record: those missing, unrecorded under this suite, or errored by transport."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from recorder.cassettes import cassette_path
from recorder.manifest import MANIFEST, read_manifest
from recorder.slug import model_slug
from replay.rescore import replay_case
from scorer.errors import CassetteError
from scorer.suite_model import Suite


def cases_to_record(
    cassettes: Path, model: str, suite: Suite, requested: Sequence[str] = (), rerecord: bool = False
) -> list[str]:
    """Case ids to record, in suite order. Without ``rerecord``, a case is recorded only when its replay under
    ``suite`` is unrecorded (missing, or the suite now asks something never recorded), its cassette is corrupt,
    or it errored on a transport error; every answer already paid for is kept."""
    wanted = [case for case in suite.cases if not requested or case.id in set(requested)]
    model_dir = cassettes / model_slug(model)
    if rerecord or not (model_dir / MANIFEST).is_file():
        return [case.id for case in wanted]
    manifest = read_manifest(model_dir)
    if manifest.model != model or manifest.suite["name"] != suite.name:
        return [case.id for case in wanted]  # record() then explains the conflict
    todo = []
    for case in wanted:
        entry = manifest.cases.get(case.id)
        if entry is None or entry.errored_by_transport:
            todo.append(case.id)
            continue
        try:
            outcome = replay_case(suite, case, manifest, model_dir)
        except CassetteError:
            todo.append(case.id)
            continue
        if outcome.status == "unrecorded":
            todo.append(case.id)
    return todo


def cases_without_cassette(cassettes: Path, model: str, suite: Suite, requested: Sequence[str] = ()) -> list[str]:
    """Case ids (in suite order) that have no recording at all: no run.json entry or no cassette file. This is
    pytest-recording's ``once`` at the grain of a case: a case that has a cassette is never recorded again."""
    only = set(requested)
    wanted = [case.id for case in suite.cases if not only or case.id in only]
    model_dir = cassettes / model_slug(model)
    if not (model_dir / MANIFEST).is_file():
        return wanted
    recorded = read_manifest(model_dir).cases
    return [c for c in wanted if c not in recorded or not cassette_path(model_dir, c).is_file()]
