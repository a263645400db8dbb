"""Values a tool schema accepts, made from the schema as the server gives it, for ``suite new``'s
reference calls (issue 40, part 3).

Local ``$ref`` are followed (a recursive one is not taken twice on a path), ``allOf`` merged, the
first option of ``anyOf``/``oneOf`` that is not ``null`` taken; an enum gives its second member
(both neighbours exist, and it is rarely the default), a number sits inside its bounds (exclusive
ones and ``multipleOf`` too), a string satisfies its ``format`` (date, date-time, time, email, uri,
uuid, ipv4, ...), its ``pattern`` (generated from it, scorer/suite/draft/pattern_sample.py) and its
length, an array has ``minItems`` items, each after the first made distinct from those before it
and taken by the item's schema where one can be (scorer/suite/draft/array_items.py: numbered, an
enum's next member, ...; else repeated, and under ``uniqueItems`` undecided), an object its required
properties (and, when ``full``, its optional ones). Where the schema says little, the name and
description choose (scorer/suite/draft/value_hints.py). An optional argument avoids its stated
default, so leaving it out is a different answer. ``Undecided`` (with its reason) when no value can
be made: the author picks it. The schema was checked and bounded first (scorer/schema/budget.py);
values are bounded here too.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from typing import Any

from scorer import strict_json
from scorer.patterns import PatternError, pattern_search
from scorer.schema.budget import MAX_DEPTH, resolve_pointer
from scorer.suite.draft.array_items import distinct_item
from scorer.suite.draft.pattern_sample import pattern_example
from scorer.suite.draft.value_hints import format_value, number_value, string_value

MAX_ITEMS = 100  # items of a drafted array
MAX_LENGTH = 10_000  # characters of a drafted string
MAX_NODES = 10_000  # values in one drafted argument
MAX_OPTIONAL = 12  # optional properties filled in a nested object


@dataclass(frozen=True)
class Undecided:
    """No value made: why, for the case's draft note."""

    reason: str = "the schema does not let one be made"


class _Stop(Exception):
    def __init__(self, reason: str) -> None:
        self.reason = reason


def sample(
    schema: Any, name: str, avoid_default: bool = False, root: Any = None, full: bool = False
) -> Any:
    """A value ``schema`` accepts, for argument ``name`` (``root``: the document its ``$ref``
    point into); ``Undecided`` when none can be made."""
    walk = _Walk(root if root is not None else schema)
    try:
        return walk.make(schema, name, 0, (), avoid_default, full)
    except _Stop as stop:
        return Undecided(stop.reason)


