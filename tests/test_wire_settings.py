"""A run's wire as one value (``scorer.wire.settings``): ``--param`` parsed and refused with a line
naming the setting, run.json's ``wire`` object written and read back, the label reports show."""

from __future__ import annotations

from typing import Any

import pytest

from scorer.errors import UsageError
from scorer.wire.settings import (
    CHAT,
    EFFORTS,
    KEY_HEADERS,
    METHOD_WIRE,
    NAMED_SETTINGS,
    Wire,
    parse_params,
    results_wire,
    wire_from_json,
)


def test_the_default_wire_is_the_methods_request() -> None:
    assert Wire("chat", False, ()) == METHOD_WIRE and CHAT == "chat"
    assert METHOD_WIRE.is_default is True
    assert Wire("chat", True).is_default is False
    assert Wire("messages").is_default is False
    assert Wire("chat", False, (("max_tokens", "5"),)).is_default is False
    assert METHOD_WIRE.to_json() == {"dialect": "chat", "stream": False, "params": {}}
    assert METHOD_WIRE.label() == "chat"


def test_the_named_settings_and_refused_headers() -> None:
    assert NAMED_SETTINGS == (
        "max_tokens",
        "parallel_tool_calls",
        "reasoning_effort",
        "tool_choice",
    )
    assert EFFORTS == ("minimal", "low", "medium", "high")
    assert KEY_HEADERS == ("authorization", "proxy-authorization", "x-api-key", "api-key", "cookie")


def test_params_are_sorted_json_texts() -> None:
    params = parse_params(
        [
            "tool_choice=get_weather",
            " max_tokens =64",
            'body.metadata={"b": 1, "a": "\u00e9"}',
            "header.X-Title=lobstack",
            "parallel_tool_calls=false",
            "reasoning_effort=minimal",
            "body.stop=a=b",
        ]
    )
    assert params == (
        ("body.metadata", '{"a": "\u00e9", "b": 1}'),
        ("body.stop", '"a=b"'),
        ("header.X-Title", '"lobstack"'),
        ("max_tokens", "64"),
        ("parallel_tool_calls", "false"),
        ("reasoning_effort", '"minimal"'),
        ("tool_choice", '"get_weather"'),
    )
    assert parse_params(()) == ()


def test_a_wire_reads_its_settings_fields_and_headers() -> None:
    wire = Wire(
        "messages",
        True,
        parse_params(
            ["max_tokens=64", "body.top_k=3", "body.temperature=null", "header.X-N=5",
             "header.X-T=t", "tool_choice=auto"]
        ),
    )  # fmt: skip
    assert wire.setting("max_tokens") == 64 and wire.setting("tool_choice") == "auto"
    assert wire.setting("reasoning_effort") is None
    assert wire.body_fields() == {"top_k": 3, "temperature": None}
    body = {"temperature": 0, "model": "m"}
    assert wire.with_body_fields(body) is body and body == {"model": "m", "top_k": 3}
    assert wire.with_body_fields({}) == {"top_k": 3}
    assert wire.extra_headers() == {"X-N": "5", "X-T": "t"}
    assert wire.to_json() == {
        "dialect": "messages",
        "stream": True,
        "params": {
            "body.temperature": None,
            "body.top_k": 3,
            "header.X-N": 5,
            "header.X-T": "t",
            "max_tokens": 64,
            "tool_choice": "auto",
        },
    }
    assert wire.label() == (
        'messages+stream body.temperature=null body.top_k=3 header.X-N=5 header.X-T="t" '
        'max_tokens=64 tool_choice="auto"'
    )


