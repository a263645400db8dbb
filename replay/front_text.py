"""The cost-quality front and the pick as text: the terminal table of ``lobstack-eval pick``, the
pick's sentence and the markdown leaderboard's note (rendering only; ``scorer.front`` computes)."""

from __future__ import annotations

from collections.abc import Sequence

from scorer.front import Front, FrontRow
from scorer.safe_text import for_terminal

UNITS = {
    "cost": ("$ per 100 cases", "cheaper", "dearer"),
    "latency": ("p50 ms", "faster", "slower"),
}


def x_text(axis: str, value: float | None) -> str:
    """An x value as the leaderboards write it (cost to 4 decimals, latency whole ms)."""
    if value is None:
        return "-"
    return f"{value:.4f}" if axis == "cost" else f"{value:.0f}"


def _interval(axis: str, ci: tuple[float, float] | None) -> str:
    return "" if ci is None else f"[{x_text(axis, ci[0])}-{x_text(axis, ci[1])}]"


def p_text(p: float) -> str:
    """``p = 0.012`` (two significant figures), ``p < 0.0001`` below that."""
    return "p < 0.0001" if p < 0.0001 else f"p = {p:.2g}"


def status_text(row: FrontRow) -> str:
    """A row's front status in words."""
    if row.status == "front":
        return "on the front"
    if row.status == "dominated":
        return f"dominated by {row.dominated_by} ({p_text(row.p or 0.0)})"
    if row.status == "apart":
        return f"apart: {row.apart}"
    return "ambiguous"


def bound_text(lower: float | None) -> str:
    """The bound on Overall minus the best other model's, in points."""
    return "-" if lower is None else f"{lower:+.1f}"


def pick_sentence(front: Front) -> str:
    """The pick in one sentence: ``m-small: within 10 points of m-large (lower bound -1.4), 81%
    cheaper.``"""
    pick, (_, gain, loss) = front.pick, UNITS[front.axis]
    delta = f"{front.delta:g} point{'s' if front.delta != 1 else ''}"
    if pick.leader is None:
        return "No model to pick: no complete model has a scored case."
    if pick.model is None:
        closest = ""
        if pick.closest is not None:
            closest = f" (closest: {pick.closest}, lower bound {bound_text(pick.closest_lower)})"
        return (
            f"No model is shown within {delta} of {pick.leader}{closest}: a larger --delta, or "
            "more cases or repeats, would tell."
        )
    if pick.lower is None:
        return f"{pick.model}: the only complete model, nothing to compare it with."
    bound = f"lower bound {bound_text(pick.lower)}"
    if pick.model == pick.leader:
        return f"{pick.model}: the leader is the cheapest model within {delta} ({bound})."
    if pick.saving is None:
        saving = f"the leader's {UNITS[front.axis][0]} is unknown"
    elif pick.saving >= 0:
        saving = f"{100 * pick.saving:.0f}% {gain}"
    else:
        saving = f"{-100 * pick.saving:.0f}% {loss}"
    return f"{pick.model}: within {delta} of {pick.leader} ({bound}), {saving}."


def row_cells(front: Front, row: FrontRow, terminal: bool = True) -> list[str]:
    """A row's cells: model, Overall [interval], x [interval], front status, P(front), the bound
    against the best, within delta (``terminal``: the name made safe to print)."""
    overall = "-" if row.overall is None else f"{row.overall:.1f}"
    if row.overall_ci is not None:
        overall += f" [{row.overall_ci[0]:.0f}-{row.overall_ci[1]:.0f}]"
    x = x_text(front.axis, row.x)
    if row.x_ci is not None:
        x += " " + _interval(front.axis, row.x_ci)
    p_front = "-" if row.p_front is None else f"{100 * row.p_front:.0f}%"
    within = "yes" if row.within else "no"
    name = for_terminal(row.model, one_line=True) if terminal else row.model
    return [name, overall, x, status_text(row), p_front, bound_text(row.lower), within]


def headers(front: Front) -> list[str]:
    """The table's column titles."""
    delta = f"within {front.delta:g}"
    return ["Model", "Overall", UNITS[front.axis][0], "Front", "P(front)", "vs best", delta]


def table_lines(front: Front) -> list[str]:
    """The terminal table: one row per model, placed by x, then the ones apart."""
    rows = [headers(front), *(row_cells(front, r) for r in front.rows)]
    widths = [max(len(r[i]) for r in rows) for i in range(len(rows[0]))]

    def line(cells: Sequence[str]) -> str:
        padded = [
            c.ljust(w) if i in (0, 3) else c.rjust(w)
            for i, (c, w) in enumerate(zip(cells, widths, strict=True))
        ]
        return "  ".join(padded).rstrip()

    return [line(rows[0]), "  ".join("-" * w for w in widths), *(line(r) for r in rows[1:])]


def legend(front: Front) -> str:
    """What the table's figures are, in one paragraph."""
    what = "billed cost per 100 cases" if front.axis == "cost" else "latency p50"
    return (
        f"x: {what} with a 95% case-bootstrap interval. Front: dominated = a model at most as "
        f"costly is better (one-sided paired test by case, Holm over those models, alpha "
        f"{front.alpha:g}); on the front = better than every model at most as costly; else "
        f"ambiguous. P(front): share of {front.draws} case-bootstrap draws (seed {front.seed}) in "
        "which it is on the front. vs best: lower bound of Overall minus the best other model's "
        "(points; Hsu's comparison with the best, valid although the leader is picked from the "
        "data). Models apart are never on the front nor picked."
    )


def _names(rows: Sequence[FrontRow], share: bool) -> str:
    return ", ".join(
        r.model + (f" ({100 * r.p_front:.0f}%)" if share and r.p_front is not None else "")
        for r in rows
    )


def markdown_note(front: Front) -> list[str]:
    """The markdown leaderboard's note: the pick, then the models by front status."""
    parts = []
    for status, title, share in (
        ("front", "on the front", True),
        ("ambiguous", "ambiguous", True),
        ("dominated", "dominated", False),
    ):
        chosen = [r for r in front.rows if r.status == status]
        if chosen:
            parts.append(f"{title}: {_names(chosen, share)}")
    apart = [f"{r.model} ({r.apart})" for r in front.rows if r.status == "apart"]
    if apart:
        parts.append(f"apart, never picked: {', '.join(apart)}")
    what = "cost" if front.axis == "cost" else "latency"
    return [
        "",
        f"**Pick** (the cheapest model not worse than the leader by more than {front.delta:g} "
        f"points, alpha {front.alpha:g}): {pick_sentence(front)}",
        f"Cost-quality front ({what} against Overall; in brackets the share of {front.draws} "
        f"case-bootstrap draws on it): {'; '.join(parts) or 'no model'}. "
        "`lobstack-eval pick` prints the whole table (METHOD.md#the-pick).",
    ]
