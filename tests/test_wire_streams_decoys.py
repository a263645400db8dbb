"""A streamed answer whose events also carry look-alike keys (``XXcontentXX``, ``CONTENT`` beside
``content``): a provider's body is free JSON, so a key read under another spelling is a wrong value,
not always a KeyError. The reader takes each field under its own name only; every other key of a
delta or a call is a provider's own field, kept as sent. Streams and expected bodies by hand."""

from __future__ import annotations

import json
from typing import Any

from scorer.wire.response import MalformedResponse
from scorer.wire.streams import CALLS_WITHOUT_CALL, NO_ARGUMENTS, assemble


def _sse(*events: Any, done: bool = False) -> bytes:
    frames = [f"data: {json.dumps(event)}\n\n" for event in events]
    return ("".join(frames) + ("data: [DONE]\n\n" if done else "")).encode()


def _decoys(key: str, first: Any, second: Any) -> dict[str, Any]:
    return {f"XX{key}XX": first, key.upper(): second}


def test_chat_reads_each_field_under_its_own_name() -> None:
    first = {
        "index": 0,
        "id": "call_1",
        "type": "function",
        **_decoys("function", {"name": "d", "arguments": "D"}, {"name": "e", "arguments": "E"}),
        "function": {
            "name": "get",
            **_decoys("name", "n1", "n2"),
            "arguments": '{"a"',
            **_decoys("arguments", "a1", "a2"),
        },
    }
    # the same call again (same id): an empty name changes nothing
    more = {
        "index": 0,
        "id": "call_1",
        **_decoys("id", "call_9", "call_8"),
        "function": {
            "name": "",
            **_decoys("name", "n1", "n2"),
            "arguments": ": 1}",
            **_decoys("arguments", "a3", "a4"),
        },
    }
    # a second call with no arguments, whose look-alike function objects have some
    second = {
        "index": 1,
        "id": "call_2",
        "type": "function",
        "function": {"name": "put", **_decoys("name", "n3", "n4")},
        **_decoys("function", {"arguments": "Q"}, {"arguments": "R"}),
    }
    body = _sse(
        {
            "id": "c1",
            "model": "m",
            "choices": [
                {
                    "index": 0,
                    "delta": {
                        "role": "assistant",
                        "content": "Hel",
                        **_decoys("content", "x", "y"),
                    },
                }
            ],
        },
        {
            "id": "c1",
            "choices": [
                {
                    "index": 0,
                    "delta": {
                        "content": "lo",
                        **_decoys("content", "2", "3"),
                        "tool_calls": [first],
                    },
                }
            ],
        },
        {"choices": [{"index": 0, "delta": {"tool_calls": [more, second]}}]},
        {"choices": [{"index": 0, "delta": {}, "finish_reason": "tool_calls"}]},
        done=True,
    )
    call_1 = {
        "id": "call_1",
        "type": "function",
        "function": {"name": "get", "arguments": '{"a": 1}'},
        "XXfunctionXX": {"name": "d", "arguments": "D"},
        "FUNCTION": {"name": "e", "arguments": "E"},
        "XXidXX": "call_9",
        "ID": "call_8",
    }
    call_2 = {
        "id": "call_2",
        "type": "function",
        "function": {"name": "put"},
        "XXfunctionXX": {"arguments": "Q"},
        "FUNCTION": {"arguments": "R"},
    }
    message = {
        "role": "assistant",
        "content": "Hello",
        "XXcontentXX": "x2",
        "CONTENT": "y3",
        "tool_calls": [call_1, call_2],
    }
    assert assemble("chat", body) == (
        {
            "id": "c1",
            "model": "m",
            "object": "chat.completion",
            "choices": [{"index": 0, "message": message, "finish_reason": "tool_calls"}],
        },
        (NO_ARGUMENTS,),
    )


