"""Figures of repeated runs (K > 1) from ``cases`` rows: what results.json of a repeated run says, from the rows.

A row is a case-run, so a plain sum over rows pools case-runs; a repeated run's intervals are clustered by case
(docs/METHOD.md, "Repeats"), which takes the per-case sums. One lazy ``group_by`` over (model, case) gives them,
and Python turns them into the same ``{count, of, rate, ci}`` as ``scorer.repeated_metrics`` (same clusters, in
suite order, so the same floats), plus the repeat counts, pass^k, pass@k and flaky. Also here: every model's
per-case (passed, scored) counts, which the leaderboard's paired test between neighbours needs.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from scorer.clustered import clustered_rate
from scorer.metrics import METRICS
from scorer.repeats import aggregate_status, pass_k_curve, repeat_metrics
from scorer.suite_model import GROUPS

CaseCounts = dict[str, tuple[int, int]]  # case id -> (passed repeats, scored repeats)
_CASE_METRICS = ("overall", "right_tool", "chains", "parallel", "no_call_needed")
_CALL_METRICS = ("valid_arguments", "made_up_tool")
_STATUSES = ("passed", "failed", "errored", "unrecorded")


def _per_case(cases: Any, slugs: Iterable[str] | None = None) -> list[dict[str, Any]]:
    """One row per (model, case): its repeat count, status counts and metric sums, in model then suite order."""
    import polars as pl

    if slugs is not None:
        cases = cases.filter(pl.col("model_slug").is_in(sorted(slugs)))
    aggregations = [pl.col("repeat").max().alias("repeats")]
    aggregations += [(pl.col("status") == s).sum().alias(s) for s in _STATUSES]
    for name in _CASE_METRICS:
        aggregations += [pl.col(name).sum().alias(name), pl.col(name).count().alias(f"{name}_of")]
    for name in _CALL_METRICS:
        aggregations += [pl.col(name).sum().alias(name), pl.col(f"{name}_of").sum().alias(f"{name}_of")]
    query = cases.group_by("model_slug", "case_id", "case_index", "group").agg(aggregations)
    return query.sort("model_slug", "case_index").collect().to_dicts()


def case_counts(cases: Any) -> dict[str, CaseCounts]:
    """Model slug -> case id -> (passed, scored) case-runs, for every model of ``cases`` (a LazyFrame)."""
    found: dict[str, CaseCounts] = {}
    for row in _per_case(cases):
        found.setdefault(row["model_slug"], {})[row["case_id"]] = (
            int(row["passed"]),
            int(row["passed"] + row["failed"]),
        )
    return found


def repeated_slugs(cases: Any) -> dict[str, int]:
    """Model slug -> K, for the models of ``cases`` with more than one repeat of some case."""
    import polars as pl

    found = cases.group_by("model_slug").agg(pl.col("repeat").max().alias("k")).filter(pl.col("k") > 1).collect()
    return {row["model_slug"]: int(row["k"]) for row in found.iter_rows(named=True)}


def _clusters(rows: list[dict[str, Any]], name: str) -> list[tuple[int, int]]:
    return [(int(r[name] or 0), int(r[f"{name}_of"] or 0)) for r in rows]


def repeated_summary(plain: dict[str, Any], rows: list[dict[str, Any]], repeats: int) -> dict[str, Any]:
    """One model's summary as a repeated results.json has it: ``plain`` (the pooled summary of its rows, whose
    latency, cost and flags stand) with case-level ``cases``, ``case_runs``, ``repeats``, clustered metrics and
    groups, the repeat metrics and the pass^k curve; ``rows`` are its per-case sums in suite order."""
    metrics = {name: clustered_rate(_clusters(rows, name)) for name in METRICS}
    counts = [(int(r["passed"]), int(r["passed"] + r["failed"])) for r in rows]
    metrics.update(repeat_metrics(counts))
    groups = {group: clustered_rate(_clusters([r for r in rows if r["group"] == group], "overall")) for group in GROUPS}
    statuses = [aggregate_status([s for s in _STATUSES for _ in range(int(r[s]))]) for r in rows]
    return {
        **plain,
        "repeats": repeats,
        "cases": {
            "total": len(rows),
            "scored": sum(1 for s in statuses if s in ("passed", "failed")),
            "errored": statuses.count("errored"),
            "unrecorded": statuses.count("unrecorded"),
        },
        "case_runs": plain["cases"],
        "metrics": metrics,
        "groups": groups,
        "pass_k_curve": pass_k_curve(counts, repeats),
    }


def with_repeats(cases: Any, summaries: dict[str, dict[str, Any]]) -> dict[str, dict[str, Any]]:
    """``summaries`` (pooled, by model slug) with every repeated model's replaced by its ``repeated_summary``."""
    repeated = repeated_slugs(cases)
    if not repeated:
        return summaries
    by_model: dict[str, list[dict[str, Any]]] = {}
    for row in _per_case(cases, repeated):
        by_model.setdefault(row["model_slug"], []).append(row)
    return {
        slug: repeated_summary(summary, by_model[slug], repeated[slug]) if slug in repeated else summary
        for slug, summary in summaries.items()
    }
