"""Whole JSON Schema (Draft 2020-12) for the tools of a suite that is not Lobstack's
(docs/FORMATS.md, "Tool schemas of own suites").

Such a suite's tools are sent to the model exactly as the server or file gives them (``anyOf``,
``$ref``/``$defs``, ``format``, ``default``...), so Valid arguments validates with the whole of
Draft 2020-12, formats checked (``scorer.schema.formats``). A schema may come from any server, so
it is checked before use: against the Draft 2020-12 metaschema; every ``$ref`` local (``#`` or a
``#/...`` pointer that resolves; nothing is fetched); no ``$ref`` cycle that never descends into
the value (it would never end); the schema with its references written out at most
``EXPANDED_MAX`` schemas (a small file cannot hide an exponential one). ``pattern`` runs by RE2 as
in the subset (``scorer.patterns``).
"""

from __future__ import annotations

from collections.abc import Iterator
from functools import lru_cache
from typing import Any
from urllib.parse import unquote

from scorer.patterns import PatternError, compile_pattern

EXPANDED_MAX = 10_000
# Levels of one path through the schema, each $ref followed counting as one: the validator recurses
# along it (a chain of 5,000 $refs ran out of Python's stack), so a deeper schema is refused.
DEPTH_MAX = 100
# Keywords whose subschemas apply to the same value (a cycle through only these never ends) ...
_IN_PLACE_ONE = ("not", "if", "then", "else")
_IN_PLACE_LIST = ("allOf", "anyOf", "oneOf")
_IN_PLACE_MAP = ("dependentSchemas",)
# ... and those whose subschemas apply to a part of it (a cycle through one is a recursive type).
_INTO_ONE = (
    "additionalProperties",
    "items",
    "contains",
    "propertyNames",
    "unevaluatedItems",
    "unevaluatedProperties",
    "contentSchema",
)
_INTO_LIST = ("prefixItems",)
_INTO_MAP = ("properties", "patternProperties")


class _Refused(Exception):
    """One reason the schema is refused (the walk stops at the first)."""


def full_schema_problems(schema: Any, path: str) -> list[str]:
    """Every problem of a whole-JSON-Schema tool schema (empty when it may be used)."""
    try:
        problems = _metaschema_problems(schema, path)
        if problems:
            return problems
        if isinstance(schema, dict):  # true and false hold no subschema to walk
            _walk(schema, path)
    except _Refused as exc:
        return [str(exc)]
    except RecursionError:
        return [f"{path}: nests too deeply to check"]
    return []


@lru_cache(maxsize=1)
def _metaschema_validator() -> Any:
    from jsonschema import Draft202012Validator

    return Draft202012Validator(Draft202012Validator.META_SCHEMA)


def _metaschema_problems(schema: Any, path: str) -> list[str]:
    errors = sorted(
        _metaschema_validator().iter_errors(schema),
        key=lambda e: (list(map(str, e.absolute_path)), e.message),
    )
    # Each vocabulary of the metaschema checks the root's type: one line for the same error.
    return list(
        dict.fromkeys(
            f"{path}{''.join(f'.{p}' for p in error.absolute_path)}: {error.message}"
            for error in errors
        )
    )


def _children(node: dict[str, Any]) -> Iterator[tuple[str, Any, bool]]:
    """Each subschema of ``node``: its path step, the subschema, and whether it applies to the
    same value (in place)."""
    for key, in_place in [(k, True) for k in _IN_PLACE_ONE] + [(k, False) for k in _INTO_ONE]:
        if key in node:
            yield key, node[key], in_place
    for key, in_place in [(k, True) for k in _IN_PLACE_LIST] + [(k, False) for k in _INTO_LIST]:
        for index, sub in enumerate(node.get(key) or []):
            yield f"{key}[{index}]", sub, in_place
    for key, in_place in [(k, True) for k in _IN_PLACE_MAP] + [(k, False) for k in _INTO_MAP]:
        for name, sub in (node.get(key) or {}).items():
            yield f"{key}.{name}", sub, in_place


