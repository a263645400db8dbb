"""Whether a model's rates rest on fewer scored cases than it has (some errored or were not recorded).

Every view that ranks or plots models marks such a model next to its Overall (``72/80``) and keeps it off the
Pareto front (docs/METHOD.md#partial-models-marked): a rate over 72 cases is not comparable with one over 80.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, NamedTuple


class Partial(NamedTuple):
    """The case-runs (cases at K = 1) the rates rest on, and how many the model has."""

    scored: int
    total: int

    def mark(self) -> str:
        """The mark next to Overall: ``72/80``."""
        return f"{self.scored}/{self.total}"


def partial(document: dict[str, Any]) -> Partial | None:
    """``Partial`` when fewer than all of the model's case-runs were scored (``case_runs`` with repeats, else
    ``cases``, as results.json and the rows summaries count them); ``None`` for a complete model."""
    runs = document.get("case_runs") or document.get("cases")
    scored, total = (
        (runs.get("scored"), runs.get("total")) if isinstance(runs, dict) else (None, None)
    )
    if not isinstance(scored, int) or not isinstance(
        total, int
    ):  # a hand-edited file: nothing to say
        return None
    return Partial(scored, total) if scored < total else None


def partial_line(documents: Sequence[dict[str, Any]], short: bool = False) -> str | None:
    """The line by a table that explains its marks, naming each partial model; ``None`` when there is none.
    ``short``: the terminal's version, one 80-column line for one partial model."""
    marks = [
        f"{doc['model']} {mark.mark()}" for doc in documents if (mark := partial(doc)) is not None
    ]
    if not marks:
        return None
    if short:
        return f"Partial (scored/total; the rest errored or unrecorded): {', '.join(marks)}."
    return (
        "Partial models, marked scored/total at Overall (their rates rest on fewer cases, or case-runs, than they "
        f"have; the rest errored or were not recorded): {', '.join(marks)}."
    )
