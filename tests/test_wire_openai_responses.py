"""The Responses dialect (``scorer.wire.openai_responses``): the suite as ``input`` items, tools
flat and not strict, answers read from ``message`` and ``function_call`` output items (the shapes
of OpenAI's own bodies, tests/fixtures/dialect_bodies/responses_*), errors and the echo."""

from __future__ import annotations

from typing import Any

import pytest

from scorer.wire.openai_responses import (
    PATH,
    body_error,
    follow_up,
    input_items,
    parse_answer,
    request_body,
    tools_json,
)
from scorer.wire.response import BodyError, MalformedResponse, ModelResponse, ToolCall
from scorer.wire.settings import Wire

OBJ = {"type": "object", "properties": {"a": {"type": "string"}}}
CALL = {
    "arguments": '{"country":"PotatoLand"}',
    "call_id": "call_YfwRsW8sUxDKipwyhWTzOXCA",
    "id": "fc_04907f5d",
    "name": "get_capital",
    "status": "completed",
    "type": "function_call",
}


def test_tools_are_flat_and_not_strict() -> None:
    tools = [
        {"type": "function", "function": {"name": "f", "description": "F.", "parameters": OBJ}},
        {"type": "function", "function": {"name": "g", "parameters": {"type": "object"}}},
    ]
    assert tools_json(tools) == [
        {"type": "function", "name": "f", "description": "F.", "parameters": OBJ, "strict": False},
        {"type": "function", "name": "g", "parameters": {"type": "object"}, "strict": False},
    ]


def test_an_opening_with_text_calls_and_results() -> None:
    opening = [
        {"role": "user", "content": "go"},
        {
            "role": "assistant",
            "content": "Looking.",
            "tool_calls": [
                {"id": "c1", "type": "function", "function": {"name": "f", "arguments": "{}"}}
            ],
        },
        {"role": "tool", "tool_call_id": "c1", "content": "done"},
        {"role": "assistant", "content": None, "tool_calls": [
            {"id": "c2", "type": "function", "function": {"name": "g", "arguments": "[]"}}
        ]},
    ]  # fmt: skip
    assert input_items(opening) == [
        {"role": "user", "content": "go"},
        {"role": "assistant", "content": "Looking."},
        {"type": "function_call", "call_id": "c1", "name": "f", "arguments": "{}"},
        {"type": "function_call_output", "call_id": "c1", "output": "done"},
        {"type": "function_call", "call_id": "c2", "name": "g", "arguments": "[]"},
    ]


def test_the_request_body_with_echoed_items() -> None:
    echoed = [{"type": "function_call_output", "call_id": "c", "output": "ok"}]
    body = request_body("m", "S", [{"role": "user", "content": "hi"}], [], echoed, Wire())
    assert body == {
        "model": "m",
        "instructions": "S",
        "input": [{"role": "user", "content": "hi"}, *echoed],
        "tools": [],
        "temperature": 0,
    }
    assert list(request_body("m", "S", [], [])) == [
        "model",
        "instructions",
        "input",
        "tools",
        "temperature",
    ]
    capped = request_body("m", "S", [], [], None, Wire("responses", False, (("max_tokens", "5"),)))
    assert capped == {
        "model": "m",
        "instructions": "S",
        "input": [],
        "tools": [],
        "temperature": 0,
        "max_output_tokens": 5,
    }


def test_a_whole_call_answer() -> None:
    body = {
        "model": "gpt-4o-2024-08-06",
        "status": "completed",
        "incomplete_details": None,
        "error": None,
        "output": [CALL],
    }
    answer = parse_answer(body)
    assert answer == ModelResponse(
        content=None,
        tool_calls=(ToolCall(CALL["call_id"], "get_capital", '{"country":"PotatoLand"}'),),
        model="gpt-4o-2024-08-06",
        message=[CALL],
        finish_reason="completed",
        problems=(),
        sent_names=("get_capital",),
        cut_off=None,
    )


def test_a_text_answer_with_reasoning_and_refusal_parts() -> None:
    output = [
        {"type": "reasoning", "id": "rs_1", "summary": []},
        {
            "type": "message",
            "role": "assistant",
            "content": [
                {"type": "output_text", "text": "Hello", "annotations": []},
                {"type": "refusal", "refusal": "no"},
                "stray",
                {"type": "output_text", "text": ", world"},
            ],
        },
        {"type": "message", "content": None},
        {"type": "message", "content": [{"type": "output_text", "text": "!"}]},
        7,
        {"type": "function_call", "call_id": 3, "name": "", "arguments": "{}"},
    ]
    answer = parse_answer({"output": output, "status": 5, "model": 1})
    assert answer.content == "Hello, world!"
    assert answer.tool_calls == (ToolCall(None, "", "{}"),)
    assert answer.sent_names == ('""',)
    assert answer.problems == ("output[4] is not an object",)
    assert answer.finish_reason is None and answer.model is None and answer.cut_off is None