class _Walk:
    def __init__(self, root: Any) -> None:
        self.root = root
        self.nodes = 0

    def resolve(self, schema: dict[str, Any], refs: tuple[str, ...]) -> tuple[Any, tuple[str, ...]]:
        """``schema`` with its ``$ref`` and ``allOf`` folded in."""
        for _ in range(MAX_DEPTH):
            ref = schema.get("$ref")
            if isinstance(ref, str):
                if ref in refs:
                    raise _Stop(f"a recursive schema ({ref} inside itself)")
                found, target = resolve_pointer(self.root, ref)
                if not found or not isinstance(target, dict | bool):
                    raise _Stop(f"$ref {ref!r} does not resolve")
                if target is False:
                    raise _Stop("the schema accepts no value")
                rest = {k: v for k, v in schema.items() if k != "$ref"}
                schema = {**(target if isinstance(target, dict) else {}), **rest}
                refs = (*refs, ref)
                continue
            parts = schema.get("allOf")
            if isinstance(parts, list) and parts:
                merged = {k: v for k, v in schema.items() if k != "allOf"}
                for part in parts:
                    part, refs = self.resolve(part, refs) if isinstance(part, dict) else ({}, refs)
                    merged = _merge(merged, part)
                schema = merged
                continue
            return schema, refs
        raise _Stop("$ref nests too deep")

    def make(
        self, schema: Any, name: str, depth: int, refs: tuple[str, ...], avoid: bool, full: bool
    ) -> Any:
        self.nodes += 1
        if self.nodes > MAX_NODES or depth > MAX_DEPTH:
            raise _Stop(f"a value of more than {MAX_NODES} parts or {MAX_DEPTH} levels")
        if schema is True or schema == {}:
            return string_value(name)
        if not isinstance(schema, dict):
            raise _Stop("the schema accepts no value")
        schema, refs = self.resolve(schema, refs)
        default = schema["default"] if "default" in schema else _stated_default(schema)
        if "const" in schema:
            return schema["const"]
        enum = schema.get("enum")
        if isinstance(enum, list) and enum:
            choices = [v for v in enum if not (avoid and v == default)] or enum
            return choices[1] if len(choices) > 1 else choices[0]
        for key in ("anyOf", "oneOf"):
            options = schema.get(key)
            if isinstance(options, list) and options:
                return self.option(schema, key, options, name, depth, refs, avoid, full)
        kind = _kind(schema)
        if kind == "null":
            return None
        if kind == "boolean":
            return not default if isinstance(default, bool) else True
        if kind in ("integer", "number"):
            return _number(schema, kind, name, default if avoid else None)
        if kind == "array":
            return self.array(schema, name, depth, refs, full)
        if kind == "object":
            return self.object(schema, depth, refs, full)
        return _string(schema, name, default if avoid else None)

    def option(
        self,
        schema: dict[str, Any],
        key: str,
        options: list[Any],
        name: str,
        depth: int,
        refs: tuple[str, ...],
        avoid: bool,
        full: bool,
    ) -> Any:
        """The first option (``null`` last) that gives a value, with the keywords beside it."""
        # A default beside the options goes with them, so an optional argument still avoids it.
        rest = {k: v for k, v in schema.items() if k != key}
        ranked = sorted(options, key=lambda o: isinstance(o, dict) and o.get("type") == "null")
        reason = "no option of " + key + " gives a value"
        for option in ranked:
            merged = _merge(rest, option) if isinstance(option, dict) else option
            try:
                return self.make(merged, name, depth + 1, refs, avoid, full)
            except _Stop as stop:
                reason = stop.reason
        raise _Stop(reason)

    def array(
        self, schema: dict[str, Any], name: str, depth: int, refs: tuple[str, ...], full: bool
    ) -> list[Any]:
        low = _count(schema, "minItems", 0)
        count = max(1, low)
        if count > MAX_ITEMS:  # a value of 300,000,000 items is not drafted: the author decides
            raise _Stop(f"minItems {count} is more than the {MAX_ITEMS} items suite new writes")
        high = _count(schema, "maxItems")
        if isinstance(high, int) and high < count:
            if high < low:
                raise _Stop("maxItems is below minItems")
            count = high
        prefix = schema.get("prefixItems") if isinstance(schema.get("prefixItems"), list) else []
        items = schema.get("items", {})
        singular = name[:-1] if name.endswith("s") else name
        out: list[Any] = []
        for index in range(count):
            part = prefix[index] if index < len(prefix) else items
            value = self.make(part, singular, depth + 1, refs, False, full)
            if index:
                schema_of = self.resolve(part, refs)[0] if isinstance(part, dict) else {}
                value = distinct_item(self.root, part, schema_of, value, index, singular, out)
            out.append(value)
        if schema.get("uniqueItems") and len({json.dumps(v, sort_keys=True) for v in out}) < count:
            raise _Stop("uniqueItems: distinct items could not be made")
        return out

    def object(
        self, schema: dict[str, Any], depth: int, refs: tuple[str, ...], full: bool
    ) -> dict[str, Any]:
        props = schema.get("properties") if isinstance(schema.get("properties"), dict) else {}
        required = [n for n in schema.get("required", []) if isinstance(n, str)]
        names = required + [n for n in props if n not in required][: MAX_OPTIONAL if full else 0]
        wanted = _count(schema, "minProperties", 0)
        if len(names) < wanted:
            names += [n for n in props if n not in names][: wanted - len(names)]
        out: dict[str, Any] = {}
        for key in names:
            sub = props.get(key, schema.get("additionalProperties", {}))
            if sub is False:
                raise _Stop(f"required {key!r} is not allowed")
            out[key] = self.make(sub if sub is not True else {}, key, depth + 1, refs, False, full)
        return out


