"""Stub: not implemented yet."""

import typer

from scorer.errors import LobstackError


def rescore(cassettes: str = typer.Argument("cassettes", help="Cassette directory.")) -> None:
    """Not implemented yet."""
    raise LobstackError("not implemented yet")
