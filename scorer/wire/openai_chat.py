"""The OpenAI chat-completions dialect: what a request body looks like, the messages a chain appends
after a step, where an answer's error and calls are (``scorer.wire.response``), and the gateway
headers read with it.

``scorer.wire.dialect`` registers it as ``openai-chat``; recorder and scorer read these facts
through that registry. The stand-in gateway (``standin/``) keeps its own server-side copy on
purpose: it imitates a gateway, a separate program, so it must not share the client's idea of the
format.
"""

from __future__ import annotations

from typing import Any

from scorer.jsonvalue import json_copy
from scorer.wire.response import ModelResponse
from scorer.wire.settings import METHOD_WIRE, Wire

# Where requests go, below the API root given as --base-url.
PATH = "/chat/completions"
# The price of a call in USD, and the request parameters the gateway dropped (decision:
# temperature dropped).
COST_HEADER = "x-lobstack-cost-usd"
DROPPED_HEADER = "x-lobstack-dropped-params"
# Response headers that say which model, host or provider served an answer: Lobstack's, LiteLLM
# proxy's (also under its ``llm_provider-`` upstream prefix, as it renames them).
# Compared lower-cased.
ROUTING_HEADERS = (
    "x-lobstack-model",
    "x-lobstack-provider",
    "x-litellm-model-id",
    "x-litellm-model-api-base",
    "x-litellm-model-group",
    "llm_provider-x-lobstack-model",
    "llm_provider-x-lobstack-provider",
)


def request_body(
    model: str,
    system_prompt: str,
    messages: list[dict[str, Any]],
    tools: list[dict[str, Any]],
    echoed: list[dict[str, Any]] | None = None,
    wire: Wire = METHOD_WIRE,
) -> dict[str, Any]:
    """Exactly the method's request: model, system message then the conversation (the suite's
    messages, then what chains echoed), the tools, temperature 0; then the run's settings."""
    body: dict[str, Any] = {
        "model": model,
        "messages": [{"role": "system", "content": system_prompt}, *messages, *(echoed or ())],
        "tools": tools,
        "temperature": 0,
    }
    return with_settings(body, wire, "max_tokens")


def with_settings(body: dict[str, Any], wire: Wire, max_field: str) -> dict[str, Any]:
    """``body`` with ``wire``'s settings in OpenAI's words (Chat and Responses share them but for
    the token cap's field and a named tool choice's shape); nothing is added for the default."""
    choice = wire.setting("tool_choice")
    if choice is not None:
        named = {"type": "function", "function": {"name": choice}}
        if max_field == "max_output_tokens":
            named = {"type": "function", "name": choice}
        body["tool_choice"] = choice if choice in ("auto", "required", "none") else named
    for name, field in (("parallel_tool_calls", "parallel_tool_calls"), ("max_tokens", max_field)):
        if wire.setting(name) is not None:
            body[field] = wire.setting(name)
    effort = wire.setting("reasoning_effort")
    if effort is not None:
        if max_field == "max_output_tokens":
            body["reasoning"] = {"effort": effort}
        else:
            body["reasoning_effort"] = effort
    if wire.stream:
        body["stream"] = True
        if max_field == "max_tokens":
            body["stream_options"] = {"include_usage": True}
    wire.with_body_fields(body)
    return body


def echoed_calls(assistant: dict[str, Any]) -> list[dict[str, Any]]:
    """The calls inside an assistant message as it is echoed back in the next request."""
    return assistant.get("tool_calls") or []


def follow_up(response: ModelResponse, ids: list[str], results: list[str]) -> list[dict[str, Any]]:
    """The messages appended after a step: the assistant message exactly as sent (every field:
    ``reasoning_content``, ``reasoning_details``, the calls' ``extra_content``...: reasoning
    providers refuse a follow-up without them), each call's id set to ``ids``, then one ``tool``
    message per call carrying ``results``."""
    assistant = json_copy(response.message)
    assistant.setdefault("role", "assistant")  # the one field a follow-up cannot do without
    if not response.legacy:
        for entry, call_id in zip(echoed_calls(assistant), ids, strict=True):
            entry["id"] = call_id  # an id already equal stays where it was: no change
    answers = zip(response.tool_calls, ids, results, strict=True)
    return [assistant, *(tool_result(i, c.name, r, response.legacy) for c, i, r in answers)]


def auth_headers(key: str) -> dict[str, str]:
    """The key as OpenAI takes it."""
    return {"Authorization": f"Bearer {key}"}


def error_text(body: Any) -> str | None:
    """The message of OpenAI's error body ``{"error": {"message": ...}}``."""
    error = body.get("error") if isinstance(body, dict) else None
    message = error.get("message") if isinstance(error, dict) else None
    return str(message) if message else None


def tool_result(call_id: str, name: str, content: str, legacy: bool) -> dict[str, Any]:
    """The message that answers one call: a ``tool`` message, or for a legacy ``function_call`` a
    ``function`` message."""
    if legacy:
        return {"role": "function", "name": name, "content": content}
    return {"role": "tool", "tool_call_id": call_id, "content": content}
