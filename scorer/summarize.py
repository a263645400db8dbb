"""The one computation of every figure: case-run rows (reports/cases.parquet) -> one
``ModelSummary`` per model.

The input is a polars frame of ``cases`` rows (docs/FORMATS.md, "Rows"): one row per model x case x
repeat, each metric column the case-run's contribution (a boolean, null where the metric does not
apply or the case-run is not scored; a count and its ``_of`` for a per-call metric). Two lazy
``group_by``s read it: one per (model, case) for the per-case sums every rate and interval is built
from, one per model for what pools case-runs (latency, cost, flags). Every rate is over scored
case-runs with its interval clustered by case (``scorer.stats.clustered``): at K = 1 a case-level
metric
has one item per case, so its interval is plain Wilson; a per-call metric is clustered by case at
every K (METHOD.md#clustered-interval-rule). pass^k, pass@k and flaky come from the same
per-case sums.
"""

from __future__ import annotations

from collections.abc import Sequence
from decimal import Decimal
from typing import Any

from scorer.metrics import CALL_METRICS, CASE_METRICS, METRICS
from scorer.repeats import aggregate_status, pass_k_curve, repeat_metrics
from scorer.stats.clustered import clustered_rate
from scorer.status import SCORED, STATUSES, is_scored
from scorer.suite.model import GROUPS
from scorer.summary import CaseTally, Counts, ModelSummary, Rate
from scorer.wire.headers import finite


def _per_case(cases: Any, engine: str) -> list[dict[str, Any]]:
    """One row per (model, case): status counts and metric sums, in model then suite order."""
    import polars as pl

    aggregations = [(pl.col("status") == s).sum().alias(s) for s in STATUSES]
    for name in CASE_METRICS:
        aggregations += [pl.col(name).sum().alias(name), pl.col(name).count().alias(f"{name}_of")]
    for name in CALL_METRICS:
        aggregations += [
            pl.col(name).sum().alias(name),
            pl.col(f"{name}_of").sum().alias(f"{name}_of"),
        ]
    # What the case's case-runs cost and how long their answered attempts took (the front's
    # resampling unit is the case).
    aggregations += [
        pl.col("cost_usd").sum().alias("cost_usd"),
        # explode then drop_nulls, not explode(keep_nulls=False, ...): polars 1.30, the lower
        # bound, has neither keyword (an empty list's null is dropped alike)
        pl.col("attempt_wall_ms").list.explode().drop_nulls().alias("wall_ms"),
    ]
    query = cases.group_by("model_slug", "case_id", "case_index", "group").agg(aggregations)
    return query.sort("model_slug", "case_index").collect(engine=engine).to_dicts()


def known_any(column: str) -> Any:
    """A flag over rows whose value may be unknown (null): true when any row's is, else false when
    any row's is known, else null. Shards of one run: one that saw the gateway report answers
    for the others (``temperature_ignored``)."""
    import polars as pl

    col = pl.col(column)
    return pl.when(col.any()).then(True).when(col.is_not_null().any()).then(False)


def _per_model(cases: Any, engine: str) -> list[dict[str, Any]]:
    """One row per model: what pools its case-runs."""
    import polars as pl

    return (
        cases.group_by("model_slug", "model")
        .agg(
            pl.col("repeat").max().alias("repeats"),
            known_any("temperature_ignored").alias("temperature_ignored"),
            # A case-run whose attempts are known but whose price is not: the whole run is unpriced.
            (pl.col("cost_usd_text").is_null() & pl.col("attempts").is_not_null())
            .any()
            .alias("unpriced"),
            # A price with more decimals than cost_usd holds: that model's total is summed from the
            # exact texts.
            (pl.col("cost_usd_text").is_not_null() & pl.col("cost_usd").is_null())
            .any()
            .alias("inexact"),
            pl.col("cost_usd").sum().alias("cost_total"),
            pl.col("attempt_wall_ms").explode().median().alias("latency_p50_ms"),
        )
        .sort("model_slug")
        .collect(engine=engine)
        .to_dicts()
    )


def _routed(cases: Any, engine: str) -> dict[str, dict[str, int]]:
    """How often each answering model appears per model slug (results.json's ``routed_models``)."""
    import polars as pl

    counts = (
        cases.select("model_slug", "routed_models")
        .explode("routed_models")
        .drop_nulls("routed_models")
        .group_by("model_slug", "routed_models")
        .agg(pl.len().alias("n"))
        .sort("model_slug", "routed_models")
        .collect(engine=engine)
    )
    found: dict[str, dict[str, int]] = {}
    for slug, name, n in counts.iter_rows():
        found.setdefault(slug, {})[name] = int(n)
    return found


def _exact_totals(cases: Any, slugs: list[str], engine: str) -> dict[str, Decimal]:
    """The exact sum of ``cost_usd_text`` per model slug (for models with prices finer than
    10^-18 USD)."""
    import polars as pl

    texts = (
        cases.filter(pl.col("model_slug").is_in(slugs))
        .select("model_slug", "cost_usd_text")
        .collect(engine=engine)
    )
    totals = dict.fromkeys(slugs, Decimal(0))
    for slug, text in texts.iter_rows():
        totals[slug] += Decimal(text)
    return totals


