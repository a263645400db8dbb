"""The parameters schema a suite sends the model for a listed tool: the tool's own, whole
(docs/FORMATS.md, "Tool schemas of own suites").

A suite ``suite new`` writes is not Lobstack's, so its tools are sent exactly as the server or file
gives them (``anyOf``, ``$ref``/``$defs``, ``format``, ``default``, ``title``) and validated with
whole Draft 2020-12. Only a schema the model could not be sent as given is changed, and each such
change is one schema note that says what the model sees differs from the origin.
"""

from __future__ import annotations

from typing import Any

DIFFERS = "what the model sees differs from the origin"


def sent_parameters(schema: Any, where: str) -> tuple[dict[str, Any], list[str]]:
    """The schema as sent (``schema`` itself when it is an object schema) and one note per
    difference from the origin (``where`` names the place, e.g. ``git_log.parameters``)."""
    if schema is None:
        # An MCP tool must list one; a tools file may leave out a tool without arguments.
        return {"type": "object", "properties": {}}, [
            f"{where}: {DIFFERS}: no schema is listed; sent as an object with no properties"
        ]
    if not isinstance(schema, dict):
        return {"type": "object", "properties": {}}, [
            f"{where}: {DIFFERS}: not a schema object; sent as an object with no properties"
        ]
    if "type" not in schema:
        return {"type": "object", **schema}, [
            f'{where}: {DIFFERS}: the root has no type; sent with "type": "object"'
        ]
    return schema, []
