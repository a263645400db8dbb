"""The seven rates of the method page, as polars aggregations over per-case and per-call rows.

Every rate is ``{count, of, rate, ci}`` over scored cases only (errored and unrecorded are excluded);
``rate`` is ``100 * count / of`` unrounded, or None when ``of`` is 0.
"""

from __future__ import annotations

from collections.abc import Sequence
from decimal import Decimal
from typing import Any

from scorer.headers import finite, price
from scorer.outcome import CaseOutcome
from scorer.stats import wilson
from scorer.suite_model import GROUPS

METRICS = ("overall", "right_tool", "valid_arguments", "made_up_tool", "chains", "parallel", "no_call_needed")

_CASE_COLUMNS = (
    "scored",
    "overall",
    "right_tool_applies",
    "right_tool",
    "chains_applies",
    "parallel_applies",
    "parallel",
    "no_call_applies",
    "no_call",
)


def case_row(outcome: CaseOutcome) -> dict[str, Any]:
    """The per-case facts each case-level metric needs."""
    case, reached = outcome.case, {step.index: step.verdict for step in outcome.steps}

    def passed(index: int) -> bool:
        verdict = reached.get(index)
        return verdict is not None and verdict.passed

    first_call = next((i for i, step in enumerate(case.steps) if step.expect == "call"), None)
    first_verdict = reached.get(first_call) if first_call is not None else None
    parallel_steps = [i for i, step in enumerate(case.steps) if len(step.calls) >= 2]
    return {
        "group": case.group,
        "scored": outcome.scored,
        "overall": outcome.status == "passed",
        "right_tool_applies": first_call is not None,
        "right_tool": first_verdict is not None and first_verdict.names_match,
        "chains_applies": len(case.steps) >= 2,
        "parallel_applies": bool(parallel_steps),
        "parallel": bool(parallel_steps) and all(passed(i) for i in parallel_steps),
        "no_call_applies": case.steps[0].expect == "none",
        "no_call": passed(0) if case.steps[0].expect == "none" else False,
    }


def call_rows(outcome: CaseOutcome) -> list[dict[str, Any]]:
    """One row per call the model made in a scored case."""
    if not outcome.scored:
        return []
    return [
        {"offered": call.offered, "valid": bool(call.schema_valid)}
        for step in outcome.steps
        if step.verdict is not None
        for call in step.verdict.calls
    ]


def _rate(count: int, of: int) -> dict[str, Any]:
    return {"count": count, "of": of, "rate": 100 * count / of if of else None, "ci": wilson(count, of)}


Metrics = tuple[dict[str, Any], dict[str, Any]]


def compute_metrics(outcomes: Sequence[CaseOutcome]) -> Metrics:
    """The seven metrics and Overall per group of one model, as polars aggregations."""
    return compute_metrics_by_model({"": outcomes})[""]


def compute_metrics_by_model(runs: dict[str, Sequence[CaseOutcome]]) -> dict[str, Metrics]:
    """The metrics of many models at once: one frame of cases and one of calls, aggregated per model."""
    import polars as pl

    schema = {"model": pl.String, "group": pl.String, **dict.fromkeys(_CASE_COLUMNS, pl.Boolean)}
    case_rows = [{"model": model, **case_row(o)} for model, outcomes in runs.items() for o in outcomes]
    cases = pl.DataFrame(case_rows, schema=schema).filter(pl.col("scored"))
    call_table = [{"model": model, **row} for model, outcomes in runs.items() for o in outcomes for row in call_rows(o)]
    calls = pl.DataFrame(call_table, schema={"model": pl.String, "offered": pl.Boolean, "valid": pl.Boolean})
    on_cases = cases.group_by("model").agg(**case_counts())
    on_calls = calls.group_by("model").agg(**call_counts())
    counts = {
        row["model"]: row
        for row in on_cases.join(on_calls, on="model", how="full", coalesce=True).iter_rows(named=True)
    }
    per_group = {
        (row["model"], row["group"]): row
        for row in cases.group_by("model", "group")
        .agg(count=pl.col("overall").sum(), of=pl.len())
        .iter_rows(named=True)
    }
    results: dict[str, Metrics] = {}
    for model in runs:
        row = counts.get(model, {})
        metrics = {name: _rate(int(row.get(name) or 0), int(row.get(f"{name}_of") or 0)) for name in METRICS}
        groups = {
            group: _rate(int(per_group[model, group]["count"]), int(per_group[model, group]["of"]))
            if (model, group) in per_group
            else _rate(0, 0)
            for group in GROUPS
        }
        results[model] = (metrics, groups)
    return results


def latency_p50_ms(outcomes: Sequence[CaseOutcome]) -> float | None:
    """Median wall time of every attempt that got an HTTP answer; None when none did."""
    import polars as pl

    times = [a.wall_ms for o in outcomes for a in o.attempts if a.answered and a.wall_ms is not None]
    if not times:
        return None
    median = pl.Series("wall_ms", times, dtype=pl.Float64).median()
    return float(median) if median is not None else None  # type: ignore[arg-type]


def total_cost_usd(outcomes: Sequence[CaseOutcome]) -> Decimal | None:
    """Exact sum of the cost header over every answered attempt; None when any answer was unpriced (no header, or
    not a finite decimal) or the sum is beyond a double."""
    total = Decimal(0)
    for outcome in outcomes:
        for attempt in outcome.attempts:
            if not attempt.answered:
                continue
            amount = price(attempt.cost_usd)
            if amount is None:
                return None
            total += amount
    return total if finite(total) is not None else None


def cost_per_100_cases(total: Decimal | None, scored: int) -> float | None:
    """Cost per 100 scored cases; None when unpriced or nothing was scored."""
    if total is None or scored == 0:
        return None
    return finite(total * 100 / scored)


def case_counts() -> dict[str, Any]:
    """Each case-level metric's count and base as polars aggregations over scored case rows (``case_row``)."""
    import polars as pl

    return dict(
        overall=pl.col("overall").sum(),
        overall_of=pl.len(),
        right_tool=(pl.col("right_tool_applies") & pl.col("right_tool")).sum(),
        right_tool_of=pl.col("right_tool_applies").sum(),
        chains=(pl.col("chains_applies") & pl.col("overall")).sum(),
        chains_of=pl.col("chains_applies").sum(),
        parallel=(pl.col("parallel_applies") & pl.col("parallel")).sum(),
        parallel_of=pl.col("parallel_applies").sum(),
        no_call_needed=(pl.col("no_call_applies") & pl.col("no_call")).sum(),
        no_call_needed_of=pl.col("no_call_applies").sum(),
    )


def call_counts() -> dict[str, Any]:
    """Each per-call metric's count and base as polars aggregations over call rows (``call_rows``)."""
    import polars as pl

    return dict(
        valid_arguments=(pl.col("offered") & pl.col("valid")).sum(),
        valid_arguments_of=pl.col("offered").sum(),
        made_up_tool=(~pl.col("offered")).sum(),
        made_up_tool_of=pl.len(),
    )
