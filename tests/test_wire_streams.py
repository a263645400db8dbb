"""A streamed answer assembled into the whole body (``scorer.wire.streams``), event by event, in the
three dialects: the SSE framing rules, the quirks real servers send, and the anomalies named.
Every stream and expected body is written by hand in the shapes OpenAI's, Anthropic's and
lmdeploy's servers send (tests/fixtures/dialect_bodies/*.sse are whole recorded ones)."""

from __future__ import annotations

import json
from typing import Any

import pytest

from scorer.wire.response import MalformedResponse
from scorer.wire.streams import (
    CALLS_WITHOUT_CALL,
    CUT_OFF,
    NO_ARGUMENTS,
    assemble,
    events,
)


def _at(value: Any, *path: Any) -> Any:
    """The value at ``path`` inside ``value``, or None when the path is not there (so a wrong
    shape fails the test's comparison rather than raising in the test)."""
    for key in path:
        try:
            value = value[key]
        except (KeyError, IndexError, TypeError):
            return None
    return value


def _sse(*events_: Any, done: bool = False) -> bytes:
    """``data:`` frames of each event (a ``(name, data)`` pair is sent with its ``event:`` line)."""
    frames = []
    for event in events_:
        if isinstance(event, tuple):
            frames.append(f"event: {event[0]}\ndata: {json.dumps(event[1])}\n\n")
        else:
            frames.append(f"data: {json.dumps(event)}\n\n")
    return ("".join(frames) + ("data: [DONE]\n\n" if done else "")).encode()


def test_the_sse_rules() -> None:
    body = (
        b": keep-alive comment\r\n\r\n"
        b"event:first\r\ndata:a\r\ndata:  b\r\nid: 7\r\n\r\n"
        b"event: second\rdata: c\r\r"
        b"retry: 10\n\n"
        b"data:\n\n"
        b"event: last\ndata: \xff\n\n"
    )
    assert list(events(body)) == [
        ("first", "a\n b"),
        ("second", "c"),
        (None, ""),
        ("last", "\ufffd"),
    ]


def test_a_plain_json_body_is_read_as_it_is() -> None:
    assert assemble("chat", b'  \n{"choices": []}') == ({"choices": []}, ())
    assert assemble("messages", b"[1]") == ([1], ())


@pytest.mark.parametrize(
    ("body", "problem"),
    [
        (b": only a comment\n\n", "malformed response: no SSE event in a streamed answer"),
        (b"", "malformed response: no SSE event in a streamed answer"),
        (b"data: {nope\n\n", "malformed response: an SSE event's data is not JSON"),
        (b'data: {"a": NaN}\n\n', "malformed response: an SSE event's data is not JSON"),
        (b"{nope", "malformed response: an SSE event's data is not JSON"),
    ],
    ids=["no-event", "empty", "not-json", "nan", "broken-plain-json"],
)
def test_a_stream_that_cannot_be_read_is_malformed(body: bytes, problem: str) -> None:
    with pytest.raises(MalformedResponse) as raised:
        assemble("chat", body)
    assert str(raised.value) == problem


# --- Chat Completions --------------------------------------------------------------------------


def _chunk(delta: dict[str, Any], finish: str | None = None, **head: Any) -> dict[str, Any]:
    return {"object": "chat.completion.chunk", **head,
            "choices": [{"index": 0, "delta": delta, "finish_reason": finish}]}  # fmt: skip


def test_a_chat_stream_with_text_reasoning_and_usage() -> None:
    body = _sse(
        _chunk({"role": "assistant", "content": None}, id="c1", model="deepseek-reasoner"),
        _chunk({"reasoning_content": "Let me ", "content": None}, id=None),
        _chunk({"reasoning_content": "think."}),
        _chunk({"content": "Hel", "reasoning_details": [{"type": "x"}]}),
        _chunk({"content": "lo", "reasoning_details": [{"type": "y"}]}, "stop"),
        {"id": "c1", "choices": [], "usage": {"total_tokens": 9}},
        5,
        done=True,
    )
    assert assemble("chat", body) == (
        {
            "id": "c1",
            "model": "deepseek-reasoner",
            "usage": {"total_tokens": 9},
            "object": "chat.completion",
            "choices": [
                {
                    "index": 0,
                    "message": {
                        "role": "assistant",
                        "content": "Hello",
                        "reasoning_content": "Let me think.",
                        "reasoning_details": [{"type": "y"}],
                    },
                    "finish_reason": "stop",
                }
            ],
        },
        (),
    )


