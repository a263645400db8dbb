"""The seven metrics over every scored case-run of a repeated run, with intervals clustered by case.

The per-case-run facts are the ones ``scorer.metrics`` uses for one run; here they are summed per case with
polars, and each metric's interval comes from those per-case sums (``scorer.clustered``).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from scorer.clustered import clustered_rate
from scorer.metrics import METRICS, call_counts, call_rows, case_counts, case_row
from scorer.outcome import CaseOutcome
from scorer.suite_model import GROUPS

_BOOLEANS = ("overall", "right_tool_applies", "right_tool", "chains_applies", "parallel_applies", "parallel",
             "no_call_applies", "no_call")  # fmt: skip


def compute_repeated_metrics(runs: Sequence[Sequence[CaseOutcome]]) -> tuple[dict[str, Any], dict[str, Any]]:
    """The seven metrics and Overall per group; ``runs[i]`` holds every repeat of one case."""
    import polars as pl

    rows = [{"case": i, "group": o.case.group, **case_row(o)} for i, repeats in enumerate(runs) for o in repeats]
    schema = {"case": pl.Int64, "group": pl.String, "scored": pl.Boolean, **dict.fromkeys(_BOOLEANS, pl.Boolean)}
    cases = pl.DataFrame([{k: r[k] for k in schema} for r in rows], schema=schema).filter(pl.col("scored"))
    calls = pl.DataFrame(
        [{"case": i, **row} for i, repeats in enumerate(runs) for o in repeats for row in call_rows(o)],
        schema={"case": pl.Int64, "offered": pl.Boolean, "valid": pl.Boolean},
    )
    per_case = cases.group_by("case", "group").agg(**case_counts())
    per_case_calls = calls.group_by("case").agg(**call_counts())
    case_sums = sorted(per_case.iter_rows(named=True), key=lambda r: r["case"])
    call_sums = sorted(per_case_calls.iter_rows(named=True), key=lambda r: r["case"])

    def clusters(table: list[dict[str, Any]], name: str) -> list[tuple[int, int]]:
        return [(int(r[name]), int(r[f"{name}_of"])) for r in table]

    metrics = {
        name: clustered_rate(clusters(call_sums if name in ("valid_arguments", "made_up_tool") else case_sums, name))
        for name in METRICS
    }
    groups = {
        group: clustered_rate([(int(r["overall"]), int(r["overall_of"])) for r in case_sums if r["group"] == group])
        for group in GROUPS
    }
    return metrics, groups
