"""Whether a model's rates rest on fewer scored cases than it has (some errored or were
not recorded).

Every view that ranks or plots models marks such a model next to its Overall (``72/80``) and keeps
it off the Pareto front (docs/METHOD.md#partial-models-marked): a rate over 72 cases is not
comparable with one over 80.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

from scorer.summary import ModelSummary


class Partial(NamedTuple):
    """The case-runs (cases at K = 1) the rates rest on, and how many the model has."""

    scored: int
    total: int

    def mark(self) -> str:
        """The mark next to Overall: ``72/80``."""
        return f"{self.scored}/{self.total}"


def partial(summary: ModelSummary) -> Partial | None:
    """``Partial`` when fewer than all of the model's case-runs were scored (its ``case_runs``: its
    cases at K = 1); ``None`` for a complete model."""
    runs = summary.case_runs
    return Partial(runs.scored, runs.total) if runs.scored < runs.total else None


def partial_line(summaries: Sequence[ModelSummary], short: bool = False) -> str | None:
    """The line by a table that explains its marks, naming each partial model; ``None`` when there
    is none. ``short``: the terminal's version, one 80-column line for one partial model."""
    marks = [f"{s.model} {mark.mark()}" for s in summaries if (mark := partial(s)) is not None]
    if not marks:
        return None
    if short:
        return f"Partial (scored/total; the rest errored or unrecorded): {', '.join(marks)}."
    return (
        "Partial models, marked scored/total at Overall (their rates rest on fewer cases, or "
        f"case-runs, than they have; the rest errored or were not recorded): {', '.join(marks)}."
    )
