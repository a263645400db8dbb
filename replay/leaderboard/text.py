"""The leaderboard as plain text for a terminal: it fits the width it is given, never cuts a cell.

Each interval sits under its rate. When the whole table is wider than the terminal, the least needed
columns are left out (groups and flags first, Overall and the model never) and a line names them and
where the whole table is; a pipe or a file (no width) gets every column. No line ends in a space.
"""

from __future__ import annotations

import os
import shutil
import textwrap
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, TextIO

from rich.cells import cell_len

from replay.leaderboard.tables import cells, ordered
from replay.partial import partial_line
from replay.ties import has_repeats, tiers
from replay.wire_rows import anomaly_line
from scorer.metrics import METRICS, REGISTRY, REPEAT_SHOWN
from scorer.suite.model import Suite
from scorer.summary import ModelSummary

if TYPE_CHECKING:
    from replay.results.typed import SuiteRef


def _metric(key: str) -> tuple[str, tuple[str, ...], int | None]:
    return (key, REGISTRY[key].header, REGISTRY[key].drop_rank)


# Header lines and drop rank of each column, in table order; the highest rank is left out first (a
# metric's come from the registry). None: always shown. The repeat columns only when some K > 1.
_REPEAT_KEYS = ("repeats", *REPEAT_SHOWN)
_COLUMNS: tuple[tuple[str, tuple[str, ...], int | None], ...] = (
    ("model", ("Model",), None),
    _metric(METRICS[0]),
    ("repeats", ("K",), 1),
    *(_metric(key) for key in REPEAT_SHOWN),
    *(_metric(key) for key in METRICS[1:]),
    ("latency", ("p50", "ms"), 5),
    ("cost", ("$ per", "100"), 4),
    ("errored", ("Errored",), 9),
    ("temperature", ("Temp.", "ignored"), 14),
)
_TITLES = {"repeats": "K", "latency": "p50 ms", "cost": "$ per 100", "temperature": "Temp. ignored"}
_MODEL_MIN = 12  # below this a model name is wrapped rather than the table left without a rate


@dataclass(frozen=True)
class _Column:
    key: str
    header: tuple[str, ...]
    rank: int | None
    rows: list[list[str]]  # each row's cell, one string per line

    @property
    def width(self) -> int:
        return max(cell_len(line) for block in [list(self.header), *self.rows] for line in block)

    @property
    def title(self) -> str:
        return _TITLES.get(self.key, " ".join(self.header))


def terminal_width(stream: TextIO) -> int | None:
    """The width to fit: ``COLUMNS`` when set to a number, else the terminal's; ``None`` (no limit)
    for a pipe or a file, which gets every column."""
    columns = os.environ.get("COLUMNS", "").strip()
    if columns.isascii() and columns.isdigit() and len(columns) <= 9 and int(columns) > 0:
        return int(columns)
    try:
        if stream.isatty():
            return shutil.get_terminal_size().columns
    except (AttributeError, ValueError, OSError):  # a closed or unusual stream: treat as a pipe
        pass
    return None


def _lines(cell: str, key: str) -> list[str]:
    if key == "errored" and " (+" in cell:  # "8 (+3 unrecorded)" -> "8" over "+3 unrec."
        errored, unrecorded = cell.split(" (+", 1)
        return [errored, "+" + unrecorded.split()[0] + " unrec."]
    return (
        cell.replace(" [", "\n[").replace(" (", "\n(").split("\n")
    )  # Overall's "(72/80)" on a line of its own


def _columns(board: Sequence[ModelSummary], repeated: bool) -> list[_Column]:
    keys = [key for key, _, _ in _COLUMNS if repeated or key not in _REPEAT_KEYS]
    letters = tiers(board).letters
    rows = [_with_tier(cells(s, repeated), letters[s.model]) for s in board]
    out = []
    for i, (key, header, rank) in enumerate(c for c in _COLUMNS if c[0] in keys):
        blocks = [_lines(row[i], key) for row in rows]
        out.append(_Column(key, header, rank, blocks))
    return out


def _with_tier(row: list[str], letter: str) -> list[str]:
    """The tier letter after the Overall rate, before its interval (``tier_lines`` is
    the legend)."""
    if letter:
        rate, sep, rest = row[1].partition(" ")
        row = [row[0], f"{rate} {letter}{sep}{rest}".rstrip(), *row[2:]]
    return row


def _wrap_model(column: _Column, width: int) -> _Column:
    """The model column no wider than ``width``: longer names go on over several lines, whole."""
    rows = [
        [name[i : i + width] for i in range(0, len(name), width)] or [""]
        for name, *_ in column.rows
    ]
    return _Column(column.key, column.header, column.rank, rows)


def _fit(columns: list[_Column], width: int | None) -> tuple[list[_Column], int]:
    """The columns that fit ``width`` and the gap between them: two spaces, one when that saves
    a column."""
    if width is None:
        return columns, 2
    shown = list(columns)
    while True:
        for gap in (2, 1):
            if sum(c.width for c in shown) + gap * (len(shown) - 1) <= width:
                return shown, gap
        droppable = [c for c in shown if c.rank is not None]
        if not droppable:
            break
        shown.remove(max(droppable, key=lambda c: c.rank or 0))
    # Model and Overall alone are too wide: wrap the model names.
    room = max(width - 1 - shown[1].width, _MODEL_MIN)
    return [_wrap_model(shown[0], room), shown[1]], 1


def _render(columns: list[_Column], gap: int, count: int) -> list[str]:
    widths = [c.width for c in columns]
    space = " " * gap

    def line(parts: list[str]) -> str:
        padded = [
            p.ljust(w) if i == 0 else p.rjust(w)
            for i, (p, w) in enumerate(zip(parts, widths, strict=True))
        ]
        return space.join(padded).rstrip()

    depth = max(len(c.header) for c in columns)
    lines = [
        line([([""] * (depth - len(c.header)) + list(c.header))[k] for c in columns])
        for k in range(depth)
    ]
    lines.append(space.join("─" * w for w in widths))
    for r in range(count):
        height = max(len(c.rows[r]) for c in columns)
        for k in range(height):
            lines.append(line([(c.rows[r] + [""] * height)[k] for c in columns]))
    return lines


def terminal_lines(
    summaries: Sequence[ModelSummary],
    suite: Suite | SuiteRef,
    width: int | None,
    full: Sequence[str] = (),
) -> list[str]:
    """The leaderboard for a terminal ``width`` columns wide (``None``: no limit): a title, the
    table, and a line for each thing that needs saying (partial models, columns left out and
    ``full``, the files with every one)."""
    board = ordered(summaries)
    columns = _columns(board, has_repeats(summaries))
    shown, gap = _fit(columns, width)
    wrap = width if width is not None else 10_000

    def note(text: str) -> list[str]:
        # A path longer than the terminal stays whole: a cut one cannot be copied.
        return textwrap.wrap(text, wrap, break_on_hyphens=False, break_long_words=False) or [""]

    lines = note(f"{suite.name} {suite.version}: rates in %, 95% interval below")
    lines += _render(shown, gap, len(board))
    explained = partial_line(board, short=True)
    if explained:
        lines += note(explained)
    if (anomalies := anomaly_line(board)) is not None:
        lines += note(anomalies)
    left_out = [c.title for c in columns if c not in shown]
    if left_out:
        where = f" (every column: {', '.join(full)})" if full else ""
        lines += note(f"Not shown at {width} columns: {', '.join(left_out)}{where}.")
    return lines
