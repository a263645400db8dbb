"""The wire format is read through one registry: ``chat`` (the default), ``responses`` and
``messages``; each entry's request body, echo and headers, written out."""

from __future__ import annotations

from dataclasses import replace

import pytest

from scorer.errors import UsageError
from scorer.wire.dialect import DEFAULT, DIALECTS, dialect
from scorer.wire.openai_chat import tool_result
from scorer.wire.response import ModelResponse, ToolCall
from scorer.wire.settings import Wire, parse_params

TOOL = {
    "type": "function",
    "function": {"name": "f", "description": "F.", "parameters": {"type": "object"}},
}
OPENING = [{"role": "user", "content": "hi"}]


def test_three_dialects_chat_the_default_and_its_old_name() -> None:
    assert sorted(DIALECTS) == ["chat", "messages", "responses"]
    assert dialect("chat") is DEFAULT and dialect("openai-chat") is DEFAULT


def test_an_unknown_dialect_is_a_usage_error_naming_the_known_ones() -> None:
    with pytest.raises(UsageError, match=r"unknown API dialect 'gemini'; known: chat, messages"):
        dialect("gemini")


def test_the_chat_request_body_is_the_methods() -> None:
    body = DEFAULT.request_body("m/x", "Be brief.", OPENING, [TOOL], [], Wire())
    assert list(body) == ["model", "messages", "tools", "temperature"]
    assert body == {
        "model": "m/x",
        "messages": [
            {"role": "system", "content": "Be brief."},
            {"role": "user", "content": "hi"},
        ],
        "tools": [TOOL],
        "temperature": 0,
    }


def test_the_responses_request_body() -> None:
    body = dialect("responses").request_body("m/x", "Be brief.", OPENING, [TOOL], [], Wire())
    assert body == {
        "model": "m/x",
        "instructions": "Be brief.",
        "input": [{"role": "user", "content": "hi"}],
        "tools": [
            {
                "type": "function",
                "name": "f",
                "description": "F.",
                "parameters": {"type": "object"},
                "strict": False,
            }
        ],
        "temperature": 0,
    }


def test_the_messages_request_body_requires_max_tokens() -> None:
    body = dialect("messages").request_body("m/x", "Be brief.", OPENING, [TOOL], [], Wire())
    assert body == {
        "model": "m/x",
        "max_tokens": 4096,
        "system": "Be brief.",
        "messages": [{"role": "user", "content": "hi"}],
        "tools": [{"name": "f", "description": "F.", "input_schema": {"type": "object"}}],
        "temperature": 0,  # the method's, as in Chat and Responses (decisions/dialects.md)
    }


def test_a_body_field_of_null_takes_the_field_out_in_every_dialect() -> None:
    wire = Wire("chat", False, parse_params(["body.temperature=null", "body.top_k=3"]))
    for name in ("chat", "responses", "messages"):
        body = dialect(name).request_body(
            "m", "S", OPENING, [TOOL], [], replace(wire, dialect=name)
        )
        assert "temperature" not in body and body["top_k"] == 3, name


def test_a_suite_opening_with_calls_and_results_in_each_dialect() -> None:
    opening = [
        {"role": "user", "content": "go"},
        {
            "role": "assistant",
            "content": None,
            "tool_calls": [
                {"id": "c1", "type": "function", "function": {"name": "f", "arguments": '{"a":1}'}}
            ],
        },
        {"role": "tool", "tool_call_id": "c1", "content": "done"},
    ]
    responses = dialect("responses").request_body("m", "S", opening, [], [], Wire())
    assert responses["input"][1:] == [
        {"type": "function_call", "call_id": "c1", "name": "f", "arguments": '{"a":1}'},
        {"type": "function_call_output", "call_id": "c1", "output": "done"},
    ]
    messages = dialect("messages").request_body("m", "S", opening, [], [], Wire())
    assert messages["messages"][1:] == [
        {"role": "assistant", "content": [{"type": "tool_use", "id": "c1", "name": "f",
                                           "input": {"a": 1}}]},
        {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "c1",
                                      "content": "done"}]},
    ]  # fmt: skip


