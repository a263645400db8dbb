"""An OpenAI-style chat-completion body read into the neutral answer (``scorer.wire.response``):
each shape real providers send (/work/shared/notes/provider-shapes.md: OpenAI, Gemini's empty ids,
Mistral's content parts, Snowflake's empty legacy ``function_call``, OpenRouter's errors in a 200,
error envelopes whose ``code`` is null or a string), with every expected value written by hand."""

from __future__ import annotations

from typing import Any

import pytest

from scorer.wire.response import (
    BodyError,
    MalformedResponse,
    ToolCall,
    body_error,
    content_text,
    parse_completion,
    read_call,
    readable_name,
)


def _answer(message: dict[str, Any], **choice: Any) -> dict[str, Any]:
    return {"model": "openai/gpt-4o", "choices": [{"index": 0, "message": message, **choice}]}


# --- errors inside a 2xx body ---------------------------------------------------------------


@pytest.mark.parametrize(
    ("body", "expected"),
    [
        (  # OpenRouter's documented error mid-generation
            {"error": {"code": 502, "message": "Network connection lost."}},
            BodyError(502, None, "Network connection lost.", False),
        ),
        (  # OpenRouter's upstream failure in the first choice
            {"choices": [{"finish_reason": "error", "error": {"code": 502, "message": "busy"}}]},
            BodyError(502, None, "busy", True),
        ),
        (
            {"choices": [{"message": {}, "finish_reason": "error"}]},
            BodyError(None, None, 'finish_reason "error" and no error object', True),
        ),
        (  # an error envelope whose code is a string (model_not_found)
            {"error": {"code": "model_not_found", "message": "no such model"}},
            BodyError(None, "model_not_found", "no such model", False),
        ),
        (  # code null, no message
            {"error": {"code": None}},
            BodyError(None, None, "", False),
        ),
        ({"error": "upstream   timed\nout"}, BodyError(None, None, "upstream timed out", False)),
        ({"choices": [{"error": 7}]}, BodyError(None, None, "7", True)),
        ({"error": {"code": "0503", "message": "m"}}, BodyError(503, None, "m", False)),
        ({"error": {"code": "503"}}, BodyError(503, None, "", False)),
        ({"error": {"code": 600, "message": "m"}}, BodyError(None, "600", "m", False)),
        ({"error": {"code": 99}}, BodyError(None, "99", "", False)),
        ({"error": {"code": 100}}, BodyError(100, None, "", False)),
        ({"error": {"code": 599}}, BodyError(599, None, "", False)),
        ({"error": {"code": "1000"}}, BodyError(None, "1000", "", False)),
        ({"error": {"code": "099"}}, BodyError(None, "099", "", False)),
        ({"error": {"code": "600"}}, BodyError(None, "600", "", False)),
        ({"error": {"code": "100"}}, BodyError(100, None, "", False)),
        ({"error": {"code": "599"}}, BodyError(599, None, "", False)),
        ({"error": {"code": True}}, BodyError(None, "True", "", False)),
        (
            {"error": {"code": "\u0665\u0660\u0662"}},
            BodyError(None, "\u0665\u0660\u0662", "", False),
        ),
        ({"error": {"code": "50x"}}, BodyError(None, "50x", "", False)),
        ({"error": {"code": 502.0}}, BodyError(None, "502.0", "", False)),
    ],
    ids=[
        "openrouter-top-level",
        "openrouter-in-choice",
        "finish-reason-error",
        "string-code",
        "null-code",
        "error-a-string",
        "choice-error-a-number",
        "leading-zero",
        "string-503",
        "600-int",
        "99-int",
        "100-int",
        "599-int",
        "four-digits",
        "099",
        "600-text",
        "100-text",
        "599-text",
        "bool-code",
        "arabic-digits",
        "digits-and-letter",
        "float-code",
    ],
)
def test_body_error_reads_the_error_object(body: Any, expected: BodyError) -> None:
    assert body_error(body) == expected


@pytest.mark.parametrize(
    "body",
    [
        [{"error": {"code": 502}}],
        {"error": None, "choices": [{"message": {"content": "hi"}, "finish_reason": "stop"}]},
        {"choices": []},
        {"choices": "x"},
        {"choices": ["x"]},
        {"choices": [{"error": None, "finish_reason": "stop"}]},
        {},
    ],
    ids=[
        "a-list",
        "null-error",
        "no-choice",
        "choices-text",
        "choice-text",
        "null-in-choice",
        "empty",
    ],
)
def test_a_body_without_an_error_object_has_none(body: Any) -> None:
    assert body_error(body) is None


