"""The Messages dialect (``scorer.wire.anthropic_messages``): the suite as alternating turns with a
top-level ``system``, settings in Anthropic's words, answers read from ``text`` and ``tool_use``
blocks (Claude's own bodies, tests/fixtures/dialect_bodies/messages_*), errors and the echo."""

from __future__ import annotations

from typing import Any

import pytest

from scorer.wire.anthropic_messages import (
    DEFAULT_MAX_TOKENS,
    FIXED_HEADERS,
    PATH,
    auth_headers,
    body_error,
    error_text,
    follow_up,
    opening,
    parse_answer,
    request_body,
    tools_json,
)
from scorer.wire.response import BodyError, MalformedResponse, ModelResponse, ToolCall
from scorer.wire.settings import Wire, parse_params

USE = {
    "id": "toolu_01LZABsgreMefH2Go8D5PQbW",
    "input": {"city": "Mexico City", "country": "Mexico"},
    "name": "final_result",
    "type": "tool_use",
}
OBJ = {"type": "object", "properties": {"a": {"type": "string"}}}


def _wire(*params: str, stream: bool = False) -> Wire:
    return Wire("messages", stream, parse_params(list(params)))


def test_tools_take_an_input_schema() -> None:
    tools = [
        {"type": "function", "function": {"name": "f", "description": "F.", "parameters": OBJ}},
        {"type": "function", "function": {"name": "g", "parameters": OBJ}},
    ]
    assert tools_json(tools) == [
        {"name": "f", "description": "F.", "input_schema": OBJ},
        {"name": "g", "input_schema": OBJ},
    ]


def test_the_opening_alternates_turns_and_lifts_system_texts() -> None:
    messages = [
        {"role": "system", "content": "Extra."},
        {"role": "developer", "content": "Dev."},
        {"role": "user", "content": "a"},
        {"role": "user", "content": "b"},
        {"role": "assistant", "content": "Looking.", "tool_calls": [
            {"id": "c1", "type": "function", "function": {"name": "f", "arguments": '{"x":1}'}},
            {"id": "c2", "type": "function", "function": {"name": "g", "arguments": "not json"}},
        ]},
        {"role": "tool", "tool_call_id": "c1", "content": "r1"},
        {"role": "tool", "tool_call_id": "c2", "content": "r2"},
        {"role": "user", "content": "next"},
        {"role": "assistant", "content": None, "tool_calls": [
            {"id": "c3", "type": "function", "function": {"name": "f", "arguments": "{}"}},
        ]},
    ]  # fmt: skip
    system, turns = opening(messages)
    assert system == ["Extra.", "Dev."]
    assert turns == [
        {"role": "user", "content": [{"type": "text", "text": "a"}, {"type": "text", "text": "b"}]},
        {"role": "assistant", "content": [
            {"type": "text", "text": "Looking."},
            {"type": "tool_use", "id": "c1", "name": "f", "input": {"x": 1}},
            {"type": "tool_use", "id": "c2", "name": "g", "input": {}},
        ]},
        {"role": "user", "content": [
            {"type": "tool_result", "tool_use_id": "c1", "content": "r1"},
            {"type": "tool_result", "tool_use_id": "c2", "content": "r2"},
            {"type": "text", "text": "next"},
        ]},
        {"role": "assistant", "content": [
            {"type": "tool_use", "id": "c3", "name": "f", "input": {}},
        ]},
    ]  # fmt: skip


def test_a_lone_text_turn_is_a_plain_string() -> None:
    assert opening([{"role": "user", "content": "hi"}]) == (
        [],
        [{"role": "user", "content": "hi"}],
    )


def test_the_request_body_in_order_with_system_texts_joined() -> None:
    echoed = [{"role": "user", "content": [{"type": "tool_result", "tool_use_id": "t"}]}]
    messages = [{"role": "system", "content": "More."}, {"role": "user", "content": "hi"}]
    body = request_body("claude", "S", messages, [], echoed, Wire())
    assert body == {
        "model": "claude",
        "max_tokens": 4096,
        "system": "S\n\nMore.",
        "messages": [{"role": "user", "content": "hi"}, *echoed],
        "tools": [],
        "temperature": 0,
    }
    assert list(body) == ["model", "max_tokens", "system", "messages", "tools", "temperature"]
    assert DEFAULT_MAX_TOKENS == 4096
    assert request_body("c", "S", [], [])["max_tokens"] == 4096


