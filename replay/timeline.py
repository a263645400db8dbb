"""A model's history as a timeline: Overall with its 95% interval per dated run, where the model behind the name
changed (its recorded identity), and the change point the ``drift`` command found (an input here: none until it
is given). Computed from results.json documents of runs (those with ``run``, docs/FORMATS.md "Histories"); the
HTML report draws it (``replay.html._timeline``)."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from replay.results_file import read_results
from scorer.errors import ResultsError


@dataclass(frozen=True)
class ChangePoint:
    """Where a model changed: between run ``last_before`` and run ``first_after`` (run ids), as ``drift`` says."""

    last_before: str
    first_after: str


@dataclass(frozen=True)
class RunPoint:
    """One run of a model: its id, date, Overall (None when no case was scored) and interval, and the answers'
    recorded model names (the identity's ``model`` list)."""

    run_id: str
    date: str | None
    overall: float | None
    ci: tuple[float, float] | None
    scored: int
    answered_as: tuple[str, ...]
    identity_changed: bool  # the recorded identity differs from the previous run's


@dataclass(frozen=True)
class Timeline:
    """A model's runs in order (by date, then id) and its change point (None: none given)."""

    model: str
    model_slug: str
    points: tuple[RunPoint, ...]
    change: ChangePoint | None


def _point(document: dict[str, Any], previous: dict[str, Any] | None) -> RunPoint:
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
        identity_changed=previous is not None and identity != (previous.get("identity") or {}),
    )


def timelines(
    documents: Iterable[dict[str, Any]], changes: Mapping[str, ChangePoint] | None = None
) -> list[Timeline]:
    """The timeline of every model (by slug) with at least two runs among ``documents``, sorted by model name.
    Documents without ``run`` (plain recordings) are not runs and are left out. ``changes`` maps a model slug to
    its change point (the ``drift`` command's finding); a model without one has none marked."""
    by_model: dict[str, list[dict[str, Any]]] = {}
    for document in documents:
        if isinstance(document.get("run"), dict):
            by_model.setdefault(str(document["model_slug"]), []).append(document)
    found = []
    for slug, runs in by_model.items():
        if len(runs) < 2:
            continue
        runs.sort(key=lambda d: (d["run"].get("date") or "", str(d["run"]["id"])))
        points = tuple(_point(d, runs[i - 1]["run"] if i else None) for i, d in enumerate(runs))
        change = (changes or {}).get(slug)
        found.append(Timeline(str(runs[-1]["model"]), slug, points, change))
    return sorted(found, key=lambda t: (t.model, t.model_slug))


def read_history(history_dir: Path) -> list[dict[str, Any]]:
    """Every ``<history_dir>/<run-id>/<model-slug>/results.json`` (the report dirs of a history's runs, as the
    watch recipe writes them), read and checked; a ResultsError names the first that is not usable."""
    if not history_dir.is_dir():
        raise ResultsError(f"{history_dir}: no such history directory of report dirs")
    found = sorted(history_dir.glob("*/*/results.json"))
    if not found:
        raise ResultsError(
            f"{history_dir}: no runs (expected <run-id>/<model-slug>/results.json, rescore's report dir of "
            "each run)"
        )
    return [read_results(path) for path in found]