def test_settings_in_each_dialects_words() -> None:
    wire = Wire(
        "chat",
        True,
        parse_params(["tool_choice=required", "max_tokens=64", "parallel_tool_calls=false"]),
    )
    chat = DEFAULT.request_body("m", "S", OPENING, [TOOL], [], wire)
    assert (chat["tool_choice"], chat["max_tokens"], chat["parallel_tool_calls"]) == (
        "required",
        64,
        False,
    )
    assert chat["stream"] is True and chat["stream_options"] == {"include_usage": True}
    responses = dialect("responses").request_body("m", "S", OPENING, [TOOL], [], wire)
    assert responses["max_output_tokens"] == 64 and "stream_options" not in responses
    messages = dialect("messages").request_body("m", "S", OPENING, [TOOL], [], wire)
    assert messages["max_tokens"] == 64
    assert messages["tool_choice"] == {"type": "any", "disable_parallel_tool_use": True}


def test_a_bad_param_is_a_usage_error_naming_it() -> None:
    with pytest.raises(UsageError, match=r"--param max_tokens: expected a whole number"):
        parse_params(["max_tokens=lots"])
    with pytest.raises(UsageError, match=r"--param top_k: unknown setting"):
        parse_params(["top_k=3"])
    with pytest.raises(UsageError, match=r"--param header.X-Api-Key: a key never goes in --param"):
        parse_params(["header.X-Api-Key=sk-secret"])


def test_a_call_is_answered_by_a_tool_message_or_the_legacy_way() -> None:
    assert tool_result("c1", "f", "ok", False) == {
        "role": "tool",
        "tool_call_id": "c1",
        "content": "ok",
    }
    assert tool_result("c1", "f", "ok", True) == {"role": "function", "name": "f", "content": "ok"}


def test_each_dialect_echoes_its_own_payload_and_answers_in_its_own_form() -> None:
    items = [
        {"type": "reasoning", "id": "rs_1", "summary": []},
        {"type": "function_call", "id": "fc_1", "call_id": "", "name": "f", "arguments": "{}"},
    ]
    answer = ModelResponse(None, (ToolCall("", "f", "{}"),), "m", items)
    echoed = dialect("responses").follow_up(answer, ["call_x"], ["ok"])
    assert echoed == [
        items[0],
        {**items[1], "call_id": "call_x"},
        {"type": "function_call_output", "call_id": "call_x", "output": "ok"},
    ]
    blocks = [{"type": "tool_use", "id": "toolu_1", "name": "f", "input": {}}]
    answer = ModelResponse(None, (ToolCall("toolu_1", "f", {}),), "m", blocks)
    assert dialect("messages").follow_up(answer, ["toolu_1"], ["ok"]) == [
        {"role": "assistant", "content": blocks},
        {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "toolu_1",
                                      "content": "ok"}]},
    ]  # fmt: skip


def test_the_headers_read_and_sent() -> None:
    assert (DEFAULT.path, DEFAULT.cost_header, DEFAULT.dropped_header) == (
        "/chat/completions",
        "x-lobstack-cost-usd",
        "x-lobstack-dropped-params",
    )
    assert "x-lobstack-model" in DEFAULT.routing_headers
    assert DEFAULT.auth_headers("k") == {"Authorization": "Bearer k"}
    assert dialect("messages").auth_headers("k") == {"x-api-key": "k"}
    assert dialect("messages").fixed_headers == {"anthropic-version": "2023-06-01"}
    assert 529 in dialect("messages").retry_statuses and 529 not in DEFAULT.retry_statuses