def test_chat_parallel_calls_in_fragments() -> None:
    body = _sse(
        _chunk({"tool_calls": [{"index": 0, "id": "call_a", "type": "function",
                                "function": {"name": "f", "arguments": ""}}]}),
        _chunk({"tool_calls": [{"index": 0, "function": {"arguments": '{"city": "Edi'}}]}),
        _chunk({"tool_calls": [{"index": 0, "function": {"name": "", "arguments": 'nburgh"}'}}]}),
        _chunk({"tool_calls": [{"index": 1, "id": "call_b", "type": "function",
                                "function": {"name": "g"},
                                "extra_content": {"google": {"thought_signature": "s"}}}]}),
        _chunk({"tool_calls": [{"index": 1, "id": "call_b", "function": {"arguments": "{}"},
                                "extra": None}]}),
        _chunk({"tool_calls": ["junk"]}, "tool_calls"),
        _chunk({}, None),
        done=True,
    )  # fmt: skip
    whole, anomalies = assemble("chat", body)
    assert anomalies == ()
    assert _at(whole, "choices", 0, "finish_reason") == "tool_calls"
    assert _at(whole, "choices", 0, "message") == {
        "role": "assistant",
        "content": None,
        "tool_calls": [
            {"id": "call_a", "type": "function",
             "function": {"name": "f", "arguments": '{"city": "Edinburgh"}'}},
            {"id": "call_b", "type": "function", "function": {"name": "g", "arguments": "{}"},
             "extra_content": {"google": {"thought_signature": "s"}}},
        ],
    }  # fmt: skip


def test_lmdeploy_parallel_calls_all_at_index_0_and_calls_without_index() -> None:
    body = _sse(
        _chunk({"tool_calls": [{"index": 0, "id": "a",
                                "function": {"name": "f", "arguments": "{}"}}]}),
        _chunk({"tool_calls": [{"index": 0, "id": "b",
                                "function": {"name": "g", "arguments": "{"}}]}),
        _chunk({"tool_calls": [{"index": 0, "function": {"arguments": "}"}}]}),
        _chunk({"tool_calls": [{"id": "c", "function": {"name": "h", "arguments": "[]"}}]}),
        _chunk({"tool_calls": [{"function": {"name": "k", "arguments": 5}}]}, "tool_calls"),
        done=True,
    )  # fmt: skip
    whole, anomalies = assemble("chat", body)
    calls = _at(whole, "choices", 0, "message", "tool_calls")
    assert calls == [
        {"id": "a", "type": "function", "function": {"name": "f", "arguments": "{}"}},
        {"id": "b", "type": "function", "function": {"name": "g", "arguments": "{}"}},
        {"id": "c", "type": "function", "function": {"name": "h", "arguments": "[]"}},
        {"id": None, "type": "function", "function": {"name": "k"}},
    ]
    assert anomalies == (NO_ARGUMENTS,)


def test_a_chat_stream_cut_off_with_a_call_stop_and_no_call() -> None:
    body = _sse(_chunk({"content": ""}, "tool_calls", model="m"))
    whole, anomalies = assemble("chat", body)
    assert anomalies == (CALLS_WITHOUT_CALL, CUT_OFF)
    assert whole == {
        "model": "m",
        "object": "chat.completion",
        "choices": [
            {
                "index": 0,
                "message": {"role": "assistant", "content": None},
                "finish_reason": "tool_calls",
            }
        ],
    }


def test_chat_done_with_spaces_and_odd_choices() -> None:
    body = (
        _sse({"choices": "x"}, {"choices": [5]}, {"choices": [{"delta": None}]})
        + b"data:  [DONE] \n\n"
    )
    whole, anomalies = assemble("chat", body)
    assert anomalies == ()
    assert _at(whole, "choices") == [
        {"index": 0, "message": {"role": "assistant", "content": None}, "finish_reason": None}
    ]


def test_a_chat_error_mid_stream_is_the_error_body() -> None:
    body = _sse(
        _chunk({"content": "Hi"}),
        {"error": {"code": 502, "message": "Network connection lost."}},
        _chunk({"content": " there"}),
    )
    assert assemble("chat", body) == (
        {"error": {"code": 502, "message": "Network connection lost."}},
        (),
    )
    null_error = assemble("chat", _sse({**_chunk({"content": "a"}), "error": None}, done=True))
    assert _at(null_error, 0, "choices", 0, "message", "content") == "a"


