"""The suite's conversation (OpenAI chat messages, the suite's canonical form) read once into
neutral pieces each dialect writes in its own words: text turns, assistant calls, tool results.

A suite case opens with messages; most are plain ``user`` text, but a case may open mid-
conversation with an assistant's ``tool_calls`` and the ``tool`` messages that answer them.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class Text:
    """A text message of ``role`` (``user``, ``assistant``, ``system`` or ``developer``)."""

    role: str
    text: str


@dataclass(frozen=True)
class Calls:
    """An assistant turn's calls: ``(id, name, arguments as JSON text)``, after its text if any."""

    text: str | None
    calls: tuple[tuple[str, str, str], ...]


@dataclass(frozen=True)
class Result:
    """A tool's result for call ``call_id``."""

    call_id: str
    content: str


Piece = Text | Calls | Result


def _text(content: Any) -> str:
    if isinstance(content, str):
        return content
    if isinstance(content, list):  # content parts: their text joined
        return "".join(p.get("text", "") for p in content if isinstance(p, dict))
    return "" if content is None else json.dumps(content, ensure_ascii=False)


def pieces(messages: list[dict[str, Any]]) -> list[Piece]:
    """The suite's messages as neutral pieces, in order."""
    out: list[Piece] = []
    for message in messages:
        role = message.get("role")
        if role == "tool":
            out.append(Result(str(message.get("tool_call_id", "")), _text(message.get("content"))))
            continue
        calls = message.get("tool_calls") if role == "assistant" else None
        if calls:
            content = message.get("content")
            out.append(
                Calls(
                    _text(content) if content else None,
                    tuple(
                        (
                            str(c.get("id", "")),
                            str(c["function"]["name"]),
                            str(c["function"].get("arguments", "{}")),
                        )
                        for c in calls
                    ),
                )
            )
            continue
        out.append(Text(str(role), _text(message.get("content"))))
    return out


def function_parts(tool: dict[str, Any]) -> tuple[str, str | None, dict[str, Any]]:
    """An OpenAI function tool's name, description and parameters schema."""
    function = tool.get("function", {})
    parameters = function.get("parameters") or {"type": "object", "properties": {}}
    return function["name"], function.get("description"), parameters
