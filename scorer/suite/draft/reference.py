"""A drafted reference call for one tool, made from its input schema as listed and proven against it
(issue 40, part 3).

Each argument's value comes from scorer/suite/draft/samples.py, with ``$ref`` resolved against the
whole schema; the call is then validated against that schema with the Draft 2020-12 validator
every whole schema is checked with (scorer/schema/full.py: ``pattern`` run by RE2, as everywhere
else; a pattern RE2 cannot run is the argument's reason, never an exception) and a format checker
(date, email, ipv4, uuid, ... as jsonschema has them installed; date-time, time and uri as
scorer/schema/formats.py checks an own suite's schemas: RFC 3339 with seconds, RFC 3986), so a
reference ``suite new`` writes never breaks the server's own schema: an argument that would is left
out and named for the author to decide, with the validator's reason.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from scorer.schema.budget import resolve_pointer
from scorer.schema.formats import draft_format_checker
from scorer.schema.full import validator_class
from scorer.suite.draft.samples import Undecided, sample


@dataclass(frozen=True)
class Drafted:
    """A reference call's arguments, and each argument left to decide with why."""

    reference: dict[str, Any]
    undecided: tuple[str, ...]


def root_object(schema: Any) -> dict[str, Any]:
    """The object schema a tool's arguments follow (a root ``$ref`` followed once)."""
    if not isinstance(schema, dict):
        return {"type": "object", "properties": {}}
    ref = schema.get("$ref")
    if isinstance(ref, str):
        found, target = resolve_pointer(schema, ref)
        if found and isinstance(target, dict):
            return {**target, **{k: v for k, v in schema.items() if k != "$ref"}}
    return schema


def argument_names(schema: Any, optional: bool) -> list[str]:
    """The required arguments, then (when ``optional``) the others, in listed order."""
    root = root_object(schema)
    props = root.get("properties") if isinstance(root.get("properties"), dict) else {}
    required = [n for n in root.get("required") or [] if isinstance(n, str)]
    ordered = [n for n in props if n in required] + [n for n in required if n not in props]
    return ordered + ([n for n in props if n not in required] if optional else [])


def draft_reference(schema: Any, optional: bool) -> Drafted:
    """The reference call's arguments for a tool whose input schema is ``schema``: the required
    ones, and every optional one (each away from its default) when ``optional``."""
    root = root_object(schema)
    props = root.get("properties") if isinstance(root.get("properties"), dict) else {}
    reference: dict[str, Any] = {}
    undecided: list[str] = []
    for name in argument_names(schema, optional):
        value = sample(props.get(name, {}), name, avoid_default=optional, root=schema, full=True)
        if isinstance(value, Undecided):
            undecided.append(f"{name} ({value.reason})")
        else:
            reference[name] = value
    for name, reason in schema_errors(schema, reference):
        if name in reference:
            del reference[name]
            undecided.append(f"{name} ({reason})")
    return Drafted(reference, tuple(undecided))


def schema_errors(schema: Any, arguments: dict[str, Any]) -> list[tuple[str, str]]:
    """Each top-level argument ``arguments`` get wrong under ``schema`` (formats checked), with
    the validator's message; ``("", message)`` for an error of the call as a whole."""
    if not isinstance(schema, dict):
        return []
    validator = validator_class()(schema, format_checker=draft_format_checker())
    found = []
    for error in validator.iter_errors(arguments):
        path = list(error.absolute_path)
        found.append((str(path[0]) if path else "", error.message[:200]))
    return found
