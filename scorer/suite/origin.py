"""A suite's ``origin``: where ``suite new`` took its tools from (docs/FORMATS.md, "Suite file").

``{"kind": "mcp", "server": {"name", "version"}, "tools": [...], "schema_notes": [...]}`` for a live
MCP server (its ``tools/list`` answer as listed, so a run can be replayed and re-scored against the
very list it was recorded with), ``"kind": "tools_file"`` (no ``server``) for an OpenAI-style tools
file. ``schema_notes`` names each place where what the model sees differs from the origin. The
origin's schemas change no verdict: ``suite check`` validates each reference call against its tool's
schema in the origin too, and ``suite audit`` names an answer the origin and the suite judge
differently (docs/FORMATS.md, "Tool schemas of own suites").
"""

from __future__ import annotations

from typing import Any

from scorer.schema.full import full_schema_problems, make_full_validator

KINDS = ("mcp", "tools_file")


def origin_problems(raw: Any) -> list[str]:
    """Every problem of the ``origin`` object, worded like the builder's
    (``origin.server.name: ...``)."""
    if not isinstance(raw, dict):
        return ["origin: must be an object"]
    found: list[str] = []
    kind = raw.get("kind")
    if kind not in KINDS:
        found.append(f"origin.kind: {kind!r} is not one of {', '.join(KINDS)}")
    server = raw.get("server")
    if kind == "mcp" or "server" in raw:
        if not isinstance(server, dict):
            found.append("origin.server: must be an object with the server's name and version")
        else:
            for key in ("name", "version"):
                if not isinstance(server.get(key), str) or not server.get(key):
                    found.append(f"origin.server.{key}: missing or not a non-empty string")
    tools = raw.get("tools")
    if not isinstance(tools, list) or not all(isinstance(t, dict) for t in tools):
        found.append("origin.tools: must be the list of tools as listed (objects)")
    notes = raw.get("schema_notes", [])
    if not isinstance(notes, list) or not all(isinstance(n, str) for n in notes):
        found.append("origin.schema_notes: must be a list of strings")
    return found


def origin_validators(raw: Any) -> tuple[dict[str, Any], list[str]]:
    """A whole Draft 2020-12 validator (formats checked) for each tool the origin lists by name, and
    each problem of their schemas (``origin.tools[i]...: message``). An MCP tool's schema is its
    ``inputSchema``, a tools file's its function's ``parameters``."""
    tools = raw.get("tools") if isinstance(raw, dict) else None
    validators: dict[str, Any] = {}
    problems: list[str] = []
    for index, entry in enumerate(tools if isinstance(tools, list) else []):
        if not isinstance(entry, dict):
            continue
        function = entry.get("function") if isinstance(entry.get("function"), dict) else entry
        name = function.get("name")
        key = "inputSchema" if "inputSchema" in function else "parameters"
        schema = function.get(key)
        if not isinstance(name, str) or not isinstance(schema, dict):
            continue
        where = f"origin.tools[{index}]" + (".function" if function is not entry else "")
        found = full_schema_problems(schema, f"{where}.{key}")
        problems += found
        if not found:
            validators[name] = make_full_validator(schema)
    return validators, problems