def test_long_texts_are_cut_to_200_and_codes_to_60_characters() -> None:
    exact = body_error({"error": {"message": "a" * 200, "code": "c" * 60}})
    assert exact == BodyError(None, "c" * 60, "a" * 200, False)
    cut = body_error({"error": {"message": "a" * 201, "code": "c" * 61}})
    assert cut == BodyError(None, "c" * 59 + "\u2026", "a" * 199 + "\u2026", False)


def test_an_error_nested_past_repr_is_said_not_raised() -> None:
    deep: list[Any] = []
    for _ in range(100_000):
        deep = [deep]
    assert body_error({"error": deep}) == BodyError(
        None, None, "a list nested too deeply to show", False
    )


@pytest.mark.parametrize(
    ("error", "transport", "outcome", "text"),
    [
        (
            BodyError(429, None, "slow down"),
            True,
            "in_body_429",
            "error 429 in a 200 answer: slow down",
        ),
        (BodyError(502, None, "", True), True, "in_body_502", "error 502 in a 200 answer's choice"),
        (BodyError(503, None, "m"), True, "in_body_503", "error 503 in a 200 answer: m"),
        (BodyError(504, None, "m"), True, "in_body_504", "error 504 in a 200 answer: m"),
        (BodyError(500, None, "m"), False, "in_body_500", "error 500 in a 200 answer: m"),
        (
            BodyError(400, None, "m", transient=True),
            True,
            "in_body_400",
            "error 400 in a 200 answer: m",
        ),
        (
            BodyError(503, None, "m", transient=False),
            False,
            "in_body_503",
            "error 503 in a 200 answer: m",
        ),
        (
            BodyError(None, "model_not_found", "gone"),
            False,
            "in_body_error",
            "error model_not_found in a 200 answer: gone",
        ),
        (BodyError(None, None, ""), False, "in_body_error", "an error in a 200 answer"),
    ],
    ids=["429", "502-in-choice", "503", "504", "500", "transient", "not-transient", "text", "bare"],
)
def test_an_error_says_its_outcome_and_whether_it_is_transport(
    error: BodyError, transport: bool, outcome: str, text: str
) -> None:
    assert error.transport is transport
    assert error.outcome == outcome
    assert error.describe() == text


def test_a_body_error_defaults_to_top_level_and_the_status_rule() -> None:
    error = BodyError(502, None, "m")
    assert error.in_choice is False and error.transient is None


# --- the answer -------------------------------------------------------------------------------


def test_an_openai_parallel_call_answer() -> None:
    message = {
        "role": "assistant",
        "content": None,
        "refusal": None,
        "annotations": [],
        "tool_calls": [
            {"id": "call_a", "type": "function", "function": {"name": "f", "arguments": "{}"}},
            {"id": "call_b", "type": "function", "function": {"name": "g", "arguments": '{"x":1}'}},
        ],
    }
    answer = parse_completion(_answer(message, finish_reason="tool_calls"))
    assert answer.tool_calls == (ToolCall("call_a", "f", "{}"), ToolCall("call_b", "g", '{"x":1}'))
    assert answer.content is None and answer.model == "openai/gpt-4o"
    assert answer.message is message and answer.finish_reason == "tool_calls"
    assert answer.problems == () and answer.legacy is False
    assert answer.sent_names == ("f", "g") and answer.cut_off is None and answer.anomalies == ()


def test_gemini_empty_ids_and_extra_content_are_read_as_sent() -> None:
    call = {
        "id": "",
        "type": "function",
        "function": {"name": "f", "arguments": "{}"},
        "extra_content": {"google": {"thought_signature": "sig"}},
    }
    answer = parse_completion(_answer({"role": "assistant", "tool_calls": [call]}))
    assert answer.tool_calls == (ToolCall("", "f", "{}"),)
    assert answer.finish_reason is None and answer.content is None


def test_snowflake_empty_legacy_function_call_beside_calls() -> None:
    message = {
        "role": "assistant",
        "content": "",
        "function_call": {},
        "tool_calls": [{"id": "t1", "function": {"name": "f", "arguments": "{}"}, "x": 1}],
    }
    answer = parse_completion(_answer(message, finish_reason=""))
    assert answer.tool_calls == (ToolCall("t1", "f", "{}"),)
    assert answer.legacy is False and answer.finish_reason == "" and answer.content == ""


