"""The suite's tool catalogue (scorer/suite/tools.py): each problem worded exactly, the tools
built, and a whole schema against the method page's subset."""

from __future__ import annotations

from typing import Any

import pytest

from scorer.suite.model import Tool
from scorer.suite.tools import TOOL_NAME_RULE, build_tools, shown_name

PARAMETERS = {"type": "object", "properties": {"day": {"type": "string", "format": "date"}}}


def spec(name: str, parameters: Any = PARAMETERS, **function: Any) -> dict[str, Any]:
    return {"type": "function", "function": {"name": name, "parameters": parameters, **function}}


def test_the_rule_gateways_give_tool_names() -> None:
    assert TOOL_NAME_RULE == (
        "1-64 characters of a-z, A-Z, 0-9, _ and - (^[a-zA-Z0-9_-]{1,64}$, OpenAI's rule)"
    )


@pytest.mark.parametrize("raw", [None, {}, [], "tools"])
def test_a_catalogue_is_a_non_empty_object(raw: Any) -> None:
    assert build_tools(raw) == (
        {},
        ["tools: missing or not a non-empty object of tool name -> tool"],
    )


@pytest.mark.parametrize(
    ("raw", "problem"),
    [
        ({"a b": spec("a b")}, f"tools['a b']: not a tool name gateways accept: {TOOL_NAME_RULE}"),
        ({"": spec("")}, f"tools['']: not a tool name gateways accept: {TOOL_NAME_RULE}"),
        (
            {"t" * 65: spec("t" * 65)},
            f"tools['{'t' * 65}']: not a tool name gateways accept: {TOOL_NAME_RULE}",
        ),
        ({"t": "x"}, 'tools.t: must be {"type": "function", "function": {...}}'),
        (
            {"t": {"function": spec("t")["function"]}},
            'tools.t: must be {"type": "function", "function": {...}}',
        ),
        (
            {"t": {"type": "function", "function": "f"}},
            'tools.t: must be {"type": "function", "function": {...}}',
        ),
        (
            {"t": spec("t", None)},
            'tools.t.function.parameters: must be a schema with "type": "object"',
        ),
        (
            {"t": spec("t", {"type": "array"})},
            'tools.t.function.parameters: must be a schema with "type": "object"',
        ),
        ({"t": spec("t", strict="yes")}, "tools.t.function.strict: must be true or false"),
    ],
)
def test_each_refused_tool_is_one_problem(raw: dict[str, Any], problem: str) -> None:
    assert build_tools(raw, whole=True) == ({}, [problem])


def test_tools_are_built_in_name_order_each_problem_said() -> None:
    raw = {
        "b": spec("b"),
        "a": spec("other", {"type": "object"}, strict=True),
        "c": spec("c", strict=False),
    }
    tools, problems = build_tools(raw, whole=True)
    assert problems == ["tools.a.function.name: 'other' differs from the key 'a'"]
    assert list(tools) == ["a", "b", "c"]
    assert tools["b"].name == "b" and tools["b"].spec == raw["b"]
    # Whole Draft 2020-12, formats checked.
    assert tools["b"].errors({"day": "2026-01-02"}) == []
    assert tools["b"].errors({"day": "someday"}) == ["day: 'someday' is not a 'date'"]


def test_a_lobstack_suites_schemas_keep_the_subset() -> None:
    tools, problems = build_tools({"b": spec("b"), "c": spec("c", {"type": "object"})})
    assert problems == [
        "tools.b.function.parameters.properties.day: keyword 'format' is not supported (only "
        "additionalProperties, const, enum, items, maxItems, maxLength, maximum, minItems, "
        "minLength, minimum, pattern, properties, required, type)"
    ]
    assert list(tools) == ["c"]
    assert tools["c"].errors({"x": 1}) == []


def test_a_refused_name_is_shown_quoted_and_cut_at_80() -> None:
    assert shown_name("a b") == "'a b'"
    assert shown_name("x\ny") == "'x\\ny'"
    assert shown_name("a" * 78) == "'" + "a" * 78 + "'"
    # 81 characters quoted: cut to 80, the quote kept.
    assert shown_name("a" * 79) == "'" + "a" * 75 + "...'"
    assert len(shown_name("a" * 79)) == 80


def test_a_good_catalogue_has_an_empty_problem_list() -> None:
    tools, problems = build_tools({"c": spec("c", {"type": "object"})})
    assert problems == [] and list(tools) == ["c"]


