"""Streamed answers (SSE) in each dialect, made from the whole answer, and the streaming faults
real servers were seen to make (vLLM, LiteLLM, lmdeploy issues; docs/standin.md):

- quirks a client must decode as meant: ``stream-doneonly`` (Responses: arguments only in
  ``.done``; Chat and Messages: the arguments in one fragment), ``stream-index1`` (the only call
  at ``index`` 1), ``stream-index0`` (parallel calls all at ``index`` 0), ``stream-emptyfrag`` (an
  empty fragment before the JSON), ``stream-splitescape`` (fragments split inside ``\\"``);
- transport anomalies: ``stream-dropcall`` (the call is dropped, the stop reason still says
  calls), ``stream-noargs`` (a call with a name and no arguments), ``stream-cut`` (the stream ends
  before its last event), ``stream-error`` (an error event mid-stream).
"""

from __future__ import annotations

import json
from typing import Any

CONTENT_TYPE = "text/event-stream"
STREAM_KINDS = (
    "stream-doneonly", "stream-index1", "stream-index0", "stream-emptyfrag",
    "stream-splitescape", "stream-dropcall", "stream-noargs", "stream-cut", "stream-error",
    "cut-args",
)  # fmt: skip
CUT_ARGS = "cut-args"  # whole or streamed: the first call's arguments cut as max_tokens cuts them
ERROR_MESSAGE = "Injected fault: the upstream stream failed"


def stream_fault(model: Any) -> str | None:
    """The streaming fault scripted in a model name (``ref/oracle~stream-cut``), if any."""
    script = str(model).partition("~")[2]
    return next((t.strip() for t in script.split(",") if t.strip() in STREAM_KINDS), None)


def cut_body(body: bytes) -> bytes:
    """``cut_arguments`` of a completion's bytes; any other body as it is."""
    try:
        value = cut_arguments(json.loads(body))
    except (ValueError, KeyError, IndexError, TypeError):
        return body
    return json.dumps(value, ensure_ascii=False).encode("utf-8")


