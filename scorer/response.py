"""The model's answer to one request, read from an OpenAI-style chat-completion body."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any


class MalformedResponse(ValueError):
    """A 2xx body that is not a chat completion with ``choices[0].message``."""


@dataclass(frozen=True)
class ToolCall:
    """One call as the model sent it; ``arguments`` is exactly what was sent (usually a JSON string)."""

    id: str | None
    name: str
    arguments: Any


@dataclass(frozen=True)
class ModelResponse:
    """The assistant message: its text, its tool calls, and the ``message`` dict as sent (for chains)."""

    content: str | None
    tool_calls: tuple[ToolCall, ...]
    model: str | None
    message: dict[str, Any]


def parse_completion(body: Any) -> ModelResponse:
    """Read a chat-completion body; raises MalformedResponse when it is not one."""
    if not isinstance(body, dict):
        raise MalformedResponse("malformed response: the body is not a JSON object")
    choices = body.get("choices")
    if not isinstance(choices, list) or not choices or not isinstance(choices[0], dict):
        raise MalformedResponse("malformed response: no choices[0]")
    message = choices[0].get("message")
    if not isinstance(message, dict):
        raise MalformedResponse("malformed response: choices[0].message is not an object")
    raw_calls = message.get("tool_calls")
    if raw_calls is None:
        raw_calls = []
    if not isinstance(raw_calls, list) or not all(isinstance(call, dict) for call in raw_calls):
        raise MalformedResponse("malformed response: tool_calls is not a list of objects")
    calls = []
    for call in raw_calls:
        function = call.get("function") if isinstance(call.get("function"), dict) else {}
        name = function.get("name")
        calls.append(
            ToolCall(
                id=call.get("id") if isinstance(call.get("id"), str) else None,
                name=name if isinstance(name, str) else "",
                arguments=function.get("arguments"),
            )
        )
    content = message.get("content")
    model = body.get("model")
    return ModelResponse(
        content=content if isinstance(content, str) else None,
        tool_calls=tuple(calls),
        model=model if isinstance(model, str) else None,
        message=message,
    )
