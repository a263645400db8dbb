"""What a tool's schema says about its arguments: properties, required ones, and defaults its
descriptions give.

The schema subset has no ``default`` keyword (decision 6), so the catalogue states defaults in the
description, ``"(default false)"``; that wording is read here. An own suite's schema is whole
(docs/FORMATS.md, "Tool schemas of own suites"): its ``default`` keyword is read too, and an
argument's local ``$ref`` is written out so its enum and bounds make wrong values as in the subset.
"""

from __future__ import annotations

import re
from typing import Any

from scorer.schema.full import resolve_local
from scorer.suite.model import Suite

_REF_HOPS = 8  # a chain of $refs longer than this is left as it is (the audit only reads it)

_DEFAULT = re.compile(r"\(default ([^):;,]+)")


def parameters(suite: Suite, tool: str) -> dict[str, Any]:
    """The tool's parameters schema (an empty object schema for a tool the suite does
    not define)."""
    spec = suite.tools.get(tool)
    schema = spec.spec.get("function", {}).get("parameters") if spec else None
    if not isinstance(schema, dict):
        return {}
    props = properties(schema)
    if not any(isinstance(p, dict) and "$ref" in p for p in props.values()):
        return schema
    return {**schema, "properties": {n: _written_out(schema, p) for n, p in props.items()}}


def _written_out(root: dict[str, Any], prop: Any) -> Any:
    """``prop`` with its local ``$ref`` replaced by what it points to (its own keys kept)."""
    for _ in range(_REF_HOPS):
        if not isinstance(prop, dict) or not isinstance(prop.get("$ref"), str):
            break
        target = resolve_local(root, prop["$ref"])
        if not isinstance(target, dict):
            break
        prop = {**target, **{k: v for k, v in prop.items() if k != "$ref"}}
    return prop


def properties(schema: dict[str, Any]) -> dict[str, Any]:
    """The schema's ``properties`` (empty when it has none)."""
    props = schema.get("properties")
    return props if isinstance(props, dict) else {}


def required(schema: dict[str, Any]) -> set[str]:
    """The schema's required argument names."""
    names = schema.get("required")
    return {name for name in names if isinstance(name, str)} if isinstance(names, list) else set()


def defaults(schema: dict[str, Any]) -> dict[str, Any]:
    """Each optional argument's default, as its description states it, typed by its schema."""
    found: dict[str, Any] = {}
    for name, prop in properties(schema).items():
        if not isinstance(prop, dict) or name in required(schema):
            continue
        if "default" in prop:  # a whole schema states it in its own keyword
            # pydantic writes `x: str = None` as a default its own schema refuses: not a right
            # answer to send.
            if prop["default"] is not None or _allows_null(prop):
                found[name] = prop["default"]
            continue
        match = _DEFAULT.search(str(prop.get("description", "")))
        if not match:
            continue
        text = match.group(1).strip()
        value: Any = text
        if prop.get("type") == "boolean" and text in ("true", "false"):
            value = text == "true"
        elif prop.get("type") == "integer" and text.isascii() and text.isdigit() and len(text) < 19:
            value = int(text)
        elif prop.get("type") != "string":
            continue
        enum = prop.get("enum")
        if isinstance(enum, list) and value not in enum:
            continue
        found[name] = value
    return found


def _allows_null(prop: dict[str, Any]) -> bool:
    """True when ``prop`` lets ``null`` through by its type or an ``anyOf``/``oneOf`` option."""
    kind = prop.get("type")
    if kind == "null" or (isinstance(kind, list) and "null" in kind):
        return True
    options = [*(prop.get("anyOf") or []), *(prop.get("oneOf") or [])]
    return any(isinstance(o, dict) and o.get("type") == "null" for o in options)