def test_chat_error_is_the_error_field() -> None:
    body = _sse({"error": {"message": "boom"}, **_decoys("error", "x", "y")})
    assert assemble("chat", body) == ({"error": {"message": "boom"}}, ())


def test_responses_reads_each_field_under_its_own_name() -> None:
    item_decoys = _decoys(
        "item", {"type": "decoy", "arguments": "x"}, {"type": "decoy", "arguments": "y"}
    )
    body = _sse(
        {"type": "response.created", "response": {"id": "r1", "status": "in_progress"}},
        {
            "type": "response.output_item.added",
            "output_index": 0,
            "item": {
                "type": "function_call",
                "call_id": "call_1",
                "name": "get",
                "arguments": "",
                **_decoys("arguments", "k1", "k2"),
            },
            **item_decoys,
        },
        {"type": "response.function_call_arguments.delta", "output_index": 0, "delta": '{"a": 1}'},
        {
            "type": "response.output_item.done",
            "output_index": 0,
            "item": {"type": "function_call", "call_id": "call_1", "name": "get"},
            **item_decoys,
        },
        {
            "type": "response.output_item.added",
            "output_index": 1,
            "item": {
                "type": "function_call",
                "call_id": "call_2",
                "name": "put",
                "arguments": "",
                **_decoys("arguments", "z", "w"),
            },
            **item_decoys,
        },
        {
            "type": "response.completed",
            "response": {"id": "r1", "status": "completed", "output": []},
        },
    )
    output = [
        {"type": "function_call", "call_id": "call_1", "name": "get", "arguments": '{"a": 1}'},
        {
            "type": "function_call",
            "call_id": "call_2",
            "name": "put",
            "XXargumentsXX": "z",
            "ARGUMENTS": "w",
        },
    ]
    assert assemble("responses", body) == (
        {"id": "r1", "status": "completed", "output": output},
        (NO_ARGUMENTS,),
    )


def test_messages_reads_each_field_under_its_own_name() -> None:
    start = {
        "id": "msg_1",
        "type": "message",
        "role": "assistant",
        "content": [],
        "model": "claude",
        "usage": {"input_tokens": 5, "output_tokens": 1},
        **_decoys("content", [{"type": "tool_use"}], [{"type": "tool_use"}]),
    }
    body = _sse(
        {"type": "message_start", "message": start, **_decoys("message", {"id": "d"}, {"id": "e"})},
        {
            "type": "content_block_start",
            "index": 0,
            "content_block": {"type": "text", "text": ""},
            **_decoys("content_block", {"type": "tool_use"}, {"type": "tool_use"}),
        },
        {"type": "content_block_delta", "index": 0, "delta": {"type": "text_delta", "text": "Hi"}},
        {
            "type": "message_delta",
            "delta": {"stop_reason": "tool_use"},
            **_decoys("delta", {"stop_reason": "end_turn"}, {"stop_reason": "max_tokens"}),
            "usage": {"output_tokens": 7},
            **_decoys("usage", {"output_tokens": 99}, {"output_tokens": 98}),
        },
        {"type": "message_stop"},
    )
    message = {
        "id": "msg_1",
        "type": "message",
        "role": "assistant",
        "content": [{"type": "text", "text": "Hi"}],
        "model": "claude",
        "usage": {"input_tokens": 5, "output_tokens": 7},
        "XXcontentXX": [{"type": "tool_use"}],
        "CONTENT": [{"type": "tool_use"}],
        "stop_reason": "tool_use",
    }
    assert assemble("messages", body) == (message, (CALLS_WITHOUT_CALL,))


def test_only_done_itself_ends_a_chat_stream() -> None:
    body = _sse({"choices": [{"index": 0, "delta": {"content": "a"}}]}) + b"data: XX[DONE]XX\n\n"
    try:
        outcome: object = assemble("chat", body)
    except MalformedResponse as exc:
        outcome = str(exc)
    assert outcome == "malformed response: an SSE event's data is not JSON"
