"""What the plugin prints in pytest's terminal (rendering only): the header line and the
closing section."""

from __future__ import annotations

from collections.abc import Sequence

from pytest_lobstack.floors import Miss
from pytest_lobstack.options import Settings


def header(settings: Settings) -> str:
    """The session header line: what is judged, with what, and whether the network may be used."""
    parts = [
        f"lobstack: {settings.show(settings.cassettes)} with "
        + (
            "the suite bundled with lobstack-eval"
            if settings.suite_note
            else settings.show(settings.suite)
        ),
        f"record mode {settings.record_mode}",
    ]
    if settings.record_mode != "none":
        parts.append(f"recording {', '.join(settings.models)} via {settings.base_url}")
    if settings.baselines:
        parts.append("baseline " + ", ".join(settings.show(p) for p in settings.baselines))
    return "; ".join(parts)


def miss_line(miss: Miss) -> str:
    """``ref/noisy: overall 51.25% [40.49, 61.89] is below the floor of 90%``."""
    bound = miss.bound
    side, word = ("above", "ceiling") if bound.upper else ("below", "floor")
    limit = f"{bound.percent:g}%"
    if miss.rate is None:
        return (
            f"{miss.model}: {bound.metric} has no rate (no scored case), so it cannot meet the "
            f"{word} of {limit}"
        )
    interval = f" [{miss.ci[0]:.2f}, {miss.ci[1]:.2f}]" if miss.ci else ""
    return (
        f"{miss.model}: {bound.metric} {miss.rate:.2f}%{interval} is {side} the {word} of {limit}"
    )


def closing_lines(
    misses: Sequence[Miss], xpassed: int, refresh_hint: str, warnings: Sequence[str]
) -> list[str]:
    """The lines of the plugin's section at the end of the run (empty when there is nothing
    to say)."""
    lines = list(warnings)
    lines += [miss_line(m) for m in misses]
    if misses:
        lines.append(f"{len(misses)} metric bound(s) missed: the run fails")
    if xpassed:
        lines.append(f"{xpassed} case(s) pass now but did not pass in the baseline; {refresh_hint}")
    return lines
