"""Every figure of results.json's summary and of the leaderboard, from ``cases`` rows by one polars lazy query.

One row per model out of a single ``group_by`` (the streaming engine can run it over any number of partitions);
Python only turns its counts into ``{count, of, rate, ci}`` with the same Wilson interval as ``scorer``.
"""

from __future__ import annotations

from collections.abc import Sequence
from decimal import Decimal
from typing import Any

from scorer.headers import finite
from scorer.metrics import METRICS, cost_per_100_cases
from scorer.stats import wilson
from scorer.suite_model import GROUPS

CASE_METRICS = ("overall", "right_tool", "chains", "parallel", "no_call_needed")
CALL_METRICS = ("valid_arguments", "made_up_tool")


def _aggregations() -> list[Any]:
    import polars as pl

    scored = pl.col("overall").is_not_null()
    aggregations = [
        pl.len().alias("total"),
        scored.sum().alias("scored"),
        (pl.col("status") == "errored").sum().alias("errored"),
        (pl.col("status") == "unrecorded").sum().alias("unrecorded"),
        pl.col("temperature_ignored").any().alias("temperature_ignored"),
        # A case-run whose attempts are known but whose price is not: the whole run is unpriced.
        (pl.col("cost_usd_text").is_null() & pl.col("attempts").is_not_null()).any().alias("unpriced"),
        # A price with more decimals than cost_usd holds: that model's total is summed from the exact texts.
        (pl.col("cost_usd_text").is_not_null() & pl.col("cost_usd").is_null()).any().alias("inexact"),
        pl.col("cost_usd").sum().alias("cost_total"),
        pl.col("attempt_wall_ms").explode().median().alias("latency_p50_ms"),
    ]
    for name in CASE_METRICS:  # a boolean per case-run, null where it does not apply
        aggregations += [pl.col(name).sum().alias(name), pl.col(name).count().alias(f"{name}_of")]
    for name in CALL_METRICS:  # a count and its base per case-run
        aggregations += [pl.col(name).sum().alias(name), pl.col(f"{name}_of").sum().alias(f"{name}_of")]
    for group in GROUPS:
        in_group = pl.col("group") == group
        aggregations += [
            (pl.col("overall") & in_group).sum().alias(f"group.{group}"),
            (scored & in_group).sum().alias(f"group.{group}_of"),
        ]
    return aggregations


def query(cases: Any, extra: Sequence[Any] = ()) -> Any:
    """The lazy per-model aggregation of a ``cases`` LazyFrame (one output row per model slug), with any ``extra``
    aggregations. Only the columns it uses are read (polars pushes the projection into the scan)."""
    return cases.group_by("model_slug", "model").agg([*_aggregations(), *extra])


def rate(count: int, of: int) -> dict[str, Any]:
    """``{count, of, rate, ci}`` as results.json has it."""
    return {"count": count, "of": of, "rate": 100 * count / of if of else None, "ci": wilson(count, of)}


def finish(row: dict[str, Any]) -> dict[str, Any]:
    """One aggregated row -> the summary fields of a results document."""
    total = None if row["unpriced"] else (row["cost_total"] if row["cost_total"] is not None else Decimal(0))
    total = None if finite(total) is None else total  # as scorer.metrics.total_cost_usd: beyond a double, none
    scored = int(row["scored"])
    latency = row["latency_p50_ms"]
    return {
        "model": row["model"],
        "model_slug": row["model_slug"],
        "temperature_ignored": bool(row["temperature_ignored"]),
        "cases": {
            "total": int(row["total"]),
            "scored": scored,
            "errored": int(row["errored"]),
            "unrecorded": int(row["unrecorded"]),
        },
        "metrics": {name: rate(int(row[name] or 0), int(row[f"{name}_of"] or 0)) for name in METRICS},
        "groups": {g: rate(int(row[f"group.{g}"] or 0), int(row[f"group.{g}_of"] or 0)) for g in GROUPS},
        "latency_p50_ms": None if latency is None else float(latency),
        "cost_per_100_cases_usd": cost_per_100_cases(total, scored),
        "cost_usd": None if total is None else float(total),
    }


def empty(model: str, model_slug: str) -> dict[str, Any]:
    """The summary of a model with no rows (a shard that owns none of its cases)."""
    row: dict[str, Any] = {"model": model, "model_slug": model_slug, "unpriced": False, "cost_total": None}
    row["inexact"] = False
    row.update(dict.fromkeys(("total", "scored", "errored", "unrecorded", "temperature_ignored"), 0))
    row["latency_p50_ms"] = None
    for name in METRICS:
        row[name] = row[f"{name}_of"] = 0
    for group in GROUPS:
        row[f"group.{group}"] = row[f"group.{group}_of"] = 0
    return finish(row)


def routed_models(cases: Any) -> dict[str, dict[str, int]]:
    """How often each answering model appears per model slug (results.json's ``routed_models``)."""
    import polars as pl

    counts = (
        cases.select("model_slug", "routed_models")
        .explode("routed_models")
        .drop_nulls("routed_models")
        .group_by("model_slug", "routed_models")
        .agg(pl.len().alias("n"))
        .sort("model_slug", "routed_models")
        .collect()
    )
    found: dict[str, dict[str, int]] = {}
    for row in counts.iter_rows(named=True):
        found.setdefault(row["model_slug"], {})[row["routed_models"]] = int(row["n"])
    return found


def _exact_totals(cases: Any, slugs: list[str], engine: str) -> dict[str, Decimal]:
    """The exact sum of ``cost_usd_text`` per model slug (for models with prices finer than 10^-18 USD)."""
    import polars as pl

    texts = cases.filter(pl.col("model_slug").is_in(slugs)).select("model_slug", "cost_usd_text").collect(engine=engine)
    totals = dict.fromkeys(slugs, Decimal(0))
    for slug, text in texts.iter_rows():
        totals[slug] += Decimal(text)
    return totals


def aggregate(cases: Any, engine: str = "auto", extra: Sequence[Any] = ()) -> list[dict[str, Any]]:
    """The aggregated rows of ``query``, in slug order."""
    return query(cases, extra).sort("model_slug").collect(engine=engine).to_dicts()


def finish_all(rows: list[dict[str, Any]], cases: Any, engine: str = "auto") -> dict[str, dict[str, Any]]:
    """Aggregated rows -> summaries keyed by model slug; models with prices finer than ``cost_usd`` holds get their
    total summed from the exact texts."""
    inexact = [row["model_slug"] for row in rows if row["inexact"] and not row["unpriced"]]
    if inexact:
        totals = _exact_totals(cases, inexact, engine)
        for row in rows:
            row["cost_total"] = totals.get(row["model_slug"], row["cost_total"])
    return {row["model_slug"]: finish(row) for row in rows}


def summaries(cases: Any, engine: str = "auto", with_routed: bool = False) -> dict[str, dict[str, Any]]:
    """The summary of every model in ``cases`` (a LazyFrame), keyed by model slug, in slug order."""
    found = finish_all(aggregate(cases, engine), cases, engine)
    if with_routed:
        routed = routed_models(cases)
        for slug, summary in found.items():
            summary["routed_models"] = routed.get(slug, {})
    return found
