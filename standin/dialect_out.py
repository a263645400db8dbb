"""The stand-in's Responses and Messages routes, outbound: the Chat Completions answer the gateway
made, written as the dialect's body (``response`` object, ``message`` object) or error, as those
APIs send them. A body that is no completion (a fault's garbage, an empty object) goes out as is.
"""

from __future__ import annotations

import json
from typing import Any

from standin.hashing import digest

CREATED = 1792540800
_ANTHROPIC_ERRORS = {400: "invalid_request_error", 401: "authentication_error",
                     403: "permission_error", 404: "not_found_error", 429: "rate_limit_error",
                     529: "overloaded_error"}  # fmt: skip
_STOP = {"tool_calls": "tool_use", "stop": "end_turn", "length": "max_tokens"}


def _message(body: Any) -> tuple[dict[str, Any], str] | None:
    """The completion's first message and finish reason, None when it is no completion."""
    choices = body.get("choices") if isinstance(body, dict) else None
    if not isinstance(choices, list) or not choices or not isinstance(choices[0], dict):
        return None
    message = choices[0].get("message")
    if not isinstance(message, dict):
        return None
    return message, str(choices[0].get("finish_reason") or "stop")


def _arguments(text: Any) -> Any:
    try:
        value = json.loads(text) if isinstance(text, str) else text
    except ValueError:
        return {"_unparsed": text}  # Anthropic's input is an object; keep what was meant
    return value if isinstance(value, dict) else {"_value": value}


def responses_body(body: Any, model: str) -> dict[str, Any] | None:
    """A ``response`` object for a completion, or its error (status ``failed``); None: not one."""
    read = _message(body)
    if read is None:
        return _responses_error(body, model) if isinstance(body, dict) else None
    message, finish = read
    key = digest("responses", json.dumps(body, sort_keys=True))
    output: list[dict[str, Any]] = []
    if message.get("reasoning_content"):
        summary = [{"type": "summary_text", "text": message["reasoning_content"]}]
        item = {"type": "reasoning", "id": "rs_" + key[:20], "summary": summary}
        signed = _signature(message)
        if signed is not None:  # OpenAI's opaque reasoning, which a follow-up must send back
            item["encrypted_content"] = signed
        output.append(item)
    if message.get("content"):
        output.append({"type": "message", "id": "msg_" + key[:20], "status": "completed",
                       "role": "assistant", "content": [{"type": "output_text",
                       "text": message["content"], "annotations": []}]})  # fmt: skip
    for n, call in enumerate(message.get("tool_calls") or []):
        function = call.get("function") or {}
        output.append({"type": "function_call", "id": f"fc_{key[:18]}{n:02d}",
                       "call_id": call.get("id"), "name": function.get("name"),
                       "arguments": function.get("arguments"), "status": "completed"})  # fmt: skip
    incomplete = finish == "length"
    return {
        "id": "resp_" + key[:24],
        "object": "response",
        "created_at": CREATED,
        "status": "incomplete" if incomplete else "completed",
        "error": None,
        "incomplete_details": {"reason": "max_output_tokens"} if incomplete else None,
        "model": body.get("model", model),
        "output": output,
        "usage": _reasoning_usage(_usage(body, "input_tokens", "output_tokens"), message),
    }


def _signature(message: dict[str, Any]) -> str | None:
    """The signature of a thinking model's reasoning (``reasoning_details``, as OpenRouter sends
    it), which the Responses and Messages forms carry as ``encrypted_content`` and ``signature``."""
    details = message.get("reasoning_details")
    first = details[0] if isinstance(details, list) and details else None
    signed = first.get("signature") if isinstance(first, dict) else None
    return signed if isinstance(signed, str) else None


def _reasoning_usage(usage: dict[str, Any], message: dict[str, Any]) -> dict[str, Any]:
    """Responses' usage with the reasoning tokens inside the output tokens, as OpenAI counts them
    (``output_tokens_details.reasoning_tokens``)."""
    text = message.get("reasoning_content")
    tokens = max(1, len(text) // 4) if isinstance(text, str) and text else 0
    return {**usage, "output_tokens_details": {"reasoning_tokens": tokens}}


def _responses_error(body: dict[str, Any], model: str) -> dict[str, Any] | None:
    error = body.get("error")
    if not isinstance(error, dict):
        return None
    return {"id": "resp_" + digest("failed", model)[:24], "object": "response",
            "created_at": CREATED, "status": "failed", "model": model, "output": [],
            "error": {"code": error.get("code"), "message": error.get("message")}}  # fmt: skip


def _usage(body: dict[str, Any], inp: str, out: str) -> dict[str, Any]:
    usage = body.get("usage") or {}
    return {inp: usage.get("prompt_tokens", 0), out: usage.get("completion_tokens", 0)}


def messages_body(body: Any, model: str) -> dict[str, Any] | None:
    """A Messages ``message`` object for a completion, or an error event body; None: not one."""
    read = _message(body)
    if read is None:
        if isinstance(body, dict) and isinstance(body.get("error"), dict):
            code = body["error"].get("code")
            status = code if isinstance(code, int) else 500
            return anthropic_error(status, str(body["error"].get("message")))
        return None
    message, finish = read
    key = digest("messages", json.dumps(body, sort_keys=True))
    content: list[dict[str, Any]] = []
    if message.get("reasoning_content"):
        signed = _signature(message) or "sig_" + key[:16]
        content.append({"type": "thinking", "thinking": message["reasoning_content"],
                        "signature": signed})  # fmt: skip
    if message.get("content"):
        content.append({"type": "text", "text": message["content"]})
    for call in message.get("tool_calls") or []:
        function = call.get("function") or {}
        content.append({"type": "tool_use", "id": call.get("id"), "name": function.get("name"),
                        "input": _arguments(function.get("arguments"))})  # fmt: skip
    return {
        "id": "msg_" + key[:24],
        "type": "message",
        "role": "assistant",
        "model": body.get("model", model),
        "content": content,
        "stop_reason": _STOP.get(finish, "end_turn"),
        "stop_sequence": None,
        "usage": _usage(body, "input_tokens", "output_tokens"),
    }


def anthropic_error(status: int, message: str) -> dict[str, Any]:
    """Anthropic's error body for ``status``."""
    kind = _ANTHROPIC_ERRORS.get(status, "api_error" if status >= 500 else "invalid_request_error")
    return {"type": "error", "error": {"type": kind, "message": message}}


def error_body(kind: str, status: int, raw: bytes) -> bytes:
    """A non-2xx OpenAI error body in ``kind``'s words (Responses keeps OpenAI's)."""
    if kind != "messages":
        return raw
    try:
        message = json.loads(raw)["error"]["message"]
    except (ValueError, KeyError, TypeError):
        return raw
    return json.dumps(anthropic_error(status, str(message)), ensure_ascii=False).encode()