def _walk(root: dict[str, Any], path: str) -> None:
    """The schema with its references written out, depth first: each ``$ref`` resolved, no cycle in
    place, at most ``EXPANDED_MAX`` schemas. Each of the ``$defs`` is read once more without
    following its references (an unused one is never applied, but may still be broken)."""
    count = 0
    # (where, schema, follow its $ref, refs followed in place since the last step into the
    # value, refs on the path, its depth)
    stack: list[tuple[str, Any, bool, tuple[str, ...], tuple[str, ...], int]] = [
        (path, root, True, (), (), 0)
    ]
    for key in ("$defs", "definitions"):
        for name, sub in sorted((root.get(key) or {}).items(), reverse=True):
            stack.append((f"{path}.{key}.{name}", sub, False, (), (), 1))
    while stack:
        where, node, follow, in_place, on_path, depth = stack.pop()
        count += 1
        if count > EXPANDED_MAX:
            raise _Refused(
                f"{path}: with its $refs written out it has more than {EXPANDED_MAX} schemas"
            )
        if depth > DEPTH_MAX:
            raise _Refused(
                f"{path}: with its $refs written out it nests more than {DEPTH_MAX} levels deep"
            )
        if not isinstance(node, dict):
            continue
        _node_problem(root, node, where)
        ref = node.get("$ref")
        if isinstance(ref, str):
            target = _resolve(root, ref, where)
            if ref in in_place:
                raise _Refused(
                    f"{where}.$ref: {ref!r} refers back to itself without descending into the "
                    "value (a cycle that never ends)"
                )
            if follow and ref not in on_path:  # a recursive type: walked once
                entry = (
                    f"{where}.$ref",
                    target,
                    True,
                    (*in_place, ref),
                    (*on_path, ref),
                    depth + 1,
                )
                stack.append(entry)
        for step, sub, same_value in _children(node):
            kept = in_place if same_value else ()
            stack.append((f"{where}.{step}", sub, follow, kept, on_path, depth + 1))


def _node_problem(root: dict[str, Any], node: dict[str, Any], where: str) -> None:
    """_Refused for what one schema object may not hold: a nested ``$id``, a dynamic reference,
    a pattern RE2 cannot run."""
    if "$id" in node and node is not root:
        raise _Refused(f"{where}.$id: a nested $id is not supported (one resource per tool)")
    for key in ("$dynamicRef", "$recursiveRef"):
        if key in node:
            raise _Refused(f"{where}.{key}: not supported (use $ref)")
    if isinstance(node.get("pattern"), str):
        try:
            compile_pattern(node["pattern"])
        except PatternError as exc:
            raise _Refused(
                f"{where}.pattern: {node['pattern']!r} does not compile: {exc}"
            ) from None


def _resolve(root: dict[str, Any], ref: str, where: str) -> Any:
    """The subschema a local ``$ref`` points to (``#`` or ``#/a/b``); _Refused otherwise."""
    if not ref.startswith("#") or (len(ref) > 1 and not ref.startswith("#/")):
        raise _Refused(
            f"{where}.$ref: {ref!r} is not a local reference (#/...); nothing is fetched"
        )
    found = resolve_local(root, ref)
    if found is None:
        raise _Refused(f"{where}.$ref: {ref!r} points to nothing in the schema")
    return found


def resolve_local(root: Any, ref: str) -> Any:
    """The subschema a local ``$ref`` (``#`` or a ``#/a/b`` JSON pointer) points to in ``root``,
    or None."""
    if ref != "#" and not ref.startswith("#/"):
        return None
    node: Any = root
    for part in ref[2:].split("/") if len(ref) > 1 else []:
        part = unquote(part).replace("~1", "/").replace("~0", "~")
        if isinstance(node, dict) and part in node:
            node = node[part]
        elif isinstance(node, list) and part.isdigit() and int(part) < len(node):
            node = node[int(part)]
        else:
            return None
    return node


def _pattern(validator: Any, pattern: str, instance: Any, schema: dict[str, Any]) -> Iterator[Any]:
    """jsonschema's ``pattern`` keyword with the same message, run by RE2 (scorer/patterns.py). A
    pattern RE2 cannot run is an error of the value it judges, never an exception: a schema
    ``full_schema_problems`` passed has none, and ``suite new`` names the argument it drafts."""
    from jsonschema.exceptions import ValidationError

    from scorer.patterns import pattern_search

    if not validator.is_type(instance, "string"):
        return
    try:
        matched = pattern_search(pattern, instance)
    except PatternError:
        yield ValidationError(f"pattern {pattern!r} cannot be run by the validator")
        return
    if not matched:
        yield ValidationError(f"{instance!r} does not match {pattern!r}")


@lru_cache(maxsize=1)
def validator_class() -> Any:
    """Draft 2020-12's validator class with ``pattern`` run by RE2: the one every whole-schema
    check uses (Valid arguments, ``suite new``'s drafted calls), so no pattern runs by Python's
    ``re`` (METHOD.md#patterns-run-by-re2)."""
    from jsonschema import Draft202012Validator
    from jsonschema.validators import extend

    return extend(Draft202012Validator, {"pattern": _pattern})


def make_full_validator(schema: dict[str, Any]) -> Any:
    """A Draft 2020-12 validator, formats checked, for a schema ``full_schema_problems``
    passed."""
    from scorer.schema.formats import format_checker

    return validator_class()(schema, format_checker=format_checker())
