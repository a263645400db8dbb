"""The Anthropic Messages dialect (``POST /messages``): the system prompt as ``system``, calls as
``tool_use`` content blocks, a chain's results as ``tool_result`` blocks in one user turn, the key
in ``x-api-key`` beside ``anthropic-version``, and ``max_tokens``, which this API requires (4096
unless ``--param max_tokens`` says otherwise). ``temperature: 0`` as the method says: the API
takes it at ``anthropic-version: 2023-06-01`` (0 to 1), and a model that refuses it (Anthropic's
newest answer 400) is recorded with ``--param body.temperature=null``, which takes it out
(docs/decisions/dialects.md). Reasoning effort goes in ``output_config.effort``.

Errors come as ``{"type": "error", "error": {"type": ..., "message": ...}}``; an
``overloaded_error`` (HTTP 529) is a transport error, retried like a 503.
"""

from __future__ import annotations

import json
from typing import Any

from scorer.jsonvalue import json_copy
from scorer.suite import messages as sm
from scorer.wire.response import (
    BodyError,
    MalformedResponse,
    ModelResponse,
    read_call,
    readable_name,
)
from scorer.wire.settings import METHOD_WIRE, Wire

PATH = "/messages"
VERSION = "2023-06-01"
DEFAULT_MAX_TOKENS = 4096
# Anthropic's error types and the HTTP status each comes with.
ERROR_STATUS = {
    "invalid_request_error": 400,
    "authentication_error": 401,
    "permission_error": 403,
    "not_found_error": 404,
    "request_too_large": 413,
    "rate_limit_error": 429,
    "api_error": 500,
    "overloaded_error": 529,
}
TRANSIENT = frozenset({"rate_limit_error", "overloaded_error"})  # the method: 429 and 5xx busy


