"""The wrong answers ``suite audit`` builds for one step (scorer/audit/wrong.py): whole-step ones
first (a text, another offered tool, an extra call, a call of a parallel step missing), then one per
argument of each call, each answer written out by hand (docs/METHOD.md, suite-audit)."""

from __future__ import annotations

from typing import Any

from scorer.audit.model import Answer
from scorer.audit.values import Sources
from scorer.audit.wrong import TEXT_ANSWER, _with, reference_calls, step_wrong
from scorer.suite.model import Case, Check, ExpectedCall, Step, Suite, Tool

NO_SOURCES = Sources("", "")
WEATHER = {
    "type": "object",
    "properties": {"city": {"type": "string"}, "unit": {"type": "string", "enum": ["c", "f"]}},
    "required": ["city"],
}
EVENT = {
    "type": "object",
    "properties": {
        "title": {"type": "string"},
        "when": {
            "type": "object",
            "properties": {"day": {"type": "integer", "minimum": 1, "maximum": 7}},
        },
        "private": {"type": "boolean", "description": "Hide it (default false)"},
        "notify": {"type": "boolean", "description": "Tell the guests (default false)"},
    },
    "required": ["title"],
}


def _suite(*cases: Case) -> Suite:
    tools = {
        name: Tool(
            name, {"type": "function", "function": {"name": name, "parameters": schema}}, None
        )
        for name, schema in (("get_weather", WEATHER), ("create_event", EVENT), ("send_slack", {}))
    }
    return Suite("own", "1.0.0", "2026-01-01", "", tools, cases, "", "test")


def _call(name: str, reference: dict[str, Any] | None) -> ExpectedCall:
    return ExpectedCall(name, (("city", (Check("present", True),)),), reference, None)


def _case(tools: tuple[str, ...], *steps: Step) -> Case:
    return Case("c-01", "selection", tools, ({"role": "user", "content": "hi"},), steps)


def test_a_step_that_wants_no_call_meets_a_call_of_each_offered_tool() -> None:
    case = _case(
        ("get_weather", "send_slack"),
        Step("call", (_call("get_weather", {"city": "Oslo"}),)),
        Step("none"),
    )
    assert step_wrong(case, _suite(case), 1, NO_SOURCES) == [
        Answer(1, True, "call_where_none", (("get_weather", {}),)),
        Answer(1, True, "call_where_none", (("send_slack", {}),)),
    ]


def test_a_parallel_step_meets_every_whole_step_and_argument_mutant() -> None:
    oslo = ("get_weather", {"city": "Oslo", "unit": "c"})
    bergen = ("get_weather", {"city": "Bergen"})
    step = Step("call", (_call("get_weather", oslo[1]), _call("get_weather", bergen[1])))
    case = _case(("get_weather", "send_slack"), step)
    assert step_wrong(case, _suite(case), 0, NO_SOURCES) == [
        Answer(0, True, "text_answer", (), content=TEXT_ANSWER),
        Answer(
            0, True, "other_tool", (("send_slack", oslo[1]), bergen), call=0, value="send_slack"
        ),
        Answer(
            0, True, "other_tool", (oslo, ("send_slack", bergen[1])), call=1, value="send_slack"
        ),
        Answer(0, True, "extra_call", (oslo, bergen, oslo)),
        Answer(0, True, "call_missing", (bergen,), call=0),
        Answer(0, True, "call_missing", (oslo,), call=1),
        Answer(
            0,
            True,
            "required_left_out",
            (("get_weather", {"unit": "c"}), bergen),
            call=0,
            arg="city",
            path=("city",),
        ),
        Answer(
            0,
            True,
            "left_out",
            (("get_weather", {"city": "Oslo"}), bergen),
            call=0,
            arg="unit",
            path=("unit",),
        ),
        Answer(
            0,
            True,
            "enum_neighbour",
            (("get_weather", {"city": "Oslo", "unit": "f"}), bergen),
            call=0,
            arg="unit",
            path=("unit",),
            value="f",
            has_value=True,
        ),
        Answer(
            0,
            True,
            "required_left_out",
            (oslo, ("get_weather", {})),
            call=1,
            arg="city",
            path=("city",),
        ),
    ]


def test_a_nested_field_and_stated_defaults_of_one_call() -> None:
    reference = {"title": "Standup", "when": {"day": 3}, "private": False, "notify": True}
    case = _case(("create_event",), Step("call", (_call("create_event", reference),)))

    def changed(**fields: Any) -> tuple[tuple[str, dict[str, Any]], ...]:
        args = {k: v for k, v in {**reference, **fields}.items() if v != "-"}
        return (("create_event", args),)

    def mutant(kind: str, arg: str, calls: Any, value: Any = None, has: bool = True) -> Answer:
        path = tuple(arg.split("."))  # the test's own names hold no dot
        return Answer(0, True, kind, calls, call=0, arg=arg, value=value, has_value=has, path=path)

    got = step_wrong(case, _suite(case), 0, NO_SOURCES)
    assert got == [
        Answer(0, True, "text_answer", (), content=TEXT_ANSWER),
        Answer(0, True, "extra_call", (("create_event", reference), ("create_event", reference))),
        mutant("required_left_out", "title", changed(title="-"), has=False),
        mutant("left_out", "when", changed(when="-"), has=False),
        mutant("field_dropped", "when.day", changed(when={}), has=False),
        mutant("off_by_one", "when.day", changed(when={"day": 4}), 4),
        mutant("off_by_one", "when.day", changed(when={"day": 2}), 2),
        # private is at its stated default: leaving it out is no wrong answer
        mutant("flipped", "private", changed(private=True), True),
        mutant("left_out", "notify", changed(notify="-"), has=False),
        mutant("flipped", "notify", changed(notify=False), False),
    ]
    # each mutant is a copy: the reference is not changed
    assert case.steps[0].calls[0].reference == {
        "title": "Standup",
        "when": {"day": 3},
        "private": False,
        "notify": True,
    }


