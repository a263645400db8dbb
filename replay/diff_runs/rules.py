"""What every gate rule shares: its options, its result, and the texts that name cases in a
verdict (pure)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from replay.diff_runs.model import CasePair, ModelDiff, Regression, RunDiff


@dataclass(frozen=True)
class GateOptions:
    """What the gate was asked for on the command line."""

    max_drop: float | None = None
    alpha: float = 0.05
    strict: bool = False
    allow_errored: int = (
        0  # cases per model that may be lost (scored in A, not in B) without failing the gate
    )
    family: str = "model"  # where alpha is spent: each ``model`` on its own, or the whole ``run``


@dataclass(frozen=True)
class RuleResult:
    """One rule's finding: ``rule`` names it, ``text`` says what it saw (shown whether it fired or
    not), and ``regressions`` are what it counts when it fired (at least one)."""

    rule: str
    fired: bool
    text: str
    regressions: tuple[Regression, ...] = ()


Rule = Callable[[RunDiff, GateOptions], RuleResult | None]


def cases_text(count: int) -> str:
    """``1 case``, ``2 cases``."""
    return f"{count} {'case' if count == 1 else 'cases'}"


def ids(cases: Sequence[CasePair], limit: int = 10) -> str:
    """The first ``limit`` case ids, then how many more: the full list is printed above the verdict;
    the verdict line stays readable in a CI log."""
    shown = ", ".join(c.case_id for c in cases[:limit])
    return shown + (f", +{len(cases) - limit} more" if len(cases) > limit else "")


def listing(found: Sequence[tuple[ModelDiff, Sequence[CasePair]]]) -> str:
    """``model: ids; model: ids``."""
    return "; ".join(f"{m.model}: {ids(cases)}" for m, cases in found)


def case_history(case: CasePair) -> str:
    """What a case did in A and in B: its status (one sample per side), or how many scored
    repeats passed."""
    if len(case.samples("a")) <= 1 and len(case.samples("b")) <= 1:
        return f"{case.status_a or 'absent'} in A, {case.status_b or 'absent'} in B"
    return f"{_side(case, 'a')} in A, {_side(case, 'b')} in B"


def _side(case: CasePair, side: str) -> str:
    samples = case.samples(side)
    if not samples:
        return "absent"
    passed, scored = case.counts(side)
    if len(samples) == 1:
        return samples[0].status
    return (
        f"{passed} of {scored} scored repeats passed"
        if scored
        else f"no scored repeat of {len(samples)}"
    )
