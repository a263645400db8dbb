"""Pairing two runs model by model and case by case (pure): flips, unpaired cases, metric deltas, McNemar."""

from __future__ import annotations

from typing import Any

from replay.diff_runs.model import CaseOutcome, MetricDelta, ModelDiff, RunDiff, SuiteRef
from scorer.metrics import METRICS
from scorer.paired import mcnemar_exact


def compare(a: dict[str, dict[str, Any]], b: dict[str, dict[str, Any]]) -> RunDiff:
    """Compare two runs (model -> results dict, as from ``load_run``), matching models by name.

    Two runs of one model each, under different names, are compared with each other: that is how a model change
    (the same suite, another model) is gated.
    """
    if len(a) == 1 and len(b) == 1 and set(a) != set(b):
        return RunDiff(models=(compare_model(*a.values(), *b.values()),), only_a=(), only_b=())
    common = sorted(set(a) & set(b))
    return RunDiff(
        models=tuple(compare_model(a[m], b[m]) for m in common),
        only_a=tuple(sorted(set(a) - set(b))),
        only_b=tuple(sorted(set(b) - set(a))),
    )


def compare_model(a: dict[str, Any], b: dict[str, Any]) -> ModelDiff:
    """Compare one model's results in run A and run B."""
    by_id_a = {r["id"]: r for r in a["results"]}
    by_id_b = {r["id"]: r for r in b["results"]}
    order = [r["id"] for r in b["results"]] + [r["id"] for r in a["results"] if r["id"] not in by_id_b]
    cases = tuple(_outcome(cid, by_id_a.get(cid), by_id_b.get(cid)) for cid in order)
    to_failed = tuple(c for c in cases if c.kind == "to_failed")
    to_passed = tuple(c for c in cases if c.kind == "to_passed")
    return ModelDiff(
        model=b["model"] if a["model"] == b["model"] else f"{a['model']} -> {b['model']}",
        suite_a=_suite_ref(a),
        suite_b=_suite_ref(b),
        cases=cases,
        to_failed=to_failed,
        to_passed=to_passed,
        unpaired=tuple(c for c in cases if c.kind == "unpaired"),
        both_passed=sum(1 for c in cases if c.kind == "same" and c.status_b == "passed"),
        both_failed=sum(1 for c in cases if c.kind == "same" and c.status_b == "failed"),
        metrics=tuple(_metric_delta(name, a["metrics"][name], b["metrics"][name]) for name in METRICS),
        mcnemar_p=mcnemar_exact(len(to_failed), len(to_passed)),
    )


def _outcome(case_id: str, ra: dict[str, Any] | None, rb: dict[str, Any] | None) -> CaseOutcome:
    group = (rb or ra or {}).get("group")
    return CaseOutcome(
        case_id=case_id,
        group=group if isinstance(group, str) else None,
        status_a=ra["status"] if ra else None,
        status_b=rb["status"] if rb else None,
        reason_a=_reason(ra),
        reason_b=_reason(rb),
    )


def _reason(result: dict[str, Any] | None) -> str | None:
    """The result's ``reason``; for contract-minimal files without it, the first failing step's reason."""
    if result is None or result["status"] == "passed":
        return None
    reason = result.get("reason")
    if isinstance(reason, str):
        return reason
    for i, step in enumerate(result.get("steps") or []):
        if isinstance(step, dict) and step.get("passed") is False and isinstance(step.get("reason"), str):
            return f"step {i + 1}: {step['reason']}"
    return None


def _suite_ref(results: dict[str, Any]) -> SuiteRef:
    suite = results["suite"]
    name, sha = suite.get("name"), suite.get("sha256")
    return SuiteRef(
        name=name if isinstance(name, str) else "?",
        version=suite["version"],
        sha256=sha if isinstance(sha, str) else None,
    )


def _metric_delta(name: str, ma: dict[str, Any], mb: dict[str, Any]) -> MetricDelta:
    a_rate, b_rate = _number(ma.get("rate")), _number(mb.get("rate"))
    return MetricDelta(
        name=name,
        a_rate=a_rate,
        b_rate=b_rate,
        delta=None if a_rate is None or b_rate is None else b_rate - a_rate,
        a_ci=_ci(ma.get("ci")),
        b_ci=_ci(mb.get("ci")),
    )


def _number(value: Any) -> float | None:
    if isinstance(value, bool) or not isinstance(value, int | float):
        return None
    return float(value)


def _ci(value: Any) -> tuple[float, float] | None:
    if isinstance(value, list) and len(value) == 2:
        lo, hi = _number(value[0]), _number(value[1])
        if lo is not None and hi is not None:
            return (lo, hi)
    return None
