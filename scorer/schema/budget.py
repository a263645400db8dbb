"""Untrusted tool schemas checked before anything walks them (issue 42, part 3).

A tools file or an MCP server is input like any other: a schema is checked against the JSON Schema
metaschema (Draft 2020-12: keyword types such as an integer ``minItems``, an array of strings
``required``), and walked once with every local ``$ref`` followed under three limits, before any
value is drafted from it:

- depth: at most ``MAX_DEPTH`` levels of nesting with each ``$ref`` followed (a chain of 3,000
  ``$ref`` would otherwise exhaust the recursion of every later walker, jsonschema's included);
- size: the walk visits at most ``BUDGET_BASE + BUDGET_PER_NODE`` x (the input's own node count)
  nodes across all tools (a ``$ref`` graph that doubles at each of 24 levels expands to 16 million
  nodes from a few dozen lines); the walk stops at the budget, so its time is linear in the input;
- references: only a local JSON pointer (``#``, ``#/$defs/Name``) is followed; any other is refused
  (nothing is fetched), and a ``$ref`` already on the path (a recursive schema) is not
  followed again.

The walk is iterative: no input can reach Python's recursion limit here.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any
from urllib.parse import unquote

from scorer.safe_text import for_terminal

MAX_DEPTH = 64  # objects and arrays; pydantic's nested models take about 5 a level
BUDGET_BASE = 100_000
BUDGET_PER_NODE = 16
MAX_TOOLS = 10_000
GATEWAY_TOOL_LIMIT = 128  # OpenAI's tools per request; gateways pass it on


@dataclass
class Budget:
    """The nodes the walks of one tool list may still visit (shared by its tools)."""

    remaining: int
    spent: list[int] = field(default_factory=list)


def node_count(value: Any) -> int:
    """The JSON nodes (objects, arrays, scalars) of ``value``, counted without recursion."""
    count, stack = 0, [value]
    while stack:
        item = stack.pop()
        count += 1
        if isinstance(item, dict):
            stack.extend(item.values())
        elif isinstance(item, list):
            stack.extend(item)
    return count


def budget_for(schemas: list[Any]) -> Budget:
    """A walk budget linear in the size of ``schemas``."""
    total = sum(node_count(schema) for schema in schemas)
    return Budget(BUDGET_BASE + BUDGET_PER_NODE * total)


def resolve_pointer(root: Any, ref: str) -> tuple[bool, Any]:
    """``(True, target)`` for a local JSON pointer ``ref`` (``#``, ``#/$defs/A``) into ``root``,
    else ``(False, None)``."""
    if not ref.startswith("#") or (len(ref) > 1 and not ref.startswith("#/")):
        return False, None
    node = root
    for raw in ref[2:].split("/") if len(ref) > 1 else []:
        part = unquote(raw).replace("~1", "/").replace("~0", "~")
        if isinstance(node, dict) and part in node:
            node = node[part]
        elif isinstance(node, list) and part.isdigit() and int(part) < len(node):
            node = node[int(part)]
        else:
            return False, None
    return True, node


def schema_problems(schema: Any, budget: Budget) -> list[tuple[str, str]]:
    """What makes ``schema`` unsafe or invalid to draft from, as ``(field, message)`` pairs (the
    field a dotted path, "" for the root; the caller names the tool); empty when it may
    be walked."""
    if not isinstance(schema, dict):
        return [("", "not a JSON Schema object")]
    walked = _walk(schema, budget)
    if walked:
        return [walked]
    # Tool lists repeat schemas (an id alone, a query alone): each distinct one is checked once.
    return list(_metaschema_problems(json.dumps(schema, sort_keys=True)))


# Keywords whose subschemas apply to a part of the value (a property, an item): a $ref loop through
# one of them ends with the value; a loop through none (A: {"$ref": "#/$defs/A"}, or through allOf)
# never does, and every validator would recurse forever on it.
_DESCENDING = frozenset(
    {"properties", "patternProperties", "additionalProperties", "items", "prefixItems"}
    | {"contains", "propertyNames", "unevaluatedItems", "unevaluatedProperties"}
)
_DATA = frozenset({"enum", "const", "default", "examples"})  # values, not schemas


def _walk(root: dict[str, Any], budget: Budget) -> tuple[str, str] | None:
    """The first limit ``root`` breaks, walked with each local ``$ref`` followed, or None. Each
    entry carries the ``$ref`` on its path (a recursive one is not followed twice) and those
    followed since the walk last went into a part of the value (one of them again is a loop)."""
    Entry = tuple[Any, int, tuple[str, ...], tuple[str, ...], str, bool]
    stack: list[Entry] = [(root, 0, (), (), "", False)]
    while stack:
        node, depth, refs, idle, where, data = stack.pop()
        budget.remaining -= 1
        if budget.remaining < 0:
            return where, (
                "expands to more nodes than suite new walks with each $ref followed (a $ref "
                "graph that multiplies)"
            )
        if depth > MAX_DEPTH:
            return where, f"nests deeper than {MAX_DEPTH} levels with each $ref followed"
        if isinstance(node, list):  # pushed last first: walked in document order
            stack.extend(
                (node[i], depth + 1, refs, idle, f"{where}[{i}]", data)
                for i in reversed(range(len(node)))
            )
            continue
        if not isinstance(node, dict):
            continue
        ref = None if data else node.get("$ref")
        if isinstance(ref, str):
            found, target = resolve_pointer(root, ref)
            if not found:
                return _join(where, "$ref"), (
                    f"{ref[:200]!r} is not a local reference that resolves (only #/... pointers "
                    "into the schema are followed; nothing is fetched)"
                )
            if ref in idle:
                return _join(where, "$ref"), (
                    f"{ref[:200]!r} loops back to itself without reaching a part of the value "
                    "(a validator would recurse forever)"
                )
            if ref not in refs:
                follow = (
                    target,
                    depth + 1,
                    (*refs, ref),
                    (*idle, ref),
                    _join(where, "$ref"),
                    False,
                )
                stack.append(follow)
        for key, value in reversed(node.items()):
            if isinstance(value, dict | list):
                inner = data or key in _DATA
                after = () if key in _DESCENDING and not data else idle
                stack.append((value, depth + 1, refs, after, _join(where, str(key)), inner))
    return None


@lru_cache(maxsize=1)
def _meta_validator() -> Any:
    from jsonschema import Draft202012Validator

    return Draft202012Validator(Draft202012Validator.META_SCHEMA)


def _join(where: str, key: str) -> str:
    return f"{where}.{key}" if where else key


@lru_cache(maxsize=4096)
def _metaschema_problems(text: str) -> tuple[tuple[str, str], ...]:
    """The first metaschema error (Draft 2020-12) of the schema ``text`` (sorted JSON)."""
    from jsonschema.exceptions import best_match

    schema = json.loads(text)
    validator = _meta_validator()
    if validator.is_valid(schema):
        return ()
    error = best_match(validator.iter_errors(schema))
    if error is None:
        return ()
    where = ".".join(str(part) for part in error.absolute_path)
    message = error.message if len(error.message) <= 300 else error.message[:300] + "..."
    return ((where, message),)


def listing_problems(named: list[tuple[str, Any]]) -> list[str]:
    """Every problem of a tool list ``[(tool name, input schema or None)]`` that stops drafting
    (too many tools, an unsafe or invalid schema), each naming its tool; the first few only."""
    if len(named) > MAX_TOOLS:
        return [
            f"{len(named)} tools: more than the {MAX_TOOLS} suite new drafts from "
            "(choose some with --include TOOL)"
        ]
    budget = budget_for([schema for _, schema in named])
    found: list[str] = []
    for name, schema in named:
        if schema is None:  # no schema given: an object with no properties
            continue
        found += [
            f"tool {name!r}: parameters{'.' if where else ''}{where}: {message}"
            for where, message in schema_problems(schema, budget)
        ]
        if budget.remaining < 0 or len(found) > 5:
            break
    shown = [for_terminal(line, one_line=True) for line in found[:5]]
    return shown + ([f"and {len(found) - 5} more"] if len(found) > 5 else [])