def test_an_empty_legacy_function_call_alone_is_no_call() -> None:
    answer = parse_completion(_answer({"content": "hi", "function_call": {}}))
    assert answer.tool_calls == () and answer.legacy is False and answer.sent_names == ()
    assert answer.content == "hi"


def test_a_legacy_function_call_is_one_call_without_id() -> None:
    message = {"role": "assistant", "function_call": {"name": "f", "arguments": '{"a":1}'}}
    answer = parse_completion(_answer(message, finish_reason="function_call"))
    assert answer.tool_calls == (ToolCall(None, "f", '{"a":1}'),)
    assert answer.legacy is True and answer.problems == () and answer.sent_names == ("f",)


def test_a_legacy_call_without_a_string_name() -> None:
    answer = parse_completion(_answer({"function_call": {"name": 3, "arguments": "{}"}}))
    assert answer.tool_calls == (ToolCall(None, "", "{}"),)
    assert answer.legacy is True and answer.sent_names == ("3",)


def test_a_legacy_call_that_is_not_an_object() -> None:
    answer = parse_completion(_answer({"function_call": "f"}))
    assert answer.tool_calls == (ToolCall(None, "", None),)
    assert answer.problems == ("function_call is a string, not an object",)
    assert answer.legacy is True and answer.sent_names == ("(no name)",)


def test_hugging_face_empty_tool_calls_is_a_text_answer() -> None:
    answer = parse_completion(_answer({"content": "<think>x</think>hi", "tool_calls": []}))
    assert answer.tool_calls == () and answer.content == "<think>x</think>hi"
    assert answer.legacy is False and answer.problems == ()


def test_tool_calls_that_are_not_a_list() -> None:
    answer = parse_completion(_answer({"tool_calls": {"id": "x"}}))
    assert answer.tool_calls == (ToolCall(None, "", None),)
    assert answer.problems == ("tool_calls is an object, not a list",)
    assert answer.legacy is False and answer.sent_names == ("(no name)",)


@pytest.mark.parametrize(
    ("entry", "problem", "sent"),
    [
        ("f", "tool_calls[1] is a string, not an object", "(no name)"),
        (["f"], "tool_calls[1] is a list, not an object", "(no name)"),
        (True, "tool_calls[1] is a boolean, not an object", "(no name)"),
        (None, "tool_calls[1] is null, not an object", "(no name)"),
        (1.5, "tool_calls[1] is a number, not an object", "(no name)"),
        (2, "tool_calls[1] is a number, not an object", "(no name)"),
        (
            {"id": "c", "function": "f"},
            "tool_calls[1].function is a string, not an object",
            "(no name)",
        ),
        (
            {"id": "c", "function": [1]},
            "tool_calls[1].function is a list, not an object",
            "(no name)",
        ),
    ],
    ids=["text", "list", "bool", "null", "float", "int", "function-text", "function-list"],
)
def test_a_call_entry_that_cannot_be_read_is_a_problem_and_a_nameless_call(
    entry: Any, problem: str, sent: str
) -> None:
    good = {"id": "a", "function": {"name": "f", "arguments": "{}"}}
    answer = parse_completion(_answer({"tool_calls": [good, entry]}))
    assert answer.problems == (problem,)
    assert len(answer.tool_calls) == 2 and answer.tool_calls[0] == ToolCall("a", "f", "{}")
    assert answer.tool_calls[1].name == "" and answer.tool_calls[1].arguments is None
    assert answer.sent_names == ("f", sent)


def test_a_call_without_function_is_nameless_and_no_problem() -> None:
    answer = parse_completion(_answer({"tool_calls": [{"id": "c"}]}))
    assert answer.tool_calls == (ToolCall("c", "", None),) and answer.problems == ()
    assert answer.sent_names == ("(no name)",)


