"""What the plots are drawn from (pure): each model's rates, the Pareto front, where point
labels go."""

from __future__ import annotations

import math
import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass, replace

from scorer.safe_text import for_terminal


@dataclass(frozen=True)
class Interval:
    """A rate in percent with its 95% interval (either bound may be missing in a
    hand-edited file)."""

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
    partial: bool = (
        False  # rates over fewer cases than the model has: shown, never on the Pareto front
    )


def drawn(models: Sequence[PlotModel], plot: str) -> tuple[PlotModel, ...]:
    """The models as plot ``plot`` (``rates``, ``cost``, ``latency``, ``groups``) draws them: every
    field it does not show emptied. The report's plot cache keys each plot by these and draws it
    from them, so a figure another plot shows (a metric's interval, the cost) neither draws this
    one again nor can go missing from its key."""
    if plot == "rates":  # names, and each metric's rate and interval
        return tuple(
            replace(m, groups={}, cost_per_100=None, latency_p50_ms=None, partial=False)
            for m in models
        )
    if plot == "groups":  # names, and each group's rate
        return tuple(
            replace(m, metrics={}, cost_per_100=None, latency_p50_ms=None, partial=False)
            for m in models
        )
    if plot not in ("cost", "latency"):
        raise ValueError(f"unknown plot {plot!r}")
    # names, Overall's rate against the cost or the latency, and which models are partial
    return tuple(
        replace(
            m,
            metrics={"overall": _rate_only(m.metrics.get("overall"))},
            groups={},
            cost_per_100=m.cost_per_100 if plot == "cost" else None,
            latency_p50_ms=m.latency_p50_ms if plot == "latency" else None,
        )
        for m in models
    )


def _rate_only(interval: Interval | None) -> Interval | None:
    return None if interval is None else Interval(interval.rate, None, None)


LABEL_COLUMNS = (
    40  # a plot label's widest: a 125-character Bedrock ARN left no room for the plot itself
)


def short_label(label: str, columns: int = LABEL_COLUMNS) -> str:
    """``label`` cut to ``columns`` terminal columns (a wide East Asian glyph takes two) with an
    ellipsis; control and bidi characters shown escaped. The page's tables keep the full name."""
    label = for_terminal(label, one_line=True)
    used = 0
    for i, char in enumerate(label):
        used += 2 if unicodedata.east_asian_width(char) in "WF" else 1
        if used > columns - 1 and i < len(label) - 1:
            return label[:i] + "…"
    return label


def plain_text(label: str) -> str:
    """A model name as matplotlib text, at most ``LABEL_COLUMNS`` wide; a ``$`` would otherwise
    start mathtext (and can fail to parse)."""
    return short_label(label).replace("\\", "\\\\").replace("$", r"\$")


def pareto_front(points: Sequence[tuple[float, float]], partial: Sequence[bool] = ()) -> list[int]:
    """Indices of the points no other point beats (x lower or equal and y higher or equal, one
    strictly), by x. A ``partial`` point (a model scored on fewer cases than it has) is never on
    the front and beats no point (docs/METHOD.md#partial-models-marked)."""
    complete = [i for i in range(len(points)) if not (i < len(partial) and partial[i])]
    order = sorted(complete, key=lambda i: (points[i][0], -points[i][1], i))
    front: list[int] = []
    best = -math.inf
    for i in order:
        if points[i][1] > best:
            front.append(i)
            best = points[i][1]
    return front


# Rough label box in axes fractions for 7 pt text on the 6 x 4.2 in plot: per character, and one
# line high.
_CHAR_W = 0.0105
_LINE_H = 0.04
# Vertical offsets to try, in points (one point is about 0.0037 of y); beyond the first four a label
# hangs below its point on a leader line, so a row of models at the same rate (seven at 100%) gets a
# readable stack.
_OFFSETS = (4.0, -11.0, 14.0, -21.0, *(-21.0 - 10.0 * k for k in range(1, 12)))
LEADER_BEYOND = 21.0  # |offset| in points above which the plot draws a leader line to the point


def place_labels(
    points: Sequence[tuple[float, float, str]],
) -> dict[int, tuple[float, float, str, str]]:
    """Where to write each point's label: ``{index: (dx_pt, dy_pt, ha, text)}``, greedy, best
    y first.

    ``points`` are (x on the axis scale, y in 0..100, name). Points at the same place share one
    label; a label on the right half of the plot goes to the left of its point so that it stays
    inside the figure; a label that would overlap one already placed moves below or above it.
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
        text = ", ".join(sorted(plain_text(points[i][2]) for i in members))
        xn, yn = (x - lo) / span * 0.84 + 0.08, (y + 4) / 108
        right = xn > 0.5
        width = _CHAR_W * len(text)
        x0, x1 = (xn - width, xn) if right else (xn, xn + width)
        choice = _OFFSETS[0]
        for dy in _OFFSETS:
            y0 = yn + dy * 0.0037
            if not any(
                x0 < bx1 and bx0 < x1 and y0 < by1 and by0 < y0 + _LINE_H
                for bx0, bx1, by0, by1 in placed
            ):
                choice = dy
                break
        y0 = yn + choice * 0.0037
        placed.append((x0, x1, y0, y0 + _LINE_H))
        out[members[0]] = (-5.0 if right else 5.0, choice, "right" if right else "left", text)
    return out
