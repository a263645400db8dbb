"""The stand-in's Responses and Messages routes, inbound: a request of either dialect checked as
that API checks it, then read as the Chat Completions request it means, which the gateway answers
as usual (``standin.dispatch``). Like a real gateway that converts dialects (LiteLLM), so every
reference model, fault and check speaks all three. Its own server-side copy of the formats, on
purpose: the stand-in imitates a separate program.

A reasoning item (Responses) or thinking block (Messages) sent back becomes the assistant message's
``reasoning_content``, and its ``encrypted_content`` or ``signature`` the ``reasoning_details`` it
was made from (``standin.dialect_out``), so a reasoning model that refuses a follow-up without its
reasoning, or with its signature changed, refuses it in every dialect.
"""

from __future__ import annotations

import json
from typing import Any

RESPONSES_PATH = "/v1/responses"
MESSAGES_PATH = "/v1/messages"


def _text(content: Any) -> str | None:
    if isinstance(content, str) or content is None:
        return content
    if isinstance(content, list):
        return "".join(
            p.get("text", "")
            for p in content
            if isinstance(p, dict) and p.get("type") in ("input_text", "output_text", "text")
        )
    return None


def _tools(tools: Any, flat: bool) -> list[dict[str, Any]] | None:
    if tools is None:
        return None
    if not isinstance(tools, list):
        return []
    out = []
    for tool in tools:
        if not isinstance(tool, dict):
            continue
        schema = tool.get("parameters") if flat else tool.get("input_schema")
        function: dict[str, Any] = {"name": tool.get("name")}
        if "description" in tool:
            function["description"] = tool["description"]
        function["parameters"] = schema
        out.append({"type": "function", "function": function})
    return out


def _assistant(messages: list[dict[str, Any]]) -> dict[str, Any]:
    """The assistant message being rebuilt (the last one, when nothing came after it)."""
    if not messages or messages[-1].get("role") != "assistant" or messages[-1].get("_closed"):
        messages.append({"role": "assistant", "content": None})
    return messages[-1]


def _reasoning(assistant: dict[str, Any], text: Any, signature: Any) -> None:
    """The reasoning sent back, as the Chat message it came from: its text and, when signed, the
    ``reasoning_details`` entry it was made from (a stand-in's own ``sig_...`` is no signature)."""
    assistant["reasoning_content"] = text
    if isinstance(signature, str) and not signature.startswith("sig_"):
        assistant["reasoning_details"] = [
            {"type": "reasoning.text", "text": text, "signature": signature,
             "format": "anthropic-claude-v1", "index": 0}
        ]  # fmt: skip


def _add_call(messages: list[dict[str, Any]], call_id: Any, name: Any, arguments: Any) -> None:
    call = {"id": call_id, "type": "function", "function": {"name": name, "arguments": arguments}}
    _assistant(messages).setdefault("tool_calls", []).append(call)


def responses_to_chat(request: dict[str, Any]) -> tuple[dict[str, Any] | None, str | None]:
    """``(chat request, None)``, or ``(None, the 400's message)``."""
    items = request.get("input")
    if isinstance(items, str):
        items = [{"role": "user", "content": items}]
    if not isinstance(items, list) or not items:
        return None, "'input' must be a non-empty string or array of items."
    messages: list[dict[str, Any]] = []
    if isinstance(request.get("instructions"), str):
        messages.append({"role": "system", "content": request["instructions"]})
    for item in items:
        if not isinstance(item, dict):
            return None, "Each item of 'input' must be an object."
        kind = item.get("type", "message")
        if kind == "message" and item.get("role") == "assistant":
            _assistant(messages)["content"] = _text(item.get("content"))
        elif kind == "message":
            messages.append({"role": item.get("role"), "content": _text(item.get("content"))})
        elif kind == "reasoning":
            summary = item.get("summary") or []
            text = "".join(p.get("text", "") for p in summary if isinstance(p, dict))
            _reasoning(_assistant(messages), text, item.get("encrypted_content"))
        elif kind == "function_call":
            _add_call(messages, item.get("call_id"), item.get("name"), item.get("arguments"))
        elif kind == "function_call_output":
            messages.append(
                {"role": "tool", "tool_call_id": item.get("call_id"), "content": item.get("output")}
            )
        else:
            return None, f"Unsupported input item type: {kind!r}."
    return _chat(request, messages, _tools(request.get("tools"), True)), None


def messages_to_chat(
    request: dict[str, Any], headers: dict[str, str]
) -> tuple[dict[str, Any] | None, str | None]:
    """``(chat request, None)``, or ``(None, the 400's message)``: ``max_tokens`` and the
    ``anthropic-version`` header are required, as the Messages API requires them."""
    if not any(k.lower() == "anthropic-version" for k in headers):
        return None, "anthropic-version: header is required"
    if not isinstance(request.get("max_tokens"), int) or isinstance(request["max_tokens"], bool):
        return None, "max_tokens: Field required"
    turns = request.get("messages")
    if not isinstance(turns, list) or not turns:
        return None, "messages: at least one message is required"
    messages: list[dict[str, Any]] = []
    if isinstance(request.get("system"), str):
        messages.append({"role": "system", "content": request["system"]})
    for turn in turns:
        if not isinstance(turn, dict) or turn.get("role") not in ("user", "assistant"):
            return None, "messages: each turn must be a user or assistant object"
        content = turn.get("content")
        if isinstance(content, str):
            messages.append({"role": turn["role"], "content": content})
            continue
        blocks = [b for b in content if isinstance(b, dict)] if isinstance(content, list) else []
        if turn["role"] == "assistant":
            assistant = {"role": "assistant", "content": None}
            messages.append(assistant)
            for block in blocks:
                if block.get("type") == "text":
                    assistant["content"] = (assistant["content"] or "") + block.get("text", "")
                elif block.get("type") == "thinking":
                    _reasoning(assistant, block.get("thinking"), block.get("signature"))
                elif block.get("type") == "tool_use":
                    arguments = json.dumps(block.get("input"), ensure_ascii=False)
                    _add_call(messages, block.get("id"), block.get("name"), arguments)
            assistant["_closed"] = True
            continue
        for block in blocks:
            if block.get("type") == "tool_result":
                messages.append(
                    {"role": "tool", "tool_call_id": block.get("tool_use_id"),
                     "content": _text(block.get("content"))}
                )  # fmt: skip
            elif block.get("type") == "text":
                messages.append({"role": "user", "content": block.get("text")})
    for message in messages:
        message.pop("_closed", None)
    return _chat(request, messages, _tools(request.get("tools"), False)), None


def _chat(
    request: dict[str, Any], messages: list[dict[str, Any]], tools: list[dict[str, Any]] | None
) -> dict[str, Any]:
    chat: dict[str, Any] = {"model": request.get("model"), "messages": messages}
    if tools is not None:
        chat["tools"] = tools
    if "temperature" in request:
        chat["temperature"] = request["temperature"]
    for name in ("max_tokens", "max_output_tokens"):
        if isinstance(request.get(name), int):
            chat["max_tokens"] = request[name]
    return chat
