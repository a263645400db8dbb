"""The report's plots: every rate with its interval, Overall against cost and latency, the group
heat map."""

from __future__ import annotations

import math
from collections.abc import Sequence

import matplotlib
from matplotlib.ticker import FuncFormatter, LogLocator, NullFormatter

from replay.html._labels import GROUP_LABELS, LOWER_IS_BETTER, METRIC_LABELS
from replay.html._plot_model import (
    LEADER_BEYOND,
    Interval,
    PlotModel,
    pareto_front,
    place_labels,
    plain_text,
)
from replay.html._svg import empty_svg, figure, label_width_pt, row_labels, to_svg

__all__ = [
    "HEATMAP_NUMBERS_MAX_MODELS",
    "Interval",
    "PlotModel",
    "heatmap_svg",
    "pareto_front",
    "place_labels",
    "rates_svg",
    "tradeoff_svg",
]

_POINT = "#1f5fa8"
_FRONT = "#c2410c"
_MUTED = "#8a8f98"


_PANEL = 100.0  # a metric's panel spans 0..100 on the shared x axis
_GAP = 22.0  # blank space between two panels


def rates_svg(models: Sequence[PlotModel]) -> str:
    """One panel per metric: each model's rate as a dot with its 95% interval as a bar; a dash when
    no rate.

    The seven panels are blocks of one axes (offset along x), not seven axes: every axes costs
    matplotlib a tick machinery, and with 100 models that was most of the report's render time.
    """
    if not models:
        return empty_svg("plot-rates")
    n = len(models)
    names = [plain_text(m.name) for m in models]
    fig = figure(12.0, 1.2 + 0.2 * max(n, 2), label_width_pt(names, 8) + 14, 34, 40)
    ax = fig.subplots()
    bar_y: list[float] = []
    bar_lo: list[float] = []
    bar_hi: list[float] = []
    dot_x: list[float] = []
    dot_y: list[float] = []
    dash_x: list[float] = []
    dash_y: list[float] = []
    ticks: list[float] = []
    for k, (key, label) in enumerate(METRIC_LABELS.items()):
        x0 = k * (_PANEL + _GAP)
        ax.axvspan(x0 - 4, x0 + _PANEL + 4, color="#f3f5f7", zorder=0, linewidth=0)
        title = label + ("\n(lower is better)" if key in LOWER_IS_BETTER else "")
        ax.text(
            x0 + _PANEL / 2,
            1.005,
            title,
            transform=ax.get_xaxis_transform(),
            ha="center",
            va="bottom",
            fontsize=8.5,
        )
        ticks += [x0, x0 + _PANEL / 2, x0 + _PANEL]
        for y, m in enumerate(models):
            iv = m.metrics.get(key)
            if iv is None:
                dash_x.append(x0 + _PANEL / 2)
                dash_y.append(y)
                continue
            if iv.lo is not None and iv.hi is not None:
                bar_y.append(y)
                bar_lo.append(x0 + iv.lo)
                bar_hi.append(x0 + iv.hi)
            dot_x.append(x0 + iv.rate)
            dot_y.append(y)
    ax.vlines(ticks, -0.5, n - 0.5, color="#dcdfe3", linewidth=0.6, zorder=1)
    if bar_y:
        ax.hlines(bar_y, bar_lo, bar_hi, color=_POINT, alpha=0.45, linewidth=2.2, zorder=2)
    if dot_x:
        ax.plot(dot_x, dot_y, "o", color=_POINT, markersize=4.5, linestyle="none", zorder=3)
    if dash_x:
        ax.plot(dash_x, dash_y, "_", color=_MUTED, markersize=6, linestyle="none", zorder=3)
    ax.set_xticks(ticks, ["0", "50", "100"] * len(METRIC_LABELS))
    ax.set_xlim(-6, len(METRIC_LABELS) * (_PANEL + _GAP) - _GAP + 6)
    ax.set_ylim(n - 0.5, -0.5)
    row_labels(ax, range(n), names)
    ax.tick_params(labelsize=8, length=2)
    for spine in ax.spines.values():
        spine.set_visible(False)
    ax.set_xlabel("rate, % (bar: 95% interval; a dash: nothing to apply to)", fontsize=8)
    return to_svg(fig, "plot-rates")


