"""What a tool's schema says about its arguments: properties, required ones, and defaults its
descriptions give.

The schema subset has no ``default`` keyword (decision 6), so the catalogue states defaults in the
description, ``"(default false)"``; that wording is read here.
"""

from __future__ import annotations

import re
from typing import Any

from scorer.suite_model import Suite

_DEFAULT = re.compile(r"\(default ([^):;,]+)")


def parameters(suite: Suite, tool: str) -> dict[str, Any]:
    """The tool's parameters schema (an empty object schema for a tool the suite does
    not define)."""
    spec = suite.tools.get(tool)
    schema = spec.spec.get("function", {}).get("parameters") if spec else None
    return schema if isinstance(schema, dict) else {}


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