def _statuses(counts: dict[str, Any]) -> list[str]:
    """A case's repeats' statuses from its per-status counts (in ``STATUSES`` order)."""
    return [s for s in STATUSES for _ in range(int(counts[s]))]


def _counts(statuses: Sequence[str], total: int) -> Counts:
    scored = sum(1 for s in statuses if is_scored(s))
    return Counts(total, scored, statuses.count("errored"), statuses.count("unrecorded"))


def _clusters(rows: Sequence[dict[str, Any]], name: str) -> list[tuple[int, int]]:
    return [(int(r[name] or 0), int(r[f"{name}_of"] or 0)) for r in rows]


def _group_names(rows: Sequence[dict[str, Any]]) -> tuple[str, ...]:
    """The groups a summary lists: the Lobstack suite's six in the method page's order (an empty one
    too, so every Lobstack results.json has the same keys), or a suite of one's own groups in
    suite order."""
    names = tuple(dict.fromkeys(str(r["group"]) for r in rows))
    return GROUPS if all(name in GROUPS for name in names) else names


def summary_of(
    model: dict[str, Any],
    rows: Sequence[dict[str, Any]],
    routed: dict[str, int],
    groups: Sequence[str] | None = None,
) -> ModelSummary:
    """One model's summary from its per-model row and its per-case rows (in suite order);
    ``groups``, the suite's groups when known (else those of the rows: ``_group_names``)."""
    total = (
        None
        if model["unpriced"]
        else (model["cost_total"] if model["cost_total"] is not None else Decimal(0))
    )
    total = None if total is None or finite(total) is None else total  # beyond a double: unpriced
    runs = [s for r in rows for s in _statuses(r)]
    case_runs = _counts(runs, len(runs))
    tallies = tuple(
        CaseTally(
            r["case_id"],
            int(r["passed"]),
            sum(int(r[s]) for s in SCORED),
            float(r.get("cost_usd") or 0),
            tuple(float(w) for w in r.get("wall_ms") or ()),
        )
        for r in rows
    )
    metrics: dict[str, Rate] = {name: clustered_rate(_clusters(rows, name)) for name in METRICS}
    metrics.update(repeat_metrics([(t.passed, t.scored) for t in tallies]))
    latency, repeats = model["latency_p50_ms"], int(model["repeats"] or 1)
    return ModelSummary(
        model=model["model"],
        model_slug=model["model_slug"],
        repeats=repeats,
        temperature_ignored=model["temperature_ignored"],
        routed_models=routed,
        cases=_counts([aggregate_status(_statuses(r)) for r in rows], len(rows)),
        case_runs=case_runs,
        metrics=metrics,
        groups={
            g: clustered_rate(_clusters([r for r in rows if r["group"] == g], "overall"))
            for g in (_group_names(rows) if groups is None else groups)
        },
        latency_p50_ms=None if latency is None else float(latency),
        cost_usd=None if total is None else float(total),
        cost_per_100_cases_usd=None
        if total is None or not case_runs.scored
        else finite(total * 100 / case_runs.scored),
        pass_k_curve=pass_k_curve([(t.passed, t.scored) for t in tallies], repeats),
        tallies=tallies,
    )


def summarize(
    cases: Any, engine: str = "auto", routed: bool = True, groups: Sequence[str] | None = None
) -> dict[str, ModelSummary]:
    """The summary of every model of ``cases`` (a polars LazyFrame or DataFrame of case-run rows),
    keyed by model slug in slug order; ``routed`` False leaves ``routed_models`` empty (one
    query less)."""
    cases = cases.lazy()
    models = _per_model(cases, engine)
    inexact = [m["model_slug"] for m in models if m["inexact"] and not m["unpriced"]]
    if inexact:
        totals = _exact_totals(cases, inexact, engine)
        for m in models:
            m["cost_total"] = totals.get(m["model_slug"], m["cost_total"])
    by_case: dict[str, list[dict[str, Any]]] = {}
    for row in _per_case(cases, engine):
        by_case.setdefault(row["model_slug"], []).append(row)
    routes = _routed(cases, engine) if routed else {}
    return {
        m["model_slug"]: summary_of(
            m, by_case[m["model_slug"]], routes.get(m["model_slug"], {}), groups
        )
        for m in models
    }


def empty(model: str, model_slug: str, groups: Sequence[str] = GROUPS) -> ModelSummary:
    """The summary of a model with no rows (a shard that owns none of its cases); ``groups``,
    the suite's."""
    row = {"model": model, "model_slug": model_slug, "repeats": 1, "temperature_ignored": False}
    row.update(unpriced=False, cost_total=None, latency_p50_ms=None)
    return summary_of(row, [], {}, groups)
