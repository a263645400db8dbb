"""A results document's summary fields read once into the typed ``ModelSummary`` the boards read.

results.json (docs/FORMATS.md) is checked by ``replay.results.check.results_problem`` (once:
``replay.results.read`` reads a document's summary and case entries after one check); this
reads its summary fields strictly: a field of the wrong type is a ``ResultsError`` naming it,
never a guess. The per-case tallies (what the tiers and the power figures pair on) come from the
case entries: ``passed_repeats`` of ``scored_repeats`` with repeats, else the one status. A run of
one sample per case has no repeat metrics, ``case_runs`` or pass^k curve in its file, so its
summary has none (``case_runs`` is ``cases``).
"""

from __future__ import annotations

from collections.abc import Mapping
from decimal import Decimal
from typing import Any

from replay.results.cases import CaseEntry
from scorer.errors import ResultsError
from scorer.metrics import METRICS, REPEAT_METRICS
from scorer.status import is_scored
from scorer.summary import CaseTally, Counts, CurvePoint, ModelSummary, Rate
from scorer.wire.headers import price
from scorer.wire.settings import wire_from_json


def _field(document: Mapping[str, Any], name: str, where: str) -> Any:
    if name not in document:
        raise ResultsError(f"missing field '{where}{name}'")
    return document[name]


