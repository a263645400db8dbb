"""The records of a run comparison: cases paired by id, metric deltas, the per-model and
whole-run diffs.

A case is compared by its pass rate over its scored repeats (one sample per case is a rate of 0 or
1), so one set of records serves single runs and repeated runs alike.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from replay.results.typed import SuiteRef
from scorer.stats.case_exact import PairedDifference
from scorer.stats.power import Power
from scorer.status import is_scored


class _once:
    """functools.cached_property without the lock 3.11 takes at each first ask (kept in __dict__)"""

    def __init__(self, func: Callable[[Any], Any]) -> None:
        self.func, self.name, self.__doc__ = func, func.__name__, func.__doc__

    def __get__(self, instance: Any, owner: type | None = None) -> Any:
        if instance is None:
            return self
        value = instance.__dict__[self.name] = self.func(instance)
        return value


@dataclass(frozen=True)
class Sample:
    """One repeat of a case in one run: its status and the digests of the model's answers
    (None: unknown, or not needed: ``compare`` digests a case's answers only when its scored
    repeats got different verdicts in A and B, where a scoring change can be seen)."""

    status: str
    answers: tuple[str, ...] | None = None

    @property
    def scored(self) -> bool:
        return is_scored(self.status)


@dataclass(frozen=True)
class NotCompared:
    """One reason two runs could not be compared at all (METHOD decisions 93 and 111): what it is
    about (a results file's path, a model, or ``(whole run)``), its kind (``unreadable``,
    ``suite_mismatch``, ``no_common_model``) and the error line's text."""

    name: str
    kind: str
    message: str


