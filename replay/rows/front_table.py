"""The rows' small third table, ``front.parquet``: each model's place on the cost-quality front and
whether it is the pick (``scorer.front``; docs/FORMATS.md, "Rows"). One row per model, in the
front's order (placed by cost, then the models apart)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from replay.results.typed import SuiteRef
from replay.rows.schema import front_schema
from scorer.front import Front
from scorer.summary import ModelSummary

TABLE = "front"


def front_frame(front: Front, suite: SuiteRef, summaries: Sequence[ModelSummary]) -> Any:
    """The ``front`` DataFrame of one board."""
    import polars as pl

    slugs = {s.model: s.model_slug for s in summaries}
    rows = []
    for r in front.rows:
        low, high = r.overall_ci or (None, None)
        x_low, x_high = r.x_ci or (None, None)
        rows.append(
            {
                "model": r.model,
                "model_slug": slugs.get(r.model, ""),
                "suite_name": suite.name,
                "suite_version": suite.version,
                "suite_sha256": suite.sha256,
                "axis": front.axis,
                "overall": r.overall,
                "overall_ci_lo": low,
                "overall_ci_hi": high,
                "x": r.x,
                "x_ci_lo": x_low,
                "x_ci_hi": x_high,
                "status": r.status,
                "apart": r.apart or None,
                "dominated_by": r.dominated_by,
                "p_value": r.p,
                "p_front": r.p_front,
                "lower_bound": r.lower,
                "within_delta": r.within,
                "picked": r.model == front.pick.model,
                "delta": front.delta,
                "alpha": front.alpha,
            }
        )
    schema = front_schema()
    return pl.DataFrame(
        [pl.Series(name, [row[name] for row in rows], dtype) for name, dtype in schema.items()]
    )