def cut_arguments(value: dict[str, Any]) -> dict[str, Any]:
    """A completion whose first call's arguments stop halfway, ``finish_reason: "length"``: what
    a ``max_tokens`` too small for the call gives (a real body of each dialect is in
    tests/fixtures/dialect_bodies/)."""
    choice = value["choices"][0]
    calls = choice["message"].get("tool_calls") or []
    if not calls:
        return value
    function = calls[0]["function"]
    function["arguments"] = function["arguments"][: max(1, len(function["arguments"]) // 2)]
    choice["message"]["tool_calls"] = calls[:1]
    choice["finish_reason"] = "length"
    return value


def _frame(data: Any, event: str | None = None) -> str:
    head = f"event: {event}\n" if event else ""
    text = data if isinstance(data, str) else json.dumps(data, ensure_ascii=False)
    return f"{head}data: {text}\n\n"


def fragments(text: str, fault: str | None) -> list[str]:
    """``text`` in the pieces it is streamed in."""
    if fault == "stream-doneonly" or len(text) < 4:
        pieces = [text]
    elif fault == "stream-splitescape" and '\\"' in text:
        cut = text.index('\\"') + 1  # between the backslash and its quote
        pieces = [text[:cut], text[cut:]]
    else:
        third = max(1, len(text) // 3)
        pieces = [text[:third], text[third : 2 * third], text[2 * third :]]
    return ([""] if fault == "stream-emptyfrag" else []) + pieces


def encode(kind: str, value: dict[str, Any], fault: str | None) -> bytes:
    """The SSE frames of ``value`` (the dialect's whole answer) in ``kind``."""
    frames = {"chat": _chat, "responses": _responses, "messages": _messages}[kind](value, fault)
    if fault == "stream-cut":
        frames = frames[: max(1, len(frames) - 2)]
    return "".join(frames).encode("utf-8")


def _chat(body: dict[str, Any], fault: str | None) -> list[str]:
    choice = body["choices"][0]
    message = choice["message"]
    head = {k: body[k] for k in ("id", "object", "created", "model") if k in body}
    head["object"] = "chat.completion.chunk"

    def chunk(delta: dict[str, Any], finish: str | None = None) -> str:
        return _frame({**head, "choices": [{"index": 0, "delta": delta, "finish_reason": finish}]})

    # A provider's own fields (reasoning_content, reasoning_details...) come whole in the first
    # delta, a call's (Gemini's extra_content) in its first chunk, as those providers stream them.
    extra = {k: v for k, v in message.items() if k not in ("role", "content", "tool_calls")}
    frames = [chunk({"role": "assistant", "content": "", **extra})]
    for piece in fragments(message.get("content") or "", None) if message.get("content") else []:
        frames.append(chunk({"content": piece}))
    if fault == "stream-error":
        frames.append(_frame({"error": {"message": ERROR_MESSAGE, "code": 500}}))
    calls = [] if fault == "stream-dropcall" else message.get("tool_calls") or []
    for n, call in enumerate(calls):
        index = 0 if fault == "stream-index0" else n + (fault == "stream-index1")
        function = call["function"]
        start: dict[str, Any] = {"name": function["name"]}
        if fault != "stream-noargs":
            start["arguments"] = ""
        first = {"index": index, "id": call["id"], "type": "function", "function": start}
        first.update({k: v for k, v in call.items() if k not in first and k != "function"})
        frames.append(chunk({"tool_calls": [first]}))
        if fault == "stream-noargs":
            continue
        for piece in fragments(function.get("arguments") or "", fault):
            frames.append(
                chunk({"tool_calls": [{"index": index, "function": {"arguments": piece}}]})
            )
    frames.append(chunk({}, choice.get("finish_reason")))
    if "usage" in body:
        frames.append(_frame({**head, "choices": [], "usage": body["usage"]}))
    return [*frames, _frame("[DONE]")]


def _responses(body: dict[str, Any], fault: str | None) -> list[str]:
    seq = iter(range(10_000))

    def event(name: str, **data: Any) -> str:
        return _frame({"type": name, "sequence_number": next(seq), **data}, name)

    frames = [event("response.created", response={**body, "status": "in_progress", "output": []})]
    output = []
    for n, item in enumerate(body["output"]):
        if item["type"] == "function_call" and fault == "stream-dropcall":
            continue
        if item["type"] == "function_call" and fault == "stream-noargs":
            item = {k: v for k, v in item.items() if k != "arguments"}
        output.append(item)
        if item["type"] == "reasoning":
            frames += _reasoning_events(event, n, item)
            continue
        if item["type"] != "function_call":
            frames.append(event("response.output_item.added", output_index=n, item=item))
            frames.append(event("response.output_item.done", output_index=n, item=item))
            continue
        frames.append(
            event("response.output_item.added", output_index=n, item={**item, "arguments": ""})
        )
        if fault == "stream-error":
            failed = {**body, "status": "failed", "output": [],
                      "error": {"code": "server_error", "message": ERROR_MESSAGE}}  # fmt: skip
            return [*frames, event("response.failed", response=failed)]
        if "arguments" in item:
            if fault != "stream-doneonly":
                for piece in fragments(item["arguments"], fault):
                    name = "response.function_call_arguments.delta"
                    frames.append(event(name, item_id=item["id"], output_index=n, delta=piece))
            frames.append(event("response.function_call_arguments.done", item_id=item["id"],
                                output_index=n, arguments=item["arguments"]))  # fmt: skip
        frames.append(event("response.output_item.done", output_index=n, item=item))
    done = "response.incomplete" if body.get("status") == "incomplete" else "response.completed"
    return [*frames, event(done, response={**body, "output": output})]


def _reasoning_events(event: Any, n: int, item: dict[str, Any]) -> list[str]:
    """A reasoning item as OpenAI streams it: added empty, its summary text in deltas, then done
    whole (with its ``encrypted_content``)."""
    added = {k: v for k, v in item.items() if k != "encrypted_content"}
    frames = [event("response.output_item.added", output_index=n, item={**added, "summary": []})]
    where = {"item_id": item["id"], "output_index": n}
    for at, part in enumerate(item.get("summary") or []):
        empty = {"type": "summary_text", "text": ""}
        frames.append(event("response.reasoning_summary_part.added", **where, summary_index=at,
                            part=empty))  # fmt: skip
        for piece in fragments(part["text"], None):
            frames.append(event("response.reasoning_summary_text.delta", **where,
                                summary_index=at, delta=piece))  # fmt: skip
        frames.append(event("response.reasoning_summary_text.done", **where, summary_index=at,
                            text=part["text"]))  # fmt: skip
        frames.append(event("response.reasoning_summary_part.done", **where, summary_index=at,
                            part=part))  # fmt: skip
    return [*frames, event("response.output_item.done", output_index=n, item=item)]


def _messages(body: dict[str, Any], fault: str | None) -> list[str]:
    def event(name: str, **data: Any) -> str:
        return _frame({"type": name, **data}, name)

    start = {**body, "content": [], "stop_reason": None}
    frames = [event("message_start", message=start)]
    blocks = [
        b for b in body["content"] if not (fault == "stream-dropcall" and b["type"] == "tool_use")
    ]
    for n, block in enumerate(blocks):
        if fault == "stream-error" and block["type"] == "tool_use":
            error = {"type": "api_error", "message": ERROR_MESSAGE}
            return [*frames, event("error", error=error)]
        if block["type"] == "text":
            frames.append(
                event("content_block_start", index=n, content_block={"type": "text", "text": ""})
            )
            for piece in fragments(block["text"], None):
                frames.append(
                    event(
                        "content_block_delta", index=n, delta={"type": "text_delta", "text": piece}
                    )
                )
        elif block["type"] == "tool_use":
            frames.append(
                event("content_block_start", index=n, content_block={**block, "input": {}})
            )
            text = json.dumps(block["input"], ensure_ascii=False) if block["input"] else ""
            if set(block["input"]) == {"_unparsed"}:  # arguments that are no JSON: sent as they are
                text = str(block["input"]["_unparsed"])
            pieces = [""] if fault == "stream-noargs" or not text else fragments(text, fault)
            for piece in pieces:  # Anthropic sends partial_json "" for a call without input
                frames.append(
                    event(
                        "content_block_delta",
                        index=n,
                        delta={"type": "input_json_delta", "partial_json": piece},
                    )
                )
        elif block["type"] == "thinking":  # as Anthropic streams it: text, then the signature
            start = {"type": "thinking", "thinking": ""}
            frames.append(event("content_block_start", index=n, content_block=start))
            deltas = [
                {"type": "thinking_delta", "thinking": p}
                for p in fragments(block["thinking"], None)
            ]
            deltas.append({"type": "signature_delta", "signature": block["signature"]})
            frames += [event("content_block_delta", index=n, delta=d) for d in deltas]
        else:
            frames.append(event("content_block_start", index=n, content_block=block))
        frames.append(event("content_block_stop", index=n))
    delta = {"stop_reason": body["stop_reason"], "stop_sequence": None}
    frames.append(event("message_delta", delta=delta, usage=body.get("usage", {})))
    return [*frames, event("message_stop")]
