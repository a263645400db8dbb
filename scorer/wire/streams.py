"""A streamed answer (SSE frames, kept in the cassette as received) assembled into the body the
dialect would have sent whole, with the transport anomalies seen on the way.

Quirks real servers send are read as they meant them: a call whose only fragments come in
``function_call_arguments.done`` (no deltas), a stream whose only call has ``index`` 1, parallel
calls all at ``index`` 0 (a new id starts a new call), an empty fragment before the JSON, escaped
quotes split across fragments (fragments are joined before parsing), Anthropic's ``partial_json:
""`` meaning ``{}``. Anomalies (docs/METHOD.md, "Transport anomalies") are named, never repaired:
the stream cut off before its last event, a call with a name and no arguments, a stop reason that
says calls with no call. An error event mid-stream becomes the dialect's error body.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import orjson

from scorer.wire.response import MalformedResponse

CUT_OFF = "the stream was cut off before its last event"
NO_ARGUMENTS = "a call with a name and no arguments"
CALLS_WITHOUT_CALL = "the stop reason says calls, and no call came"


def events(body: bytes) -> Iterator[tuple[str | None, str]]:
    """``(event name, data)`` of each SSE event (WHATWG's rules: ``data`` lines joined by a
    newline, one space after the colon dropped, comments and other fields ignored)."""
    text = body.decode("utf-8", "replace")
    if "\r" in text:
        text = text.replace("\r\n", "\n").replace("\r", "\n")
    for block in text.split("\n\n"):
        name, data = None, []
        for line in block.split("\n"):
            if line.startswith("data:"):
                data.append(line[6:] if line.startswith("data: ") else line[5:])
            elif line.startswith("event:"):
                name = line[7:] if line.startswith("event: ") else line[6:]
        if data:
            yield name, "\n".join(data)


def _json(data: str) -> Any:
    try:
        return orjson.loads(data)  # strict JSON (no NaN), and fast: a stream is many small events
    except orjson.JSONDecodeError:
        raise MalformedResponse("malformed response: an SSE event's data is not JSON") from None


def assemble(dialect: str, body: bytes) -> tuple[Any, tuple[str, ...]]:
    """The whole body ``body``'s stream makes in ``dialect``, and its anomalies. A body that is
    plain JSON (a gateway that does not stream) is read as it is."""
    stripped = body.lstrip()
    if stripped.startswith((b"{", b"[")):
        return _json(body.decode("utf-8", "replace")), ()
    frames = list(events(body))
    if not frames:
        raise MalformedResponse("malformed response: no SSE event in a streamed answer")
    reader = {"chat": _chat, "responses": _responses, "messages": _messages}[dialect]
    return reader(iter(frames))


def _chat(stream: Iterator[tuple[str | None, str]]) -> tuple[Any, tuple[str, ...]]:
    head: dict[str, Any] = {}
    content: list[str] = []
    extra: dict[str, Any] = {}  # reasoning_content, reasoning_details... as the provider sent them
    calls: list[dict[str, Any]] = []
    at: dict[int, dict[str, Any]] = {}  # the call each index now writes to
    finish, done = None, False
    for _name, data in stream:
        if data.strip() == "[DONE]":
            done = True
            continue
        chunk = _json(data)
        if not isinstance(chunk, dict):
            continue
        if chunk.get("error") is not None:
            return {"error": chunk["error"]}, ()
        for key in ("id", "model", "usage"):
            if chunk.get(key) is not None:
                head[key] = chunk[key]
        choices = chunk.get("choices") or []
        choice = choices[0] if choices and isinstance(choices[0], dict) else {}
        delta = choice.get("delta") or {}
        content += [delta["content"]] if isinstance(delta.get("content"), str) else []
        for key, value in delta.items():  # a provider's own fields, kept for the echo
            if key not in ("role", "content", "tool_calls") and value is not None:
                joined = isinstance(value, str) and isinstance(extra.get(key), str)
                extra[key] = extra[key] + value if joined else value
        for entry in delta.get("tool_calls") or []:
            _chat_call(entry, calls, at)
        finish = choice.get("finish_reason") or finish
    message: dict[str, Any] = {"role": "assistant", "content": "".join(content) or None, **extra}
    anomalies = []
    if calls:
        message["tool_calls"] = calls
    if any("arguments" not in c["function"] for c in calls):
        anomalies.append(NO_ARGUMENTS)
    if finish == "tool_calls" and not calls:
        anomalies.append(CALLS_WITHOUT_CALL)
    if not done:  # OpenAI's streams end with [DONE]
        anomalies.append(CUT_OFF)
    choice_out = {"index": 0, "message": message, "finish_reason": finish}
    return {**head, "object": "chat.completion", "choices": [choice_out]}, tuple(anomalies)


def _chat_call(entry: Any, calls: list[dict[str, Any]], at: dict[int, dict[str, Any]]) -> None:
    """One ``tool_calls`` delta: a new call when its index is new or it brings a new id (lmdeploy
    sends parallel calls all at index 0), else more of the call at its index."""
    if not isinstance(entry, dict):
        return
    index = entry.get("index", len(calls))
    function = entry.get("function") or {}
    current = at.get(index)
    new_id = entry.get("id") and (current is None or entry["id"] != current.get("id"))
    if current is None or new_id:
        current = {"id": entry.get("id"), "type": "function", "function": {}}
        calls.append(current)
        at[index] = current
    for key, value in entry.items():  # a call's own fields (Gemini's extra_content)
        if key not in ("index", "id", "type", "function") and value is not None:
            current[key] = value
    if isinstance(function.get("name"), str) and function["name"]:
        current["function"]["name"] = function["name"]
    if isinstance(function.get("arguments"), str):
        current["function"]["arguments"] = (
            current["function"].get("arguments", "") + function["arguments"]
        )


def _responses(stream: Iterator[tuple[str | None, str]]) -> tuple[Any, tuple[str, ...]]:
    items: dict[int, dict[str, Any]] = {}
    finished: set[int] = set()
    final: dict[str, Any] | None = None
    for name, data in stream:
        event = _json(data)
        if not isinstance(event, dict):
            continue
        kind = event.get("type", name)
        index = event.get("output_index")
        if kind == "error":
            return {"error": {k: v for k, v in event.items() if k != "type"}}, ()
        if kind in ("response.completed", "response.incomplete", "response.failed"):
            final = event.get("response") if isinstance(event.get("response"), dict) else {}
        elif kind == "response.created" and isinstance(event.get("response"), dict):
            final = None
        elif kind == "response.output_item.added" and isinstance(event.get("item"), dict):
            items[index] = dict(event["item"])
        elif kind == "response.output_item.done" and isinstance(event.get("item"), dict):
            kept = items.get(index, {})
            items[index] = {**event["item"]}
            if "arguments" not in event["item"] and "arguments" in kept:
                items[index]["arguments"] = kept["arguments"]
            finished.add(index)
        elif kind == "response.reasoning_summary_text.delta" and index not in finished:
            _summary_delta(items.get(index), event)
        elif kind == "response.function_call_arguments.delta" and index in items:
            items[index]["arguments"] = items[index].get("arguments", "") + str(event.get("delta"))
        elif kind == "response.function_call_arguments.done" and index in items:
            items[index]["arguments"] = event.get("arguments")
    output = [items[i] for i in sorted(items)]
    anomalies = []
    calls = [i for i in output if i.get("type") == "function_call"]
    if any(not i.get("arguments") for i in calls):
        anomalies.append(NO_ARGUMENTS)
        for item in calls:
            if item.get("arguments") == "":  # nothing came: no arguments, as for Chat
                del item["arguments"]
    if final is None:
        anomalies.append(CUT_OFF)
        final = {"status": "incomplete"}
    if final.get("status") != "failed" and (output or not final.get("output")):
        final = {**final, "output": output}
    return final, tuple(anomalies)


def _summary_delta(item: dict[str, Any] | None, event: dict[str, Any]) -> None:
    """More of a reasoning item's summary text (kept whole by its ``output_item.done``; read here
    so a stream cut before it keeps what came, for the echo a reasoning model requires)."""
    at = event.get("summary_index", 0)
    if item is None or not isinstance(at, int) or not 0 <= at < 64:
        return
    summary = item.get("summary")
    if not isinstance(summary, list):
        summary = item["summary"] = []
    while len(summary) <= at:
        summary.append({"type": "summary_text", "text": ""})
    if isinstance(summary[at], dict):
        summary[at] = {
            **summary[at],
            "text": str(summary[at].get("text", "")) + str(event.get("delta", "")),
        }


def _messages(stream: Iterator[tuple[str | None, str]]) -> tuple[Any, tuple[str, ...]]:
    message: dict[str, Any] = {"type": "message", "role": "assistant", "content": []}
    blocks: dict[int, dict[str, Any]] = {}
    partial: dict[int, str] = {}
    stopped = False
    for name, data in stream:
        event = _json(data)
        if not isinstance(event, dict):
            continue
        kind = event.get("type", name)
        index = event.get("index")
        if kind == "error":
            return event, ()
        if kind == "message_start" and isinstance(event.get("message"), dict):
            message = {**event["message"], "content": []}
        elif kind == "content_block_start" and isinstance(event.get("content_block"), dict):
            blocks[index] = dict(event["content_block"])
        elif kind == "content_block_delta" and index in blocks:
            _block_delta(blocks[index], event.get("delta") or {}, partial, index)
        elif kind == "message_delta" and isinstance(event.get("delta"), dict):
            message["stop_reason"] = event["delta"].get("stop_reason")
            if isinstance(event.get("usage"), dict):  # the final counts (output_tokens)
                usage = message.get("usage")
                message["usage"] = {**(usage if isinstance(usage, dict) else {}), **event["usage"]}
        elif kind == "message_stop":
            stopped = True
    for index, block in blocks.items():
        if block.get("type") == "tool_use":
            text = partial.get(index, "")
            block["input"] = _input(text) if text else {}  # partial_json "" means {}
    message["content"] = [blocks[i] for i in sorted(blocks)]
    anomalies = []
    if message.get("stop_reason") == "tool_use" and not any(
        b.get("type") == "tool_use" for b in message["content"]
    ):
        anomalies.append(CALLS_WITHOUT_CALL)
    if not stopped:
        anomalies.append(CUT_OFF)
    return message, tuple(anomalies)


def _block_delta(block: dict[str, Any], delta: dict[str, Any], partial: dict, index: int) -> None:
    kind = delta.get("type")
    if kind == "text_delta":
        block["text"] = block.get("text", "") + str(delta.get("text", ""))
    elif kind == "input_json_delta":
        partial[index] = partial.get(index, "") + str(delta.get("partial_json", ""))
    elif kind == "thinking_delta":
        block["thinking"] = block.get("thinking", "") + str(delta.get("thinking", ""))
    elif kind == "signature_delta":
        block["signature"] = str(delta.get("signature", ""))


def _input(text: str) -> Any:
    """The joined ``partial_json``: the object it parses to, else the text as sent (judged: not a
    JSON object)."""
    try:
        value = json.loads(text)
    except ValueError:
        return text
    return value if isinstance(value, dict) else text