@dataclass(frozen=True)
class CasePair:
    """One case id seen in A and/or B, side by side (a run's own outcome of a case is
    ``scorer.outcome.CaseOutcome``); a status of ``None`` means the case is absent from that
    run."""

    case_id: str
    group: str | None
    status_a: str | None
    status_b: str | None
    reason_a: str | None
    reason_b: str | None
    samples_a: tuple[Sample, ...] = ()  # every repeat in A; empty means the one sample ``status_a``
    samples_b: tuple[Sample, ...] = ()
    scoring_change: bool = False  # the same answers got a different verdict in A and B

    # Cached, as are the tallies below: the comparison, the gate and every view ask many times.
    @_once
    def paired(self) -> bool:
        """Both runs scored the case (passed or failed), so it counts in the paired test."""
        return is_scored(self.status_a) and is_scored(self.status_b)

    def samples(self, side: str) -> tuple[Sample, ...]:
        """The repeats of side ``a`` or ``b`` (a run without repeats has its status as its
        one sample)."""
        return self._sides[0 if side == "a" else 1]

    @_once
    def _sides(self) -> tuple[tuple[Sample, ...], tuple[Sample, ...]]:
        def side(given: tuple[Sample, ...], status: str | None) -> tuple[Sample, ...]:
            return given or ((Sample(status),) if status is not None else ())

        return side(self.samples_a, self.status_a), side(self.samples_b, self.status_b)

    def counts(self, side: str) -> tuple[int, int]:
        """(passed, scored) repeats on side ``a`` or ``b``."""
        return self._tallies[0 if side == "a" else 1]

    @_once
    def _tallies(self) -> tuple[tuple[int, int], tuple[int, int]]:
        # Counted once per case: the gate, the verdict and every view ask for them many times.
        def tally(samples: tuple[Sample, ...]) -> tuple[int, int]:
            # Scored is passed or failed (scorer.status.SCORED): two counts over the statuses.
            statuses = [s.status for s in samples]
            passed = statuses.count("passed")
            return passed, passed + statuses.count("failed")

        return tally(self.samples("a")), tally(self.samples("b"))

    def rate(self, side: str) -> Fraction | None:
        """The share of scored repeats that passed; None when none was scored."""
        passed, scored = self.counts(side)
        return Fraction(passed, scored) if scored else None

    @_once
    def difference(self) -> Fraction | None:
        """B's pass rate minus A's, for a paired case."""
        (passed_a, scored_a), (passed_b, scored_b) = self.counts("a"), self.counts("b")
        if not scored_a or not scored_b or not self.paired:
            return None
        # b/n - a/m as one fraction: the same exact value as rate("b") - rate("a"), one gcd
        return Fraction(passed_b * scored_a - passed_a * scored_b, scored_a * scored_b)

    @_once
    def change(self) -> str:
        """``worse``, ``better``, ``same`` (by pass rate) or ``unpaired``."""
        d = self.difference
        if d is None:
            return "unpaired"
        return "same" if d == 0 else "worse" if d < 0 else "better"

    @property
    def flaky(self) -> bool:
        """The case's repeats disagree on either side: its flips are noise, not evidence."""
        return any(0 < p < n for p, n in (self.counts("a"), self.counts("b")))

    @_once
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
    cases: tuple[CasePair, ...]  # B's order, then the cases only A has in A's order
    to_failed: tuple[CasePair, ...]
    to_passed: tuple[CasePair, ...]
    unpaired: tuple[CasePair, ...]
    both_passed: int
    both_failed: int
    metrics: tuple[
        MetricDelta, ...
    ]  # the seven metrics in METRICS order, then the repeat metrics either has
    mcnemar_p: float
    repeats_a: int = 1
    repeats_b: int = 1
    paired_p: float = (
        1.0  # the gate's paired test: exact McNemar (one sample per case) or exact sign-flip
    )
    mean_change: float | None = (
        None  # mean of B's minus A's per-case pass rate over paired cases, in points
    )
    power: Power | None = None
    difference: PairedDifference | None = (
        None  # Overall's paired difference B - A with its 95% interval
    )
    history_runs: int = 1  # side A's runs: 2 or more is a history (replay.diff_runs.history)
    worse_p: float = (
        1.0  # the gate's one-sided p that B is worse (paired test, or the history test)
    )
    wire_a: str = "chat"  # each side's dialect, streaming and --param (scorer.wire.settings label)
    wire_b: str = "chat"

    @property
    def wire_mismatch(self) -> bool:
        """A and B were recorded with different request settings: a wire comparison."""
        return self.wire_a != self.wire_b

    history_notes: tuple[str, ...] = ()  # the window check's notes (replay.diff_runs.window)

    @property
    def single_sample(self) -> bool:
        """One sample per case on both sides: flips cannot be told from noise case by case."""
        return self.repeats_a == 1 and self.repeats_b == 1

    @property
    def paired_test(self) -> str:
        """The name of the paired test used."""
        if self.history_runs > 1:
            return f"history exact ({self.history_runs} runs)"
        return "McNemar exact" if self.single_sample else "sign-flip exact"

    def with_change(self, kind: str) -> tuple[CasePair, ...]:
        """The paired cases whose pass rate got ``worse`` or ``better``."""
        return tuple(c for c in self.cases if c.change == kind)

    @property
    def scoring_changes(self) -> tuple[CasePair, ...]:
        """Cases whose same model answers got a different verdict in A and B."""
        return tuple(c for c in self.cases if c.scoring_change)

    @property
    def lost(self) -> tuple[CasePair, ...]:
        """Cases scored in A (passed or failed) that did not score in B: errored, unrecorded
        or absent."""
        return tuple(c for c in self.cases if is_scored(c.status_a) and not is_scored(c.status_b))

    @property
    def pairs(self) -> int:
        """How many cases were scored in both runs."""
        return self.both_passed + self.both_failed + len(self.to_failed) + len(self.to_passed)

    @property
    def suite_mismatch(self) -> bool:
        """A and B were scored with different suites (name or version): scores are
        not comparable."""
        return (self.suite_a.name, self.suite_a.version) != (
            self.suite_b.name,
            self.suite_b.version,
        )

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


ERROR_KINDS = frozenset(
    {"lost", "no_scores", "vanished"}
)  # B did not score: a JUnit <error>, not a <failure>


@dataclass(frozen=True)
class Regression:
    """One thing that makes B a regression of A; ``case_id`` is None when it is about a model's
    whole run.

    ``kind`` names the rule: ``scoring_change`` (the same answers got another verdict), ``flipped``
    (``--strict``: the case's pass rate fell; with one sample, passed -> failed), ``paired_test``
    (B worse than A over the cases), ``dropped`` (Overall beyond ``--max-drop``), ``broke`` (the
    case passed less often in B beyond chance: Fisher exact, Holm over the cases), ``lost``
    (scored in A, errored/unrecorded/absent in B), ``no_scores`` (B scored no case) or
    ``vanished`` (a model of A missing from B). JUnit shows the ``ERROR_KINDS`` as errors, the
    others as failures."""

    model: str
    case_id: str | None
    kind: str
    message: str

    @property
    def is_error(self) -> bool:
        """B lost a score (rather than scoring worse)."""
        return self.kind in ERROR_KINDS


@dataclass(frozen=True)
class Decision:
    """The regression verdict, the one line that explains it, and every regression behind it;
    ``rules`` names the rules that decided (none when no rule fired) and ``notes`` are advice
    printed before the verdict."""

    regression: bool
    line: str
    regressions: tuple[Regression, ...] = ()
    rules: tuple[str, ...] = ()
    notes: tuple[str, ...] = ()
