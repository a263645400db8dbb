"""The OpenAI chat-completions dialect: what a request body looks like, the messages a chain appends
after a step, where an answer's error and calls are (``scorer.response``), and the gateway headers
read with it.

``scorer.dialect`` registers it as ``openai-chat``; recorder and scorer read these facts through
that registry. The stand-in gateway (``standin/``) keeps its own server-side copy on purpose: it
imitates a gateway, a separate program, so it must not share the client's idea of the format.
"""

from __future__ import annotations

from typing import Any

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
    model: str, system_prompt: str, messages: list[dict[str, Any]], tools: list[dict[str, Any]]
) -> dict[str, Any]:
    """Exactly the method's request: model, system message then the conversation, the tools,
    temperature 0."""
    return {
        "model": model,
        "messages": [{"role": "system", "content": system_prompt}, *messages],
        "tools": tools,
        "temperature": 0,
    }


def echoed_calls(assistant: dict[str, Any]) -> list[dict[str, Any]]:
    """The calls inside an assistant message as it is echoed back in the next request."""
    return assistant.get("tool_calls") or []


def tool_result(call_id: str, name: str, content: str, legacy: bool) -> dict[str, Any]:
    """The message that answers one call: a ``tool`` message, or for a legacy ``function_call`` a
    ``function`` message."""
    if legacy:
        return {"role": "function", "name": name, "content": content}
    return {"role": "tool", "tool_call_id": call_id, "content": content}
