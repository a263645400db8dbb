"""``lobstack-eval pick``: the cost-quality front with confidence, and the cheapest model not
worse than the leader by more than --delta points."""

from __future__ import annotations

from pathlib import Path

import typer

from lobstack_eval.options import DELTA


def pick(
    rows: Path = typer.Argument(
        Path("reports"),
        metavar="ROWS",
        help="A reports dir or its cases.parquet, or a rows dataset dir (rescore --rows).",
    ),
    delta: float = typer.Option(
        None,
        "--delta",
        metavar="POINTS",
        parser=DELTA,
        help="How many Overall points below the leader still count as good enough [default: 10].",
    ),
    axis: str = typer.Option(
        None,
        "--axis",
        help="What the front trades quality against: cost or latency [default: cost].",
    ),
    suite_version: str = typer.Option(
        None, "--suite-version", help="Suite version [default: the only one]."
    ),
    model: list[str] = typer.Option(
        [], "--model", help="Only this model, by name or slug (repeatable)."
    ),
) -> int:
    """Print each model's place on the cost-quality front (on it, dominated, ambiguous, with its
    bootstrap probability) and the pick: the cheapest model not worse than the leader by more
    than --delta points, with what it saves."""
    from replay.leaderboard.pick import parse_axis, pick_front
    from scorer.front import DELTA as DEFAULT_DELTA

    points = DEFAULT_DELTA if delta is None else delta
    _, lines = pick_front(rows, suite_version, tuple(model), parse_axis(axis), points)
    for line in lines:
        typer.echo(line)
    return 0
