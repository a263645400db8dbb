"""Strict JSON for every file lobstack-eval reads: no NaN or Infinity, and a bound on nesting.

Python's ``json`` accepts ``NaN``/``Infinity`` and recurses once per level, so a file nested 100,000 deep raises
``RecursionError`` (and a shallower one can crash whatever walks it recursively later). ``loads`` turns both into
one ``NotStrictJSON`` whose text says what and where (``cases.x.attempts[0].wall_ms: NaN is not JSON``), so each
reader can name its file and field.
"""

from __future__ import annotations

import json
import math
from typing import Any

MAX_DEPTH = 100  # a suite, run.json or results.json is about 12 levels deep; 100 leaves room and stays safe


class NotStrictJSON(ValueError):
    """Text that is not strict JSON within ``MAX_DEPTH`` levels; ``str()`` is the reason, with the field's path."""


class _Constant:
    """What the decoder puts where the text had NaN, Infinity, -Infinity or a number too large for a float (which
    Python would read as infinity), so the walk can name the field."""

    def __init__(self, problem: str) -> None:
        self.problem = problem


def _constant(name: str) -> _Constant:
    return _Constant(f"{name} is not JSON")


def _float(text: str) -> float | _Constant:
    value = float(text)
    return value if math.isfinite(value) else _Constant(f"{text} is out of range")


_DECODER = json.JSONDecoder(parse_constant=_constant, parse_float=_float)


def _children(node: Any) -> Any:
    if isinstance(node, dict):
        return node.items()
    if isinstance(node, list):
        return enumerate(node)
    return ()


def _path(parts: tuple[Any, ...]) -> str:
    text = ""
    for part in parts:
        text += f"[{part}]" if isinstance(part, int) else (f".{part}" if text else str(part))
    return text or "the document"


def problem(value: Any, limit: int = MAX_DEPTH) -> str | None:
    """Why a decoded value is not strict JSON (a NaN/Infinity, or nesting beyond ``limit``), or None.

    Iterative, so any depth is safe to ask about."""
    stack: list[tuple[Any, tuple[Any, ...]]] = [(value, ())]
    while stack:
        node, parts = stack.pop()
        if isinstance(node, _Constant):
            return f"{_path(parts)}: {node.problem}"
        if isinstance(node, dict | list):
            if len(parts) >= limit:
                return f"nested more than {limit} levels deep"
            stack.extend((child, (*parts, key)) for key, child in reversed(list(_children(node))))
    return None


def deeper_than(value: Any, limit: int) -> bool:
    """True when objects/arrays in ``value`` nest more than ``limit`` levels (iterative: safe at any depth)."""
    stack: list[tuple[Any, int]] = [(value, 1)] if isinstance(value, dict | list) else []
    while stack:
        node, depth = stack.pop()
        if depth > limit:
            return True
        children = node.values() if isinstance(node, dict) else node
        stack.extend((child, depth + 1) for child in children if isinstance(child, dict | list))
    return False


def loads(text: str | bytes) -> Any:
    """Parse strict JSON; raises ``NotStrictJSON`` (a ValueError) for NaN/Infinity or nesting beyond ``MAX_DEPTH``.

    Syntax errors stay ``json.JSONDecodeError`` (also a ValueError) so callers can show line and column; bytes that
    are not UTF-8 raise ``UnicodeDecodeError``.
    """
    if isinstance(text, bytes):
        text = text.decode("utf-8")
    try:
        value = _DECODER.decode(text)
    except RecursionError:
        raise NotStrictJSON(f"nested more than {MAX_DEPTH} levels deep") from None
    reason = problem(value)
    if reason:
        raise NotStrictJSON(reason)
    return value
