"""Parse a tool call's arguments under strict JSON: they must be a JSON object."""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any, Literal

from scorer.strict_json import deeper_than

MAX_DEPTH = 64  # arguments nested deeper do not parse (METHOD.md, Decisions)
ArgumentsForm = Literal["string", "object", "other"]


@dataclass(frozen=True)
class ParsedArguments:
    """``value`` is the arguments object, or None when they do not parse as one."""

    value: dict[str, Any] | None
    form: ArgumentsForm

    @property
    def ok(self) -> bool:
        return self.value is not None


def _reject_constant(name: str) -> Any:
    raise ValueError(f"{name} is not JSON")


_DECODER = json.JSONDecoder(parse_constant=_reject_constant)  # json.loads(**kw) would build one per call


def parse_arguments(raw: Any) -> ParsedArguments:
    """Arguments as sent: a JSON string (normal), or an object some servers send directly (counts as parsed)."""
    if isinstance(raw, dict):
        return ParsedArguments(raw, "object")
    if not isinstance(raw, str):
        return ParsedArguments(None, "other")
    try:
        value = _DECODER.decode(raw)
    except (ValueError, RecursionError):  # RecursionError: nested deeper than the decoder goes
        return ParsedArguments(None, "string")
    if deeper_than(value, MAX_DEPTH):  # the checks and the schema walk values recursively: bound them
        return ParsedArguments(None, "string")
    return ParsedArguments(value if isinstance(value, dict) else None, "string")