# --- Responses --------------------------------------------------------------------------------


def _call_item(**extra: Any) -> dict[str, Any]:
    return {"type": "function_call", "id": "fc_1", "call_id": "call_1", "name": "f", **extra}


def test_a_responses_call_stream() -> None:
    body = _sse(
        ("response.created", {"type": "response.created", "response": {"status": "in_progress"}}),
        {"type": "response.output_item.added", "output_index": 0, "item": _call_item(arguments="")},
        {"type": "response.function_call_arguments.delta", "output_index": 0, "delta": '{"a"'},
        {"type": "response.function_call_arguments.delta", "output_index": 0, "delta": ":1}"},
        {"type": "response.function_call_arguments.delta", "output_index": 9, "delta": "x"},
        {"type": "response.output_item.done", "output_index": 0, "item": _call_item()},
        ("response.completed", {"response": {"id": "r", "status": "completed", "output": []}}),
        7,
    )
    assert assemble("responses", body) == (
        {"id": "r", "status": "completed", "output": [_call_item(arguments='{"a":1}')]},
        (),
    )


def test_responses_arguments_done_wins_and_items_keep_their_order() -> None:
    body = _sse(
        {"type": "response.output_item.added", "output_index": 1, "item": _call_item()},
        {"type": "response.output_item.added", "output_index": 0,
         "item": {"type": "message", "content": []}},
        {"type": "response.function_call_arguments.delta", "output_index": 1, "delta": "{"},
        {"type": "response.function_call_arguments.done", "output_index": 1, "arguments": "{}"},
        {"type": "response.function_call_arguments.done", "output_index": 4, "arguments": "{}"},
        {"type": "response.output_item.done", "output_index": 0,
         "item": {"type": "message", "content": [{"type": "output_text", "text": "hi"}]}},
        {"type": "response.output_item.added", "output_index": 2, "item": "junk"},
        {"type": "response.completed", "response": "junk"},
    )  # fmt: skip
    assert assemble("responses", body) == (
        {
            "output": [
                {"type": "message", "content": [{"type": "output_text", "text": "hi"}]},
                _call_item(arguments="{}"),
            ]
        },
        (),
    )


def test_a_responses_stream_cut_off_with_a_call_and_no_arguments() -> None:
    body = _sse(
        {"type": "response.created", "response": {"status": "in_progress"}},
        {"type": "response.output_item.added", "output_index": 0, "item": _call_item(arguments="")},
        {"type": "response.output_item.added", "output_index": 1, "item": _call_item(id="fc_2")},
    )
    assert assemble("responses", body) == (
        {"status": "incomplete", "output": [_call_item(), _call_item(id="fc_2")]},
        (NO_ARGUMENTS, CUT_OFF),
    )


def test_a_responses_stream_created_again_starts_over() -> None:
    body = _sse(
        {"type": "response.completed", "response": {"status": "completed"}},
        {"type": "response.created", "response": {"status": "in_progress"}},
        {"type": "response.created", "response": "junk"},
    )
    assert assemble("responses", body) == ({"status": "incomplete", "output": []}, (CUT_OFF,))


@pytest.mark.parametrize(
    ("final", "whole"),
    [
        (  # the final event's own output is kept when no item came
            {"type": "response.completed", "response": {"status": "completed", "output": [1]}},
            {"status": "completed", "output": [1]},
        ),
        (
            {"type": "response.failed", "response": {"status": "failed", "output": [1]}},
            {"status": "failed", "output": [1]},
        ),
        (
            {"type": "response.incomplete", "response": {"status": "incomplete"}},
            {"status": "incomplete", "output": []},
        ),
    ],
    ids=["completed-output", "failed", "incomplete"],
)
def test_the_final_event_of_a_responses_stream(final: dict[str, Any], whole: Any) -> None:
    assert assemble("responses", _sse(final)) == (whole, ())


def test_a_failed_response_keeps_its_own_output_over_the_items() -> None:
    body = _sse(
        {"type": "response.output_item.added", "output_index": 0, "item": {"type": "message"}},
        {"type": "response.failed", "response": {"status": "failed", "error": {"code": "x"}}},
    )
    assert assemble("responses", body) == ({"status": "failed", "error": {"code": "x"}}, ())


