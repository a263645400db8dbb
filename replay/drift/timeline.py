"""A model's history as a timeline: Overall with its 95% interval per dated run, where the model
behind the name changed (its recorded identity), and the change point of the drift test. Computed
from results.json documents of runs (those with ``run``, docs/FORMATS.md "Histories"); the HTML
report draws it (``replay.html._timeline``).

The change point is ``scorer.drift.history.analyse`` over the same runs, the very call
``lobstack-eval drift`` makes on them (read by ``replay.drift.load.run_record``, as drift reads
them): one verdict, never a second rule (tests/test_drift_e2e.py checks that the marked runs
are drift's)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from replay.drift.load import run_record
from replay.results.read import read_results
from replay.results.typed import ResultsDocument
from scorer.drift.history import DriftReport, analyse
from scorer.drift.run_order import run_order
from scorer.errors import LobstackError, ResultsError


@dataclass(frozen=True)
class ChangePoint:
    """Where a model changed: between run ``last_before`` and run ``first_after`` (run ids), as
    ``drift`` says."""

    last_before: str
    first_after: str

    @classmethod
    def of(cls, report: DriftReport) -> ChangePoint | None:
        """The change point of a drift verdict (None: no change found)."""
        if report.status != "changed" or report.last_stable is None:
            return None
        runs = report.runs
        return cls(runs[report.last_stable].run_id, runs[report.last_stable + 1].run_id)


@dataclass(frozen=True)
class RunPoint:
    """One run of a model: its id, date, Overall (None when no case was scored) and interval, and
    the answers' recorded model names (the identity's ``model`` list)."""

    run_id: str
    date: str | None
    overall: float | None
    ci: tuple[float, float] | None
    scored: int
    answered_as: tuple[str, ...]
    identity_changed: bool  # drift names an identity change at this run


@dataclass(frozen=True)
class Timeline:
    """A model's runs in order (by date, then id), the drift test over them (``drift``; None when
    the runs cannot be tested: ``drift_error`` says why) and its change point (None: none found)."""

    model: str
    model_slug: str
    points: tuple[RunPoint, ...]
    change: ChangePoint | None
    drift: DriftReport | None = None
    drift_error: str | None = None


def _point(document: ResultsDocument, changed: frozenset[str]) -> RunPoint:
    run = document["run"]
    overall = document["metrics"]["overall"]
    ci = overall.get("ci")
    identity = run.get("identity") or {}
    return RunPoint(
        run_id=str(run["id"]),
        date=run.get("date"),
        overall=overall.get("rate"),
        ci=(float(ci[0]), float(ci[1])) if isinstance(ci, list) and len(ci) == 2 else None,
        scored=int(overall.get("of") or 0),
        answered_as=tuple(str(m) for m in identity.get("model") or ()),
        identity_changed=str(run["id"]) in changed,
    )


def timelines(documents: Mapping[Path, ResultsDocument]) -> list[Timeline]:
    """The timeline of every model (by slug) with at least two runs among ``documents`` (each
    results document by the file it was read from, ``read_history``), sorted by model name, each
    with the drift test over its runs and the change point it found. Documents without ``run``
    (plain recordings) are not runs and are left out."""
    by_model: dict[str, dict[Path, ResultsDocument]] = {}
    for path, document in documents.items():
        if isinstance(document.get("run"), dict):
            by_model.setdefault(str(document["model_slug"]), {})[path] = document
    found = []
    for slug, model_runs in by_model.items():
        if len(model_runs) < 2:
            continue
        # drift's own order (date, then id with its numbers compared as numbers) and its identity
        # changes: the chart and the verdict never disagree
        ordered = dict(sorted(model_runs.items(), key=lambda item: _run_order(item[1])))
        runs = list(ordered.values())
        report, error = drift_of(ordered)
        changed = frozenset(
            () if report is None else (c.after_run for c in report.identity_changes)
        )
        points = tuple(_point(d, changed) for d in runs)
        change = None if report is None else ChangePoint.of(report)
        found.append(Timeline(str(runs[-1]["model"]), slug, points, change, report, error))
    return sorted(found, key=lambda t: (t.model, t.model_slug))


def _run_order(document: ResultsDocument) -> tuple[str, Any]:
    run = document["run"]
    return run_order(run.get("date") or "", str(run["id"]))


def drift_of(runs: Mapping[Path, ResultsDocument]) -> tuple[DriftReport | None, str | None]:
    """``drift``'s verdict over one model's run documents (by the file each was read from), or why
    they cannot be tested (an undated run, two suite files...: the message ``drift`` would print,
    naming the files)."""
    try:
        return analyse([run_record(path, document) for path, document in runs.items()]), None
    except LobstackError as exc:
        return None, exc.message


def read_history(history_dir: Path) -> dict[Path, ResultsDocument]:
    """Every ``<history_dir>/<run-id>/<model-slug>/results.json`` (the report dirs of a history's
    runs, as the watch recipe writes them), read and checked, by path in path order; a ResultsError
    names the first that is not usable."""
    if not history_dir.is_dir():
        raise ResultsError(f"{history_dir}: no such history directory of report dirs")
    found = sorted(history_dir.glob("*/*/results.json"))
    if not found:
        raise ResultsError(
            f"{history_dir}: no runs (expected <run-id>/<model-slug>/results.json, rescore's "
            "report dir of each run)"
        )
    return {path: read_results(path).document for path in found}