def test_every_entry_of_the_registry_written_out() -> None:
    from scorer.wire import anthropic_messages as am
    from scorer.wire import openai_chat as oc
    from scorer.wire import openai_responses as orr
    from scorer.wire import response
    from scorer.wire.dialect import ALIASES, MESSAGES, OPENAI_CHAT, RESPONSES, RETRY_STATUSES

    assert frozenset({429, 502, 503, 504}) == RETRY_STATUSES and ALIASES == {"openai-chat": "chat"}
    assert DIALECTS == {"chat": DEFAULT, "responses": RESPONSES, "messages": MESSAGES}
    assert OPENAI_CHAT is DEFAULT and DEFAULT.name == "chat"
    chat = (DEFAULT.path, DEFAULT.request_body, DEFAULT.parse_answer, DEFAULT.body_error)
    assert chat == ("/chat/completions", oc.request_body, response.parse_completion,
                    response.body_error)  # fmt: skip
    assert (DEFAULT.follow_up, DEFAULT.auth_headers, DEFAULT.error_text) == (
        oc.follow_up, oc.auth_headers, oc.error_text)  # fmt: skip
    assert DEFAULT.fixed_headers == {} and DEFAULT.retry_statuses == {429, 502, 503, 504}
    assert (RESPONSES.name, RESPONSES.path, RESPONSES.request_body, RESPONSES.parse_answer) == (
        "responses", "/responses", orr.request_body, orr.parse_answer)  # fmt: skip
    assert (RESPONSES.body_error, RESPONSES.follow_up) == (orr.body_error, orr.follow_up)
    assert (RESPONSES.auth_headers, RESPONSES.error_text) == (oc.auth_headers, oc.error_text)
    assert RESPONSES.fixed_headers == {} and RESPONSES.retry_statuses == {429, 502, 503, 504}
    assert (MESSAGES.name, MESSAGES.path, MESSAGES.request_body, MESSAGES.parse_answer) == (
        "messages", "/messages", am.request_body, am.parse_answer)  # fmt: skip
    assert (MESSAGES.body_error, MESSAGES.follow_up) == (am.body_error, am.follow_up)
    assert (MESSAGES.auth_headers, MESSAGES.error_text) == (am.auth_headers, am.error_text)
    assert MESSAGES.retry_statuses == {429, 502, 503, 504, 529}
    for entry in (DEFAULT, RESPONSES, MESSAGES):
        assert entry.cost_header == "x-lobstack-cost-usd", entry.name
        assert entry.dropped_header == "x-lobstack-dropped-params", entry.name
        assert entry.routing_headers == oc.ROUTING_HEADERS, entry.name


def test_the_unknown_dialect_line_in_full() -> None:
    with pytest.raises(UsageError) as raised:
        dialect("openai")
    assert str(raised.value) == "unknown API dialect 'openai'; known: chat, messages, responses"
    assert raised.value.__suppress_context__ is True


def test_checked_wire_names_the_dialect_by_its_registered_name() -> None:
    from scorer.wire.dialect import checked_wire

    assert checked_wire("openai-chat", True, ["max_tokens=5"]) == Wire(
        "chat", True, (("max_tokens", "5"),)
    )
    assert checked_wire("messages", False, ()) == Wire("messages", False, ())
    with pytest.raises(UsageError, match=r"^unknown API dialect 'x'"):
        checked_wire("x", False, ())
    with pytest.raises(UsageError, match=r"^--param top_k: unknown setting"):
        checked_wire("chat", False, ["top_k=1"])


def _name_or_refusal(name: str) -> str:
    """The registered name ``dialect(name)`` gives, or the line it is refused with."""
    try:
        return dialect(name).name
    except UsageError as refused:
        return f"error: {refused}"


@pytest.mark.parametrize(
    ("name", "outcome"),
    [
        ("chat", "chat"),
        ("openai-chat", "chat"),  # the old name
        ("responses", "responses"),
        ("messages", "messages"),
        ("gemini", "error: unknown API dialect 'gemini'; known: chat, messages, responses"),
    ],
)
def test_a_dialects_name_or_its_refusal(name: str, outcome: str) -> None:
    assert _name_or_refusal(name) == outcome


def test_checked_wire_outcomes_as_values() -> None:
    from scorer.wire.dialect import checked_wire

    def outcome(name: str) -> Wire | str:
        try:
            return checked_wire(name, False, ["tool_choice=auto"])
        except UsageError as refused:
            return str(refused)

    assert outcome("openai-chat") == Wire("chat", False, (("tool_choice", '"auto"'),))
    assert outcome("responses") == Wire("responses", False, (("tool_choice", '"auto"'),))