def test_a_responses_error_event() -> None:
    body = _sse(("error", {"code": "server_error", "message": "boom", "sequence_number": 3}))
    assert assemble("responses", body) == (
        {"error": {"code": "server_error", "message": "boom", "sequence_number": 3}},
        (),
    )


def test_reasoning_summary_deltas() -> None:
    body = _sse(
        {"type": "response.output_item.added", "output_index": 0,
         "item": {"type": "reasoning", "id": "rs", "summary": "junk"}},
        {"type": "response.reasoning_summary_text.delta", "output_index": 0, "delta": "A"},
        {"type": "response.reasoning_summary_text.delta", "output_index": 0, "delta": "B"},
        {"type": "response.reasoning_summary_text.delta", "output_index": 0,
         "summary_index": 2, "delta": "C"},
        {"type": "response.reasoning_summary_text.delta", "output_index": 0,
         "summary_index": 64, "delta": "D"},
        {"type": "response.reasoning_summary_text.delta", "output_index": 0,
         "summary_index": -1, "delta": "E"},
        {"type": "response.reasoning_summary_text.delta", "output_index": 0,
         "summary_index": "1", "delta": "F"},
        {"type": "response.reasoning_summary_text.delta", "output_index": 5, "delta": "G"},
        {"type": "response.reasoning_summary_text.delta", "output_index": 0, "summary_index": 63},
    )  # fmt: skip
    whole, anomalies = assemble("responses", body)
    summary = _at(whole, "output", 0, "summary")
    assert isinstance(summary, list) and len(summary) == 64 and anomalies == (CUT_OFF,)
    assert summary[:3] == [
        {"type": "summary_text", "text": "AB"},
        {"type": "summary_text", "text": ""},
        {"type": "summary_text", "text": "C"},
    ]
    assert summary[63] == {"type": "summary_text", "text": ""}


def test_a_summary_delta_after_the_item_is_done_is_not_read_twice() -> None:
    done = {"type": "reasoning", "summary": [{"type": "summary_text", "text": "whole"}, "x"]}
    body = _sse(
        {"type": "response.output_item.added", "output_index": 0, "item": {"type": "reasoning"}},
        {"type": "response.output_item.done", "output_index": 0, "item": done},
        {"type": "response.reasoning_summary_text.delta", "output_index": 0, "delta": "more"},
        {"type": "response.completed", "response": {"status": "completed"}},
    )
    assert _at(assemble("responses", body), 0, "output") == [done]
    odd = _sse(
        {"type": "response.output_item.added", "output_index": 0,
         "item": {"type": "reasoning", "summary": ["x", {"text": 1}]}},
        {"type": "response.reasoning_summary_text.delta", "output_index": 0, "delta": "y"},
        {"type": "response.reasoning_summary_text.delta", "output_index": 0,
         "summary_index": 1, "delta": "z"},
    )  # fmt: skip
    assert _at(assemble("responses", odd), 0, "output", 0, "summary") == ["x", {"text": "1z"}]


# --- Messages ---------------------------------------------------------------------------------


def _start(**message: Any) -> tuple[str, dict[str, Any]]:
    base = {
        "id": "msg_1",
        "type": "message",
        "role": "assistant",
        "model": "claude",
        "content": [{"type": "text", "text": "stale"}],
        "usage": {"input_tokens": 5},
    }
    return "message_start", {"type": "message_start", "message": {**base, **message}}  # fmt: skip