def test_a_strict_flag_true_or_false_is_no_problem() -> None:
    tools, problems = build_tools({"c": spec("c", {"type": "object"}, strict=True)})
    assert problems == [] and list(tools) == ["c"]


def test_a_tool_after_a_bad_one_is_still_built() -> None:
    raw = {"a": {"type": "x"}, "b": spec("b", []), "c": spec("c", {"type": "object"})}
    tools, problems = build_tools(raw)
    assert problems == [
        'tools.a: must be {"type": "function", "function": {...}}',
        'tools.b.function.parameters: must be a schema with "type": "object"',
    ]
    assert list(tools) == ["c"]


def test_a_bad_strict_flag_does_not_stop_the_tools_after_it() -> None:
    # "a" is refused for its flag; "b", after it in name order, is still built.
    raw = {"a": spec("a", strict="yes"), "b": spec("b", {"type": "object"})}
    tools, problems = build_tools(raw)
    assert problems == ["tools.a.function.strict: must be true or false"]
    assert list(tools) == ["b"]


@pytest.mark.parametrize("whole", [False, True])
def test_each_tool_validates_against_its_own_parameters(whole: bool) -> None:
    parameters = {"type": "object", "properties": {"n": {"type": "integer"}}}
    tools, _ = build_tools({"c": spec("c", parameters)}, whole=whole)
    # getattr: a validator that is missing fails this assertion rather than raising.
    assert getattr(tools["c"].validator, "schema", None) == parameters
    assert tools["c"].is_valid({"n": 1}) is True
    assert tools["c"].is_valid({"n": "1"}) is False


def test_a_refused_name_does_not_stop_the_tools_after_it() -> None:
    raw = {"a b": spec("a b"), "c": spec("c", {"type": "object"})}
    tools, problems = build_tools(raw)
    assert problems == [f"tools['a b']: not a tool name gateways accept: {TOOL_NAME_RULE}"]
    # A Tool compares by name and spec (its validator is left out of ==).
    assert tools == {"c": Tool(name="c", spec=raw["c"], validator=None)}


def test_a_whole_schemas_problem_is_placed_under_its_tool() -> None:
    raw = {"t": spec("t", {"type": "object", "minLength": -1})}
    assert build_tools(raw, whole=True) == (
        {},
        ["tools.t.function.parameters.minLength: -1 is less than the minimum of 0"],
    )


@pytest.mark.parametrize("whole", [False, True])
def test_a_schema_checked_again_gives_its_own_problems_each_time(whole: bool) -> None:
    """The problems of a schema text are kept (scorer/suite/tools.py ``_problems``): each call
    gets its own list, each tool's problems name that tool, and values Python finds equal but
    JSON writes apart (1 and true) are checked apart."""
    bad = {"type": "object", "minProperties": -1}
    line = (
        "function.parameters.minProperties: -1 is less than the minimum of 0"
        if whole
        else "function.parameters: keyword 'minProperties' is not supported (only "
        "additionalProperties, const, enum, items, maxItems, maxLength, maximum, minItems, "
        "minLength, minimum, pattern, properties, required, type)"
    )
    first = build_tools({"t": spec("t", bad)}, whole=whole)[1]
    assert first == [f"tools.t.{line}"]
    first.append("changed by the caller")
    assert build_tools({"t": spec("t", bad), "u": spec("u", bad)}, whole=whole)[1] == [
        f"tools.t.{line}",
        f"tools.u.{line}",
    ]
    at = "tools.t.function.parameters.properties.s.minLength"
    for length, problems in (
        (1, []),
        (True, [f"{at}: True is not of type 'integer'"]),
        (1, []),
        (1.5, [f"{at}: 1.5 is not of type 'integer'"]),
    ):
        schema = {"type": "object", "properties": {"s": {"type": "string", "minLength": length}}}
        assert build_tools({"t": spec("t", schema)}, whole=whole)[1] == problems


def test_a_schema_holding_nan_is_checked_as_it_is() -> None:
    """NaN is no JSON, but a schema built in Python may hold it: the kept problems are keyed by
    its text (``NaN``), which reads back as NaN."""
    schema = {"type": "object", "minProperties": float("nan")}
    for _ in range(2):
        assert build_tools({"t": spec("t", schema)}, whole=True)[1] == [
            "tools.t.function.parameters.minProperties: nan is not of type 'integer'"
        ]
