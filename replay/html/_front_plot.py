"""The report's cost-quality plot: Overall against billed cost per 100 cases, each model with its
95% interval on both axes, coloured by its front status, the pick starred, and the band where the
front lies given the intervals (``replay.html._front_view``)."""

from __future__ import annotations

import math

from matplotlib.ticker import FuncFormatter, LogLocator, NullFormatter

from replay.html._front_view import FrontPlot
from replay.html._plot_model import LEADER_BEYOND, place_labels
from replay.html._svg import figure, to_svg

_COLOURS = {"front": "#c2410c", "ambiguous": "#1f5fa8", "dominated": "#8a8f98"}
_LABELS = {"front": "on the front", "ambiguous": "ambiguous", "dominated": "dominated"}
_BAND = "#f5c9a8"
_MUTED = "#8a8f98"


def _edge(
    corners: tuple[tuple[float, float], ...], right: float
) -> tuple[list[float], list[float]]:
    """A staircase as (xs, ys) for ``fill_between(step="post")``, carried on to ``right``."""
    xs = [x for x, _ in corners] + [right]
    ys = [q for _, q in corners] + [corners[-1][1]]
    return xs, ys


def front_svg(plot: FrontPlot) -> str:
    """The plot's SVG (id ``plot-pick``)."""
    fig = figure(7.0, 4.6, 46, 12, 38)
    ax = fig.subplots()
    points = plot.points
    if not points:
        ax.text(
            0.5, 0.5, "no priced complete model", ha="center", va="center", transform=ax.transAxes
        )
        ax.set_xlabel("cost per 100 cases, USD", fontsize=8)
        return to_svg(fig, "plot-pick")
    left = min(p.x_lo for p in points)
    right = max(p.x_hi for p in points)
    lo_x, lo_y = _edge(plot.lower, right)
    up_x, up_y = _edge(plot.upper, right)
    # The band starts where the worst-case front does: left of it no front is certain.
    grid = sorted(x for x in set(lo_x) | set(up_x) if x >= lo_x[0])

    def at(xs: list[float], ys: list[float], x: float) -> float:
        seen = [y for edge_x, y in zip(xs, ys, strict=True) if edge_x <= x]
        return seen[-1] if seen else -4.0

    ax.fill_between(
        grid,
        [at(lo_x, lo_y, x) for x in grid],
        [at(up_x, up_y, x) for x in grid],
        step="post",
        color=_BAND,
        alpha=0.55,
        linewidth=0,
        label="front band (95% intervals)",
        zorder=1,
    )
    for status, colour in _COLOURS.items():
        chosen = [p for p in points if p.status == status]
        if not chosen:
            continue
        ax.errorbar(
            [p.x for p in chosen],
            [p.q for p in chosen],
            xerr=[[p.x - p.x_lo for p in chosen], [p.x_hi - p.x for p in chosen]],
            yerr=[[p.q - p.q_lo for p in chosen], [p.q_hi - p.q for p in chosen]],
            fmt="o",
            color=colour,
            ecolor=colour,
            elinewidth=0.8,
            alpha=0.85,
            markersize=4.5,
            label=_LABELS[status],
            zorder=3,
        )
    picked = [p for p in points if p.picked]
    if picked:
        ax.plot(
            [p.x for p in picked],
            [p.q for p in picked],
            "*",
            color="#111827",
            markersize=12,
            linestyle="none",
            label="the pick",
            zorder=4,
        )
    log = left > 0 and right / left > 20
    if log:
        ax.set_xscale("log")
        ax.xaxis.set_major_locator(LogLocator(base=10, subs=(1.0, 2.0, 5.0)))
        ax.xaxis.set_major_formatter(FuncFormatter(lambda v, _pos: f"{v:g}"))
        ax.xaxis.set_minor_formatter(NullFormatter())
    wanted = [
        i for i, p in enumerate(points) if len(points) <= 12 or p.status == "front" or p.picked
    ]
    scale = [math.log(p.x) if log else p.x for p in points]
    placed = place_labels([(scale[i], points[i].q, points[i].name) for i in wanted])
    for i, (dx, dy, ha, text) in placed.items():
        p = points[wanted[i]]
        leader = (
            {"arrowstyle": "-", "color": _MUTED, "linewidth": 0.5}
            if abs(dy) > LEADER_BEYOND
            else None
        )
        ax.annotate(
            text,
            (p.x, p.q),
            xytext=(dx, dy),
            textcoords="offset points",
            ha=ha,
            fontsize=7,
            arrowprops=leader,
        )
    xlabel = "cost per 100 cases, USD (bars: 95% case-bootstrap interval)"
    if plot.apart:
        xlabel += f"  ({plot.apart} model{'s' if plot.apart != 1 else ''} apart not shown)"
    ax.set_xlabel(xlabel, fontsize=8)
    ax.set_ylabel("Overall, % (bars: 95% interval)", fontsize=8)
    ax.set_ylim(-4, 104)
    ax.margins(x=0.08)
    ax.grid(color="#e5e5e5", linewidth=0.6)
    ax.tick_params(labelsize=8)
    ax.legend(fontsize=7, loc="lower right")
    return to_svg(fig, "plot-pick")
