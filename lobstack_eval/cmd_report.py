"""Stub: not implemented yet."""

import typer

from scorer.errors import LobstackError


def report(reports: str = typer.Argument("reports")) -> None:
    """Not implemented yet."""
    raise LobstackError("not implemented yet")
