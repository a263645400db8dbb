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
from matplotlib.axes import Axes
from matplotlib.backends.backend_svg import FigureCanvasSVG
from matplotlib.figure import Figure
from matplotlib.font_manager import FontProperties
from matplotlib.textpath import text_to_path
from matplotlib.ticker import FuncFormatter, LogLocator, NullFormatter

from replay.html._labels import GROUP_LABELS, LOWER_IS_BETTER, METRIC_LABELS

_POINT = "#1f5fa8"
_FRONT = "#c2410c"
_MUTED = "#8a8f98"
_XML_PROLOG = re.compile(r"^<\?xml[^>]*>\s*(<!DOCTYPE[^>]*>\s*)?", re.S)
# matplotlib's comments repeat every label; its own escaping keeps "-->" out of them, so a lazy match is exact.
_COMMENT = re.compile(r"<!--.*?-->\s*", re.S)
# The RDF block only names the format and the creator (with a URL); the page has no use for it.
_METADATA = re.compile(r"<metadata>.*?</metadata>\s*", re.S)
# matplotlib names every group (``figure_1``, ``axes_1``, ``text_12``...): nothing refers to these, and two plots
# on one page would repeat them. Its referenced ids (clip paths, markers) are salted hashes without ``_``.
_GROUP_ID = re.compile(r'\sid="[A-Za-z][A-Za-z0-9.]*_\d+"')


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
    return _GROUP_ID.sub("", _METADATA.sub("", _COMMENT.sub("", svg))).strip()


def _label_width_pt(labels: Sequence[str], size: float) -> float:
    """The widest of ``labels`` in points at font ``size``, measured with matplotlib's own font metrics."""
    prop = FontProperties(size=size)
    # The longest strings by character count are the only candidates worth measuring exactly.
    longest = sorted(set(labels), key=lambda s: (-len(s), s))[:12]
    return max((text_to_path.get_text_width_height_descent(s, prop, ismath=False)[0] for s in longest), default=0.0)


def _figure(
    width: float, height: float, left_pt: float, top_pt: float, bottom_pt: float, right_pt: float = 14
) -> Figure:
    """A figure with fixed margins in points (cheaper than constrained layout, which re-measures every text)."""
    fig = Figure(figsize=(width, height), dpi=72)
    fig.patch.set_alpha(0.0)
    w, h = width * 72, height * 72
    fig.subplots_adjust(left=left_pt / w, right=1 - right_pt / w, top=1 - top_pt / h, bottom=bottom_pt / h, wspace=0.12)
    return fig


_PANEL = 100.0  # a metric's panel spans 0..100 on the shared x axis
_GAP = 22.0  # blank space between two panels


def _row_labels(ax: Axes, ys: Sequence[float], names: Sequence[str]) -> None:
    """Model names left of the rows as plain texts: a matplotlib tick is five artists, a text one (2x faster)."""
    ax.set_yticks([])
    where = ax.get_yaxis_transform()  # x in axes fractions, y in data
    for y, name in zip(ys, names, strict=True):
        ax.text(-0.006, y, name, transform=where, ha="right", va="center", fontsize=8)


def _empty_svg(plot_id: str) -> str:
    fig = _figure(6.0, 1.0, 10, 10, 10)
    ax = fig.subplots()
    ax.axis("off")
    ax.text(0.5, 0.5, "no models", ha="center", va="center", transform=ax.transAxes, fontsize=9)
    return _to_svg(fig, plot_id)


def rates_svg(models: Sequence[PlotModel]) -> str:
    """One panel per metric: each model's rate as a dot with its 95% interval as a bar; a dash when no rate.

    The seven panels are blocks of one axes (offset along x), not seven axes: every axes costs matplotlib
    a tick machinery, and with 100 models that was most of the report's render time.
    """
    if not models:
        return _empty_svg("plot-rates")
    n = len(models)
    names = [_text(m.name) for m in models]
    fig = _figure(12.0, 1.2 + 0.2 * max(n, 2), _label_width_pt(names, 8) + 14, 34, 40)
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
            x0 + _PANEL / 2, 1.005, title, transform=ax.get_xaxis_transform(), ha="center", va="bottom", fontsize=8.5
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
    _row_labels(ax, range(n), names)
    ax.tick_params(labelsize=8, length=2)
    for spine in ax.spines.values():
        spine.set_visible(False)
    ax.set_xlabel("rate, % (bar: 95% interval; a dash: nothing to apply to)", fontsize=8)
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


# Rough label box in axes fractions for 7 pt text on the 6 x 4.2 in plot: per character, and one line high.
_CHAR_W = 0.0105
_LINE_H = 0.04
_OFFSETS = (4.0, -11.0, 14.0, -21.0)  # vertical offsets to try, in points (one point is about 0.0037 of y)


