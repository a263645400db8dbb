"""The report's timeline section: per model with a history, Overall and its 95% interval per run,
the change point marked (from ``replay.drift.timeline``, which computes everything drawn here)."""

from __future__ import annotations

from dataclasses import dataclass

from replay.drift.text import verdict
from replay.drift.timeline import Timeline
from replay.html._cache import cached_svg
from replay.html._plot_model import plain_text
from replay.html._svg import figure, to_svg

_POINT = "#1f5fa8"
_CHANGE = "#c2410c"
_MUTED = "#8a8f98"


@dataclass(frozen=True)
class TimelineView:
    """What the template shows of one timeline: the drawing, the caption and the table rows."""

    model: str
    svg: str
    change: str
    rows: tuple[tuple[str, str, str, str, str], ...]  # run, date, Overall, interval, answered as


def timeline_svg(timeline: Timeline, plot_id: str) -> str:
    """Overall per run (x: runs in order, labelled by date or id) with its interval as a bar; a
    dashed line between the two runs of the change point; a hollow ring on a run whose recorded
    identity changed."""
    points = timeline.points
    fig = figure(max(6.0, 1.2 + 0.55 * len(points)), 2.6, 40, 22, 46)
    ax = fig.subplots()
    xs = list(range(len(points)))
    for x, p in zip(xs, points, strict=True):
        if p.ci is not None:
            ax.plot([x, x], list(p.ci), color=_POINT, linewidth=1.6, alpha=0.45)
        if p.overall is not None:
            ax.plot([x], [p.overall], "o", color=_POINT, markersize=4.5)
        if p.identity_changed:
            ax.plot([x], [p.overall if p.overall is not None else 50.0], "o", markersize=10,
                    markerfacecolor="none", markeredgecolor=_CHANGE, linewidth=1)  # fmt: skip
    rated = [p.overall for p in points if p.overall is not None]
    ax.plot(
        [x for x, p in zip(xs, points, strict=True) if p.overall is not None],
        rated,
        color=_POINT,
        linewidth=0.8,
        alpha=0.6,
    )
    ids = [p.run_id for p in points]
    change = timeline.change
    if change is not None and change.last_before in ids and change.first_after in ids:
        at = (ids.index(change.last_before) + ids.index(change.first_after)) / 2
        ax.axvline(at, color=_CHANGE, linestyle="--", linewidth=1.2)
        ax.text(at, 1.01, "change", transform=ax.get_xaxis_transform(), ha="center",
                va="bottom", fontsize=8, color=_CHANGE)  # fmt: skip
    ax.set_xticks(xs)
    ax.set_xticklabels([plain_text(p.date or p.run_id) for p in points], rotation=30,
                       ha="right", fontsize=7.5)  # fmt: skip
    ax.set_ylim(0, 100)
    ax.set_ylabel("Overall (%)", fontsize=8)
    ax.tick_params(axis="y", labelsize=7.5)
    ax.grid(axis="y", color="#e5e7eb", linewidth=0.6)
    ax.set_xlim(-0.6, len(points) - 0.4)
    for side in ("top", "right"):
        ax.spines[side].set_visible(False)
    ax.spines["left"].set_color(_MUTED)
    ax.spines["bottom"].set_color(_MUTED)
    return to_svg(fig, plot_id)


def _rate(value: float | None) -> str:
    return "-" if value is None else f"{value:.1f}"


def timeline_view(timeline: Timeline, index: int) -> TimelineView:
    """The drawing and the table of one model's timeline (``index`` keeps plot ids apart on
    one page)."""
    if timeline.drift is not None:
        said = f"drift: {verdict(timeline.drift)}"  # the very line `lobstack-eval drift` prints
    else:
        said = f"drift: not tested: {timeline.drift_error}"
    rows = tuple(
        (
            p.run_id,
            p.date or "-",
            _rate(p.overall),
            "-" if p.ci is None else f"[{p.ci[0]:.1f}, {p.ci[1]:.1f}]",
            ", ".join(p.answered_as) + (" (changed)" if p.identity_changed else ""),
        )
        for p in timeline.points
    )
    # Drawn from, and cached by, only what the drawing shows: the runs and the change point.
    shown, plot_id = Timeline("", "", timeline.points, timeline.change), f"plot-timeline-{index}"
    svg = cached_svg("timeline", (plot_id, shown), lambda: timeline_svg(shown, plot_id))
    return TimelineView(timeline.model, svg, said, rows)