@pytest.mark.parametrize(
    ("function", "sent"),
    [
        ({"name": "", "arguments": "{}"}, '""'),
        ({"arguments": "{}"}, "(no name)"),
        ({"name": None, "arguments": "{}"}, "null"),
        ({"name": ["\u00e9"], "arguments": "{}"}, '["\u00e9"]'),
        ({"name": 7, "arguments": "{}"}, "7"),
    ],
    ids=["empty", "missing", "null", "list-non-ascii", "number"],
)
def test_a_nameless_call_is_named_as_sent(function: dict[str, Any], sent: str) -> None:
    answer = parse_completion(_answer({"tool_calls": [{"id": 5, "function": function}]}))
    assert answer.tool_calls == (ToolCall(None, "", "{}"),)
    assert answer.sent_names == (sent,) and answer.problems == ()


@pytest.mark.parametrize(
    ("content", "text"),
    [
        ("hi", "hi"),
        ("", ""),
        (None, None),
        (5, None),
        ({"type": "text", "text": "hi"}, None),
        (  # Mistral's reasoning models: thinking parts are not the answer
            [
                {"type": "thinking", "thinking": [{"type": "text", "text": "hmm"}]},
                {"type": "text", "text": "Hel"},
                {"text": "lo"},
                "stray",
                {"type": "text", "text": 5},
                {"type": "text"},
            ],
            "Hello",
        ),
        ([{"type": "thinking", "text": "hmm"}], None),
        ([], None),
    ],
    ids=["text", "empty", "null", "number", "object", "mistral-parts", "only-thinking", "no-parts"],
)
def test_content_text(content: Any, text: str | None) -> None:
    assert content_text(content) == text


def test_the_model_finish_reason_and_cut_off() -> None:
    answer = parse_completion({"model": 5, "choices": [{"message": {}, "finish_reason": "length"}]})
    assert answer.model is None and answer.finish_reason == "length"
    assert answer.cut_off == "finish_reason is length"
    stop = parse_completion({"choices": [{"message": {}, "finish_reason": 1}]})
    assert stop.finish_reason is None and stop.cut_off is None and stop.model is None


@pytest.mark.parametrize(
    ("body", "problem"),
    [
        ([], "malformed response: the body is not a JSON object"),
        ({"choices": "x"}, "malformed response: no choices[0]"),
        ({"choices": []}, "malformed response: no choices[0]"),
        ({"choices": [1]}, "malformed response: no choices[0]"),
        ({}, "malformed response: no choices[0]"),
        ({"choices": [{}]}, "malformed response: choices[0].message is not an object"),
        (
            {"choices": [{"message": "hi"}]},
            "malformed response: choices[0].message is not an object",
        ),
    ],
    ids=[
        "list",
        "choices-text",
        "no-choice",
        "choice-number",
        "empty",
        "no-message",
        "message-text",
    ],
)
def test_a_body_with_no_message_is_malformed(body: Any, problem: str) -> None:
    with pytest.raises(MalformedResponse) as raised:
        parse_completion(body)
    assert str(raised.value) == problem


def test_read_call_keeps_strings_and_the_arguments_as_sent() -> None:
    assert read_call("id", "f", {"a": 1}) == ToolCall("id", "f", {"a": 1})
    assert read_call(1, None, None) == ToolCall(None, "", None)


@pytest.mark.parametrize(
    ("holder", "text"),
    [
        ({"name": "f"}, "f"),
        ({"name": ""}, '""'),
        ({}, "(no name)"),
        ("f", "(no name)"),
        ({"name": {"a": "\u00e9"}}, '{"a": "\u00e9"}'),
        ({"name": False}, "false"),
    ],
    ids=["name", "empty", "missing", "not-an-object", "object-non-ascii", "false"],
)
def test_readable_name(holder: Any, text: str) -> None:
    assert readable_name(holder) == text


def test_only_the_first_choice_is_read() -> None:
    """A body with ``n`` > 1 choices (OpenAI's ``n`` parameter): the first is the answer."""
    body = {
        "choices": [
            {"index": 0, "message": {"content": "first"}, "finish_reason": "stop"},
            {"index": 1, "message": {"content": "second"}, "finish_reason": "error",
             "error": {"code": 502, "message": "lost"}},
        ]
    }  # fmt: skip
    assert body_error(body) is None
    answer = parse_completion(body)
    assert answer.content == "first" and answer.finish_reason == "stop"


def test_a_call_entry_of_a_python_type_is_named_by_its_type() -> None:
    """A caller building the body in Python (not from JSON) may pass any value."""
    answer = parse_completion(_answer({"tool_calls": [("f",)]}))
    assert answer.problems == ("tool_calls[0] is tuple, not an object",)