def place_labels(points: Sequence[tuple[float, float, str]]) -> dict[int, tuple[float, float, str, str]]:
    """Where to write each point's label: ``{index: (dx_pt, dy_pt, ha, text)}``, greedy, best y first.

    ``points`` are (x on the axis scale, y in 0..100, name). Points at the same place share one label; a label
    on the right half of the plot goes to the left of its point so that it stays inside the figure; a label
    that would overlap one already placed moves below or above it.
    """
    xs = [p[0] for p in points]
    lo, hi = (min(xs), max(xs)) if xs else (0.0, 1.0)
    span = (hi - lo) or 1.0
    same: dict[tuple[float, float], list[int]] = {}
    for i, (x, y, _) in enumerate(points):
        same.setdefault((x, y), []).append(i)
    placed: list[tuple[float, float, float, float]] = []  # boxes (x0, x1, y0, y1) in axes fractions
    out: dict[int, tuple[float, float, str, str]] = {}
    for (x, y), members in sorted(same.items(), key=lambda kv: (-kv[0][1], kv[0][0])):
        text = ", ".join(sorted(_text(points[i][2]) for i in members))
        xn, yn = (x - lo) / span * 0.84 + 0.08, (y + 4) / 108
        right = xn > 0.5
        width = _CHAR_W * len(text)
        x0, x1 = (xn - width, xn) if right else (xn, xn + width)
        choice = _OFFSETS[0]
        for dy in _OFFSETS:
            y0 = yn + dy * 0.0037
            if not any(x0 < bx1 and bx0 < x1 and y0 < by1 and by0 < y0 + _LINE_H for bx0, bx1, by0, by1 in placed):
                choice = dy
                break
        y0 = yn + choice * 0.0037
        placed.append((x0, x1, y0, y0 + _LINE_H))
        out[members[0]] = (-5.0 if right else 5.0, choice, "right" if right else "left", text)
    return out


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
    fig = _figure(6.0, 4.2, 46, 12, 38)
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
        positive = [x for x, _ in pts if x > 0]
        log = len(positive) == len(pts) and max(positive) / min(positive) > 20
        if log:
            ax.set_xscale("log")
        # Label the front always; label everything only while the plot stays readable.
        scale = [math.log(x) if log else x for x, _ in pts]
        label_all = len(shown) <= 12
        wanted = [i for i in range(len(shown)) if label_all or i in on_front]
        for i, (dx, dy, ha, text) in place_labels([(scale[i], pts[i][1], shown[i][2]) for i in wanted]).items():
            x, y = pts[wanted[i]]
            ax.annotate(text, (x, y), xytext=(dx, dy), textcoords="offset points", ha=ha, fontsize=7)
        if log:
            # Plain numbers on a log axis; minor ticks unlabelled (their labels collide within a decade).
            ax.xaxis.set_major_locator(LogLocator(base=10, subs=(1.0, 2.0, 5.0)))
            ax.xaxis.set_major_formatter(FuncFormatter(lambda v, _pos: f"{v:g}"))
            ax.xaxis.set_minor_formatter(NullFormatter())
        ax.margins(x=0.08)
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


# Above this many models the cells are drawn without their numbers: each number is a text matplotlib must lay
# out, and 600 of them cost more time than the whole rest of the report.
HEATMAP_NUMBERS_MAX_MODELS = 40


def heatmap_svg(models: Sequence[PlotModel]) -> str:
    """Model x group heat map of each group's Overall rate (value in the cell up to 40 models); grey when none."""
    if not models:
        return _empty_svg("plot-groups")
    n = len(models)
    keys = list(GROUP_LABELS)
    names = [_text(m.name) for m in models]
    numbers = n <= HEATMAP_NUMBERS_MAX_MODELS
    fig = _figure(7.5, 0.9 + 0.24 * max(n, 2), _label_width_pt(names, 8) + 12, 28, 10, right_pt=14 if numbers else 44)
    ax = fig.subplots()
    values = [[m.groups.get(k) for k in keys] for m in models]
    grid = [[math.nan if v is None else v for v in row] for row in values]
    cmap = matplotlib.colormaps["RdYlGn"].with_extremes(bad="#e3e3e3")
    mesh = ax.pcolormesh(grid, cmap=cmap, vmin=0, vmax=100, edgecolors="white", linewidth=0.8)
    if numbers:
        for y, row in enumerate(values):
            for x, v in enumerate(row):
                ax.text(x + 0.5, y + 0.5, "–" if v is None else f"{v:.0f}", ha="center", va="center", fontsize=7)
    else:
        fig.colorbar(mesh, ax=ax, fraction=0.04, pad=0.02, aspect=40, label="Overall, %")
    ax.set_xticks([i + 0.5 for i in range(len(keys))], [GROUP_LABELS[k] for k in keys], fontsize=8)
    ax.xaxis.tick_top()
    _row_labels(ax, [i + 0.5 for i in range(n)], names)
    ax.set_xlim(0, len(keys))
    ax.set_ylim(n, 0)
    ax.tick_params(length=0)
    for spine in ax.spines.values():
        spine.set_visible(False)
    return _to_svg(fig, "plot-groups")


__all__ = [
    "HEATMAP_NUMBERS_MAX_MODELS",
    "Interval",
    "PlotModel",
    "heatmap_svg",
    "pareto_front",
    "rates_svg",
    "tradeoff_svg",
]
