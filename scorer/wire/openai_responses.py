"""The OpenAI Responses dialect (``POST /responses``): the suite's conversation as ``input``
items, calls as ``function_call`` output items with a ``call_id``, a chain's results as
``function_call_output`` items, and every output item (reasoning items included, as the API
requires of a reasoning model's follow-up) echoed back as received.

Function tools are sent with ``strict: false``: the Responses API makes them strict by default,
which the method's request (Chat Completions, non-strict) is not.
"""

from __future__ import annotations

from typing import Any

from scorer.jsonvalue import json_copy
from scorer.suite import messages as sm
from scorer.wire.openai_chat import with_settings
from scorer.wire.response import (
    BodyError,
    MalformedResponse,
    ModelResponse,
    ToolCall,
    content_text,
    read_call,
    readable_name,
)
from scorer.wire.response import (
    body_error as chat_body_error,
)
from scorer.wire.settings import METHOD_WIRE, Wire

PATH = "/responses"


def tools_json(tools: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The suite's function tools in the Responses form (flat, not strict)."""
    out = []
    for tool in tools:
        name, description, parameters = sm.function_parts(tool)
        entry: dict[str, Any] = {"type": "function", "name": name}
        if description is not None:
            entry["description"] = description
        out.append({**entry, "parameters": parameters, "strict": False})
    return out


def input_items(messages: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The suite's opening messages as Responses input items."""
    items: list[dict[str, Any]] = []
    for piece in sm.pieces(messages):
        if isinstance(piece, sm.Text):
            items.append({"role": piece.role, "content": piece.text})
        elif isinstance(piece, sm.Calls):
            if piece.text:
                items.append({"role": "assistant", "content": piece.text})
            items += [
                {"type": "function_call", "call_id": i, "name": n, "arguments": a}
                for i, n, a in piece.calls
            ]
        else:
            items.append(
                {"type": "function_call_output", "call_id": piece.call_id, "output": piece.content}
            )
    return items


def request_body(
    model: str,
    system_prompt: str,
    messages: list[dict[str, Any]],
    tools: list[dict[str, Any]],
    echoed: list[dict[str, Any]] | None = None,
    wire: Wire = METHOD_WIRE,
) -> dict[str, Any]:
    """The method's request in the Responses form: the system prompt as ``instructions``."""
    body: dict[str, Any] = {
        "model": model,
        "instructions": system_prompt,
        "input": [*input_items(messages), *(echoed or ())],
        "tools": tools_json(tools),
        "temperature": 0,
    }
    return with_settings(body, wire, "max_output_tokens")


def body_error(body: Any) -> BodyError | None:
    """A non-null ``error``, or ``status: "failed"`` (the response failed mid-generation)."""
    error = chat_body_error(body) if isinstance(body, dict) and "choices" not in body else None
    if error is not None:
        return error
    if isinstance(body, dict) and body.get("status") == "failed":
        return BodyError(None, None, 'status "failed" and no error object')
    return None


def parse_answer(body: Any) -> ModelResponse:
    """Read a Responses body: text from ``message`` items, calls from ``function_call`` items."""
    if not isinstance(body, dict):
        raise MalformedResponse("malformed response: the body is not a JSON object")
    output = body.get("output")
    if not isinstance(output, list):
        raise MalformedResponse("malformed response: no output list")
    texts: list[str] = []
    calls: list[ToolCall] = []
    names: list[str] = []
    problems: list[str] = []
    for index, item in enumerate(output):
        if not isinstance(item, dict):
            problems.append(f"output[{index}] is not an object")
            continue
        if item.get("type") == "message":
            text = content_text(
                [
                    {"type": "text", "text": p.get("text")}
                    for p in item.get("content") or []
                    if isinstance(p, dict) and p.get("type") == "output_text"
                ]
            )
            texts += [text] if text else []
        elif item.get("type") == "function_call":
            calls.append(read_call(item.get("call_id"), item.get("name"), item.get("arguments")))
            names.append(readable_name(item))
    status = body.get("status")
    details = body.get("incomplete_details")
    reason = details.get("reason") if isinstance(details, dict) else None
    model = body.get("model")
    return ModelResponse(
        content="".join(texts) if texts else None,
        tool_calls=tuple(calls),
        model=model if isinstance(model, str) else None,
        message=output,
        finish_reason=status if isinstance(status, str) else None,
        problems=tuple(problems),
        sent_names=tuple(names),
        cut_off=f"status is incomplete ({reason})" if status == "incomplete" else None,
    )


def follow_up(response: ModelResponse, ids: list[str], results: list[str]) -> list[dict[str, Any]]:
    """Every output item as received (reasoning items too), each call's ``call_id`` set to
    ``ids``, then one ``function_call_output`` per call."""
    items = [json_copy(item) for item in response.message if isinstance(item, dict)]
    calls = [item for item in items if item.get("type") == "function_call"]
    for item, call_id in zip(calls, ids, strict=True):
        item["call_id"] = call_id  # an id already equal stays where it was: no change
    outputs = [
        {"type": "function_call_output", "call_id": call_id, "output": result}
        for call_id, result in zip(ids, results, strict=True)
    ]
    return [*items, *outputs]
