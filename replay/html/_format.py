"""How numbers read in the report: fixed rules so the same value always prints the same text."""

from __future__ import annotations

from typing import Any

DASH = "–"


def rate(value: Any) -> str:
    """A percentage with one decimal (``64.1%``), or a dash for a rate with nothing to apply to."""
    return DASH if not _is_number(value) else f"{value:.1f}%"


def interval(ci: Any) -> str:
    """A 95% interval as ``53.0–73.9``, or an empty string when there is none."""
    if not (isinstance(ci, list | tuple) and len(ci) == 2 and all(_is_number(v) for v in ci)):
        return ""
    return f"{ci[0]:.1f}–{ci[1]:.1f}"


def latency(ms: Any) -> str:
    """Milliseconds under a second (``812 ms``), seconds above (``1.25 s``), a dash when unknown."""
    if not _is_number(ms):
        return DASH
    return f"{ms:.0f} ms" if ms < 1000 else f"{ms / 1000:.2f} s"


def cost(usd: Any) -> str:
    """US dollars with three significant digits below $1 (``$0.0133``), cents above; a dash
    when unpriced."""
    if not _is_number(usd):
        return DASH
    if usd >= 100:
        return f"${usd:.0f}"
    if usd >= 1:
        return f"${usd:.2f}"
    return f"${usd:.3g}"


def delta(a: Any, b: Any) -> str:
    """``b - a`` in percentage points with its sign (``+2.5 pp``), a dash when either side
    is missing."""
    if not (_is_number(a) and _is_number(b)):
        return DASH
    d = b - a
    return "0.0 pp" if abs(d) < 0.05 else f"{d:+.1f} pp"


def sort_value(value: Any) -> str:
    """The ``data-v`` attribute the table sorts by: the float's repr, or empty (sorted last)
    for none."""
    if isinstance(value, bool):
        return "1" if value else "0"
    return repr(float(value)) if _is_number(value) else ""


def _is_number(value: Any) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool)
