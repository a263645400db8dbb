"""Patterns of the suite (schema ``pattern``, check ``regex``) run by a linear-time engine (RE2).

Python's ``re`` backtracks: the suite's own email pattern took ~20 s on one 40,000-character answer.
RE2 runs in time linear in the text for every pattern it accepts, so judging any answer takes
bounded time. The price is that RE2 refuses what only a backtracking engine can run
(back-references, lookaround, ``\\Z``): such a pattern is a suite error, refused by ``suite check``
and every command that reads the suite (METHOD.md#patterns-run-by-re2).
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

import re2

from scorer.safe_text import utf8


class PatternError(ValueError):
    """A pattern the linear-time engine cannot run; the text says why."""


def _options(ignore_case: bool) -> Any:
    options = re2.Options()
    options.log_errors = (
        False  # RE2 would print its own parse error on stderr; ours is the one line
    )
    options.never_capture = True  # only "does it match" is asked
    options.case_sensitive = not ignore_case
    return options


@lru_cache(maxsize=4096)
def compile_pattern(pattern: str, ignore_case: bool = False) -> Any:
    """The compiled pattern; PatternError with RE2's reason when RE2 cannot run it. Cached: the same
    patterns judge every model."""
    try:
        return re2.compile(_text(pattern), _options(ignore_case))
    except re2.error as exc:
        reason = exc.args[0] if exc.args else "refused"
        reason = reason.decode("utf-8", "replace") if isinstance(reason, bytes) else str(reason)
        raise PatternError(f"the linear-time engine (RE2) cannot run it: {reason}") from None


def _text(value: str) -> str:
    """``value`` as RE2 can take it: UTF-8 has no lone surrogates, so each becomes U+FFFD (it
    matches what a lone surrogate could: ``.`` and negated classes)."""
    return utf8(value)


def pattern_search(pattern: str, value: str, ignore_case: bool = False) -> bool:
    """True when ``pattern`` matches somewhere in ``value`` (``re.search`` semantics), in
    linear time."""
    return compile_pattern(pattern, ignore_case).search(_text(value)) is not None
