"""The step judge's whole verdict, field by field, worked out by hand from METHOD.md's judging rules
(issue 43: tests that fail by a checked value, not a crash)."""

from __future__ import annotations

from typing import Any

import pytest

from scorer import ModelResponse, ToolCall, judge_step, parse_completion
from scorer.judge import CallVerdict, StepVerdict, call_failures, call_holds
from scorer.matching import same_names
from tests.suitekit import make_suite, single_step_case

OSLO_EQ = {"name": "get_weather", "args": {"city": {"eq": "Oslo"}}, "reference": {"city": "Oslo"}}
OSLO_C = {
    "name": "get_weather",
    "args": {"city": {"eq": "Oslo"}, "unit": {"eq": "c"}},
    "reference": {"city": "Oslo", "unit": "c"},
}
LIMA_EQ = {"name": "get_weather", "args": {"city": {"eq": "Lima"}}, "reference": {"city": "Lima"}}


def judge(
    step: dict[str, Any],
    calls: list[tuple[str, Any]],
    content: str | None = None,
    finish_reason: str | None = None,
    tools: list[str] | None = None,
) -> StepVerdict:
    suite = make_suite([single_step_case(step, tools)])
    c = suite.cases[0]
    tool_calls = tuple(ToolCall(f"c{i}", name, args) for i, (name, args) in enumerate(calls))
    message = {"role": "assistant"}
    answer = ModelResponse(content, tool_calls, "m", message, finish_reason)
    return judge_step(c.steps[0], answer, c, suite)


def called(name: str, parsed: bool = True, valid: bool | None = True) -> CallVerdict:
    """A call to an offered tool sent as a JSON string."""
    return CallVerdict(name, True, parsed, valid, "string")


def test_no_call_expected_and_none_made() -> None:
    assert judge({"expect": "none"}, []) == StepVerdict(True, None, (), ())


def test_no_call_expected_but_two_made() -> None:
    verdict = judge({"expect": "none"}, [("get_weather", '{"city": "Oslo"}'), ("x", "{}")])
    assert verdict == StepVerdict(
        False,
        "expected no call, got [get_weather, x]",
        (called("get_weather"), CallVerdict("x", False, True, None, "string")),
        (None, None),
    )


def test_one_call_right() -> None:
    verdict = judge({"expect": "call", "calls": [OSLO_EQ]}, [("get_weather", '{"city": "Oslo"}')])
    assert verdict == StepVerdict(True, None, (called("get_weather"),), (0,))


def test_names_differ_lists_both_sides() -> None:
    step = {"expect": "call", "calls": [OSLO_EQ, LIMA_EQ]}
    verdict = judge(step, [("get_weather", '{"city": "Oslo"}'), ("read_file", '{"path": "a"}')])
    assert verdict == StepVerdict(
        False,
        "names differ: expected [get_weather, get_weather], got [get_weather, read_file]",
        (called("get_weather"), called("read_file")),
        (None, None),
    )


def test_no_call_whose_text_looks_like_a_call() -> None:
    text = '{"name": "get_weather", "arguments": {"city": "Oslo"}}'
    verdict = judge({"expect": "call", "calls": [OSLO_EQ]}, [], content=text)
    assert verdict == StepVerdict(
        False,
        "names differ: expected [get_weather], got [] (the text looks like a call to get_weather: "
        "the server's tool parser may be off)",
        (),
        (),
    )


def test_text_beside_a_wrong_call_is_not_read_as_a_call() -> None:
    text = '{"name": "get_weather", "arguments": {"city": "Oslo"}}'
    verdict = judge({"expect": "call", "calls": [OSLO_EQ]}, [("read_file", "{}")], content=text)
    assert verdict.reason == "names differ: expected [get_weather], got [read_file]"


def test_text_naming_a_tool_not_offered_is_not_a_call() -> None:
    text = '{"name": "send_email", "arguments": {}}'
    verdict = judge({"expect": "call", "calls": [OSLO_EQ]}, [], content=text, tools=["get_weather"])
    assert verdict.reason == "names differ: expected [get_weather], got []"


@pytest.mark.parametrize(
    ("arguments", "finish_reason", "reason", "form"),
    [
        ("{bad", None, "get_weather.arguments: not a JSON object", "string"),
        (
            '{"city": "Os',
            "length",
            "get_weather.arguments: not a JSON object (the answer was cut off: finish_reason is "
            "length)",
            "string",
        ),
        ("{bad", "stop", "get_weather.arguments: not a JSON object", "string"),
        (
            '{"city": NaN}',
            "length",
            "get_weather.arguments: not a JSON object (NaN is not JSON; the answer was cut off: "
            "finish_reason is length)",
            "string",
        ),
        (None, None, "get_weather.arguments: not a JSON object", "other"),
    ],
)
def test_arguments_not_an_object(
    arguments: Any, finish_reason: str | None, reason: str, form: str
) -> None:
    verdict = judge(
        {"expect": "call", "calls": [OSLO_EQ]},
        [("get_weather", arguments)],
        finish_reason=finish_reason,
    )
    assert verdict == StepVerdict(
        False, reason, (CallVerdict("get_weather", True, False, False, form),), (None,)
    )


