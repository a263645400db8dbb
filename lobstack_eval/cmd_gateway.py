"""Stub: not implemented yet."""

import typer

from scorer.errors import LobstackError


def gateway(port: int = typer.Option(8099, "--port")) -> None:
    """Not implemented yet."""
    raise LobstackError("not implemented yet")