@pytest.mark.parametrize(
    ("item", "message"),
    [
        ("max_tokens", "--param 'max_tokens': expected NAME=VALUE"),
        ("=5", "--param '=5': expected NAME=VALUE"),
        (" =5", "--param ' =5': expected NAME=VALUE"),
        (
            "top_k=3",
            "--param top_k: unknown setting; known: max_tokens, parallel_tool_calls, "
            "reasoning_effort, tool_choice, body.FIELD, header.NAME",
        ),
        (
            "body.=3",
            "--param body.: unknown setting; known: max_tokens, parallel_tool_calls, "
            "reasoning_effort, tool_choice, body.FIELD, header.NAME",
        ),
        (
            "header.=3",
            "--param header.: unknown setting; known: max_tokens, parallel_tool_calls, "
            "reasoning_effort, tool_choice, body.FIELD, header.NAME",
        ),
        ("max_tokens=0", "--param max_tokens: expected a whole number above 0, got 0"),
        ("max_tokens=-3", "--param max_tokens: expected a whole number above 0, got -3"),
        ("max_tokens=1.5", "--param max_tokens: expected a whole number above 0, got 1.5"),
        ("max_tokens=true", "--param max_tokens: expected a whole number above 0, got True"),
        ("max_tokens=lots", "--param max_tokens: expected a whole number above 0, got 'lots'"),
        ("parallel_tool_calls=1", "--param parallel_tool_calls: expected true or false, got 1"),
        (
            "reasoning_effort=max",
            "--param reasoning_effort: expected one of minimal, low, medium, high, got 'max'",
        ),
        (
            "tool_choice=",
            "--param tool_choice: expected auto, required, none or a tool name, got ''",
        ),
        (
            "tool_choice=3",
            "--param tool_choice: expected auto, required, none or a tool name, got 3",
        ),
        (
            "header.Authorization=Bearer x",
            "--param header.Authorization: a key never goes in --param (run.json keeps it): "
            "set LOBSTACK_API_KEY",
        ),
        ("header.X=[1]", "--param header.X: a header value must be text"),
        ("header.X=null", "--param header.X: a header value must be text"),
        ("header.X=true", None),
    ],
    ids=[
        "no-sign",
        "no-name",
        "blank-name",
        "unknown",
        "empty-body-field",
        "empty-header",
        "zero-tokens",
        "negative-tokens",
        "float-tokens",
        "bool-tokens",
        "text-tokens",
        "parallel-number",
        "effort",
        "empty-choice",
        "number-choice",
        "key-header",
        "list-header",
        "null-header",
        "bool-header",
    ],
)
def test_a_bad_param_is_refused_with_one_line_naming_it(item: str, message: str | None) -> None:
    if message is None:  # a boolean is an int in Python: sent as the text of its value
        assert parse_params([item]) == (("header.X", "true"),)
        return
    with pytest.raises(UsageError) as raised:
        parse_params([item])
    assert str(raised.value) == message


@pytest.mark.parametrize(
    "name", ["authorization", "Proxy-Authorization", "x-api-key", "Api-Key", "COOKIE"]
)
def test_every_key_header_is_refused(name: str) -> None:
    with pytest.raises(UsageError, match="a key never goes in --param"):
        parse_params([f"header.{name}=x"])


def test_good_values_of_each_setting() -> None:
    assert parse_params(["max_tokens=1"]) == (("max_tokens", "1"),)
    assert parse_params(["parallel_tool_calls=true"]) == (("parallel_tool_calls", "true"),)
    assert parse_params(["header.X-Rate=1.5"]) == (("header.X-Rate", "1.5"),)
    for effort in ("minimal", "low", "medium", "high"):
        assert parse_params([f"reasoning_effort={effort}"]) == (
            ("reasoning_effort", f'"{effort}"'),
        )


def test_a_param_given_twice_is_refused() -> None:
    with pytest.raises(UsageError) as raised:
        parse_params(["max_tokens=5", "max_tokens=6"])
    assert str(raised.value) == "--param max_tokens: given twice"


@pytest.mark.parametrize(
    ("value", "wire"),
    [
        (
            {"dialect": "responses", "stream": True, "params": {"tool_choice": "f", "a": [1]}},
            Wire("responses", True, (("a", "[1]"), ("tool_choice", '"f"'))),
        ),
        ({"dialect": "chat", "stream": False}, Wire()),
        ({"dialect": "chat", "stream": False, "params": {"x": "\u00e9"}},
         Wire("chat", False, (("x", '"\u00e9"'),))),
        ({"dialect": 1, "stream": False}, None),
        ({"stream": False}, None),
        ({"dialect": "chat", "stream": 0}, None),
        ({"dialect": "chat"}, None),
        ({"dialect": "chat", "stream": False, "params": []}, None),
        ("chat", None),
    ],
    ids=["full", "no-params", "non-ascii", "dialect-number", "no-dialect", "stream-number",
         "no-stream", "params-list", "text"],
)  # fmt: skip
def test_wire_from_json(value: Any, wire: Wire | None) -> None:
    assert wire_from_json(value) == wire


