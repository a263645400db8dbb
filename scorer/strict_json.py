"""Strict JSON for what models send: no NaN, no Infinity, no number too large for a double, bounded nesting.

Python's ``json`` accepts ``NaN`` and ``Infinity`` and turns ``1e400`` into ``inf``; none of them is JSON, and a
non-finite float makes every output file unwritable. Answers are read strictly; when an answer holds such a number
it is read again with each one kept as a ``NonFinite`` marker (a ``str`` holding the literal), so the rest of the
answer is still judged and the marker can only ever be written out as a string.
"""

from __future__ import annotations

import json
import math
from typing import Any

MAX_DEPTH = 100  # real answers nest a dozen levels; deeper is refused long before Python's recursion limit


class NonFinite(str):
    """A number strict JSON cannot hold (``NaN``, ``Infinity``, ``1e400``), kept as the text that was sent."""

    __slots__ = ()


class NotStrictJson(ValueError):
    """The text is JSON only to Python's lenient parser: it holds NaN, Infinity or a number beyond a double."""

    def __init__(self, literal: str) -> None:
        super().__init__(f"{literal} is not JSON")
        self.literal = literal


def _refuse_constant(literal: str) -> Any:
    raise NotStrictJson(literal)


def _finite_float(text: str) -> float:
    value = float(text)
    if not math.isfinite(value):
        raise NotStrictJson(text)
    return value


def _mark_float(text: str) -> Any:
    value = float(text)
    return value if math.isfinite(value) else NonFinite(text)


# json.loads(**kw) would build a decoder per call; these are built once.
STRICT = json.JSONDecoder(parse_constant=_refuse_constant, parse_float=_finite_float)
_MARKING = json.JSONDecoder(parse_constant=NonFinite, parse_float=_mark_float)


def loads(text: str | bytes) -> Any:
    """Parse strict JSON; ``NotStrictJson`` for NaN and friends, ``ValueError`` for anything else that is not JSON,
    ``RecursionError`` when it nests beyond what Python can parse."""
    if isinstance(text, bytes):
        text = text.decode("utf-8")
    return STRICT.decode(text)


def loads_marking(text: str | bytes) -> Any:
    """Parse JSON, keeping each non-finite number as a ``NonFinite`` marker."""
    if isinstance(text, bytes):
        text = text.decode("utf-8")
    return _MARKING.decode(text)


def deeper_than(value: Any, limit: int = MAX_DEPTH) -> bool:
    """True when ``value`` nests objects and arrays more than ``limit`` levels deep (iterative: no recursion)."""
    stack = [(value, 1)]
    while stack:
        item, depth = stack.pop()
        if isinstance(item, dict):
            children: Any = item.values()
        elif isinstance(item, list):
            children = item
        else:
            continue
        if depth > limit:
            return True
        stack.extend((child, depth + 1) for child in children if isinstance(child, dict | list))
    return False


def first_non_finite(value: Any) -> NonFinite | None:
    """A ``NonFinite`` marker found in ``value``, or None (iterative)."""
    stack = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, NonFinite):
            return item
        if isinstance(item, dict):
            stack.extend(item.values())
        elif isinstance(item, list):
            stack.extend(item)
    return None