def test_the_first_call_that_is_not_an_object_is_named() -> None:
    step = {"expect": "call", "calls": [OSLO_EQ, LIMA_EQ]}
    verdict = judge(step, [("get_weather", '{"city": "Oslo"}'), ("get_weather", "[1]")])
    assert verdict.reason == "get_weather.arguments: not a JSON object"
    assert verdict.assignment == (None, None)


def test_unmatched_expected_call_reports_its_free_calls_failures() -> None:
    # Both calls can be OSLO_EQ, none can be OSLO_C (no unit): the matching pairs call 0 with
    # OSLO_EQ, and OSLO_C is reported against the free call 1.
    step = {"expect": "call", "calls": [OSLO_EQ, OSLO_C]}
    verdict = judge(
        step, [("get_weather", '{"city": "Oslo"}'), ("get_weather", '{"city": "Oslo"}')]
    )
    assert verdict == StepVerdict(
        False,
        'get_weather.unit: expected eq "c", got nothing (argument left out)',
        (called("get_weather"), called("get_weather")),
        (0, None),
    )


def test_the_fewest_failures_are_reported_and_joined() -> None:
    # OSLO_C unmatched; the free call (Lima, unit f) fails both of its checks: both reported.
    step = {"expect": "call", "calls": [OSLO_C, LIMA_EQ]}
    verdict = judge(
        step,
        [("get_weather", '{"city": "Lima"}'), ("get_weather", '{"city": "Lima", "unit": "f"}')],
    )
    assert verdict == StepVerdict(
        False,
        'get_weather.city: expected eq "Oslo", got "Lima"; '
        'get_weather.unit: expected eq "c", got "f"',
        (called("get_weather"), called("get_weather")),
        (1, None),
    )


def test_the_first_unmatched_expected_call_in_suite_order_is_reported() -> None:
    step = {"expect": "call", "calls": [OSLO_EQ, LIMA_EQ]}
    verdict = judge(
        step, [("get_weather", '{"city": "Rome"}'), ("get_weather", '{"city": "Bern"}')]
    )
    assert verdict.reason == 'get_weather.city: expected eq "Oslo", got "Rome"'
    assert verdict.assignment == (None, None)


def test_the_closest_free_call_is_the_one_reported() -> None:
    # Only call 2 can be a Lima call; OSLO_C is unmatched with two free calls: Rome (two failures)
    # and Oslo in Fahrenheit (one): the one with fewer failures is reported.
    step = {"expect": "call", "calls": [OSLO_C, LIMA_EQ, LIMA_EQ]}
    verdict = judge(
        step,
        [
            ("get_weather", '{"city": "Rome"}'),
            ("get_weather", '{"city": "Oslo", "unit": "f"}'),
            ("get_weather", '{"city": "Lima"}'),
        ],
    )
    assert verdict.reason == 'get_weather.unit: expected eq "c", got "f"'
    assert verdict.assignment == (None, None, 1)


def test_call_failures_and_holds_of_one_expected_call() -> None:
    suite = make_suite([single_step_case({"expect": "call", "calls": [OSLO_C]})])
    expected = suite.cases[0].steps[0].calls[0]
    assert call_failures(expected, {"city": "Oslo", "unit": "c"}) == []
    assert call_holds(expected, {"city": "Oslo", "unit": "c"}) is True
    assert call_failures(expected, {"city": "Lima"}) == [
        'get_weather.city: expected eq "Oslo", got "Lima"',
        'get_weather.unit: expected eq "c", got nothing (argument left out)',
    ]
    assert call_holds(expected, {"city": "Lima", "unit": "c"}) is False
    assert call_holds(expected, {"city": "Oslo"}) is False


def test_made_up_tool_is_not_schema_checked() -> None:
    verdict = judge({"expect": "call", "calls": [OSLO_EQ]}, [("weather", '{"city": "Oslo"}')])
    assert verdict.calls == (CallVerdict("weather", False, True, None, "string"),)


def test_arguments_sent_as_an_object_are_schema_checked_as_such() -> None:
    verdict = judge(
        {"expect": "call", "calls": [OSLO_EQ]}, [("get_weather", {"city": "Oslo", "x": 1})]
    )
    assert verdict.calls == (CallVerdict("get_weather", True, True, False, "object"),)
    assert verdict.passed is True


def _completion(tool_calls: Any, content: str | None = None) -> ModelResponse:
    message = {"role": "assistant", "content": content, "tool_calls": tool_calls}
    return parse_completion({"choices": [{"message": message, "finish_reason": "tool_calls"}]})


