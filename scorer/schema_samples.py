"""Values a tool schema accepts, made from the schema alone, for ``suite new``'s reference calls.

An enum's second member (both neighbours exist, and it is rarely the default), a number inside the
bounds, a string of the allowed length that matches the pattern (a few likely forms are tried),
``minItems`` items, an object of its required fields; an optional argument's value avoids its stated
default, so leaving the argument out is a different answer. ``UNDECIDED`` when the schema does not
let one be made: the author picks it.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from typing import Any

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


MAX_ITEMS = 100  # items of a drafted array
MAX_LENGTH = 10_000  # characters of a drafted string


@dataclass(frozen=True)
class Undecided:
    """No value made: why, for the case's draft note."""

    reason: str = "the schema does not let one be made"


UNDECIDED: Any = Undecided()


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
        if isinstance(item, Undecided):
            return item
        count = max(1, int(schema.get("minItems") or 1))
        if count > MAX_ITEMS:  # a value of 300,000,000 items is not drafted: the author decides
            return Undecided(
                f"minItems {count} is more than the {MAX_ITEMS} items suite new writes"
            )
        if isinstance(schema.get("maxItems"), int) and schema["maxItems"] < count:
            return UNDECIDED

        items = [item] + [_numbered(item, i) for i in range(2, count + 1)]
        return items
    if kind == "object":
        props = schema.get("properties") if isinstance(schema.get("properties"), dict) else {}
        out = {}
        for key in schema.get("required") or []:
            value = sample(props.get(key, {}), key)
            if isinstance(value, Undecided):
                return value
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
        return json.loads(text)
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


def _string(schema: dict[str, Any], name: str, default: Any) -> Any:
    pattern = schema.get("pattern")
    low = schema.get("minLength") if isinstance(schema.get("minLength"), int) else 0
    high = schema.get("maxLength") if isinstance(schema.get("maxLength"), int) else None
    if low > MAX_LENGTH:  # a string of 1,500,000,000 characters is not drafted
        return Undecided(
            f"minLength {low} is more than the {MAX_LENGTH} characters suite new writes"
        )
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
