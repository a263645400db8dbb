"""Stub: not implemented yet."""

import typer

from scorer.errors import LobstackError


def diff_suites(old: str = typer.Argument(...), new: str = typer.Argument(...)) -> None:
    """Not implemented yet."""
    raise LobstackError("not implemented yet")
