"""The right answers ``suite audit`` builds for one step (scorer/audit/right.py): the reference, its
keys and parallel calls reordered, stated defaults given or left out, integers as floats, a final
newline toggled, a case-insensitive text recased, each answer written out by hand (docs/METHOD.md,
suite-audit; decision 35)."""

from __future__ import annotations

from typing import Any

from scorer.audit.model import Answer
from scorer.audit.right import TEXT_REPLY, step_right
from scorer.suite.model import Case, Check, ExpectedCall, Step, Suite, Tool

NOTE = {
    "type": "object",
    "properties": {
        "path": {"type": "string"},
        "content": {"type": "string"},
        "lines": {"type": "integer"},
        "overwrite": {"type": "boolean", "description": "Replace it (default false)"},
        "mode": {"type": "string", "enum": ["a", "w"], "description": "Open mode (default w)"},
    },
    "required": ["path", "content"],
}


def _suite(*cases: Case) -> Suite:
    tool = Tool("write_note", {"function": {"parameters": NOTE}}, None)
    return Suite("own", "1.0.0", "2026-01-01", "", {"write_note": tool}, cases, "", "test")


def _call(name: str, reference: dict[str, Any], **checks: tuple[str, Any]) -> ExpectedCall:
    args = tuple((arg, (Check(op, operand),)) for arg, (op, operand) in checks.items())
    return ExpectedCall(name, args, reference, None)


def _case(*steps: Step) -> Case:
    return Case("c-01", "parallel", ("write_note", "get_weather"), (), steps)


def _right(*calls: ExpectedCall) -> list[Answer]:
    case = _case(Step("call", calls))
    return step_right(case, _suite(case), 0)


def test_a_step_that_wants_no_call_is_answered_by_a_text() -> None:
    case = _case(Step("none"))
    assert step_right(case, _suite(case), 0) == [
        Answer(0, False, "no_call", (), content=TEXT_REPLY)
    ]


def test_every_right_answer_to_a_parallel_step() -> None:
    note = {"path": "notes/a.md", "content": "Hello\nWorld", "lines": 3, "overwrite": False}
    city = {"city": "Oslo"}
    got = _right(
        _call("write_note", note, content=("contains", "hello"), lines=("eq", 3)),
        _call("get_weather", city, city=("oneOf", ["Oslo", "Oslo\n"])),
    )
    weather = ("get_weather", city)

    def variant(
        kind: str, j: int, arg: str | None, args: dict[str, Any], value: Any = None
    ) -> Answer:
        calls = (
            (("write_note", args), weather)
            if j == 0
            else (("write_note", note), ("get_weather", args))
        )
        has = kind != "default_left_out"
        path = () if arg is None else (arg,)
        return Answer(0, False, kind, calls, call=j, arg=arg, value=value, has_value=has, path=path)

    without = {"path": "notes/a.md", "content": "Hello\nWorld", "lines": 3}
    assert got == [
        Answer(0, False, "reference", (("write_note", note), weather)),
        Answer(0, False, "key_order", (("write_note", note), weather)),
        Answer(0, False, "call_order", (weather, ("write_note", note))),
        variant("default_left_out", 0, "overwrite", without),
        variant("default_given", 0, "mode", {**note, "mode": "w"}, "w"),
        variant("float_number", 0, None, {**note, "lines": 3.0}),
        variant(
            "final_newline", 0, "content", {**note, "content": "Hello\nWorld\n"}, "Hello\nWorld\n"
        ),
        variant("case_variant", 0, "content", {**note, "content": "HELLO\nWORLD"}, "HELLO\nWORLD"),
        variant("final_newline", 1, "city", {"city": "Oslo\n"}, "Oslo\n"),
    ]
    # dicts compare without their order: the key order is checked apart
    assert [list(args) for _, args in got[1].calls] == [
        ["overwrite", "lines", "content", "path"],
        ["city"],
    ]
    assert isinstance(got[5].calls[0][1]["lines"], float)
    assert got[5].calls[0][1]["overwrite"] is False


def test_one_call_of_one_argument_is_not_reordered() -> None:
    assert _right(_call("get_weather", {"city": "Oslo"})) == [
        Answer(0, False, "reference", (("get_weather", {"city": "Oslo"}),))
    ]


def test_two_arguments_are_reordered_and_only_integers_become_floats() -> None:
    got = _right(_call("get_weather", {"flag": True, "ratio": 2.5}))
    assert [a.kind for a in got] == ["reference", "key_order"]
    assert list(got[1].calls[0][1]) == ["ratio", "flag"]
    nested = {"data": [1, {"b": 2}], "flag": True, "x": 0.5}
    got = _right(_call("get_weather", nested))
    assert [a.kind for a in got] == ["reference", "key_order", "float_number"]
    floats = got[2]
    assert floats.calls == (("get_weather", {"data": [1.0, {"b": 2.0}], "flag": True, "x": 0.5}),)
    assert isinstance(floats.calls[0][1]["data"][0], float)
    assert floats.calls[0][1]["flag"] is True
    in_dict = {"data": {"n": 7}}
    (floats,) = [a for a in _right(_call("get_weather", in_dict)) if a.kind == "float_number"]
    assert floats.calls == (("get_weather", {"data": {"n": 7.0}}),)


def test_a_final_newline_is_toggled_where_the_case_lists_both_or_the_text_has_lines() -> None:
    def toggled(value: str, **checks: tuple[str, Any]) -> list[Any]:
        calls = _right(_call("get_weather", {"t": value}, **checks))
        return [a.value for a in calls if a.kind == "final_newline"]

    assert toggled("a\nb\n") == ["a\nb"]
    assert toggled("one line\n") == []
    assert toggled("one line") == []
    assert toggled("one line\n", t=("oneOf", ["one line"])) == ["one line"]
    assert toggled("one line", t=("oneOf", ["x", "one line\n"])) == ["one line\n"]
    assert toggled("one line", t=("eq", "one line\n")) == []
    assert toggled("\n\n") == []
    assert toggled("a\n ") == ["a\n \n"]  # the newline inside is followed by a space only
    assert toggled("a\nX") == ["a\nX\n"]


def test_a_case_insensitive_text_is_upper_cased_or_else_lower_cased() -> None:
    def recased(value: str, op: str) -> list[Any]:
        calls = _right(_call("get_weather", {"t": value}, t=(op, value)))
        return [a.value for a in calls if a.kind == "case_variant"]

    assert recased("straße", "regex") == ["STRAßE"]
    assert recased("ABC", "contains") == ["abc"]
    assert recased("123", "contains") == []
    assert recased("abc", "eq") == []


def test_arguments_at_their_stated_defaults_are_left_out_one_at_a_time() -> None:
    note = {"path": "p", "content": "c", "overwrite": False, "mode": "w"}
    got = _right(_call("write_note", note))
    assert [(a.kind, a.arg, a.calls) for a in got[2:]] == [
        (
            "default_left_out",
            "overwrite",
            (("write_note", {"path": "p", "content": "c", "mode": "w"}),),
        ),
        (
            "default_left_out",
            "mode",
            (("write_note", {"path": "p", "content": "c", "overwrite": False}),),
        ),
    ]
    assert [a.kind for a in got[:2]] == ["reference", "key_order"]
