"""What the report's pick section shows (pure, no HTML, no matplotlib): the cost-quality plot's
points and band, the front table's rows and the pick's sentence, from ``scorer.front``."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from replay.front_text import headers, legend, pick_sentence, row_cells
from replay.html._plot_model import plain_text
from scorer.front import Front


@dataclass(frozen=True)
class FrontPoint:
    """One placed model: Overall and cost with their 95% intervals, its status, whether picked."""

    name: str
    x: float
    x_lo: float
    x_hi: float
    q: float
    q_lo: float
    q_hi: float
    status: str
    picked: bool


@dataclass(frozen=True)
class FrontPlot:
    """Everything the plot draws (its repr is the plot cache's key): the points, the band's lower
    and upper edges as steps ``(x, Overall)``, how many models are apart."""

    points: tuple[FrontPoint, ...]
    lower: tuple[tuple[float, float], ...]
    upper: tuple[tuple[float, float], ...]
    apart: int


def steps(corners: Sequence[tuple[float, float]]) -> tuple[tuple[float, float], ...]:
    """The Pareto staircase of ``(x, Overall)`` corners: by x, each corner that raises the best
    Overall seen so far (the front drawn through them)."""
    found: list[tuple[float, float]] = []
    for x, q in sorted(corners, key=lambda c: (c[0], -c[1])):
        if not found or q > found[-1][1]:
            found.append((x, q))
    return tuple(found)


def front_plot(front: Front) -> FrontPlot:
    """The plot of ``front``: each placed model (its interval its own where known, else its
    point), and the band between the front of every model's worst corner (dearest, lowest
    Overall) and of its best (cheapest, highest): where the front lies given the intervals."""
    points = []
    for r in front.rows:
        if r.status == "apart" or r.x is None or r.overall is None:
            continue
        x_lo, x_hi = r.x_ci or (r.x, r.x)
        q_lo, q_hi = r.overall_ci or (r.overall, r.overall)
        points.append(
            FrontPoint(
                plain_text(r.model),
                r.x,
                min(x_lo, r.x),
                max(x_hi, r.x),
                r.overall,
                q_lo,
                q_hi,
                r.status,
                r.model == front.pick.model,
            )
        )
    lower = steps([(p.x_hi, p.q_lo) for p in points])
    upper = steps([(p.x_lo, p.q_hi) for p in points])
    apart = sum(1 for r in front.rows if r.status == "apart")
    return FrontPlot(tuple(points), lower, upper, apart)


def section(front: Front) -> dict[str, object]:
    """The template's values for the pick section."""
    return {
        "sentence": pick_sentence(front),
        "delta": f"{front.delta:g}",
        "alpha": f"{front.alpha:g}",
        "headers": headers(front),
        "rows": [row_cells(front, r, terminal=False) for r in front.rows],
        "legend": legend(front),
    }