def tradeoff_svg(models: Sequence[PlotModel], axis: str) -> str:
    """Overall against ``axis`` (``"cost"`` or ``"latency"``), the Pareto front joined
    and labelled."""
    if axis == "cost":
        xs = [m.cost_per_100 for m in models]
        xlabel, plot_id = "cost per 100 cases, USD", "plot-cost"
    elif axis == "latency":
        xs = [m.latency_p50_ms for m in models]
        xlabel, plot_id = "latency p50, ms", "plot-latency"
    else:
        raise ValueError(f"unknown trade-off axis {axis!r}")
    kept = [
        (x, m)
        for x, m in zip(xs, models, strict=True)
        if x is not None and m.metrics.get("overall") is not None
    ]
    shown = [(x, m.metrics["overall"].rate, m.name) for x, m in kept]  # type: ignore[union-attr]
    hollow = [m.partial for _, m in kept]
    fig = figure(6.0, 4.2, 46, 12, 38)
    ax = fig.subplots()
    if shown:
        pts = [(x, y) for x, y, _ in shown]
        front = pareto_front(pts, hollow)
        on_front = set(front)
        off = [i for i in range(len(pts)) if i not in on_front and not hollow[i]]
        ax.scatter(
            [pts[i][0] for i in off],
            [pts[i][1] for i in off],
            s=22,
            color=_POINT,
            alpha=0.7,
            label="model",
        )
        if any(hollow):
            part = [i for i in range(len(pts)) if hollow[i]]
            ax.scatter(
                [pts[i][0] for i in part],
                [pts[i][1] for i in part],
                s=26,
                facecolors="none",
                edgecolors=_MUTED,
                linewidths=1.2,
                label="partial (not on the front)",
            )
        ax.plot(
            [pts[i][0] for i in front],
            [pts[i][1] for i in front],
            "-o",
            drawstyle="steps-post",
            color=_FRONT,
            markersize=5.5,
            linewidth=1.2,
            label="Pareto front",
        )
        positive = [x for x, _ in pts if x > 0]
        log = len(positive) == len(pts) and max(positive) / min(positive) > 20
        if log:
            ax.set_xscale("log")
        # Label the front always; label everything only while the plot stays readable.
        scale = [math.log(x) if log else x for x, _ in pts]
        label_all = len(shown) <= 12
        wanted = [i for i in range(len(shown)) if label_all or i in on_front]
        for i, (dx, dy, ha, text) in place_labels(
            [(scale[i], pts[i][1], shown[i][2]) for i in wanted]
        ).items():
            x, y = pts[wanted[i]]
            leader = (
                {"arrowstyle": "-", "color": _MUTED, "linewidth": 0.5}
                if abs(dy) > LEADER_BEYOND
                else None
            )
            ax.annotate(
                text,
                (x, y),
                xytext=(dx, dy),
                textcoords="offset points",
                ha=ha,
                fontsize=7,
                arrowprops=leader,
            )
        if log:
            # Plain numbers on a log axis; minor ticks unlabelled (their labels collide within
            # a decade).
            ax.xaxis.set_major_locator(LogLocator(base=10, subs=(1.0, 2.0, 5.0)))
            ax.xaxis.set_major_formatter(FuncFormatter(lambda v, _pos: f"{v:g}"))
            ax.xaxis.set_minor_formatter(NullFormatter())
        ax.margins(x=0.08)
        ax.legend(fontsize=7, loc="lower right")
    else:
        ax.text(
            0.5, 0.5, "no model has both figures", ha="center", va="center", transform=ax.transAxes
        )
    missing = len(models) - len(shown)
    if missing:
        xlabel += f"  ({missing} model{'s' if missing != 1 else ''} without it not shown)"
    ax.set_xlabel(xlabel, fontsize=8)
    ax.set_ylabel("Overall, %", fontsize=8)
    ax.set_ylim(-4, 104)
    ax.grid(color="#e5e5e5", linewidth=0.6)
    ax.tick_params(labelsize=8)
    return to_svg(fig, plot_id)


# Above this many models the cells are drawn without their numbers: each number is a text matplotlib
# must lay out, and 600 of them cost more time than the whole rest of the report.
HEATMAP_NUMBERS_MAX_MODELS = 40


def heatmap_svg(models: Sequence[PlotModel]) -> str:
    """Model x group heat map of each group's Overall rate (value in the cell up to 40 models);
    grey when none."""
    if not models:
        return empty_svg("plot-groups")
    n = len(models)
    # Every model's groups in first-seen order: the Lobstack suite's six, or a suite of one's own.
    keys = list(dict.fromkeys(k for m in models for k in m.groups)) or list(GROUP_LABELS)
    names = [plain_text(m.name) for m in models]
    numbers = n <= HEATMAP_NUMBERS_MAX_MODELS
    fig = figure(
        7.5,
        0.9 + 0.24 * max(n, 2),
        label_width_pt(names, 8) + 12,
        28,
        10,
        right_pt=14 if numbers else 44,
    )
    ax = fig.subplots()
    values = [[m.groups.get(k) for k in keys] for m in models]
    grid = [[math.nan if v is None else v for v in row] for row in values]
    cmap = matplotlib.colormaps["RdYlGn"].with_extremes(bad="#e3e3e3")
    mesh = ax.pcolormesh(grid, cmap=cmap, vmin=0, vmax=100, edgecolors="white", linewidth=0.8)
    if numbers:
        for y, row in enumerate(values):
            for x, v in enumerate(row):
                # 9 pt, and white on the dark ends of the colour map, so the number reads on
                # every cell.
                r, g, b, _ = cmap(math.nan if v is None else v / 100)
                ink = "white" if 0.299 * r + 0.587 * g + 0.114 * b < 0.5 else "black"
                text = "–" if v is None else f"{v:.0f}"
                ax.text(x + 0.5, y + 0.5, text, ha="center", va="center", fontsize=9, color=ink)
    else:
        fig.colorbar(mesh, ax=ax, fraction=0.04, pad=0.02, aspect=40, label="Overall, %")
    ax.set_xticks(
        [i + 0.5 for i in range(len(keys))],
        [plain_text(GROUP_LABELS.get(k, k)) for k in keys],
        fontsize=8,
    )
    ax.xaxis.tick_top()
    row_labels(ax, [i + 0.5 for i in range(n)], names)
    ax.set_xlim(0, len(keys))
    ax.set_ylim(n, 0)
    ax.tick_params(length=0)
    for spine in ax.spines.values():
        spine.set_visible(False)
    return to_svg(fig, "plot-groups")