def test_a_wire_round_trips_through_run_json() -> None:
    wire = Wire("messages", True, parse_params(['body.metadata={"k": [1, 2]}', "max_tokens=9"]))
    assert wire_from_json(wire.to_json()) == wire


@pytest.mark.parametrize(
    ("results", "label"),
    [
        ({"wire": {"dialect": "messages", "stream": True, "params": {"max_tokens": 9}}},
         "messages+stream max_tokens=9"),
        ({"wire": {"dialect": "responses", "stream": False}}, "responses"),
        ({}, "chat"),
        ({"wire": None}, "chat"),
        ({"wire": "junk"}, "chat"),
        ([], "chat"),
    ],
    ids=["messages", "responses", "none", "null", "junk", "not-a-document"],
)  # fmt: skip
def test_results_wire(results: Any, label: str) -> None:
    assert results_wire(results) == label


def _parsed(items: list[str]) -> tuple[tuple[str, str], ...] | str:
    """The pairs, or the one line a bad item is refused with: the outcome as a value."""
    try:
        return parse_params(items)
    except UsageError as refused:
        return str(refused)


@pytest.mark.parametrize(
    ("items", "outcome"),
    [
        (["body.x=1"], (("body.x", "1"),)),  # a one-letter field is a field
        (["header.X=1"], (("header.X", "1"),)),
        (["body.stop=end"], (("body.stop", '"end"'),)),
        (["max_tokens=5"], (("max_tokens", "5"),)),  # given once is not "given twice"
        (["max_tokens=1"], (("max_tokens", "1"),)),
        (["body.n=[1]", "header.X-A=a"], (("body.n", "[1]"), ("header.X-A", '"a"'))),
        (["BODY.x=1"], "--param BODY.x: unknown setting; known: max_tokens, parallel_tool_calls, "
         "reasoning_effort, tool_choice, body.FIELD, header.NAME"),
    ],
    ids=["one-letter-field", "one-letter-header", "body-text", "once", "one-token",
         "list-body-text-header", "upper-case-body"],
)  # fmt: skip
def test_the_outcome_of_good_and_bad_params(items: list[str], outcome: object) -> None:
    assert _parsed(items) == outcome


@pytest.mark.parametrize(
    ("name", "value", "problem"),
    [
        ("max_tokens", 1, None),
        ("max_tokens", 0, "expected a whole number above 0, got 0"),
        ("header.X-Title", "lobstack", None),
        ("header.X-N", 5, None),
        ("header.cookie", "c", "a key never goes in --param (run.json keeps it): set "
         "LOBSTACK_API_KEY"),
        ("body.xxcookie", "c", None),  # a body field named like a header's tail is no header
        ("body.metadata", {"a": 1}, None),  # a body field takes any JSON
        ("body.stop", ["a"], None),
        ("header.X", ["a"], "a header value must be text"),
        ("tool_choice", "auto", None),
        ("reasoning_effort", "low", None),
    ],
    ids=["one-token", "zero-tokens", "header-text", "header-number", "cookie",
         "body-like-a-key", "body-object", "body-list", "header-list", "choice", "effort"],
)  # fmt: skip
def test_each_settings_problem(name: str, value: object, problem: str | None) -> None:
    from scorer.wire.settings import _problem

    assert _problem(name, value) == problem


def test_nested_params_are_kept_with_sorted_keys() -> None:
    value = {
        "dialect": "chat",
        "stream": False,
        "params": {"body.m": {"b": 1, "a": {"d": 2, "c": 3}}},
    }
    assert wire_from_json(value) == Wire(
        "chat", False, (("body.m", '{"a": {"c": 3, "d": 2}, "b": 1}'),)
    )
