"""The typed summary of one model's run: every figure results.json, the leaderboard and the
reports show.

``scorer.summarize`` computes it from case-run rows (one computation for every view); this module
only holds the types and their results.json form. A run of one sample per case (K = 1) has the same
summary as a repeated one; its results.json leaves out the repeat fields (``repeats``,
``case_runs``, ``pass_k_curve``, ``pass_all_k``, ``pass_any_k``, ``flaky``), as docs/FORMATS.md
has it.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

# The metric names come from the registry; re-exported here for the modules that read them with
# the summary.
from scorer.metrics import CALL_METRICS as CALL_METRICS
from scorer.metrics import CASE_METRICS as CASE_METRICS
from scorer.metrics import METRICS as METRICS
from scorer.metrics import REPEAT_METRICS


@dataclass(frozen=True)
class Rate:
    """``count`` of ``of``, in percent (None when ``of`` is 0), with its 95% interval in percent."""

    count: int
    of: int
    rate: float | None
    ci: tuple[float, float] | None

    def document(self) -> dict[str, Any]:
        """``{count, of, rate, ci}`` as results.json has it."""
        return {
            "count": self.count,
            "of": self.of,
            "rate": self.rate,
            "ci": None if self.ci is None else list(self.ci),
        }


@dataclass(frozen=True)
class Counts:
    """How many cases (or case-runs) there are, and how many were scored, errored and unrecorded."""

    total: int
    scored: int
    errored: int
    unrecorded: int

    def document(self) -> dict[str, int]:
        """``{total, scored, errored, unrecorded}``."""
        return {
            "total": self.total,
            "scored": self.scored,
            "errored": self.errored,
            "unrecorded": self.unrecorded,
        }


@dataclass(frozen=True)
class CurvePoint:
    """pass^k and pass@k in percent at one k, over the cases with a scored repeat (None when
    there is none)."""

    k: int
    pass_all: float | None
    pass_any: float | None


@dataclass(frozen=True)
class CaseTally:
    """One case over its repeats: passed and scored case-runs, and what its case-runs' answered
    attempts cost (the sum of the prices known; the model's ``cost_usd`` says whether it is
    priced) and their wall times in ms (the cost-quality front resamples cases with them)."""

    case_id: str
    passed: int
    scored: int
    cost_usd: float = 0.0
    wall_ms: tuple[float, ...] = ()


@dataclass(frozen=True)
class ModelSummary:
    """Every figure of one model's run. ``cases`` counts cases by their status over the repeats,
    ``case_runs`` counts case-runs (the same at K = 1); rates are over scored case-runs,
    intervals clustered by case."""

    model: str
    model_slug: str
    repeats: int
    temperature_ignored: bool | None
    routed_models: Mapping[str, int]
    cases: Counts
    case_runs: Counts
    metrics: Mapping[str, Rate]  # METRICS, then REPEAT_METRICS
    groups: Mapping[str, Rate]
    latency_p50_ms: float | None
    cost_usd: float | None
    cost_per_100_cases_usd: float | None
    pass_k_curve: tuple[CurvePoint, ...]
    tallies: tuple[CaseTally, ...]  # in suite order
    # The label of the run's wire when it is not the method's request (results.json ``wire``),
    # and a streamed run's case-runs with a transport anomaly (``transport_anomalies.cases``):
    # None for the method's run, so its boards read as they always did.
    wire: str | None = None
    anomalies: int | None = None

    @property
    def nothing_scored(self) -> bool:
        """The run has cases but not one case-run of them was scored
        (docs/commands/rescore.md#no-scored-case-fails)."""
        return self.case_runs.total > 0 and self.case_runs.scored == 0

    def document(self) -> dict[str, Any]:
        """The summary fields of results.json (docs/FORMATS.md); a run with K > 1 adds the
        repeat fields."""
        repeated = self.repeats > 1
        names = [*METRICS, *REPEAT_METRICS] if repeated else METRICS
        found: dict[str, Any] = {
            "model": self.model,
            "model_slug": self.model_slug,
            "temperature_ignored": self.temperature_ignored,
            "routed_models": dict(sorted(self.routed_models.items())),
            "cases": self.cases.document(),
            "metrics": {name: self.metrics[name].document() for name in names},
            "groups": {name: rate.document() for name, rate in self.groups.items()},
            "latency_p50_ms": self.latency_p50_ms,
            "cost_usd": self.cost_usd,
            "cost_per_100_cases_usd": self.cost_per_100_cases_usd,
        }
        if repeated:
            found["repeats"] = self.repeats
            found["case_runs"] = self.case_runs.document()
            found["pass_k_curve"] = [
                {"k": p.k, "pass_all": p.pass_all, "pass_any": p.pass_any}
                for p in self.pass_k_curve
            ]
        return found
