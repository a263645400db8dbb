"""How the plugin's tests fail: a case's reason as the failure, a lobstack error as its
``error:`` lines."""

from __future__ import annotations

from scorer.errors import LobstackError, SuiteError


class CaseFailed(Exception):
    """The case failed; the message is its reason."""


def error_text(exc: LobstackError) -> str:
    """``exc`` as the CLI prints it: ``error: ...``, and a suite's problems one a line."""
    lines = [f"error: {exc.message}"]
    if isinstance(exc, SuiteError):
        lines += [f"  {problem}" for problem in exc.problems]
    return "\n".join(lines)