def tools_json(tools: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The suite's function tools in the Messages form (``input_schema``)."""
    out = []
    for tool in tools:
        name, description, parameters = sm.function_parts(tool)
        entry: dict[str, Any] = {"name": name}
        if description is not None:
            entry["description"] = description
        out.append({**entry, "input_schema": parameters})
    return out


def _arguments(text: str) -> Any:
    try:
        return json.loads(text)
    except ValueError:
        return {}


def _merge(messages: list[dict[str, Any]], role: str, blocks: list[dict[str, Any]]) -> None:
    """Append ``blocks`` as a ``role`` turn, joining the turn before when it has the same role (the
    API wants user and assistant turns to alternate)."""
    if messages and messages[-1]["role"] == role:
        messages[-1]["content"].extend(blocks)
    else:
        messages.append({"role": role, "content": blocks})


def opening(messages: list[dict[str, Any]]) -> tuple[list[str], list[dict[str, Any]]]:
    """The suite's opening messages: system texts (joined to ``system``) and Messages turns; a
    lone text turn keeps its content a plain string."""
    system: list[str] = []
    turns: list[dict[str, Any]] = []
    for piece in sm.pieces(messages):
        if isinstance(piece, sm.Text) and piece.role in ("system", "developer"):
            system.append(piece.text)
        elif isinstance(piece, sm.Text):
            _merge(turns, piece.role, [{"type": "text", "text": piece.text}])
        elif isinstance(piece, sm.Calls):
            text = [{"type": "text", "text": piece.text}] if piece.text else []
            uses = [
                {"type": "tool_use", "id": i, "name": n, "input": _arguments(a)}
                for i, n, a in piece.calls
            ]
            _merge(turns, "assistant", text + uses)
        else:
            block = {"type": "tool_result", "tool_use_id": piece.call_id, "content": piece.content}
            _merge(turns, "user", [block])
    for turn in turns:
        blocks = turn["content"]
        if len(blocks) == 1 and blocks[0]["type"] == "text":
            turn["content"] = blocks[0]["text"]
    return system, turns


def request_body(
    model: str,
    system_prompt: str,
    messages: list[dict[str, Any]],
    tools: list[dict[str, Any]],
    echoed: list[dict[str, Any]] | None = None,
    wire: Wire = METHOD_WIRE,
) -> dict[str, Any]:
    """The method's request in the Messages form."""
    system, turns = opening(messages)
    body: dict[str, Any] = {
        "model": model,
        "max_tokens": wire.setting("max_tokens") or DEFAULT_MAX_TOKENS,
        "system": "\n\n".join([system_prompt, *system]),
        "messages": [*turns, *(echoed or ())],
        "tools": tools_json(tools),
        "temperature": 0,  # the method's; body.temperature=null takes it out
    }
    choice, parallel = wire.setting("tool_choice"), wire.setting("parallel_tool_calls")
    if choice is not None or parallel is not None:
        kinds = {"auto": "auto", "required": "any", "none": "none", None: "auto"}
        picked = {"type": kinds[choice]} if choice in kinds else {"type": "tool", "name": choice}
        if parallel is False:
            picked["disable_parallel_tool_use"] = True
        body["tool_choice"] = picked
    effort = wire.setting("reasoning_effort")
    if effort is not None:
        body["output_config"] = {"effort": "low" if effort == "minimal" else effort}
    if wire.stream:
        body["stream"] = True
    wire.with_body_fields(body)
    return body


def auth_headers(key: str) -> dict[str, str]:
    """The key as Anthropic takes it."""
    return {"x-api-key": key}


FIXED_HEADERS = {"anthropic-version": VERSION}


def body_error(body: Any) -> BodyError | None:
    """``{"type": "error", "error": {...}}`` in a 2xx body (a stream's ``error`` event)."""
    if not isinstance(body, dict) or body.get("type") != "error":
        return None
    error = body.get("error")
    if not isinstance(error, dict):
        return BodyError(None, None, "an error event with no error object")
    kind = error.get("type")
    message = error.get("message")
    text = str(message)[:200] if message is not None else ""
    code = ERROR_STATUS.get(kind) if isinstance(kind, str) else None
    # An error with no type has no words to name it by: "an error", never "error None".
    named = None if code or kind is None else str(kind)
    transient = kind in TRANSIENT if isinstance(kind, str) and kind else None  # a list: unhashable
    return BodyError(code, named, text, transient=transient)


def error_text(body: Any) -> str | None:
    """The message of an error body."""
    error = body.get("error") if isinstance(body, dict) else None
    message = error.get("message") if isinstance(error, dict) else None
    return str(message) if message else None


def parse_answer(body: Any) -> ModelResponse:
    """Read a Messages body: text blocks, and calls from ``tool_use`` blocks (``input`` as sent)."""
    if not isinstance(body, dict):
        raise MalformedResponse("malformed response: the body is not a JSON object")
    content = body.get("content")
    if not isinstance(content, list):
        raise MalformedResponse("malformed response: no content list")
    texts, calls, names, problems = [], [], [], []
    for index, block in enumerate(content):
        if not isinstance(block, dict):
            problems.append(f"content[{index}] is not an object")
        elif block.get("type") == "text" and isinstance(block.get("text"), str):
            texts.append(block["text"])
        elif block.get("type") == "tool_use":
            calls.append(read_call(block.get("id"), block.get("name"), block.get("input")))
            names.append(readable_name(block))
    stop = body.get("stop_reason")
    model = body.get("model")
    return ModelResponse(
        content="".join(texts) if texts else None,
        tool_calls=tuple(calls),
        model=model if isinstance(model, str) else None,
        message=content,
        finish_reason=stop if isinstance(stop, str) else None,
        problems=tuple(problems),
        sent_names=tuple(names),
        cut_off="stop_reason is max_tokens" if stop == "max_tokens" else None,
    )


def follow_up(response: ModelResponse, ids: list[str], results: list[str]) -> list[dict[str, Any]]:
    """The assistant turn with its content blocks as received (thinking blocks and their
    signatures too), each ``tool_use`` id set to ``ids``, then one user turn of ``tool_result``
    blocks."""
    blocks = [json_copy(block) for block in response.message if isinstance(block, dict)]
    uses = [block for block in blocks if block.get("type") == "tool_use"]
    for block, call_id in zip(uses, ids, strict=True):
        block["id"] = call_id  # an id already equal stays where it was: no change
    answers = [
        {"type": "tool_result", "tool_use_id": call_id, "content": result}
        for call_id, result in zip(ids, results, strict=True)
    ]
    return [{"role": "assistant", "content": blocks}, {"role": "user", "content": answers}]