@pytest.mark.parametrize(
    ("step", "entries", "reason"),
    [
        (
            {"expect": "call", "calls": [OSLO_EQ]},
            [
                {"id": "a", "function": {"name": "get_weather", "arguments": '{"city": "Oslo"}'}},
                7,
                "x",
            ],
            "malformed tool calls: tool_calls[1] is a number, not an object",
        ),
        (
            {"expect": "none"},
            [{"id": "a", "function": "get_weather"}],
            "malformed tool calls: tool_calls[0].function is a string, not an object",
        ),
    ],
    # Plain ids: mutmut runs a test again by its id, and a "[1]" inside one is not found.
    ids=["a-number-entry", "function-a-string"],
)
def test_malformed_tool_calls_fail_with_the_first_problem(
    step: dict[str, Any], entries: list[Any], reason: str
) -> None:
    suite = make_suite([single_step_case(step)])
    c = suite.cases[0]
    verdict = judge_step(c.steps[0], _completion(entries), c, suite)
    assert (verdict.passed, verdict.reason) == (False, reason)
    # A malformed entry is a nameless call: the names never match a step's, so no Right tool.
    called = [call.name for call in verdict.calls]
    assert not same_names(called, [call.name for call in c.steps[0].calls])
    assert verdict.assignment == (None,) * len(entries)
    # isinstance first: a verdict built without its calls fails here, not on len(None).
    assert isinstance(verdict.calls, tuple) and len(verdict.calls) == len(entries)


def test_a_legacy_nameless_call_is_named_as_sent() -> None:
    suite = make_suite([single_step_case({"expect": "none"})])
    c = suite.cases[0]
    message = {"role": "assistant", "content": None, "function_call": {"name": "", "arguments": ""}}
    answer = parse_completion({"choices": [{"message": message}]})
    verdict = judge_step(c.steps[0], answer, c, suite)
    assert verdict.reason == 'expected no call, got [""]'


def test_a_name_that_is_not_a_string_is_shown_as_json_unescaped() -> None:
    suite = make_suite([single_step_case({"expect": "none"})])
    c = suite.cases[0]
    answer = _completion([{"id": "a", "function": {"name": ["Zoë"], "arguments": "{}"}}])
    verdict = judge_step(c.steps[0], answer, c, suite)
    assert verdict.reason == 'expected no call, got [["Zoë"]]'


def test_a_nameless_call_with_no_names_as_sent_reads_no_name() -> None:
    # A response built without the decoder's sent names: the call's own name, else "(no name)".
    verdict = judge({"expect": "none"}, [("", "{}"), ("get_weather", "{}")])
    assert verdict.reason == "expected no call, got [(no name), get_weather]"


@pytest.mark.parametrize("expect", ["call", "none"])
def test_malformed_answer_whose_names_match_still_fails(expect: str) -> None:
    step = {"expect": "call", "calls": [OSLO_EQ]} if expect == "call" else {"expect": "none"}
    suite = make_suite([single_step_case(step)])
    c = suite.cases[0]
    call = ToolCall("c0", "get_weather", '{"city": "Oslo"}')
    problem = "tool_calls[1] is a number, not an object"
    answer = ModelResponse(None, (call,), "m", {"role": "assistant"}, problems=(problem,))
    verdict = judge_step(c.steps[0], answer, c, suite)
    assert verdict == StepVerdict(
        False, f"malformed tool calls: {problem}", (called("get_weather"),), (None,)
    )


def _answer(names_as_sent: tuple[str, ...], problems: tuple[str, ...] = ()) -> ModelResponse:
    """One call named ``got`` by the response, with the decoder's names as sent given apart."""
    call = ToolCall("c0", "got", "{}")
    message = {"role": "assistant"}
    return ModelResponse(None, (call,), "m", message, problems=problems, sent_names=names_as_sent)


def test_the_name_as_sent_is_the_one_reported() -> None:
    suite = make_suite([single_step_case({"expect": "none"})])
    c = suite.cases[0]
    verdict = judge_step(c.steps[0], _answer(("shown",)), c, suite)
    assert verdict.reason == "expected no call, got [shown]"


def test_a_call_past_the_names_as_sent_is_named_by_the_call() -> None:
    # A dialect that kept fewer names as sent than calls: the call's own name stands in.
    suite = make_suite([single_step_case({"expect": "none"})])
    c = suite.cases[0]
    verdict = judge_step(c.steps[0], _answer(()), c, suite)
    assert verdict.reason == "expected no call, got [got]"


def test_of_two_problems_the_first_is_reported() -> None:
    suite = make_suite([single_step_case({"expect": "none"})])
    c = suite.cases[0]
    verdict = judge_step(c.steps[0], _answer(("got",), ("first", "second")), c, suite)
    assert (verdict.passed, verdict.reason) == (False, "malformed tool calls: first")


def test_a_call_never_stands_for_an_expected_call_of_another_name() -> None:
    # Each call's arguments would pass the other tool's checks: swapped, they still fail, and the
    # reason compares get_weather's checks with the get_weather call, not the read_file one.
    path_a = {"name": "read_file", "args": {"path": {"eq": "a"}}, "reference": {"path": "a"}}
    step = {"expect": "call", "calls": [OSLO_EQ, path_a]}
    verdict = judge(step, [("get_weather", '{"path": "a"}'), ("read_file", '{"city": "Oslo"}')])
    assert verdict == StepVerdict(
        False,
        'get_weather.city: expected eq "Oslo", got nothing (argument left out)',
        (called("get_weather", valid=False), called("read_file", valid=False)),
        (None, None),
    )
