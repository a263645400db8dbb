"""Parse a tool call's arguments under strict JSON: they must be a JSON object."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal

from scorer.strict_json import (
    MAX_DEPTH,
    STRICT,
    NotStrictJson,
    deeper_than,
    first_non_finite,
    problem_text,
)

ArgumentsForm = Literal["string", "object", "other"]
TOO_DEEP = f"nested deeper than {MAX_DEPTH} levels"


@dataclass(frozen=True)
class ParsedArguments:
    """``value`` is the arguments object, or None when they do not parse as one; ``why`` says why,
    when there is more to say than "not a JSON object" (a non-finite number, too deep)."""

    value: dict[str, Any] | None
    form: ArgumentsForm
    why: str | None = None

    @property
    def ok(self) -> bool:
        return self.value is not None


def parse_arguments(raw: Any) -> ParsedArguments:
    """Arguments as sent: a JSON string (normal), or an object some servers send directly (counts
    as parsed)."""
    if isinstance(raw, dict):
        # Sent directly, the object was read with the answer: a NaN in it is only a marker, not
        # a number.
        marker = first_non_finite(raw)
        if marker is not None:
            return ParsedArguments(None, "object", problem_text(marker))
        if deeper_than(raw):
            return ParsedArguments(None, "object", TOO_DEEP)
        return ParsedArguments(raw, "object")
    if not isinstance(raw, str):
        return ParsedArguments(None, "other")
    try:
        value = STRICT.decode(raw)
    except NotStrictJson as exc:
        return ParsedArguments(None, "string", str(exc))
    except RecursionError:
        return ParsedArguments(None, "string", TOO_DEEP)
    except ValueError:
        return ParsedArguments(None, "string")
    if not isinstance(value, dict):
        return ParsedArguments(None, "string")
    if len(raw) > 2 * MAX_DEPTH and deeper_than(value):  # a shorter text cannot nest that deep
        return ParsedArguments(None, "string", TOO_DEEP)
    return ParsedArguments(value, "string")
