"""Which metrics a case counts for, read from the shape of its steps alone (METHOD.md,
"The metrics").

The one place that says it: a case counts for Right tool when it has a call step (the first one is
judged), for Chains when it has two or more steps, for Parallel at each step expecting two or more
calls, and for No call needed when its first step expects no call. No rule reads a case's group, so
a suite names its own groups.
"""

from __future__ import annotations

from scorer.suite.model import Case


def first_call_step(case: Case) -> int | None:
    """The index of the case's first call step (Right tool judges it), None when every step
    expects none."""
    return next((i for i, step in enumerate(case.steps) if step.expect == "call"), None)


def is_chain(case: Case) -> bool:
    """Chains: the case has two or more steps."""
    return len(case.steps) >= 2


def parallel_steps(case: Case) -> list[int]:
    """Parallel: the indexes of the steps expecting two or more calls (empty: the case is
    not counted)."""
    return [i for i, step in enumerate(case.steps) if len(step.calls) >= 2]


def expects_no_call_first(case: Case) -> bool:
    """No call needed: the case's first step expects no call."""
    return case.steps[0].expect == "none"