def test_a_messages_call_stream_with_thinking() -> None:
    body = _sse(
        _start(),
        {"type": "content_block_start", "index": 0,
         "content_block": {"type": "thinking", "thinking": ""}},
        {"type": "content_block_delta", "index": 0,
         "delta": {"type": "thinking_delta", "thinking": "Hm"}},
        {"type": "content_block_delta", "index": 0,
         "delta": {"type": "thinking_delta", "thinking": "m."}},
        {"type": "content_block_delta", "index": 0,
         "delta": {"type": "signature_delta", "signature": "s1"}},
        {"type": "content_block_delta", "index": 0,
         "delta": {"type": "signature_delta", "signature": "s2"}},
        {"type": "content_block_stop", "index": 0},
        {"type": "content_block_start", "index": 2,
         "content_block": {"type": "tool_use", "id": "toolu_1", "name": "f", "input": {}}},
        {"type": "content_block_delta", "index": 2,
         "delta": {"type": "input_json_delta", "partial_json": ""}},
        {"type": "content_block_delta", "index": 2,
         "delta": {"type": "input_json_delta", "partial_json": '{"city": '}},
        {"type": "content_block_delta", "index": 2,
         "delta": {"type": "input_json_delta", "partial_json": '"Paris"}'}},
        {"type": "content_block_start", "index": 1,
         "content_block": {"type": "text", "text": ""}},
        {"type": "content_block_delta", "index": 1, "delta": {"type": "text_delta", "text": "Hi"}},
        {"type": "content_block_delta", "index": 1, "delta": {"type": "text_delta"}},
        {"type": "content_block_delta", "index": 1, "delta": {"type": "other", "text": "x"}},
        {"type": "content_block_delta", "index": 7, "delta": {"type": "text_delta", "text": "x"}},
        {"type": "content_block_delta", "index": 1},
        {"type": "message_delta", "delta": {"stop_reason": "tool_use"},
         "usage": {"output_tokens": 30}},
        ("message_stop", {}),
        3,
    )  # fmt: skip
    assert assemble("messages", body) == (
        {
            "id": "msg_1",
            "type": "message",
            "role": "assistant",
            "model": "claude",
            "content": [
                {"type": "thinking", "thinking": "Hmm.", "signature": "s2"},
                {"type": "text", "text": "Hi"},
                {"type": "tool_use", "id": "toolu_1", "name": "f", "input": {"city": "Paris"}},
            ],
            "usage": {"input_tokens": 5, "output_tokens": 30},
            "stop_reason": "tool_use",
        },
        (),
    )


@pytest.mark.parametrize(
    ("fragments", "value"),
    [
        ([], {}),
        ([""], {}),
        (['{"a"', ": 1}"], {"a": 1}),
        (['{"a": '], '{"a": '),
        (["[1]"], "[1]"),
    ],
    ids=["none", "empty", "joined", "cut", "not-an-object"],
)
def test_a_tool_use_input_from_its_fragments(fragments: list[str], value: Any) -> None:
    deltas = [
        {"type": "content_block_delta", "index": 0,
         "delta": {"type": "input_json_delta", "partial_json": text}}
        for text in fragments
    ]  # fmt: skip
    body = _sse(
        {"type": "content_block_start", "index": 0,
         "content_block": {"type": "tool_use", "id": "t", "name": "f", "input": {"x": 1}}},
        *deltas,
        {"type": "message_stop"},
    )  # fmt: skip
    whole, anomalies = assemble("messages", body)
    assert _at(whole, "content") == [{"type": "tool_use", "id": "t", "name": "f", "input": value}]
    assert anomalies == ()


def test_a_messages_stream_cut_off_with_a_call_stop_and_no_call() -> None:
    body = _sse(
        {"type": "content_block_start", "index": 0, "content_block": {"type": "text", "text": "a"}},
        {"type": "content_block_start", "index": 1, "content_block": "junk"},
        {"type": "message_start", "message": "junk"},
        {"type": "message_delta", "delta": {"stop_reason": "tool_use"}, "usage": {"o": 1}},
        {"type": "message_delta", "delta": "junk", "usage": {"p": 2}},
    )  # fmt: skip
    assert assemble("messages", body) == (
        {
            "type": "message",
            "role": "assistant",
            "content": [{"type": "text", "text": "a"}],
            "stop_reason": "tool_use",
            "usage": {"o": 1},
        },
        (CALLS_WITHOUT_CALL, CUT_OFF),
    )


def test_a_final_usage_replaces_a_start_usage_that_is_not_an_object() -> None:
    body = _sse(
        _start(usage=None),
        {"type": "message_delta", "delta": {"stop_reason": "end_turn"}, "usage": None},
        {"type": "message_delta", "delta": {"stop_reason": "end_turn"}, "usage": {"o": 1}},
        {"type": "message_stop"},
    )
    whole, anomalies = assemble("messages", body)
    assert _at(whole, "usage") == {"o": 1} and _at(whole, "content") == [] and anomalies == ()


def test_a_messages_error_event_is_the_error_body() -> None:
    error = {"type": "error", "error": {"type": "overloaded_error", "message": "Overloaded"}}
    body = _sse(_start(), ("error", error), {"type": "message_stop"})
    assert assemble("messages", body) == (error, ())
    named = _sse(("error", {"error": {"type": "api_error"}}))
    assert assemble("messages", named) == ({"error": {"type": "api_error"}}, ())


