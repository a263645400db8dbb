"""The report's plots, drawn by matplotlib into SVG text that the page inlines (no image files, no network).

matplotlib rather than a JS charting library: its SVG is static (nothing runs in the page, so nothing can log
a console error or fetch a script), it escapes every text it writes, and with a fixed ``svg.hashsalt`` and no
date in the metadata the same input gives the same bytes in every process.
"""

from __future__ import annotations

import io
import math
import re
from collections.abc import Sequence
from dataclasses import dataclass

import matplotlib
from matplotlib.backends.backend_svg import FigureCanvasSVG
from matplotlib.figure import Figure

from replay.html._labels import GROUP_LABELS, METRIC_LABELS, LOWER_IS_BETTER

_POINT = "#1f5fa8"
_FRONT = "#c2410c"
_MUTED = "#8a8f98"
_XML_PROLOG = re.compile(r"^<\?xml[^>]*>\s*(<!DOCTYPE[^>]*>\s*)?", re.S)
# matplotlib's comments repeat every label; its own escaping keeps "-->" out of them, so a lazy match is exact.
_COMMENT = re.compile(r"<!--.*?-->\s*", re.S)


@dataclass(frozen=True)
class Interval:
    """A rate in percent with its 95% interval (either bound may be missing in a hand-edited file)."""

    rate: float
    lo: float | None
    hi: float | None


@dataclass(frozen=True)
class PlotModel:
    """What the plots need of one model, in the order the report lists models."""

    name: str
    metrics: dict[str, Interval | None]
    groups: dict[str, float | None]
    cost_per_100: float | None
    latency_p50_ms: float | None


def _text(label: str) -> str:
    """A model name as matplotlib text: a ``$`` would otherwise start mathtext (and can fail to parse)."""
    return label.replace("\\", "\\\\").replace("$", r"\$")


def _to_svg(fig: Figure, plot_id: str) -> str:
    """Serialise ``fig`` as an SVG element for inlining: no XML prolog, no comments, ids unique to ``plot_id``."""
    buf = io.StringIO()
    params = {
        # A salt per plot keeps the generated clip-path and marker ids distinct between plots on one page.
        "svg.hashsalt": f"lobstack-{plot_id}",
        "svg.id": plot_id,
        # Text stays text: smaller, selectable, and readable by the tests.
        "svg.fonttype": "none",
    }
    with matplotlib.rc_context(params):
        FigureCanvasSVG(fig)
        fig.savefig(buf, format="svg", metadata={"Date": None})
    svg = _XML_PROLOG.sub("", buf.getvalue())
    return _COMMENT.sub("", svg).strip()


def _figure(width: float, height: float) -> Figure:
    fig = Figure(figsize=(width, height), dpi=72, layout="constrained")
    fig.patch.set_alpha(0.0)
    return fig


def rates_svg(models: Sequence[PlotModel]) -> str:
    """One panel per metric: each model's rate as a dot with its 95% interval as a bar; a dash when no rate."""
    n = len(models)
    fig = _figure(12.0, 1.3 + 0.22 * max(n, 2))
    axes = fig.subplots(1, len(METRIC_LABELS), sharey=True)
    ys = list(range(n))
    for ax, (key, label) in zip(axes, METRIC_LABELS.items(), strict=True):
        for y, model in zip(ys, models, strict=True):
            iv = model.metrics.get(key)
            if iv is None:
                ax.text(50, y, "–", ha="center", va="center", color=_MUTED, fontsize=8)
                continue
            if iv.lo is not None and iv.hi is not None:
                ax.plot([iv.lo, iv.hi], [y, y], color=_POINT, alpha=0.45, linewidth=2.2, solid_capstyle="butt")
            ax.plot([iv.rate], [y], "o", color=_POINT, markersize=4.5)
        ax.set_xlim(-4, 104)
        ax.set_xticks([0, 50, 100])
        ax.set_title(label + (" (lower is better)" if key in LOWER_IS_BETTER else ""), fontsize=9)
        ax.grid(axis="x", color="#dddddd", linewidth=0.6)
        ax.tick_params(labelsize=8)
        ax.set_axisbelow(True)
    axes[0].set_yticks(ys, [_text(m.name) for m in models])
    axes[0].set_ylim(n - 0.5, -0.5)
    fig.supxlabel("rate, % (bar: 95% interval)", fontsize=8)
    return _to_svg(fig, "plot-rates")


