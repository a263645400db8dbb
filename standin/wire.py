"""The bytes the stand-in gateway sends: OpenAI chat-completion and error bodies, and
Lobstack headers.

Bodies are ``json.dumps(..., ensure_ascii=False)`` in OpenAI's key order, UTF-8, with a fixed
``created`` so equal requests give byte-identical answers. They carry what real clients read:
``system_fingerprint``, each choice's ``index`` and ``logprobs``, the message's ``refusal``.
Provider-style models send their own message (``Reply.message``), and ``Reply.body_error`` an error
object inside a 200.
"""

from __future__ import annotations

import json
from typing import Any

from standin.hashing import digest
from standin.pricing import Usage
from standin.reply import Reply

CREATED = 1792540800  # fixed: no wall clock in answers
COST_HEADER = "x-lobstack-cost-usd"
DROPPED_HEADER = "x-lobstack-dropped-params"
GARBAGE_BODY = b'{"id": "chatcmpl-garbage", "object": "chat.completion", "choices": [{"mess'

_ERROR_TYPES = {400: "invalid_request_error", 401: "authentication_error", 403: "permission_error",
                404: "invalid_request_error", 429: "rate_limit_error"}  # fmt: skip
# Claude's finish reasons, which OpenRouter passes on beside OpenAI's
_NATIVE_FINISH = {"tool_calls": "tool_use", "stop": "end_turn", "length": "max_tokens"}
_ERROR_CODES = {
    429: "rate_limit_exceeded",
    500: "server_error",
    502: "bad_gateway",
    503: "service_unavailable",
    504: "gateway_timeout",
}


def encode(value: Any) -> bytes:
    """JSON bytes of a body."""
    return json.dumps(value, ensure_ascii=False).encode("utf-8")


def message_json(reply: Reply) -> dict[str, Any]:
    """The ``choices[0].message`` object; ``tool_calls`` only when there are calls, as
    OpenAI does."""
    if reply.message is not None:
        return reply.message
    message: dict[str, Any] = {"role": "assistant", "content": reply.content, "refusal": None}
    if reply.tool_calls:
        message["tool_calls"] = [
            {"id": c.id, "type": "function", "function": {"name": c.name, "arguments": c.arguments}}
            for c in reply.tool_calls
        ]
    return message


def completion_json(completion_id: str, model: str, reply: Reply, usage: Usage) -> dict[str, Any]:
    """A whole ``chat.completion`` body (or, for ``reply.body_error``, OpenRouter's error inside
    a 200)."""
    if reply.body_error is not None:
        return body_error_json(completion_id, model, reply)
    finish = reply.finish_reason or ("tool_calls" if reply.tool_calls else "stop")
    return {
        "id": completion_id,
        "object": "chat.completion",
        "created": CREATED,
        "model": model,
        "system_fingerprint": fingerprint(model),
        "choices": [
            {"index": 0, "message": message_json(reply), "logprobs": None, "finish_reason": finish}
        ],
        "usage": usage.as_json(),
    }


def openrouter_json(
    completion_id: str, model: str, reply: Reply, usage: dict[str, Any]
) -> dict[str, Any]:
    """A completion as OpenRouter sends one routed to Claude: a ``gen-`` id, ``provider``, Claude's
    own finish reason beside OpenAI's, and ``usage`` with the price in it
    (``standin.pricing.usage_with_cost``)."""
    finish = reply.finish_reason or ("tool_calls" if reply.tool_calls else "stop")
    return {
        "id": f"gen-{CREATED}-{completion_id.removeprefix('chatcmpl-')[:20]}",
        "provider": "Stand-in",
        "model": model,
        "object": "chat.completion",
        "created": CREATED,
        "choices": [
            {
                "logprobs": None,
                "finish_reason": finish,
                "native_finish_reason": _NATIVE_FINISH.get(finish, finish),
                "index": 0,
                "message": message_json(reply),
            }
        ],
        "usage": usage,
    }


def fingerprint(model: str) -> str:
    """A fixed ``system_fingerprint`` per model."""
    return "fp_" + digest("fingerprint", model)[:10]


def body_error_json(completion_id: str, model: str, reply: Reply) -> dict[str, Any]:
    """``{"error": {"code", "message"}}`` with status 200; mid-generation, beside an empty choice
    ending in error."""
    if not reply.mid_generation:
        return {"error": reply.body_error, "user_id": "user_stand_in"}
    return {
        "id": completion_id,
        "object": "chat.completion",
        "created": CREATED,
        "model": model,
        "provider": "stand-in",
        "error": reply.body_error,
        "choices": [
            {"index": 0, "message": {"role": "assistant", "content": ""}, "finish_reason": "error",
             "native_finish_reason": "error"}
        ],
    }  # fmt: skip


CHOICE_ERROR = (
    "Provider returned error: the model is temporarily unavailable due to high demand; "
    "retry shortly"
)


def choice_error_json(model: str, code: int) -> dict[str, Any]:
    """OpenRouter's upstream failure inside a 200 (a real body's shape): no top-level ``error``, the
    first choice ending in ``"error"`` with the provider's error object and an empty message."""
    return {
        "id": "gen-" + digest("choice-error", model, str(code))[:20],
        "provider": "stand-in",
        "model": model,
        "object": "chat.completion",
        "created": CREATED,
        "choices": [
            {
                "logprobs": None,
                "finish_reason": "error",
                "native_finish_reason": "error",
                "index": 0,
                "message": {"role": "assistant", "content": "", "refusal": None, "reasoning": None},
                "error": {"code": code, "message": CHOICE_ERROR},
            }
        ],
        "usage": {"prompt_tokens": 120, "completion_tokens": 0, "total_tokens": 120},
    }


def error_json(
    status: int, message: str, param: str | None = None, code: str | None = None
) -> dict[str, Any]:
    """OpenAI's error body for ``status``; ``code`` defaults to the usual one for that status."""
    kind = _ERROR_TYPES.get(status, "server_error" if status >= 500 else "invalid_request_error")
    return {
        "error": {
            "message": message,
            "type": kind,
            "param": param,
            "code": code or _ERROR_CODES.get(status),
        }
    }


def models_json(names: tuple[str, ...]) -> dict[str, Any]:
    """The ``GET /v1/models`` body."""
    return {
        "object": "list",
        "data": [
            {"id": n, "object": "model", "created": CREATED, "owned_by": "lobstack-stand-in"}
            for n in names
        ],
    }
