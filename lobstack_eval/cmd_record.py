"""Stub: not implemented yet."""

import typer

from scorer.errors import LobstackError


def record(model: str = typer.Option(..., "--model", help="Model name.")) -> None:
    """Not implemented yet."""
    raise LobstackError("not implemented yet")
