"""``--debug`` / ``LOBSTACK_DEBUG=1``: the traceback behind a one-line internal error (``cannot be scored
(KeyError: ...)``), for whoever reports or fixes the bug. Off, every such error stays one line.

An environment variable, so that pool workers (which inherit the environment) and the pytest plugin see it too."""

from __future__ import annotations

import os
import traceback

ENV = "LOBSTACK_DEBUG"


def debug_on() -> bool:
    """Whether tracebacks are asked for: ``LOBSTACK_DEBUG`` set to anything but empty or 0."""
    return os.environ.get(ENV, "") not in ("", "0")


def with_traceback(line: str, exc: BaseException) -> str:
    """``line``, followed by ``exc``'s traceback when debugging is on."""
    if not debug_on():
        return line
    return line + "\n" + "".join(traceback.format_exception(exc)).rstrip("\n")
