"""Which Chat Completions requests the stand-in gateway refuses with a 400 before any model or
fault sees them, with OpenAI's wording."""

from __future__ import annotations

from typing import Any


def request_problem(request: Any) -> tuple[str | None, str] | None:
    """``(param, message)`` for a request the gateway refuses with 400, else ``None``."""
    if not isinstance(request, dict):
        return None, "The request body must be a JSON object."
    model = request.get("model")
    if not isinstance(model, str) or not model:
        return "model", "You must provide a model parameter."
    messages = request.get("messages")
    if (
        not isinstance(messages, list)
        or not messages
        or not all(isinstance(m, dict) for m in messages)
    ):
        return "messages", "'messages' must be a non-empty array of message objects."
    tools = request.get("tools")
    if tools is not None and not isinstance(tools, list):
        return "tools", "'tools' must be an array."
    if request.get("stream") not in (None, False):
        return "stream", '"stream" must be true or false.'
    return None
