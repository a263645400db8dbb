"""The number kinds the CLI's options take, each one typer parser (``typer.Option(parser=...)``,
typer's own hook for a custom type), so every number is read the same way, while click parses the
command line, before any work: a bad value is one usage error (exit 2) naming the option and the
value as typed.

Why not typer's ``int``/``float`` with ``min``/``max``: its float options take ``nan``, ``inf`` and
``1e309`` (which is inf) and its range checks let NaN through, so ``--timeout nan`` would reach the
network code; and typer coerces through pydantic, which a command would import first (~0.1 s).
``lobstack_eval/cli_values.py`` calls these parsers itself
(docs/commands/README.md#no-private-api-of-typer).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

from scorer.errors import UsageError

Parser = Callable[[Any], Any]


def whole_number(option: str, *, minimum: int = 1, maximum: int | None = None) -> Parser:
    """An int from ``minimum`` to ``maximum`` (digits, a sign and spaces allowed)."""
    span = f">= {minimum}" if maximum is None else f"from {minimum} to {maximum}"

    def parse(text: Any) -> int:
        if isinstance(text, int) and not isinstance(text, bool):
            value = text
        else:
            try:
                value = int(str(text).strip(), 10)
            except ValueError:
                expected = f"expected a whole number {span}, got {text!r}"
                raise UsageError(f"{option}: {expected}") from None
        if value < minimum:
            raise UsageError(f"{option} {value}: must be at least {minimum}")
        if maximum is not None and value > maximum:
            raise UsageError(f"{option} {value}: must be at most {maximum}")
        return value

    return parse


def finite_number(
    option: str, unit: str, *, minimum: float = 0.0, inclusive: bool = True
) -> Parser:
    """A finite float >= ``minimum`` (> when not ``inclusive``), in ``unit``."""
    bound = f"{'>=' if inclusive else '>'} {minimum:g}"

    def parse(text: Any) -> float:
        value = _float(text)
        if not (math.isfinite(value) and (value >= minimum if inclusive else value > minimum)):
            raise UsageError(f"{option}: expected a finite number of {unit} {bound}, got {text!r}")
        return value

    return parse


def between(option: str, what: str, high: float, *, high_inclusive: bool) -> Parser:
    """A float above 0 and below ``high`` (up to it when ``high_inclusive``): a level (0, 1) or
    points (0, 100]."""

    def parse(text: Any) -> float:
        value = _float(text)
        if not (0 < value < high or (high_inclusive and value == high)):  # nan fails both
            raise UsageError(f"{option}: expected {what} between 0 and {high:g}, got {text!r}")
        return value

    return parse


# --detect of rescore --power and diff runs: the Overall drop to detect, in points.
DETECT = between("--detect", "points", 100, high_inclusive=True)
# --delta of pick: how many Overall points below the leader still count as good enough.
DELTA = between("--delta", "points", 100, high_inclusive=True)


def _float(text: Any) -> float:
    try:
        return float(text)
    except (TypeError, ValueError):
        return math.nan
