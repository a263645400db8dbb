"""``lobstack-eval leaderboard``: the leaderboard of any slice of a rows dataset (or of a reports
dir's rows)."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import typer


def leaderboard(
    rows: Path = typer.Argument(
        ...,
        metavar="ROWS",
        help="A rows dataset dir (rescore --rows), or a reports dir or its cases.parquet.",
    ),
    suite_version: str = typer.Option(
        None, "--suite-version", help="Suite version [default: the only one]."
    ),
    group: str = typer.Option(None, "--group", help="Only this group's cases (e.g. chains)."),
    model: list[str] = typer.Option(
        [], "--model", help="Only this model, by name or slug (repeatable)."
    ),
    out: Path = typer.Option(
        None,
        "--out",
        help="Also write leaderboard.md and leaderboard.csv into this dir [default: print only].",
    ),
    quiet: bool = typer.Option(False, "--quiet", "-q", help="Do not print the leaderboard."),
) -> int:
    """Compute the leaderboard of a slice of rows with polars' streaming engine and print it; --out
    DIR also writes leaderboard.md and .csv there (nothing is written without it:
    docs/commands/leaderboard.md#leaderboard-prints-only)."""

    from fileio.atomic import write_atomic
    from replay.leaderboard.slices import slice_leaderboard
    from replay.leaderboard.tables import leaderboard_csv, leaderboard_md, tier_lines
    from replay.leaderboard.text import terminal_lines, terminal_width

    board = slice_leaderboard(rows, suite_version, group, tuple(model))
    title, summaries = board.suite, board.summaries
    if not quiet:
        width = terminal_width(sys.stdout)
        full = (
            [str(out / "leaderboard.md")] if out is not None else ["leaderboard.md with --out DIR"]
        )
        for line in terminal_lines(summaries, title, width, full):
            typer.echo(line)
        for line in tier_lines(summaries):
            typer.echo(line)
    what = _what(board)
    if out is None:
        typer.echo(f"{what}; --out DIR writes leaderboard.md and leaderboard.csv", err=True)
        return 0
    write_atomic(out / "leaderboard.md", leaderboard_md(summaries, title))
    write_atomic(out / "leaderboard.csv", leaderboard_csv(summaries))
    typer.echo(f"{what}; wrote {out / 'leaderboard.md'} and {out / 'leaderboard.csv'}", err=True)
    return 0


def _what(board: Any) -> str:
    """The slice the board ranked, in one line; a history ranks each model's latest run only: it
    says which (FORMATS.md, "Histories")."""
    what = (
        f"{len(board.summaries)} model(s), {board.rows} case-run(s) of "
        f"{board.suite.name} {board.suite.version}"
    )
    if board.latest_runs:
        ranked = ", ".join(f"{slug} run {run} (of {n})" for slug, run, n in board.latest_runs)
        what += f"; a history: each model's latest run, {ranked}"
    return what
