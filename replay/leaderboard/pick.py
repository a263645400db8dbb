"""``lobstack-eval pick``'s one library call: read a slice of rows as the leaderboard reads it,
compute the front and the pick (``scorer.front``) and render them (``replay.front_text``)."""

from __future__ import annotations

import textwrap
from pathlib import Path

from replay.front_text import legend, pick_sentence, table_lines
from replay.leaderboard.slices import slice_leaderboard
from replay.wire_rows import board_rows
from scorer.errors import UsageError
from scorer.front import AXES, DELTA, Front, front


def parse_axis(text: str | None) -> str:
    """--axis: cost (the default) or latency."""
    if text is None:
        return "cost"
    if text not in AXES:
        raise UsageError(f"--axis {text}: expected one of {', '.join(AXES)}")
    return text


def pick_front(
    rows: Path,
    suite_version: str | None = None,
    models: tuple[str, ...] = (),
    axis: str = "cost",
    delta: float = DELTA,
) -> tuple[Front, list[str]]:
    """The front of a slice of rows (a reports dir, its cases.parquet, or a rows dataset) and the
    lines ``pick`` prints: a title, the table, the pick, the legend."""
    board = slice_leaderboard(rows, suite_version, None, models)
    found = front(board_rows(board.summaries), axis, delta)  # one name per row
    title = f"{board.suite.name} {board.suite.version}: which model to pick ({axis} axis)"
    lines = [title, "", *table_lines(found), "", *_wrap("Pick: " + pick_sentence(found)), ""]
    return found, [*lines, *_wrap(legend(found))]


def _wrap(text: str) -> list[str]:
    """A paragraph in lines of at most 100 columns (a name longer than that stays whole)."""
    return textwrap.wrap(text, 100, break_on_hyphens=False, break_long_words=False) or [""]
