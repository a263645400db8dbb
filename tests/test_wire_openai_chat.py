"""The Chat Completions dialect (``scorer.wire.openai_chat``): the request body byte for byte
(committed cassettes replay only if it never changes), each ``--param`` setting in OpenAI's words
(Chat and Responses), the echo a chain sends back, the key's header and the error text."""

from __future__ import annotations

import json
from typing import Any

import pytest

from scorer.wire.openai_chat import (
    COST_HEADER,
    DROPPED_HEADER,
    PATH,
    ROUTING_HEADERS,
    auth_headers,
    echoed_calls,
    error_text,
    follow_up,
    request_body,
    tool_result,
    with_settings,
)
from scorer.wire.response import ModelResponse, ToolCall
from scorer.wire.settings import Wire, parse_params

TOOL = {"type": "function", "function": {"name": "f", "parameters": {"type": "object"}}}


def _wire(*params: str, stream: bool = False) -> Wire:
    return Wire("chat", stream, parse_params(list(params)))


def test_the_default_request_bytes_are_the_methods() -> None:
    echoed = [{"role": "tool", "tool_call_id": "c", "content": "ok"}]
    body = request_body("m/x", "S", [{"role": "user", "content": "hi"}], [TOOL], echoed)
    assert json.dumps(body) == (
        '{"model": "m/x", "messages": [{"role": "system", "content": "S"}, '
        '{"role": "user", "content": "hi"}, {"role": "tool", "tool_call_id": "c", '
        '"content": "ok"}], "tools": [{"type": "function", "function": {"name": "f", '
        '"parameters": {"type": "object"}}}], "temperature": 0}'
    )


def test_every_chat_setting_in_its_place_and_order() -> None:
    wire = _wire(
        "tool_choice=f",
        "parallel_tool_calls=true",
        "max_tokens=64",
        "reasoning_effort=low",
        "body.seed=1",
        stream=True,
    )
    body = request_body("m", "S", [], [], None, wire)
    assert list(body) == [
        "model",
        "messages",
        "tools",
        "temperature",
        "tool_choice",
        "parallel_tool_calls",
        "max_tokens",
        "reasoning_effort",
        "stream",
        "stream_options",
        "seed",
    ]
    assert body["messages"] == [{"role": "system", "content": "S"}]
    assert body["tool_choice"] == {"type": "function", "function": {"name": "f"}}
    assert body["parallel_tool_calls"] is True and body["max_tokens"] == 64
    assert body["reasoning_effort"] == "low" and body["seed"] == 1
    assert body["stream"] is True and body["stream_options"] == {"include_usage": True}


@pytest.mark.parametrize("choice", ["auto", "required", "none"])
def test_a_keyword_tool_choice_is_sent_as_the_word(choice: str) -> None:
    assert with_settings({}, _wire(f"tool_choice={choice}"), "max_tokens") == {
        "tool_choice": choice
    }
    assert with_settings({}, _wire(f"tool_choice={choice}"), "max_output_tokens") == {
        "tool_choice": choice
    }


def test_the_responses_words_for_the_same_settings() -> None:
    wire = _wire(
        "tool_choice=f", "parallel_tool_calls=false", "max_tokens=9", "reasoning_effort=high"
    )
    assert with_settings({}, wire, "max_output_tokens") == {
        "tool_choice": {"type": "function", "name": "f"},
        "parallel_tool_calls": False,
        "max_output_tokens": 9,
        "reasoning": {"effort": "high"},
    }
    streamed = with_settings({}, _wire(stream=True), "max_output_tokens")
    assert streamed == {"stream": True}


def test_the_default_wire_adds_nothing() -> None:
    assert with_settings({"a": 1}, Wire(), "max_tokens") == {"a": 1}


def _answer(message: dict[str, Any], calls: tuple[ToolCall, ...], legacy: bool) -> ModelResponse:
    return ModelResponse(None, calls, "m", message, legacy=legacy)


