"""A model's wires as rows of one board: each run of a wire that is not the method's request is
labelled ``MODEL (WIRE)`` and sits beside the model's other rows (docs/decisions/dialects.md,
"A model's wires sort together").

The label is the row's key on every board (tiers, the front, the page), so two runs of one model
through two wires never collide. A board with no such run keeps its order and its names exactly.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import replace
from typing import Any

from scorer.summary import ModelSummary


def labelled(summary: ModelSummary) -> ModelSummary:
    """``summary`` named by its row label: ``MODEL (WIRE)`` for a run of another wire than the
    method's (already labelled: as is)."""
    if summary.wire is None or summary.model.endswith(f" ({summary.wire})"):
        return summary
    return replace(summary, model=f"{summary.model} ({summary.wire})")


def board_rows(summaries: Sequence[ModelSummary]) -> list[ModelSummary]:
    """``summaries`` (in their order) each named by its row label, every label told apart."""
    return distinct([labelled(s) for s in summaries])


def distinct(board: Sequence[ModelSummary]) -> list[ModelSummary]:
    """``board`` with every row label told apart: two rows of one label (one model and wire in two
    model dirs) are each named ``LABEL [MODEL-DIR]``, so no board keys two rows as one."""
    seen: dict[str, int] = {}
    for summary in board:
        seen[summary.model] = seen.get(summary.model, 0) + 1
    return [
        replace(s, model=f"{s.model} [{s.model_slug}]") if seen[s.model] > 1 else s for s in board
    ]


def model_name(summary: ModelSummary) -> str:
    """The model a (labelled) row is of, without its wire."""
    suffix = f" ({summary.wire})"
    if summary.wire is not None and summary.model.endswith(suffix):
        return summary.model[: -len(suffix)]
    return summary.model


def grouped_order(
    summaries: Sequence[ModelSummary], rank: Callable[[ModelSummary], Any]
) -> list[int]:
    """The positions of ``summaries`` in board order: by ``rank``; when some row has a wire, each
    model's rows together, at the place of its best row, the method's run first and then its wires
    by label (the same wire sits at the same place under every model)."""
    order = sorted(range(len(summaries)), key=lambda i: rank(summaries[i]))
    if all(s.wire is None for s in summaries):
        return order
    first: dict[str, int] = {}
    for place, i in enumerate(order):
        first.setdefault(model_name(summaries[i]), place)

    def key(i: int) -> tuple[int, bool, str]:
        wire = summaries[i].wire
        return first[model_name(summaries[i])], wire is not None, wire or ""

    return sorted(order, key=key)


def anomaly_line(board: Sequence[ModelSummary]) -> str | None:
    """Under a board whose streamed runs had transport anomalies: which rows and how many
    case-runs, counted apart from what the models chose (None when no row has any)."""
    found = [f"{s.model} {s.anomalies}" for s in board if s.anomalies]
    if not found:
        return None
    return (
        "Transport anomalies (case-runs whose streamed answer broke in transit, judged as they "
        f"came, counted apart from what the models chose): {', '.join(found)}."
    )