@pytest.mark.parametrize(
    ("params", "choice"),
    [
        (["tool_choice=auto"], {"type": "auto"}),
        (["tool_choice=required"], {"type": "any"}),
        (["tool_choice=none"], {"type": "none"}),
        (["tool_choice=get_weather"], {"type": "tool", "name": "get_weather"}),
        (["parallel_tool_calls=false"], {"type": "auto", "disable_parallel_tool_use": True}),
        (["parallel_tool_calls=true"], {"type": "auto"}),
        (
            ["tool_choice=f", "parallel_tool_calls=false"],
            {"type": "tool", "name": "f", "disable_parallel_tool_use": True},
        ),
        (["tool_choice=required", "parallel_tool_calls=true"], {"type": "any"}),
    ],
    ids=["auto", "any", "none", "named", "serial", "parallel", "named-serial", "any-parallel"],
)
def test_the_tool_choice_in_anthropics_words(params: list[str], choice: dict[str, Any]) -> None:
    assert request_body("c", "S", [], [], None, _wire(*params)).get("tool_choice") == choice


def test_other_settings() -> None:
    body = request_body(
        "c", "S", [], [], None, _wire("max_tokens=64", "reasoning_effort=medium", stream=True)
    )
    assert body["max_tokens"] == 64 and body.get("output_config") == {"effort": "medium"}
    assert body.get("stream") is True and "tool_choice" not in body
    minimal = request_body("c", "S", [], [], None, _wire("reasoning_effort=minimal"))
    assert minimal.get("output_config") == {"effort": "low"} and "stream" not in minimal
    dropped = request_body("c", "S", [], [], None, _wire("body.temperature=null", "body.top_k=5"))
    assert "temperature" not in dropped and dropped["top_k"] == 5


def test_headers_and_path() -> None:
    assert auth_headers("sk-ant") == {"x-api-key": "sk-ant"}
    assert FIXED_HEADERS == {"anthropic-version": "2023-06-01"}
    assert PATH == "/messages"


@pytest.mark.parametrize(
    ("body", "expected"),
    [
        (
            {"type": "error", "error": {"type": "overloaded_error", "message": "Overloaded"}},
            BodyError(529, None, "Overloaded", transient=True),
        ),
        (
            {"type": "error", "error": {"type": "rate_limit_error", "message": "slow"}},
            BodyError(429, None, "slow", transient=True),
        ),
        (
            {"type": "error", "error": {"type": "api_error", "message": "Internal"}},
            BodyError(500, None, "Internal", transient=False),
        ),
        (
            {"type": "error", "error": {"type": "not_found_error", "message": "model: x"}},
            BodyError(404, None, "model: x", transient=False),
        ),
        (
            {"type": "error", "error": {"type": "invalid_request_error", "message": "m"}},
            BodyError(400, None, "m", transient=False),
        ),
        (
            {"type": "error", "error": {"type": "authentication_error"}},
            BodyError(401, None, "", transient=False),
        ),
        (
            {"type": "error", "error": {"type": "permission_error", "message": 5}},
            BodyError(403, None, "5", transient=False),
        ),
        (
            {"type": "error", "error": {"type": "request_too_large", "message": "big"}},
            BodyError(413, None, "big", transient=False),
        ),
        (
            {"type": "error", "error": {"type": "billing_error", "message": "pay"}},
            BodyError(None, "billing_error", "pay", transient=False),
        ),
        (
            {"type": "error", "error": {"type": "api_error", "message": "x" * 201}},
            BodyError(500, None, "x" * 200, transient=False),
        ),
        (
            {"type": "error", "error": "boom"},
            BodyError(None, None, "an error event with no error object"),
        ),
        (
            {"type": "error", "error": {"message": "no type"}},
            BodyError(None, None, "no type", transient=None),
        ),
        (  # a hostile gateway's type: named as sent, never a crash
            {"type": "error", "error": {"type": ["overloaded_error"], "message": "m"}},
            BodyError(None, "['overloaded_error']", "m", transient=None),
        ),
        ({"type": "error", "error": {"type": 529}}, BodyError(None, "529", "", transient=None)),
        ({"type": "error"}, BodyError(None, None, "an error event with no error object")),
        ({"type": "message", "error": {"type": "api_error"}}, None),
        (["error"], None),
    ],
    ids=[
        "overloaded",
        "rate-limit",
        "api-error",
        "not-found",
        "invalid",
        "auth-no-message",
        "permission-number",
        "too-large",
        "unknown-type",
        "long-message",
        "error-text",
        "no-type",
        "type-a-list",
        "type-a-number",
        "no-error",
        "a-message",
        "a-list",
    ],
)
def test_the_error_of_a_messages_body(body: Any, expected: BodyError | None) -> None:
    assert body_error(body) == expected


def test_an_overloaded_error_is_transport_and_an_api_error_is_not() -> None:
    overloaded = body_error({"type": "error", "error": {"type": "overloaded_error"}})
    assert overloaded is not None and overloaded.transport is True
    assert overloaded.describe() == "error 529 in a 200 answer"


def test_the_error_text() -> None:
    assert error_text({"type": "error", "error": {"message": "model: x"}}) == "model: x"
    assert error_text({"error": {"message": 3}}) == "3"
    assert error_text({"error": {"message": ""}}) is None
    assert error_text({"error": "x"}) is None and error_text("x") is None


