"""Stub: not implemented yet."""

import typer

from scorer.errors import LobstackError


def check(suite: str = typer.Argument("evals/suite.json", help="Suite file to validate.")) -> None:
    """Not implemented yet."""
    raise LobstackError("not implemented yet")
