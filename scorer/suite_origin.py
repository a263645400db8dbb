"""A suite's ``origin``: where ``suite new`` took its tools from (docs/FORMATS.md, "Suite file").

``{"kind": "mcp", "server": {"name", "version"}, "tools": [...], "schema_notes": [...]}`` for a live
MCP server (its ``tools/list`` answer as listed, so a run can be replayed and re-scored against the
very list it was recorded with), ``"kind": "tools_file"`` (no ``server``) for an OpenAI-style tools
file. ``schema_notes`` names each schema feature beyond the validator's subset and what the
catalogue holds instead. It changes no verdict.
"""

from __future__ import annotations

from typing import Any

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