def pareto_front(points: Sequence[tuple[float, float]]) -> list[int]:
    """Indices of the points no other point beats (x lower or equal and y higher or equal, one strictly), by x."""
    order = sorted(range(len(points)), key=lambda i: (points[i][0], -points[i][1], i))
    front: list[int] = []
    best = -math.inf
    for i in order:
        if points[i][1] > best:
            front.append(i)
            best = points[i][1]
    return front


def tradeoff_svg(models: Sequence[PlotModel], axis: str) -> str:
    """Overall against ``axis`` (``"cost"`` or ``"latency"``), the Pareto front joined and labelled."""
    if axis == "cost":
        xs = [m.cost_per_100 for m in models]
        xlabel, plot_id = "cost per 100 cases, USD", "plot-cost"
    elif axis == "latency":
        xs = [m.latency_p50_ms for m in models]
        xlabel, plot_id = "latency p50, ms", "plot-latency"
    else:
        raise ValueError(f"unknown trade-off axis {axis!r}")
    shown = [
        (x, m.metrics["overall"].rate, m.name)
        for x, m in zip(xs, models, strict=True)
        if x is not None and m.metrics.get("overall") is not None
    ]
    fig = _figure(6.0, 4.2)
    ax = fig.subplots()
    if shown:
        pts = [(x, y) for x, y, _ in shown]
        front = pareto_front(pts)
        on_front = set(front)
        ax.scatter(
            [x for i, (x, _) in enumerate(pts) if i not in on_front],
            [y for i, (_, y) in enumerate(pts) if i not in on_front],
            s=22,
            color=_POINT,
            alpha=0.7,
            label="model",
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
        # Label the front always; label everything only while the plot stays readable.
        label_all = len(shown) <= 12
        for i, (x, y, name) in enumerate(shown):
            if label_all or i in on_front:
                ax.annotate(_text(name), (x, y), xytext=(4, 4), textcoords="offset points", fontsize=7)
        positive = [x for x, _ in pts if x > 0]
        if len(positive) == len(pts) and max(positive) / min(positive) > 20:
            ax.set_xscale("log")
        ax.legend(fontsize=7, loc="lower right")
    else:
        ax.text(0.5, 0.5, "no model has both figures", ha="center", va="center", transform=ax.transAxes)
    missing = len(models) - len(shown)
    if missing:
        xlabel += f"  ({missing} model{'s' if missing != 1 else ''} without it not shown)"
    ax.set_xlabel(xlabel, fontsize=8)
    ax.set_ylabel("Overall, %", fontsize=8)
    ax.set_ylim(-4, 104)
    ax.grid(color="#e5e5e5", linewidth=0.6)
    ax.tick_params(labelsize=8)
    return _to_svg(fig, plot_id)


def heatmap_svg(models: Sequence[PlotModel]) -> str:
    """Model x group heat map of each group's Overall rate, the value written in the cell; grey when none."""
    n = len(models)
    keys = list(GROUP_LABELS)
    fig = _figure(7.5, 1.2 + 0.24 * max(n, 2))
    ax = fig.subplots()
    values = [[m.groups.get(k) for k in keys] for m in models]
    grid = [[math.nan if v is None else v for v in row] for row in values]
    cmap = matplotlib.colormaps["RdYlGn"].with_extremes(bad="#e3e3e3")
    ax.pcolormesh(grid, cmap=cmap, vmin=0, vmax=100, edgecolors="white", linewidth=0.8)
    for y, row in enumerate(values):
        for x, v in enumerate(row):
            ax.text(x + 0.5, y + 0.5, "–" if v is None else f"{v:.0f}", ha="center", va="center", fontsize=7)
    ax.set_xticks([i + 0.5 for i in range(len(keys))], [GROUP_LABELS[k] for k in keys], fontsize=8)
    ax.xaxis.tick_top()
    ax.set_yticks([i + 0.5 for i in range(n)], [_text(m.name) for m in models], fontsize=8)
    ax.set_xlim(0, len(keys))
    ax.set_ylim(n, 0)
    ax.tick_params(length=0)
    for spine in ax.spines.values():
        spine.set_visible(False)
    return _to_svg(fig, "plot-groups")


__all__ = ["Interval", "PlotModel", "heatmap_svg", "pareto_front", "rates_svg", "tradeoff_svg"]
