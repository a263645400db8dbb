"""Values a tool schema accepts, made from the schema alone, for ``suite new``'s reference calls.

An enum's second member (both neighbours exist, and it is rarely the default), a number inside the
bounds, a string of the allowed length that matches the pattern (a few likely forms are tried),
``minItems`` items, an object of its required fields; an optional argument's value avoids its stated
default, so leaving the argument out is a different answer. ``UNDECIDED`` when the schema does not
let one be made: the author picks it.
"""

from __future__ import annotations

import re
from typing import Any

from scorer import strict_json
from scorer.patterns import PatternError, pattern_search

_STRING_TRIES = (
    "example",
    "example-1",
    "main",
    "a1",
    "A1",
    "1",
    "#general",
    "user@example.com",
    "https://example.com/",
    "/tmp/example",
    "2026-10-21",
    "12:00",
    "abc",
    "x",
)


class _Undecided:
    def __repr__(self) -> str:
        return "UNDECIDED"


UNDECIDED: Any = _Undecided()


def sample(schema: Any, name: str, avoid_default: bool = False) -> Any:
    """A value ``schema`` accepts, for argument ``name``; ``UNDECIDED`` when none can be made."""
    if not isinstance(schema, dict):
        return f"example-{name}"
    default = _stated_default(schema)
    enum = schema.get("enum")
    if isinstance(enum, list) and enum:
        # The second member when there is one: both neighbours exist, and it is not the
        # usual default.
        choices = [v for v in enum if not (avoid_default and v == default)] or enum
        return choices[1] if len(choices) > 1 else choices[0]
    if "const" in schema:
        return schema["const"]
    kind = schema.get("type")
    kinds = kind if isinstance(kind, list) else [kind]
    kinds = [k for k in kinds if k != "null"] or kinds
    kind = kinds[0] if kinds else "string"
    if kind == "boolean":
        return not default if isinstance(default, bool) else True
    if kind in ("integer", "number"):
        return _number(schema, default if avoid_default else None)
    if kind == "array":
        item = sample(schema.get("items", {}), name)
        if item is UNDECIDED:
            return UNDECIDED
        count = max(1, int(schema.get("minItems") or 1))
        if isinstance(schema.get("maxItems"), int) and schema["maxItems"] < count:
            return UNDECIDED
        items = [item] + [_numbered(item, i) for i in range(2, count + 1)]
        return items
    if kind == "object":
        props = schema.get("properties") if isinstance(schema.get("properties"), dict) else {}
        out = {}
        for key in schema.get("required") or []:
            value = sample(props.get(key, {}), key)
            if value is UNDECIDED:
                return UNDECIDED
            out[key] = value
        return out
    return _string(schema, name, default if avoid_default else None)


def _numbered(item: Any, i: int) -> Any:
    if isinstance(item, str):
        return f"{item}-{i}"
    if isinstance(item, int) and not isinstance(item, bool):
        return item + i - 1
    return item


def _stated_default(schema: dict[str, Any]) -> Any:
    match = re.search(r"\(default ([^):;,]+)\)", str(schema.get("description", "")))
    if not match:
        return None
    text = match.group(1).strip()
    try:
        return strict_json.loads_file(text)  # NaN or a deep list is no default: kept as text
    except ValueError:
        return text


def _number(schema: dict[str, Any], default: Any) -> Any:
    low, high = schema.get("minimum"), schema.get("maximum")
    candidates = [5, 7, 2, 1, 0]
    if isinstance(low, int | float):
        candidates = [low + 1, low, *candidates]
    if isinstance(high, int | float):
        candidates = [*candidates, high - 1, high]
    for value in candidates:
        if schema.get("type") == "integer" and not float(value).is_integer():
            continue
        if (
            (not isinstance(low, int | float) or value >= low)
            and (not isinstance(high, int | float) or value <= high)
            and value != default
        ):
            return int(value) if schema.get("type") == "integer" else value
    return UNDECIDED


# A value of each format the validator checks (scorer.schema_formats), inside the method page's
# workspace date.
_FORMATS = {
    "date": "2026-10-21",
    "date-time": "2026-10-21T09:00:00Z",
    "time": "09:00:00Z",
    "email": "user@example.com",
    "idn-email": "user@example.com",
    "uri": "https://example.com/",
    "uuid": "123e4567-e89b-42d3-a456-426614174000",
    "ipv4": "192.0.2.1",
    "ipv6": "2001:db8::1",
}


def _string(schema: dict[str, Any], name: str, default: Any) -> Any:
    if schema.get("format") in _FORMATS and _FORMATS[schema["format"]] != default:
        return _FORMATS[schema["format"]]
    pattern = schema.get("pattern")
    low = schema.get("minLength") if isinstance(schema.get("minLength"), int) else 0
    high = schema.get("maxLength") if isinstance(schema.get("maxLength"), int) else None
    own = f"example-{name}".replace("_", "-")
    for value in (own, *_STRING_TRIES):
        if value == default or len(value) < low or (high is not None and len(value) > high):
            continue
        if isinstance(pattern, str):
            try:
                if not pattern_search(pattern, value):
                    continue
            except PatternError:
                return UNDECIDED
        return value
    if not isinstance(pattern, str) and (high is None or high >= max(low, 1)):
        return "x" * max(low, 1)
    return UNDECIDED