def test_messages_deltas_with_fields_missing() -> None:
    body = _sse(
        {"type": "content_block_start", "index": 0, "content_block": {"type": "thinking"}},
        {"type": "content_block_delta", "index": 0,
         "delta": {"type": "thinking_delta", "thinking": "Hm"}},
        {"type": "content_block_delta", "index": 0, "delta": {"type": "thinking_delta"}},
        {"type": "content_block_delta", "index": 0, "delta": {"type": "signature_delta"}},
        {"type": "content_block_start", "index": 1, "content_block": {"type": "text"}},
        {"type": "content_block_delta", "index": 1, "delta": {"type": "text_delta", "text": "Hi"}},
        {"type": "content_block_start", "index": 2,
         "content_block": {"type": "tool_use", "id": "t", "name": "f"}},
        {"type": "content_block_delta", "index": 2,
         "delta": {"type": "input_json_delta", "partial_json": '{"a": 1}'}},
        {"type": "content_block_delta", "index": 2, "delta": {"type": "input_json_delta"}},
        {"type": "message_stop"},
    )  # fmt: skip
    assert _at(assemble("messages", body), 0, "content") == [
        {"type": "thinking", "thinking": "Hm", "signature": ""},
        {"type": "text", "text": "Hi"},
        {"type": "tool_use", "id": "t", "name": "f", "input": {"a": 1}},
    ]
    empty = _sse(
        {"type": "content_block_start", "index": 0, "content_block": {"type": "thinking"}},
        {"type": "content_block_delta", "index": 0, "delta": {"type": "thinking_delta"}},
        {"type": "content_block_start", "index": 1, "content_block": {"type": "text"}},
        {"type": "content_block_delta", "index": 1, "delta": {"type": "text_delta"}},
        {"type": "message_stop"},
    )  # fmt: skip
    assert _at(assemble("messages", empty), 0, "content") == [
        {"type": "thinking", "thinking": ""},
        {"type": "text", "text": ""},
    ]


def test_a_chat_frame_after_done_or_a_non_object_is_still_read() -> None:
    """[DONE] and a frame that is not an object are passed over, not taken for the end."""
    body = (
        _sse(_chunk({"content": "a"}), done=True)
        + b"data: 5\n\n"
        + _sse(_chunk({"content": "b"}, "stop"))
    )
    whole, anomalies = assemble("chat", body)
    assert _at(whole, "choices", 0, "message", "content") == "ab" and anomalies == ()


def test_a_chat_delta_cannot_change_the_role_or_bring_calls_as_a_field() -> None:
    body = _sse(
        _chunk({"role": "", "content": "a"}),
        _chunk({"tool_calls": [], "content": "b"}, "stop"),
        done=True,
    )
    whole, _ = assemble("chat", body)
    assert _at(whole, "choices", 0, "message") == {"role": "assistant", "content": "ab"}


def test_a_later_fragments_empty_id_and_type_keep_the_calls_own() -> None:
    body = _sse(
        _chunk({"tool_calls": [{"index": 0, "id": "call_a", "type": "function",
                                "function": {"name": "f", "arguments": "{"}}]}),
        _chunk({"tool_calls": [{"index": 0, "id": "", "type": "",
                                "function": {"arguments": "}"}}]}, "tool_calls"),
        done=True,
    )  # fmt: skip
    whole, _ = assemble("chat", body)
    assert _at(whole, "choices", 0, "message", "tool_calls") == [
        {"id": "call_a", "type": "function", "function": {"name": "f", "arguments": "{}"}}
    ]


def test_a_responses_error_event_drops_its_type() -> None:
    body = _sse({"type": "error", "code": "server_error", "message": "boom"})
    assert assemble("responses", body) == (
        {"error": {"code": "server_error", "message": "boom"}},
        (),
    )


def test_responses_events_read_only_by_their_own_type() -> None:
    """Only response.created starts over; only output_item.done replaces an item; a frame that
    is not an object is passed over."""
    body = _sse(
        {"type": "response.output_item.added", "output_index": 0, "item": _call_item()},
        5,
        {"type": "response.function_call_arguments.done", "output_index": 0, "arguments": "{}"},
        {"type": "response.content_part.added", "output_index": 0, "item": {"type": "other"}},
        {"type": "response.completed", "response": {"status": "completed"}},
        {"type": "response.in_progress", "response": {"status": "in_progress"}},
    )
    assert assemble("responses", body) == (
        {"status": "completed", "output": [_call_item(arguments="{}")]},
        (),
    )


