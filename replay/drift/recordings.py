"""A history of recordings read for ``drift`` (issue 41): ``drift cassettes/history --model M``
scores each run's model dir in memory, every run at once through rescore's pool
(``replay.score_models.score_all``), and reads each results document as a dated run, as
``replay.drift.load`` reads a scored one. Nothing is written: ``rescore cassettes/history`` keeps
the reports.

A history of recordings is a dir whose folders are runs, each a cassettes dir of model dirs
(``<run-id>/<model-slug>/run.json``), as ``record --history`` writes it.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from recorder.manifest import MANIFEST
from recorder.slug import model_slug
from replay.drift.load import run_record
from replay.history_runs import run_dirs
from replay.score_models import score_all
from scorer.drift.history import RunRecord
from scorer.errors import ResultsError
from scorer.suite.model import Suite


def is_recordings(path: Path) -> bool:
    """True for a history of recordings that holds no scored run (no ``*/results.json`` or
    ``*/*/results.json``): drift scores it itself."""
    # the scored runs' check first: it stops at the first results.json, where listing the run
    # dirs reads all of them (10,000 runs: 2 s)
    return next(iter(path.glob("*/*/results.json")), None) is None and bool(run_dirs(path))


def recorded_runs(
    path: Path,
    model: str | None,
    suite: Suite,
    problem: Callable[[str], None],
    warn: Callable[[str], None],
    others: set[str],
) -> list[RunRecord]:
    """Every run of model ``model`` (all models when None) in the history of recordings ``path``,
    scored in memory; each model dir that cannot be scored is handed to ``problem`` and left out,
    each cassette that cannot be used to ``warn`` (its case is unrecorded in that run, as rescore
    scores it). The slugs of the other models go into ``others`` (folder names), for a mistyped
    --model."""
    slug = None if model is None else model_slug(model)
    dirs = []
    for run in run_dirs(path):
        for model_dir in sorted(p for p in run.iterdir() if (p / MANIFEST).is_file()):
            if slug is None or model_dir.name == slug:
                dirs.append(model_dir)
            else:
                others.add(model_dir.name)
    records = []
    for model_dir, report in zip(dirs, score_all(dirs, suite, summary=False), strict=True):
        if report.error:
            problem(f"{model_dir}: {report.error}")
            continue
        for unusable in report.unusable:
            warn(f"{unusable.line()} (unrecorded in this run)")
        try:
            records.append(run_record(model_dir / MANIFEST, report.results))
        except ResultsError as exc:
            problem(exc.message)
    return records
