"""What every model requires of a conversation's tool messages, as OpenAI's API does."""

from __future__ import annotations

from typing import Any


def tool_message_problem(messages: list[Any]) -> str | None:
    """A 400's message when a ``tool`` message does not answer a call of the assistant message
    before it: its ``tool_call_id`` must be a non-empty string, one of that message's call ids,
    and answered once."""
    ids: list[Any] = []
    answered: set[str] = set()
    for index, message in enumerate(messages):
        role = message.get("role") if isinstance(message, dict) else None
        if role == "assistant":
            calls = message.get("tool_calls")
            ids = (
                [c.get("id") for c in calls if isinstance(c, dict)]
                if isinstance(calls, list)
                else []
            )
            answered = set()
        elif role == "tool":
            call_id = message.get("tool_call_id")
            if not isinstance(call_id, str) or not call_id:
                return (
                    f"Invalid parameter: messages[{index}].tool_call_id must be a non-empty string"
                )
            if call_id not in ids or call_id in answered:
                return (
                    f"Invalid parameter: messages[{index}] with role 'tool' must answer a tool "
                    f"call of the assistant message before it (tool_call_id {call_id!r})"
                )
            answered.add(call_id)
    return None