def test_a_summary_part_without_text_gets_the_delta() -> None:
    body = _sse(
        {"type": "response.output_item.added", "output_index": 0,
         "item": {"type": "reasoning", "summary": [{"type": "summary_text"}]}},
        {"type": "response.reasoning_summary_text.delta", "output_index": 0, "delta": "y"},
    )  # fmt: skip
    whole, _ = assemble("responses", body)
    assert _at(whole, "output", 0, "summary") == [{"type": "summary_text", "text": "y"}]


def test_the_done_item_wins_and_keeps_the_deltas_when_it_has_no_arguments() -> None:
    body = _sse(
        {"type": "response.output_item.added", "output_index": 0, "item": _call_item()},
        {"type": "response.function_call_arguments.delta", "output_index": 0, "delta": '{"a"'},
        {"type": "response.function_call_arguments.delta", "output_index": 0, "delta": ": 1}"},
        {"type": "response.output_item.done", "output_index": 0, "item": _call_item()},
        {"type": "response.output_item.added", "output_index": 1, "item": _call_item(id="b")},
        {"type": "response.function_call_arguments.delta", "output_index": 1, "delta": "{"},
        {"type": "response.output_item.done", "output_index": 1,
         "item": _call_item(id="b", arguments='{"b": 2}')},
        {"type": "response.completed", "response": {"status": "completed"}},
    )  # fmt: skip
    assert _at(assemble("responses", body), 0, "output") == [
        _call_item(arguments='{"a": 1}'),
        _call_item(id="b", arguments='{"b": 2}'),
    ]


def test_a_messages_frame_that_is_not_an_object_is_passed_over() -> None:
    body = _sse(
        {"type": "content_block_start", "index": 0, "content_block": {"type": "text", "text": ""}},
        5,
        {"type": "content_block_delta", "index": 0, "delta": {"type": "text_delta", "text": "a"}},
        {"type": "message_stop"},
    )
    assert assemble("messages", body) == (
        {"type": "message", "role": "assistant", "content": [{"type": "text", "text": "a"}]},
        (),
    )


def test_a_chat_stream_whose_only_chunk_is_an_error() -> None:
    body = _sse({"error": {"message": "overloaded", "code": 503}})
    assert assemble("chat", body) == ({"error": {"message": "overloaded", "code": 503}}, ())


def test_a_chat_head_from_chunks_that_all_carry_it() -> None:
    usage = {"prompt_tokens": 3, "completion_tokens": 1}
    body = _sse(_chunk({"content": "hi"}, "stop", id="c1", model="m", usage=usage), done=True)
    assert assemble("chat", body) == (
        {
            "id": "c1",
            "model": "m",
            "usage": {"prompt_tokens": 3, "completion_tokens": 1},
            "object": "chat.completion",
            "choices": [
                {
                    "index": 0,
                    "message": {"role": "assistant", "content": "hi"},
                    "finish_reason": "stop",
                }
            ],
        },
        (),
    )


def test_only_a_chat_chunks_first_choice_is_read() -> None:
    chunk = {"choices": [{"delta": {"content": "one"}}, {"delta": {"content": "two"}}]}
    body, _ = assemble("chat", _sse(chunk, done=True))
    assert _at(body, "choices", 0, "message", "content") == "one"


def _calls_of(*entries: dict[str, Any]) -> Any:
    body, _ = assemble("chat", _sse(*[_chunk({"tool_calls": [e]}) for e in entries], done=True))
    return _at(body, "choices", 0, "message", "tool_calls")


def test_chat_calls_at_index_0_told_apart_by_their_ids() -> None:
    args = {"arguments": "{}"}
    # lmdeploy: two calls, each with its id, both at index 0
    assert _calls_of(
        {"index": 0, "id": "a", "function": {"name": "f", **args}},
        {"index": 0, "id": "b", "function": {"name": "g", **args}},
    ) == [
        {"id": "a", "type": "function", "function": {"name": "f", "arguments": "{}"}},
        {"id": "b", "type": "function", "function": {"name": "g", "arguments": "{}"}},
    ]


