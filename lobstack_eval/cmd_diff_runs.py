"""Stub: not implemented yet."""

import typer

from scorer.errors import LobstackError


def diff_runs(a: str = typer.Argument(...), b: str = typer.Argument(...)) -> None:
    """Not implemented yet."""
    raise LobstackError("not implemented yet")