def test_a_whole_call_answer() -> None:
    body = {
        "content": [USE],
        "model": "claude-sonnet-4-5-20250929",
        "role": "assistant",
        "stop_reason": "tool_use",
        "type": "message",
    }
    assert parse_answer(body) == ModelResponse(
        content=None,
        tool_calls=(ToolCall(USE["id"], "final_result", USE["input"]),),
        model="claude-sonnet-4-5-20250929",
        message=[USE],
        finish_reason="tool_use",
        problems=(),
        sent_names=("final_result",),
        cut_off=None,
    )


def test_text_thinking_and_odd_blocks() -> None:
    content = [
        {"type": "thinking", "thinking": "hmm", "signature": "sig"},
        {"type": "text", "text": "Hel"},
        {"type": "text", "text": 5},
        "stray",
        {"type": "text", "text": "lo"},
        {"type": "tool_use", "id": 3, "name": 4, "input": {}},
    ]
    answer = parse_answer({"content": content, "stop_reason": "max_tokens", "model": None})
    assert answer.content == "Hello" and answer.model is None
    assert answer.tool_calls == (ToolCall(None, "", {}),) and answer.sent_names == ("4",)
    assert answer.problems == ("content[3] is not an object",)
    assert answer.finish_reason == "max_tokens" and answer.cut_off == "stop_reason is max_tokens"
    empty = parse_answer({"content": [], "stop_reason": 1})
    assert empty.content is None and empty.finish_reason is None and empty.cut_off is None


@pytest.mark.parametrize(
    ("body", "problem"),
    [
        ("x", "malformed response: the body is not a JSON object"),
        ({"content": "hi"}, "malformed response: no content list"),
    ],
    ids=["text", "content-text"],
)
def test_a_body_with_no_content_is_malformed(body: Any, problem: str) -> None:
    with pytest.raises(MalformedResponse) as raised:
        parse_answer(body)
    assert str(raised.value) == problem


def test_the_follow_up_keeps_thinking_and_sets_the_ids() -> None:
    thinking = {"type": "thinking", "thinking": "hmm", "signature": "sig"}
    second = {**USE, "id": "keep"}
    answer = ModelResponse(None, (ToolCall("", "final_result", {}), ToolCall("keep", "f", {})), "m",
                           [thinking, USE, "stray", second])  # fmt: skip
    assert follow_up(answer, ["toolu_new", "keep"], ["r1", "r2"]) == [
        {"role": "assistant", "content": [thinking, {**USE, "id": "toolu_new"}, second]},
        {"role": "user", "content": [
            {"type": "tool_result", "tool_use_id": "toolu_new", "content": "r1"},
            {"type": "tool_result", "tool_use_id": "keep", "content": "r2"},
        ]},
    ]  # fmt: skip
    assert USE["id"] == "toolu_01LZABsgreMefH2Go8D5PQbW"  # the answer is not edited
    with pytest.raises(ValueError):
        follow_up(answer, ["a"], ["r1"])
    with pytest.raises(ValueError):
        follow_up(answer, ["a", "b"], ["r1"])


def test_ids_and_calls_must_pair_one_to_one() -> None:
    no_call = ModelResponse("hi", (), "m", [{"type": "text", "text": "hi"}])
    with pytest.raises(ValueError):
        follow_up(no_call, ["a"], ["r"])
    one_call = ModelResponse(None, (ToolCall(USE["id"], "final_result", {}),), "m", [USE])
    with pytest.raises(ValueError):
        follow_up(one_call, [], [])


def test_an_opening_where_no_turn_is_a_lone_block() -> None:
    messages = [
        {"role": "user", "content": "go"},
        {"role": "assistant", "content": "Looking.", "tool_calls": [
            {"id": "c1", "type": "function", "function": {"name": "f", "arguments": '{"a":1}'}},
        ]},
        {"role": "tool", "tool_call_id": "c1", "content": "done"},
        {"role": "user", "content": "more"},
    ]  # fmt: skip
    assert opening(messages) == (
        [],
        [
            {"role": "user", "content": "go"},
            {"role": "assistant", "content": [
                {"type": "text", "text": "Looking."},
                {"type": "tool_use", "id": "c1", "name": "f", "input": {"a": 1}},
            ]},
            {"role": "user", "content": [
                {"type": "tool_result", "tool_use_id": "c1", "content": "done"},
                {"type": "text", "text": "more"},
            ]},
        ],
    )  # fmt: skip


def test_only_text_blocks_are_the_answer_and_a_model_is_a_string() -> None:
    content = [{"type": "text", "text": "A"}, {"type": "document", "text": "hidden"}]
    answer = parse_answer({"content": content, "model": 5})
    assert answer.content == "A" and answer.model is None
