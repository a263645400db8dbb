"""``--debug`` / ``LOBSTACK_DEBUG=1``: the traceback behind a one-line internal error
(``cannot be scored (KeyError: ...)``), for whoever reports or fixes the bug. Off, every such error
stays one line.

An environment variable, so that pool workers (which inherit the environment) and the pytest
plugin see it too."""

from __future__ import annotations

import os
import traceback
from pathlib import Path

from scorer.errors import CassetteError

ENV = "LOBSTACK_DEBUG"
# What a bug (not bad input: that is a LobstackError with its own line) raises inside a
# model's scoring.
UNFORESEEN = (ValueError, TypeError, KeyError, AttributeError, RecursionError)


def debug_on() -> bool:
    """Whether tracebacks are asked for: ``LOBSTACK_DEBUG`` set to anything but empty or 0."""
    return os.environ.get(ENV, "") not in ("", "0")


def with_traceback(line: str, exc: BaseException) -> str:
    """``line``, followed by ``exc``'s traceback when debugging is on."""
    if not debug_on():
        return line
    return line + "\n" + "".join(traceback.format_exception(exc)).rstrip("\n")


def unforeseen(model_dir: Path, exc: BaseException) -> CassetteError:
    """The one-line error for input no check foresaw: this model is not scored, every other one
    still is."""
    detail = f"{type(exc).__name__}: {str(exc).splitlines()[0] if str(exc) else ''}"[:200]
    return CassetteError(with_traceback(f"{model_dir}: cannot be scored ({detail})", exc))
