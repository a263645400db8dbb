"""A tool's input schema brought into the validator's subset (docs/commands/suite-new.md#suite-new),
every change named: the view ``suite new`` drafts values from (``format`` kept for them). The model
is sent the schema whole (``scorer.schema.sent``).

An MCP server or a tools file may use JSON Schema beyond the 14 keywords the suite allows. What has
an exact equivalent in the subset is rewritten (``anyOf`` of plain types -> a ``type`` list, a local
``$ref`` -> the schema it points to, ``exclusiveMinimum`` on an integer -> ``minimum`` + 1,
``default`` -> "(default X)" in the description, which is where the audit reads defaults); what has
none is left out of the catalogue and named in a note, so the suite's validator is looser there than
the server, and says so. The tool as listed stays whole in the suite's ``origin.tools``.
"""

from __future__ import annotations

import json
from typing import Any

from scorer.schema.subset import ALLOWED_KEYWORDS

# Keywords that only describe: dropped without a note.
_SILENT = frozenset(
    {"$schema", "$id", "$comment", "examples", "deprecated", "readOnly", "writeOnly"}
)
_SCHEMA_KEYS = ("items", "additionalProperties")


def subset_schema(schema: Any, where: str) -> tuple[Any, list[str]]:
    """``schema`` within the subset and one note per change (``where`` names the place, e.g.
    ``git_log.parameters``). A missing or non-object root becomes an object schema with
    no properties."""
    notes: list[str] = []
    root = schema if isinstance(schema, dict) else {}
    if not isinstance(schema, dict):
        notes.append(f"{where}: not a schema object; written as an object with no properties")
    defs = {
        **(root.get("definitions") if isinstance(root.get("definitions"), dict) else {}),
        **(root.get("$defs") if isinstance(root.get("$defs"), dict) else {}),
    }
    out = _subset(root, where, defs, notes, ())
    if not isinstance(out, dict) or out.get("type") != "object":
        if isinstance(out, dict) and "type" not in out:
            out = {"type": "object", **out}
        else:
            notes.append(
                f"{where}: the root is not an object schema; written as one with no properties"
            )
            out = {"type": "object", "properties": {}}
    return out, notes


def _subset(
    schema: Any, where: str, defs: dict[str, Any], notes: list[str], seen: tuple[str, ...]
) -> Any:
    if isinstance(schema, bool):
        return schema
    if not isinstance(schema, dict):
        notes.append(f"{where}: not a schema; left out (any value passes)")
        return {}
    ref = schema.get("$ref")
    if isinstance(ref, str):
        name = ref.rsplit("/", 1)[-1]
        if ref.startswith(("#/$defs/", "#/definitions/")) and name in defs and ref not in seen:
            merged = {**defs[name], **{k: v for k, v in schema.items() if k != "$ref"}}
            return _subset(merged, where, defs, notes, (*seen, ref))
        notes.append(f"{where}: $ref {ref!r} cannot be written out; left out (any value passes)")
        return {}
    out: dict[str, Any] = {}
    for key, value in schema.items():
        if key in ("$defs", "definitions") or key in _SILENT:
            continue
        if key == "properties" and isinstance(value, dict):
            out[key] = {
                name: _subset(sub, f"{where}.{name}", defs, notes, seen)
                for name, sub in value.items()
            }
        elif key in _SCHEMA_KEYS:
            out[key] = _subset(value, f"{where}.{key}", defs, notes, seen)
        elif key in ALLOWED_KEYWORDS or key == "format":  # format: the drafter fills it
            out[key] = value
    _rewrite(schema, out, where, notes)
    return out


def _rewrite(schema: dict[str, Any], out: dict[str, Any], where: str, notes: list[str]) -> None:
    """The keywords outside the subset: rewritten when the subset says the same, else named."""
    for key in ("anyOf", "oneOf"):
        options = schema.get(key)
        types = _plain_types(options)
        if types is not None and "type" not in out:
            out["type"] = types if len(types) > 1 else types[0]
            notes.append(f"{where}: {key} of types written as type {json.dumps(out['type'])}")
        elif key in schema:
            notes.append(
                f"{where}: {key} is not in the subset; left out (any of its values passes)"
            )
    if "default" in schema:
        default = schema["default"]
        if default is None or isinstance(default, dict | list):
            notes.append(
                f"{where}: default {json.dumps(default)} is not stated (not a plain value)"
            )
        else:
            text = json.dumps(default) if not isinstance(default, str) else default
            said = f"(default {text})"
            description = out.get("description")
            out["description"] = f"{description} {said}" if isinstance(description, str) else said
            notes.append(f"{where}: default {json.dumps(default)} stated in the description")
    for key, bound in (("exclusiveMinimum", "minimum"), ("exclusiveMaximum", "maximum")):
        value = schema.get(key)
        if key not in schema:
            continue
        if out.get("type") == "integer" and isinstance(value, int) and bound not in out:
            out[bound] = value + 1 if bound == "minimum" else value - 1
            notes.append(f"{where}: {key} {value} written as {bound} {out[bound]} (an integer)")
        else:
            notes.append(f"{where}: {key} is not in the subset; left out")
    for key in sorted(schema):
        if key in ALLOWED_KEYWORDS or key in _SILENT or key in ("$defs", "definitions", "$ref"):
            continue
        if key == "format":
            continue
        if key in ("anyOf", "oneOf", "default", "exclusiveMinimum", "exclusiveMaximum"):
            continue
        notes.append(f"{where}: {key} is not in the subset; left out (not validated)")


def _plain_types(options: Any) -> list[str] | None:
    """The types of an ``anyOf`` whose every option is ``{"type": T}`` alone, else None."""
    if not isinstance(options, list) or not options:
        return None
    types: list[str] = []
    for option in options:
        if not isinstance(option, dict) or set(option) - {"type", "title", "description"}:
            return None
        kind = option.get("type")
        if not isinstance(kind, str):
            return None
        types.append(kind)
    return list(dict.fromkeys(types))