def _int(value: Any, where: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise ResultsError(f"field '{where}' must be a whole number, got {value!r}")
    return value


def _number(value: Any, where: str) -> float | None:
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise ResultsError(f"field '{where}' must be a number or null, got {value!r}")
    return float(value) if isinstance(value, int) else value


def _rate(value: Any, where: str) -> Rate:
    if not isinstance(value, dict):
        raise ResultsError(f"field '{where}' must be an object")
    ci = value.get("ci")
    bounds = [_number(b, f"{where}.ci") for b in ci] if isinstance(ci, list | tuple) else [None]
    if ci is not None and (len(bounds) != 2 or None in bounds):
        raise ResultsError(f"field '{where}.ci' must be [low, high] or null")
    return Rate(
        count=_int(_field(value, "count", f"{where}."), f"{where}.count"),
        of=_int(_field(value, "of", f"{where}."), f"{where}.of"),
        rate=_number(_field(value, "rate", f"{where}."), f"{where}.rate"),
        ci=None if ci is None else (float(bounds[0] or 0.0), float(bounds[1] or 0.0)),
    )


def _counts(value: Any, where: str) -> Counts:
    if not isinstance(value, dict):
        raise ResultsError(f"missing object field '{where}'")
    total, scored, errored, unrecorded = (
        _int(_field(value, key, f"{where}."), f"{where}.{key}")
        for key in ("total", "scored", "errored", "unrecorded")
    )
    return Counts(total, scored, errored, unrecorded)


def _tallies(results: list[CaseEntry]) -> tuple[CaseTally, ...]:
    # free JSON: the case entries as written (``check`` vouched for ids and statuses)
    """Each case's (passed, scored) case-runs, in the file's order."""
    found = []
    for entry in results:
        if "scored_repeats" in entry:
            passed = _int(entry.get("passed_repeats"), f"results.{entry['id']}.passed_repeats")
            scored = _int(entry["scored_repeats"], f"results.{entry['id']}.scored_repeats")
        else:
            status = entry["status"]
            passed, scored = int(status == "passed"), int(is_scored(status))
        found.append(CaseTally(entry["id"], passed, scored, *_spent(entry)))
    return tuple(found)


def _spent(entry: CaseEntry) -> tuple[float, tuple[float, ...]]:
    """What a case's answered attempts cost (the prices known, summed exactly as the rows sum them)
    and their wall times, over its repeats (``runs``; else the entry's own attempts)."""
    runs = entry.get("runs") if isinstance(entry.get("runs"), list) else None
    total, walls = Decimal(0), []
    for run in runs or [entry]:
        attempts = run.get("attempts") if isinstance(run, dict) else None
        # A hand-edited file's odd attempts: results_problem judges them; here they cost nothing.
        for attempt in attempts if isinstance(attempts, list) else []:
            if not isinstance(attempt, dict) or attempt.get("status") is None:
                continue
            total += _price(attempt.get("cost_usd"))
            wall = attempt.get("wall_ms")
            if isinstance(wall, int | float) and not isinstance(wall, bool):
                walls.append(float(wall))
    return float(total), tuple(walls)


def _price(value: Any) -> Decimal:
    """An attempt's price as results.json holds it (text; a number in a hand-written file), 0 when
    it is none: the model's ``cost_usd`` says whether the run is priced."""
    if isinstance(value, bool) or not isinstance(value, str | int | float):
        return Decimal(0)
    return price(str(value)) or Decimal(0)


def _curve(value: Any) -> tuple[CurvePoint, ...]:
    if not isinstance(value, list):
        raise ResultsError("field 'pass_k_curve' must be a list")
    points = []
    for i, point in enumerate(value):
        where = f"pass_k_curve[{i}]"
        if not isinstance(point, dict):
            raise ResultsError(f"field '{where}' must be an object")
        k = _int(point.get("k"), f"{where}.k")
        points.append(
            CurvePoint(
                k,
                _number(point.get("pass_all"), f"{where}.pass_all"),
                _number(point.get("pass_any"), f"{where}.pass_any"),
            )
        )
    return tuple(points)


def summary_fields(document: Mapping[str, Any]) -> ModelSummary:
    """The ``ModelSummary`` of a document ``results_problem`` passed: ``ResultsError`` for a
    summary field of the wrong type."""
    repeats = int(document.get("repeats", 1))
    metrics_in = document["metrics"]
    names = [*METRICS, *(n for n in REPEAT_METRICS if n in metrics_in)]
    cases = _counts(document.get("cases"), "cases")
    routed = document.get("routed_models") or {}
    groups = document.get("groups") or {}
    if not isinstance(routed, dict) or not isinstance(groups, dict):
        raise ResultsError("fields 'routed_models' and 'groups' must be objects")
    ignored = document.get("temperature_ignored", False)
    if ignored is not None and not isinstance(ignored, bool):
        raise ResultsError("field 'temperature_ignored' must be true, false or null")
    return ModelSummary(
        model=document["model"],
        model_slug=str(document.get("model_slug", "")),
        repeats=repeats,
        temperature_ignored=ignored,
        routed_models={str(k): _int(v, f"routed_models.{k}") for k, v in routed.items()},
        cases=cases,
        case_runs=_counts(document["case_runs"], "case_runs") if "case_runs" in document else cases,
        metrics={n: _rate(metrics_in[n], f"metrics.{n}") for n in names},
        groups={str(g): _rate(r, f"groups.{g}") for g, r in groups.items()},
        latency_p50_ms=_number(document.get("latency_p50_ms"), "latency_p50_ms"),
        cost_usd=_number(document.get("cost_usd"), "cost_usd"),
        cost_per_100_cases_usd=_number(
            document.get("cost_per_100_cases_usd"), "cost_per_100_cases_usd"
        ),
        pass_k_curve=_curve(document.get("pass_k_curve", [])),
        tallies=_tallies(document["results"]),
        wire=_wire(document),
        anomalies=_anomalies(document),
    )


def _wire(document: Mapping[str, Any]) -> str | None:
    """The label of the document's wire (``chat+stream``); None for the method's request (no
    ``wire`` field)."""
    if "wire" not in document:
        return None
    wire = wire_from_json(document["wire"])
    if wire is None:
        raise ResultsError("field 'wire' must be an object of dialect, stream and params")
    return None if wire.is_default else wire.label()


def _anomalies(document: Mapping[str, Any]) -> int | None:
    """A streamed run's case-runs with a transport anomaly; None when the run was not streamed."""
    found = document.get("transport_anomalies")
    if found is None:
        return None
    if not isinstance(found, dict):
        raise ResultsError("field 'transport_anomalies' must be an object")
    return _int(found.get("cases"), "transport_anomalies.cases")
