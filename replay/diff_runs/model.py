"""The records of a run comparison: cases paired by id, metric deltas, the per-model and whole-run diffs."""

from __future__ import annotations

from dataclasses import dataclass

SCORED = frozenset({"passed", "failed"})


@dataclass(frozen=True)
class SuiteRef:
    """The suite a results file was scored with."""

    name: str
    version: str
    sha256: str | None


@dataclass(frozen=True)
class CaseOutcome:
    """One case id seen in A and/or B; a status of ``None`` means the case is absent from that run."""

    case_id: str
    group: str | None
    status_a: str | None
    status_b: str | None
    reason_a: str | None
    reason_b: str | None

    @property
    def paired(self) -> bool:
        """Both runs scored the case (passed or failed), so it counts in the paired test."""
        return self.status_a in SCORED and self.status_b in SCORED

    @property
    def kind(self) -> str:
        """``to_failed``, ``to_passed``, ``same`` (paired, unchanged) or ``unpaired``."""
        if not self.paired:
            return "unpaired"
        if self.status_a == self.status_b:
            return "same"
        return "to_failed" if self.status_b == "failed" else "to_passed"


@dataclass(frozen=True)
class MetricDelta:
    """One metric in A and B as written by the scorer (rates in percent, Wilson 95% intervals)."""

    name: str
    a_rate: float | None
    b_rate: float | None
    delta: float | None  # b_rate - a_rate in percentage points; None when either side has no rate
    a_ci: tuple[float, float] | None
    b_ci: tuple[float, float] | None


@dataclass(frozen=True)
class ModelDiff:
    """Everything that changed for one model between run A and run B."""

    model: str
    suite_a: SuiteRef
    suite_b: SuiteRef
    cases: tuple[CaseOutcome, ...]  # B's order, then the cases only A has in A's order
    to_failed: tuple[CaseOutcome, ...]
    to_passed: tuple[CaseOutcome, ...]
    unpaired: tuple[CaseOutcome, ...]
    both_passed: int
    both_failed: int
    metrics: tuple[MetricDelta, ...]  # the seven metrics, in METRICS order
    mcnemar_p: float

    @property
    def lost(self) -> tuple[CaseOutcome, ...]:
        """Cases scored in A (passed or failed) that did not score in B: errored, unrecorded or absent."""
        return tuple(c for c in self.cases if c.status_a in SCORED and c.status_b not in SCORED)

    @property
    def pairs(self) -> int:
        """How many cases were scored in both runs."""
        return self.both_passed + self.both_failed + len(self.to_failed) + len(self.to_passed)

    @property
    def suite_mismatch(self) -> bool:
        """A and B were scored with different suites (name or version): scores are not comparable."""
        return (self.suite_a.name, self.suite_a.version) != (self.suite_b.name, self.suite_b.version)

    @property
    def sha_mismatch(self) -> bool:
        """Same name and version but different suite file bytes (edited without a version bump)."""
        a, b = self.suite_a.sha256, self.suite_b.sha256
        return not self.suite_mismatch and a is not None and b is not None and a != b

    def metric(self, name: str) -> MetricDelta:
        """The delta of metric ``name``."""
        return next(m for m in self.metrics if m.name == name)


@dataclass(frozen=True)
class RunDiff:
    """The comparison of two runs: one ModelDiff per model present in both, sorted by model name."""

    models: tuple[ModelDiff, ...]
    only_a: tuple[str, ...]
    only_b: tuple[str, ...]


@dataclass(frozen=True)
class Regression:
    """One thing that makes B a regression of A; ``case_id`` is None when it is about a model's whole run.

    ``kind``: ``flipped`` (passed -> failed), ``lost`` (scored in A, errored/unrecorded/absent in B),
    ``no_scores`` (B scored no case), ``vanished`` (a model of A missing from B) or ``dropped`` (Overall beyond
    ``--max-drop``). JUnit shows ``flipped`` and ``dropped`` as failures, the others as errors."""

    model: str
    case_id: str | None
    kind: str
    message: str


@dataclass(frozen=True)
class Decision:
    """The regression verdict, the one line that explains it, and every regression behind it."""

    regression: bool
    line: str
    regressions: tuple[Regression, ...] = ()