def test_no_text_is_none() -> None:
    answer = parse_answer({"output": [{"type": "message", "content": []}], "status": "completed"})
    assert answer.content is None and answer.tool_calls == () and answer.sent_names == ()


@pytest.mark.parametrize(
    ("details", "cut_off"),
    [
        ({"reason": "max_output_tokens"}, "status is incomplete (max_output_tokens)"),
        (None, "status is incomplete (None)"),
        ("x", "status is incomplete (None)"),
    ],
    ids=["max-output-tokens", "no-details", "details-text"],
)
def test_an_incomplete_answer_is_cut_off(details: Any, cut_off: str) -> None:
    answer = parse_answer({"output": [], "status": "incomplete", "incomplete_details": details})
    assert answer.cut_off == cut_off and answer.finish_reason == "incomplete"


@pytest.mark.parametrize(
    ("body", "problem"),
    [
        ([], "malformed response: the body is not a JSON object"),
        ({"output": None}, "malformed response: no output list"),
        ({}, "malformed response: no output list"),
    ],
    ids=["list", "null-output", "no-output"],
)
def test_a_body_with_no_output_is_malformed(body: Any, problem: str) -> None:
    with pytest.raises(MalformedResponse) as raised:
        parse_answer(body)
    assert str(raised.value) == problem


@pytest.mark.parametrize(
    ("body", "expected"),
    [
        (
            {"error": {"code": "server_error", "message": "boom"}, "status": "failed"},
            BodyError(None, "server_error", "boom", False),
        ),
        (
            {"status": "failed", "error": None, "output": []},
            BodyError(None, None, 'status "failed" and no error object'),
        ),
        ({"status": "completed", "error": None, "output": []}, None),
        # a Chat body's choice error is not the Responses' to read
        ({"choices": [{"finish_reason": "error"}], "status": "completed"}, None),
        (
            {"choices": [], "error": {"code": 502}, "status": "failed"},
            BodyError(None, None, 'status "failed" and no error object'),
        ),
        ("failed", None),
    ],
    ids=["error-object", "failed", "completed", "chat-shape", "chat-shape-failed", "text"],
)
def test_the_error_of_a_responses_body(body: Any, expected: BodyError | None) -> None:
    assert body_error(body) == expected


def test_the_follow_up_echoes_every_item_with_the_ids_given() -> None:
    reasoning = {"type": "reasoning", "id": "rs_1", "summary": [], "encrypted_content": "e"}
    second = {**CALL, "call_id": "keep", "name": "g"}
    output = [reasoning, CALL, "stray", second]
    answer = ModelResponse(
        None, (ToolCall("x", "get_capital", "{}"), ToolCall("keep", "g", "{}")), "m", output
    )
    out = follow_up(answer, ["call_new", "keep"], ["r1", "r2"])
    assert out == [
        reasoning,
        {**CALL, "call_id": "call_new"},
        second,
        {"type": "function_call_output", "call_id": "call_new", "output": "r1"},
        {"type": "function_call_output", "call_id": "keep", "output": "r2"},
    ]
    assert CALL["call_id"] == "call_YfwRsW8sUxDKipwyhWTzOXCA"  # the answer is not edited
    with pytest.raises(ValueError):
        follow_up(answer, ["a"], ["r1"])
    with pytest.raises(ValueError):
        follow_up(answer, ["a", "b"], ["r1"])


def test_the_path() -> None:
    assert PATH == "/responses"


def test_no_opening_messages_is_no_input_item() -> None:
    assert input_items([]) == []


def test_only_output_text_parts_are_the_answer() -> None:
    message = {
        "type": "message",
        "content": [
            {"type": "output_text", "text": "A"},
            {"type": "reasoning_text", "text": "hidden"},
            {"type": "output_text", "text": "B"},
        ],
    }
    assert parse_answer({"output": [message]}).content == "AB"
    empty = {"type": "message", "content": [{"type": "output_text", "text": ""}]}
    assert parse_answer({"output": [empty]}).content is None


def test_ids_and_calls_must_pair_one_to_one() -> None:
    reasoning = {"type": "reasoning", "id": "rs_1", "summary": []}
    no_call = ModelResponse(None, (), "m", [reasoning])
    with pytest.raises(ValueError):
        follow_up(no_call, ["a"], ["r"])
    one_call = ModelResponse(None, (ToolCall("x", "get_capital", "{}"),), "m", [CALL])
    with pytest.raises(ValueError):
        follow_up(one_call, [], [])