def test_a_new_id_at_an_index_with_a_call_without_one() -> None:
    # a call with no id, then a new id (a new call), then that id again (more of that call)
    args = {"arguments": "{}"}
    assert _calls_of(
        {"index": 0, "function": {"name": "f", **args}},
        {"index": 0, "id": "b", "function": {"name": "g", "arguments": "{"}},
        {"index": 0, "id": "b", "function": {"arguments": "}"}},
    ) == [
        {"id": None, "type": "function", "function": {"name": "f", "arguments": "{}"}},
        {"id": "b", "type": "function", "function": {"name": "g", "arguments": "{}"}},
    ]


def test_an_empty_name_in_a_later_chat_fragment_keeps_the_name() -> None:
    assert _calls_of(
        {"index": 0, "id": "a", "function": {"name": "f", "arguments": "{"}},
        {"index": 0, "function": {"name": "", "arguments": "}"}},
    ) == [{"id": "a", "type": "function", "function": {"name": "f", "arguments": "{}"}}]


def test_messages_events_of_another_type_are_passed_over() -> None:
    other = {
        "type": "other",
        "index": 0,
        "message": {"id": "msg_other"},
        "content_block": {"type": "text", "text": "other"},
        "delta": {"type": "text_delta", "text": "!", "stop_reason": "other"},
    }
    body = _sse(
        {"type": "message_start", "message": {"id": "msg_1", "role": "assistant"}},
        {"type": "content_block_start", "index": 0, "content_block": {"type": "text", "text": ""}},
        {"type": "content_block_delta", "index": 0, "delta": {"type": "text_delta", "text": "hi"}},
        {"type": "message_delta", "delta": {"stop_reason": "end_turn"}},
        other,
        {"type": "message_stop"},
    )
    assert assemble("messages", body) == (
        {
            "id": "msg_1",
            "role": "assistant",
            "content": [{"type": "text", "text": "hi"}],
            "stop_reason": "end_turn",
        },
        (),
    )


def test_a_responses_completed_event_without_its_response() -> None:
    body = _sse(
        {"type": "response.output_item.added", "output_index": 0, "item": _call_item()},
        {
            "type": "response.output_item.done",
            "output_index": 0,
            "item": _call_item(arguments="{}"),
        },
        {"type": "response.completed"},
    )
    assert assemble("responses", body) == ({"output": [_call_item(arguments="{}")]}, ())


def test_only_the_empty_arguments_are_taken_out() -> None:
    two = [_call_item(arguments=""), {**_call_item(arguments='{"a":1}'), "id": "fc_2"}]
    body = _sse(
        *[
            {"type": "response.output_item.done", "output_index": i, "item": item}
            for i, item in enumerate(two)
        ],
        {"type": "response.completed", "response": {"status": "completed"}},
    )
    assert assemble("responses", body) == (
        {"status": "completed", "output": [_call_item(), {**two[1]}]},
        (NO_ARGUMENTS,),
    )


def test_a_summary_index_past_63_is_not_read() -> None:
    body = _sse(
        {"type": "response.output_item.added", "output_index": 0,
         "item": {"type": "reasoning", "summary": []}},
        {"type": "response.reasoning_summary_text.delta", "output_index": 0,
         "summary_index": 64, "delta": "x"},
        {"type": "response.completed", "response": {"status": "completed"}},
    )  # fmt: skip
    assert assemble("responses", body) == (
        {"status": "completed", "output": [{"type": "reasoning", "summary": []}]},
        (),
    )


@pytest.mark.parametrize(
    "body",
    [b' {"a": 1}\n\ndata: [DONE]\n\n', b"[1]\n\ndata: [DONE]\n\n"],
    ids=["object-then-frame", "list-then-frame"],
)
def test_a_body_that_starts_as_json_is_read_as_json_only(body: bytes) -> None:
    with pytest.raises(MalformedResponse):
        assemble("chat", body)


def test_a_done_call_item_never_added_and_without_arguments() -> None:
    body = _sse(
        {"type": "response.output_item.done", "output_index": 0, "item": _call_item()},
        {"type": "response.completed", "response": {"status": "completed"}},
    )
    assert assemble("responses", body) == (
        {"status": "completed", "output": [_call_item()]},
        (NO_ARGUMENTS,),
    )


def test_a_plain_body_with_a_byte_that_is_not_utf8() -> None:
    assert assemble("chat", b'{"a": "x\xff"}') == ({"a": "x\ufffd"}, ())