def _merge(base: dict[str, Any], extra: dict[str, Any]) -> dict[str, Any]:
    """Two schemas' keywords together (``properties`` and ``required`` joined)."""
    merged = {**base, **extra}
    if isinstance(base.get("properties"), dict) and isinstance(extra.get("properties"), dict):
        merged["properties"] = {**base["properties"], **extra["properties"]}
    if isinstance(base.get("required"), list) and isinstance(extra.get("required"), list):
        merged["required"] = list(dict.fromkeys(base["required"] + extra["required"]))
    return merged


def _kind(schema: dict[str, Any]) -> str:
    kind = schema.get("type")
    kinds = kind if isinstance(kind, list) else [kind] if isinstance(kind, str) else []
    plain = [k for k in kinds if k != "null"] or kinds
    if plain:
        return plain[0]
    keys = set(schema)
    if keys & {"properties", "required", "additionalProperties", "minProperties"}:
        return "object"
    if keys & {"items", "prefixItems", "minItems", "maxItems", "uniqueItems"}:
        return "array"
    if keys & {"minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "multipleOf"}:
        return "number"
    return "string"


def _count(schema: dict[str, Any], key: str, default: Any = None) -> Any:
    """A count keyword as an int: JSON Schema's integers include 2.0, which range() refuses."""
    value = schema.get(key, default)
    return int(value) if isinstance(value, float) and value.is_integer() else value


def _stated_default(schema: dict[str, Any]) -> Any:
    match = re.search(r"\(default ([^):;,]+)\)", str(schema.get("description", "")))
    if not match:
        return None
    text = match.group(1).strip()
    try:
        return strict_json.loads_file(text)  # NaN or a deep list is no default: kept as text
    except ValueError:
        return text


def _number(schema: dict[str, Any], kind: str, name: str, default: Any) -> Any:
    low, high = schema.get("minimum"), schema.get("maximum")
    above, below = schema.get("exclusiveMinimum"), schema.get("exclusiveMaximum")
    step = schema.get("multipleOf")
    hinted = number_value(name)
    candidates = [5, 7, 2, 1, 0, 10, 3]
    if hinted is not None:
        candidates.insert(0, hinted)
    for bound, shift in ((low, 1), (above, 1), (high, -1), (below, -1)):
        if isinstance(bound, int | float):
            candidates += [bound + shift, bound, bound + 2 * shift]
    if isinstance(step, int | float) and step > 0:
        candidates = [c - c % step for c in candidates] + [step, 2 * step]
    for value in candidates:
        if kind == "integer" and not float(value).is_integer():
            continue
        fits = (
            (not isinstance(low, int | float) or value >= low)
            and (not isinstance(high, int | float) or value <= high)
            and (not isinstance(above, int | float) or value > above)
            and (not isinstance(below, int | float) or value < below)
        )
        if fits and value != default:
            return int(value) if kind == "integer" else value
    raise _Stop("no number fits its bounds")


def _string(schema: dict[str, Any], name: str, default: Any) -> str:
    low = _count(schema, "minLength", 0)
    high = _count(schema, "maxLength")
    if low > MAX_LENGTH:  # a string of 1,500,000,000 characters is not drafted
        raise _Stop(f"minLength {low} is more than the {MAX_LENGTH} characters suite new writes")
    pattern = schema.get("pattern")
    fmt = schema.get("format")
    tries: list[str] = []
    if isinstance(fmt, str) and (value := format_value(fmt, name)) is not None:
        tries.append(value)
    if isinstance(pattern, str):
        tries += [v for seed in ("", "2", "3") if (v := pattern_example(pattern, name + seed))]
    tries.append(string_value(name, str(schema.get("description", ""))))
    for value in tries:
        if value == default:
            continue
        if len(value) < low:
            value = value + "x" * (low - len(value)) if not pattern else value
        if isinstance(high, int) and len(value) > high and not pattern and not fmt:
            value = value[:high]
        if len(value) < low or (isinstance(high, int) and len(value) > high):
            continue
        try:
            if isinstance(pattern, str) and not pattern_search(pattern, value):
                continue
        except PatternError:
            raise _Stop(f"pattern {pattern!r} cannot be run by the validator") from None
        return value
    raise _Stop(f"no string fits its pattern, format and length ({name})")
