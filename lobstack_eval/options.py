"""Option values typer cannot check well enough: numbers must be finite, and the message must echo
what was typed.

typer's float options take ``nan``, ``inf`` and ``1e309`` (which is inf) and their range checks let
NaN through, so ``--timeout nan`` would reach the network code. Number options are read as text and
parsed here instead, before any work, into a usage error (exit 2) that names the option and the
value as typed. The whole-number options of the commands run most (rescore's ``--workers``, record's
``--concurrency``) are read the same way: typer would import pydantic to parse them
(docs/commands/README.md#no-private-api-of-typer).
"""

from __future__ import annotations

import math

from scorer.errors import UsageError


def finite_number(
    text: str, option: str, unit: str, *, minimum: float = 0.0, inclusive: bool = True
) -> float:
    """``text`` as a finite float >= ``minimum`` (> when not ``inclusive``), else UsageError
    naming ``option``."""
    try:
        value = float(text)
    except ValueError:
        value = math.nan
    ok = math.isfinite(value) and (value >= minimum if inclusive else value > minimum)
    if not ok:
        bound = f"{'>=' if inclusive else '>'} {minimum:g}"
        raise UsageError(f"{option}: expected a finite number of {unit} {bound}, got {text!r}")
    return value


def whole_number(text: str, option: str, *, minimum: int = 1, maximum: int | None = None) -> int:
    """``text`` as an int from ``minimum`` to ``maximum`` (digits, a sign and spaces allowed), else
    UsageError naming ``option``."""
    span = f">= {minimum}" if maximum is None else f"from {minimum} to {maximum}"
    try:
        value = int(text.strip(), 10)
    except ValueError:
        raise UsageError(f"{option}: expected a whole number {span}, got {text!r}") from None
    if value < minimum:
        raise UsageError(f"{option} {value}: must be at least {minimum}")
    if maximum is not None and value > maximum:
        raise UsageError(f"{option} {value}: must be at most {maximum}")
    return value
