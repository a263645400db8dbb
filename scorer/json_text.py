"""Deterministic JSON text, exactly as
``json.dumps(value, indent=2, sort_keys=True, ensure_ascii=False, allow_nan=False)`` writes it,
about 50x faster.

With ``indent`` set, Python's json module switches to its pure-Python encoder (~3 ms for one model's
results.json). orjson writes the same text (strings, escapes, key order, indentation and integers
byte for byte, checked by tests/test_json_text.py) except in three cases, handled here:
- a float Python writes with an exponent (``1e-05``, ``2.7755575615628914e-15``, ``1e+16``): orjson
  writes the same digits differently (``0.00001``, ``2.7755575615628914e-15``, ``1e16``); each such
  number is rewritten to Python's ``repr`` in the text (where a number stands in indented JSON:
  after a space, before ``,`` or a line end);
- NaN and infinities: orjson writes ``null``, so they are looked for first and refused as Python
  refuses them;
- what orjson does not take (an integer beyond 64 bits, a key that is not a str, a lone surrogate)
  goes to Python's encoder; a lone surrogate (valid JSON as ``"\\udc80"``, which a model may send)
  is then written as that escape, so the text is UTF-8 and reads back to the same string.
"""

from __future__ import annotations

import json
import math
from typing import Any

import orjson

_OPTIONS = (
    orjson.OPT_INDENT_2
    | orjson.OPT_SORT_KEYS
    | orjson.OPT_PASSTHROUGH_DATACLASS
    | orjson.OPT_PASSTHROUGH_DATETIME
)


def _python(value: Any) -> str:
    text = json.dumps(value, indent=2, sort_keys=True, ensure_ascii=False, allow_nan=False)
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        # Only inside a string can a lone surrogate stand, and "backslashreplace" writes it as
        # JSON's \uXXXX.
        return text.encode("utf-8", "backslashreplace").decode("utf-8")
    return text


def _exponent_floats(value: Any) -> set[float]:
    """Every float in ``value`` whose repr has an exponent; ValueError for NaN or an
    infinity (iterative)."""
    found: set[float] = set()
    level = [value]
    while level:  # one nesting level at a time, strings (most of the nodes) passed over first
        nested: list[Any] = []
        for item in level:
            if type(item) is str:
                continue
            if isinstance(item, float):
                if not math.isfinite(item):
                    raise ValueError(f"Out of range float values are not JSON compliant: {item!r}")
                if item != 0.0 and not 1e-4 <= abs(item) < 1e16:
                    found.add(item)
            elif isinstance(item, dict):
                nested.extend(item.values())
            elif isinstance(item, list | tuple):
                nested.extend(item)
        level = nested
    return found


def dumps_indented(value: Any) -> str:
    """``value`` as JSON text: sorted keys, two-space indent, UTF-8 characters as they are, floats
    by repr, no NaN (ValueError), no trailing newline."""
    if not isinstance(value, dict | list | tuple):
        return _python(value)  # a bare scalar: nothing to save
    exponents = _exponent_floats(value)
    try:
        text = orjson.dumps(value, option=_OPTIONS).decode("utf-8")
    except (
        TypeError
    ):  # orjson.JSONEncodeError: a big integer, a non-str key, a type neither encoder may know
        return _python(value)
    for number in exponents:
        theirs, ours = orjson.dumps(number).decode("ascii"), float.__repr__(number)
        if theirs != ours:
            # Indented, a number stands alone after a space and ends its line; inside a string it
            # could not be followed by a line end (JSON escapes those), and a longer number does not
            # start with a space.
            text = text.replace(f" {theirs},\n", f" {ours},\n").replace(
                f" {theirs}\n", f" {ours}\n"
            )
    return text


def loads_text(text: str) -> Any:
    """Parse JSON text this module wrote (orjson; Python's parser for what orjson refuses, a
    big integer)."""
    try:
        return orjson.loads(text)
    except orjson.JSONDecodeError:
        return json.loads(text)