def test_the_follow_up_echoes_the_message_with_the_ids_given() -> None:
    message = {
        "content": "",
        "reasoning_content": "think",
        "tool_calls": [
            {"id": "", "type": "function", "function": {"name": "f", "arguments": "{}"},
             "extra_content": {"google": {"thought_signature": "sig"}}},
            {"id": "keep", "type": "function", "function": {"name": "g", "arguments": "{}"}},
        ],
    }  # fmt: skip
    before = json.dumps(message)
    calls = (ToolCall("", "f", "{}"), ToolCall("keep", "g", "{}"))
    out = follow_up(_answer(message, calls, False), ["call_0", "keep"], ["r0", "r1"])
    assert out == [
        {
            "content": "",
            "reasoning_content": "think",
            "tool_calls": [
                {"id": "call_0", "type": "function", "function": {"name": "f", "arguments": "{}"},
                 "extra_content": {"google": {"thought_signature": "sig"}}},
                {"id": "keep", "type": "function", "function": {"name": "g", "arguments": "{}"}},
            ],
            "role": "assistant",
        },
        {"role": "tool", "tool_call_id": "call_0", "content": "r0"},
        {"role": "tool", "tool_call_id": "keep", "content": "r1"},
    ]  # fmt: skip
    assert json.dumps(message) == before  # the recorded answer is never edited


def test_the_follow_up_keeps_the_role_sent() -> None:
    message = {"role": "model", "tool_calls": [{"id": "a", "function": {"name": "f"}}]}
    out = follow_up(_answer(message, (ToolCall("a", "f", None),), False), ["a"], ["r"])
    assert out[0]["role"] == "model"


def test_a_legacy_follow_up_answers_with_a_function_message() -> None:
    message = {"role": "assistant", "function_call": {"name": "f", "arguments": "{}"}}
    out = follow_up(_answer(message, (ToolCall(None, "f", "{}"),), True), ["call_1"], ["r"])
    assert out == [message, {"role": "function", "name": "f", "content": "r"}]


def test_more_ids_than_calls_is_refused() -> None:
    message = {"tool_calls": [{"id": "a", "function": {"name": "f"}}]}
    with pytest.raises(ValueError):
        follow_up(_answer(message, (ToolCall("a", "f", None),), False), ["a", "b"], ["r"])
    with pytest.raises(ValueError):
        follow_up(_answer(message, (ToolCall("a", "f", None),), False), ["a"], ["r", "s"])


def test_echoed_calls() -> None:
    assert echoed_calls({"tool_calls": [{"id": "a"}]}) == [{"id": "a"}]
    assert echoed_calls({"tool_calls": None}) == [] and echoed_calls({}) == []


def test_the_key_and_the_error_text() -> None:
    assert auth_headers("sk-1") == {"Authorization": "Bearer sk-1"}
    assert error_text({"error": {"message": "Invalid 'temperature'", "code": None}}) == (
        "Invalid 'temperature'"
    )
    assert error_text({"error": {"message": 5}}) == "5"
    assert error_text({"error": {"message": ""}}) is None
    assert error_text({"error": "bad"}) is None
    assert error_text({"message": "x"}) is None
    assert error_text(["error"]) is None


def test_a_tool_result_in_each_form() -> None:
    assert tool_result("c", "f", "ok", False) == {
        "role": "tool",
        "tool_call_id": "c",
        "content": "ok",
    }
    assert tool_result("c", "f", "ok", True) == {"role": "function", "name": "f", "content": "ok"}


def test_the_chat_constants() -> None:
    assert (PATH, COST_HEADER, DROPPED_HEADER) == (
        "/chat/completions",
        "x-lobstack-cost-usd",
        "x-lobstack-dropped-params",
    )
    assert ROUTING_HEADERS == (
        "x-lobstack-model",
        "x-lobstack-provider",
        "x-litellm-model-id",
        "x-litellm-model-api-base",
        "x-litellm-model-group",
        "llm_provider-x-lobstack-model",
        "llm_provider-x-lobstack-provider",
    )


def test_an_echo_whose_message_holds_more_calls_than_ids_is_refused() -> None:
    """The ids pair with the message's own calls, not only with the parsed ones."""
    message = {"tool_calls": [{"id": "a", "function": {"name": "f"}}, {"id": "b"}]}
    answer = _answer(message, (ToolCall("a", "f", None),), False)
    with pytest.raises(ValueError):
        follow_up(answer, ["a"], ["r"])


def test_ids_and_calls_must_pair_one_to_one() -> None:
    no_call = _answer({"content": "hi"}, (), False)
    with pytest.raises(ValueError):
        follow_up(no_call, ["a"], ["r"])
    message = {"tool_calls": [{"id": "a", "function": {"name": "f"}}]}
    with pytest.raises(ValueError):
        follow_up(_answer(message, (ToolCall("a", "f", None),), False), [], [])


def test_a_call_in_the_message_needs_its_id_even_when_none_was_parsed() -> None:
    message = {"tool_calls": [{"id": "a", "function": {"name": "f"}}]}
    with pytest.raises(ValueError):
        follow_up(_answer(message, (), False), [], [])