def test_reference_calls_copy_the_references_in_order() -> None:
    step = Step("call", (_call("get_weather", None), _call("send_slack", {"a": [1]})))
    case = _case(("get_weather", "send_slack"), step)
    refs = reference_calls(case, 0)
    assert refs == (("get_weather", {}), ("send_slack", {"a": [1]}))
    refs[1][1]["a"].append(2)
    assert step.calls[1].reference == {"a": [1]}


def test_an_optional_argument_is_left_out_unless_at_its_stated_default() -> None:
    reference = {"title": "Standup", "private": False, "notify": True}
    case = _case(("create_event",), Step("call", (_call("create_event", reference),)))
    calls = (("create_event", reference),)
    assert step_wrong(case, _suite(case), 0, NO_SOURCES) == [
        Answer(0, True, "text_answer", (), content=TEXT_ANSWER),
        Answer(0, True, "extra_call", (*calls, *calls)),
        Answer(
            0,
            True,
            "required_left_out",
            (("create_event", {"private": False, "notify": True}),),
            call=0,
            arg="title",
            path=("title",),
        ),
        Answer(
            0,
            True,
            "flipped",
            (("create_event", {**reference, "private": True}),),
            call=0,
            arg="private",
            path=("private",),
            value=True,
            has_value=True,
        ),
        Answer(
            0,
            True,
            "left_out",
            (("create_event", {"title": "Standup", "private": False}),),
            call=0,
            arg="notify",
            path=("notify",),
        ),
        Answer(
            0,
            True,
            "flipped",
            (("create_event", {**reference, "notify": False}),),
            call=0,
            arg="notify",
            path=("notify",),
            value=False,
            has_value=True,
        ),
    ]


def test_a_path_is_keys_so_a_name_with_a_dot_is_one_argument() -> None:
    # "user.name" is a top-level argument; ("user", "name") is field name of argument user
    reference = {"user.name": "ann", "user": {"name": "Ann"}, "": True, "7": 3}
    refs = (("send_slack", {"q": 1}), ("create_user", reference))
    top = _with(refs, 1, 0, "left_out", ("user.name",), None, False)
    assert top == Answer(
        0,
        True,
        "left_out",
        (refs[0], ("create_user", {"user": {"name": "Ann"}, "": True, "7": 3})),
        call=1,
        arg="user.name",
        path=("user.name",),
    )
    field = _with(refs, 1, 0, "generic_text", ("user", "name"), "Hi", True)
    assert field == Answer(
        0,
        True,
        "generic_text",
        (refs[0], ("create_user", {"user.name": "ann", "user": {"name": "Hi"}, "": True, "7": 3})),
        call=1,
        arg="user.name",
        value="Hi",
        has_value=True,
        path=("user", "name"),
    )
    empty = _with(refs, 1, 0, "flipped", ("",), False, True)
    assert empty.calls[1] == (
        "create_user",
        {"user.name": "ann", "user": {"name": "Ann"}, "": False, "7": 3},
    )
    assert (empty.arg, empty.path) == ("", ("",))
    digits = _with(refs, 1, 0, "left_out", ("7",), None, False)
    assert digits.calls[1] == (
        "create_user",
        {"user.name": "ann", "user": {"name": "Ann"}, "": True},
    )
    assert refs[1][1] == {"user.name": "ann", "user": {"name": "Ann"}, "": True, "7": 3}  # a copy


def test_every_argument_mutant_of_names_with_dots_empty_and_digits() -> None:
    schema = {
        "type": "object",
        "properties": {
            "a.b": {"type": "boolean"},
            "a": {"type": "object", "properties": {"b": {"type": "boolean"}}},
            "": {"type": "boolean"},
        },
        "required": ["a.b"],
    }
    tool = Tool("t", {"type": "function", "function": {"name": "t", "parameters": schema}}, None)
    reference = {"a.b": True, "a": {"b": False}, "": True}
    case = _case(("t",), Step("call", (ExpectedCall("t", (), reference, None),)))
    suite = Suite("own", "1.0.0", "2026-01-01", "", {"t": tool}, (case,), "", "test")
    got = [
        (a.kind, a.path, a.arg, a.calls[0][1])
        for a in step_wrong(case, suite, 0, NO_SOURCES)
        if a.call is not None
    ]
    assert got == [
        ("required_left_out", ("a.b",), "a.b", {"a": {"b": False}, "": True}),
        ("flipped", ("a.b",), "a.b", {"a.b": False, "a": {"b": False}, "": True}),
        ("left_out", ("a",), "a", {"a.b": True, "": True}),
        ("field_dropped", ("a", "b"), "a.b", {"a.b": True, "a": {}, "": True}),
        ("flipped", ("a", "b"), "a.b", {"a.b": True, "a": {"b": True}, "": True}),
        ("left_out", ("",), "", {"a.b": True, "a": {"b": False}}),
        ("flipped", ("",), "", {"a.b": True, "a": {"b": False}, "": False}),
    ]
