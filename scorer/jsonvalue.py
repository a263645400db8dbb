"""JSON equality and short renderings of JSON values, as the contract defines them.

JSON equality: numbers compare by value (``1 == 1.0``), booleans are not numbers (``true != 1``),
objects compare without key order, arrays in order.
"""

from __future__ import annotations

import json
from typing import Any


def is_number(value: Any) -> bool:
    """True for a JSON number (an int or float that is not a bool)."""
    return isinstance(value, int | float) and not isinstance(value, bool)


def json_equal(a: Any, b: Any) -> bool:
    """JSON equality of two parsed JSON values."""
    if isinstance(a, bool) or isinstance(b, bool):
        return isinstance(a, bool) and isinstance(b, bool) and a == b
    if is_number(a) or is_number(b):
        return is_number(a) and is_number(b) and a == b
    if isinstance(a, dict):
        return (
            isinstance(b, dict)
            and a.keys() == b.keys()
            and all(json_equal(value, b[key]) for key, value in a.items())
        )
    if isinstance(a, list):
        return isinstance(b, list) and len(a) == len(b) and all(map(json_equal, a, b))
    return type(a) is type(b) and a == b


def json_copy(value: Any) -> Any:
    """A deep copy of a parsed JSON value (objects and arrays copied, everything else shared: it is
    immutable); ``copy.deepcopy`` does the same several times slower, minding cycles and types
    JSON cannot hold."""
    if isinstance(value, dict):
        return {key: json_copy(item) for key, item in value.items()}
    if isinstance(value, list):
        return [json_copy(item) for item in value]
    return value


def render(value: Any, limit: int = 80) -> str:
    """Compact JSON text of ``value`` for a human reason, cut to ``limit`` characters."""
    try:
        text = json.dumps(value, ensure_ascii=False, sort_keys=True, separators=(", ", ": "))
    except (TypeError, ValueError):
        text = repr(value)
    return text if len(text) <= limit else text[: limit - 1] + "…"
