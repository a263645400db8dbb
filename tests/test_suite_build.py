"""The suite builder (scorer/suite/build.py): every problem line it writes, worded exactly, and
the objects it builds."""

from __future__ import annotations

import copy
import hashlib
import json
from typing import Any

import pytest

from scorer.suite.build import SuiteBuilder
from scorer.suite.file import check_suite
from scorer.suite.model import AuditAccept, Case, Check, ExpectedCall, Step
from scorer.suite.tools import TOOL_NAME_RULE
from tests.suitekit import TOOLS

READ = {"name": "read_file", "args": {"path": {"eq": "a"}}, "reference": {"path": "a"}}
ROLES = "('user', 'assistant', 'tool', 'system')"


def own(cases: list[dict[str, Any]], **top: Any) -> dict[str, Any]:
    """A suite of one's own (not Lobstack's: no group rules) around ``cases``."""
    return {
        "name": "my-suite",
        "version": "1.2.3",
        "released": "2026-10-21",
        "system_prompt": "You help.",
        "tools": copy.deepcopy(TOOLS),
        "cases": cases,
        **top,
    }


def one(case_id: str = "c1", steps: Any = None, **fields: Any) -> dict[str, Any]:
    return {
        "id": case_id,
        "group": "g",
        "tools": ["read_file"],
        "messages": [{"role": "user", "content": "hi"}],
        "steps": steps if steps is not None else [{"expect": "call", "calls": [dict(READ)]}],
        **fields,
    }


def problems(document: dict[str, Any]) -> list[str]:
    return list(check_suite(json.dumps(document).encode(), "s.json").problems)


def test_a_good_suite_builds_every_field() -> None:
    chain = one(
        "c.2",
        [
            {"expect": "call", "calls": [{**READ, "result": "text"}]},
            {
                "expect": "call",
                "calls": [{**READ, "args": {"path": [{"eq": "a"}, {"regex": "a"}]}, "result": "t"}],
            },
            {"expect": "none"},
        ],
        draft="edit me",
    )
    raw = json.dumps(own([one(), chain])).encode()
    report = check_suite(raw, "s.json")
    assert report.problems == ()
    suite = report.suite
    assert suite is not None
    assert type(suite.tools) is dict and type(suite.cases) is tuple
    assert suite.sha256 == hashlib.sha256(raw).hexdigest()
    assert (suite.name, suite.version, suite.released, suite.system_prompt, suite.source) == (
        "my-suite",
        "1.2.3",
        "2026-10-21",
        "You help.",
        "s.json",
    )
    assert sorted(suite.tools) == sorted(TOOLS)
    call = ExpectedCall("read_file", (("path", (Check("eq", "a"),)),), {"path": "a"}, None)
    assert suite.cases[0] == Case(
        "c1",
        "g",
        ("read_file",),
        ({"role": "user", "content": "hi"},),
        (Step("call", (call,)),),
    )
    assert suite.cases[1].draft == "edit me"
    assert suite.cases[1].steps == (
        Step("call", (ExpectedCall("read_file", call.args, {"path": "a"}, "text"),)),
        Step(
            "call",
            (
                ExpectedCall(
                    "read_file",
                    (("path", (Check("eq", "a"), Check("regex", "a"))),),
                    {"path": "a"},
                    "t",
                ),
            ),
        ),
        Step("none"),
    )


def test_the_top_level_fields() -> None:
    document = own([one()], name="", version=0.1, released=7, system_prompt=None)
    assert problems(document) == [
        "name: missing or not a non-empty string",
        'version: 0.1 is a number, not a string: quote it ("0.1")',
        'released: 7 is a number, not a string: quote it ("7")',
        "system_prompt: missing or not a non-empty string",
    ]
    assert problems(own([one()], version="1.2", released="2026-02-29")) == [
        "version: '1.2' is not MAJOR.MINOR.PATCH",
        "released: '2026-02-29' is not a YYYY-MM-DD date (a real day)",
    ]
    assert problems(own([])) == ["cases: missing or not a non-empty list"]
    assert problems(own({})) == ["cases: missing or not a non-empty list"]
    builder = SuiteBuilder("s.json")
    assert builder.suite([], "0" * 64) is None
    assert builder.problems == ["(top level): a suite must be an object"]


def test_each_case_field() -> None:
    cases = [
        "x",
        {"id": ""},
        one(),
        one("c2", group="", draft=""),
        one("c3", group="g" * 65, tools="read_file"),
        one("c4", tools=["read_file", "read_file", "a b", "zz", "read_file"]),
        one("c5", messages=[]),
        one("c6", messages=["hi", {"role": "robot"}, {"content": "x"}]),
        one("c7", group="g" * 64, draft=3),
    ]
    cases.append(copy.deepcopy(cases[2]))
    assert problems(own(cases)) == [
        "cases[0]: a case must be an object",
        "cases[1].id: missing or not a non-empty string",
        "case c2.group: missing or not a string of 1 to 64 characters",
        "case c2.draft: must be a non-empty string (what to edit)",
        "case c3.group: missing or not a string of 1 to 64 characters",
        "case c3.tools: must be a list of tool names",
        "case c3.steps[0].calls[0].name: 'read_file' is not among the case's offered tools",
        "case c4.tools: 'read_file' is offered 3 times",
        f"case c4.tools: 'a b' is not a tool name gateways accept: {TOOL_NAME_RULE}",
        "case c4.tools: 'zz' is not in the tools catalogue (or its schema is invalid)",
        "case c5.messages: missing or not a non-empty list",
        f"case c6.messages[0]: must be an object with role one of {ROLES}",
        f"case c6.messages[1]: must be an object with role one of {ROLES}",
        f"case c6.messages[2]: must be an object with role one of {ROLES}",
        "case c6.messages[1].content: must be a string, got null",
        "case c7.draft: must be a non-empty string (what to edit)",
        "case c1.id: duplicate case id",
    ]


def test_each_step_and_call_field() -> None:
    steps = [
        {"expect": "none", "calls": [READ]},
        {"expect": "maybe"},
        "none",
        {"expect": "call", "calls": []},
        {"expect": "call"},
        {
            "expect": "call",
            "calls": [
                "read_file",
                {"name": 3},
                {**READ, "name": "send_email", "reference": None},
                {**READ, "result": 3},
                {**READ, "reference": [], "result": "r"},
            ],
        },
        {"expect": "call", "calls": [{**READ, "result": 3}]},
    ]
    at = "case c1.steps"
    assert problems(own([one(steps=steps)])) == [
        f'{at}[0].calls: a "none" step has no calls',
        f'{at}[0]: a "none" step may only be the last step',
        f'{at}[1].expect: must be "call" or "none"',
        f'{at}[2].expect: must be "call" or "none"',
        f'{at}[3].calls: a "call" step needs a non-empty list of calls',
        f'{at}[4].calls: a "call" step needs a non-empty list of calls',
        f"{at}[5].calls[0].name: a call needs a tool name",
        f"{at}[5].calls[1].name: a call needs a tool name",
        f"{at}[5].calls[2].name: 'send_email' is not among the case's offered tools",
        f"{at}[5].calls[2].args.path: send_email has no argument 'path'",
        f"{at}[5].calls[2].result: a call in a non-final step needs a scripted result",
        f"{at}[5].calls[2].reference: missing or not an argument object",
        f"{at}[5].calls[3].result: must be a string (the tool message content)",
        f"{at}[5].calls[3].result: a call in a non-final step needs a scripted result",
        f"{at}[5].calls[4].reference: missing or not an argument object",
        f"{at}[6].calls[0].result: must be a string (the tool message content)",
    ]


def test_each_argument_check() -> None:
    args = {
        "path": [{"eq": "a"}, {"eq": "b", "regex": "a"}, "a", {"nearly": 1}],
        "start_line": {"range": {"min": 2}},
        "end_line": {},
    }
    call = {**READ, "args": args, "reference": {"path": "a", "start_line": 1, "end_line": 0}}
    at = "case c1.steps[0].calls[0]"
    assert problems(own([one(steps=[{"expect": "call", "calls": [call]}])])) == [
        f"{at}.args.path[1]: a check is an object with exactly one operator key",
        f"{at}.args.path[2]: a check is an object with exactly one operator key",
        f"{at}.args.path[3]: unknown check operator 'nearly' (known: eq, subset, regex, oneOf, "
        "contains, present, absent, range)",
        f"{at}.args.end_line: a check is an object with exactly one operator key",
        f"{at}.reference.start_line: fails its own check: expected range [2, ], got 1",
        f"{at}.reference: does not validate against read_file's schema: end_line: 0 is less "
        "than the minimum of 1",
    ]
    no_args = {**READ, "args": ["path"]}
    assert problems(own([one(steps=[{"expect": "call", "calls": [no_args]}])])) == [
        f"{at}.args: must be an object of argument name -> check(s)"
    ]
    # A tool not in the catalogue: its arguments are not known, so none is refused.
    unknown = {**READ, "name": "zz", "args": {"q": {"eq": 1}}, "reference": {"q": 2}}
    document = own([one(tools=["zz"], steps=[{"expect": "call", "calls": [unknown]}])])
    assert problems(document) == [
        "case c1.tools: 'zz' is not in the tools catalogue (or its schema is invalid)",
        f"{at}.reference.q: fails its own check: expected eq 1, got 2",
    ]


@pytest.mark.parametrize(
    ("group", "steps", "problem"),
    [
        (
            "chains",
            [{"expect": "call", "calls": [READ]}],
            "steps: a chain has 2 to 4 steps, this one has 1",
        ),
        (
            "no_call",
            [{"expect": "call", "calls": [{**READ, "result": "r"}]}, {"expect": "none"}],
            'steps[0].expect: a no_call case expects "none" first',
        ),
        (
            "parallel",
            [{"expect": "call", "calls": [READ]}],
            "steps: a parallel case has a step expecting 2 or 3 calls",
        ),
    ],
)
def test_a_lobstack_suites_group_rules(group: str, steps: list[Any], problem: str) -> None:
    document = own([one(f"{group}-01", steps, group=group)], name="lobstack-x")
    found = problems(document)
    assert found[0] == f"case {group}-01.{problem}"
    document["cases"][0]["group"] = "g"
    assert problems(document)[0] == (
        "case g-01.group: 'g' is not one of selection, arguments, near_misses, no_call, "
        "parallel, chains"
    ).replace("g-01", f"{group}-01")


def test_a_lobstack_chain_has_two_to_four_steps() -> None:
    step = {"expect": "call", "calls": [{**READ, "result": "r"}]}
    for count, fine in ((1, False), (2, True), (4, True), (5, False)):
        steps = [copy.deepcopy(step) for _ in range(count - 1)] + [{"expect": "none"}]
        if count == 1:
            steps = [{"expect": "call", "calls": [READ]}]
        document = own([one("chains-01", steps, group="chains")], name="lobstack-x")
        found = [p for p in problems(document) if p.startswith("case chains-01.steps: a chain has")]
        assert found == (
            []
            if fine
            else [f"case chains-01.steps: a chain has 2 to 4 steps, this one has {count}"]
        ), count


def test_a_lobstack_parallel_case_has_a_step_of_two_or_three_calls() -> None:
    tools = ["read_file", "send_email", "send_slack", "get_weather"]
    calls = [
        READ,
        {"name": "send_email", "reference": {"to": ["a"], "subject": "s", "body": "b"}},
        {"name": "send_slack", "reference": {"channel": "#a", "text": "t"}},
        {"name": "get_weather", "reference": {"city": "c"}},
    ]
    for count, fine in ((1, False), (2, True), (3, True), (4, False)):
        steps = [{"expect": "call", "calls": calls[:count]}]
        case = one("parallel-01", steps, group="parallel", tools=tools)
        found = problems(own([case], name="lobstack-x"))
        want = "case parallel-01.steps: a parallel case has a step expecting 2 or 3 calls"
        assert found == ([] if fine else [want]), (count, found)


@pytest.mark.parametrize("call", [{"name": 3}, {"name": None}, {"name": ["read_file"]}])
def test_a_call_whose_name_is_no_string(call: dict[str, Any]) -> None:
    document = own([one(steps=[{"expect": "call", "calls": [call]}])])
    assert problems(document) == ["case c1.steps[0].calls[0].name: a call needs a tool name"]


def test_references_against_the_origins_tools() -> None:
    strict = {
        "type": "object",
        "properties": {"path": {"type": "string", "maxLength": 1}, "n": {"type": "integer"}},
    }
    origin = {"kind": "tools_file", "tools": [{"name": "read_file", "parameters": strict}]}
    calls = [
        {**READ, "reference": {"path": "a"}, "result": "r"},
        {**READ, "args": {}, "reference": {"path": "ab"}, "result": "r"},
        {**READ, "args": {}, "reference": {"path": "a", "n": 1}},
    ]
    steps = [{"expect": "call", "calls": calls[:2]}, {"expect": "call", "calls": calls[2:]}]
    at = "case c1.steps"
    assert problems(own([one(steps=steps)], origin=origin)) == [
        f"{at}[0].calls[1].reference: does not validate against read_file's schema in the "
        "origin: path: 'ab' is too long",
        # The suite's own schema refuses it first: the origin is not asked.
        f"{at}[1].calls[0].reference: does not validate against read_file's schema: (root): "
        "Additional properties are not allowed ('n' was unexpected)",
    ]
    # An origin with problems builds no validators: only its problems are said.
    bad = {"kind": "tools_file", "tools": [{"name": "read_file", "parameters": {"type": 3}}]}
    assert problems(own([one(steps=steps)], origin=bad)) == [
        "origin.tools[0].parameters.type: 3 is not valid under any of the given schemas",
        f"{at}[1].calls[0].reference: does not validate against read_file's schema: (root): "
        "Additional properties are not allowed ('n' was unexpected)",
    ]
    assert problems(own([one()], origin={"kind": "x", "tools": []})) == [
        "origin.kind: 'x' is not one of mcp, tools_file"
    ]


def test_every_check_of_a_list_is_read_past_a_bad_one() -> None:
    args = {"path": [{"nearly": 1}, {"eq": "b"}, [], {"eq": "c"}]}
    call = {**READ, "args": args}
    at = "case c1.steps[0].calls[0]"
    assert problems(own([one(steps=[{"expect": "call", "calls": [call]}])])) == [
        f"{at}.args.path[0]: unknown check operator 'nearly' (known: eq, subset, regex, oneOf, "
        "contains, present, absent, range)",
        f"{at}.args.path[2]: a check is an object with exactly one operator key",
        f'{at}.reference.path: fails its own check: expected eq "b", got "a"',
        f'{at}.reference.path: fails its own check: expected eq "c", got "a"',
    ]


def test_a_builder_that_has_read_no_suite_is_not_lobstacks() -> None:
    # Its tools are whole JSON Schema (a format is taken), as an own suite's are.
    tools = SuiteBuilder("s.json").tools(
        {"t": {"type": "function", "function": {"name": "t", "parameters": PARAMETERS}}}
    )
    assert list(tools) == ["t"]


PARAMETERS = {"type": "object", "properties": {"day": {"type": "string", "format": "date"}}}


def test_the_builders_parts_read_alone() -> None:
    builder = SuiteBuilder("s.json")
    assert builder.args(
        {"path": {"eq": "a"}, "n": [{"range": {"min": 1}}, {"absent": True}]}, "at", None
    ) == (
        ("path", (Check("eq", "a"),)),
        ("n", (Check("range", {"min": 1}), Check("absent", True))),
    )
    assert builder.args({}, "at", None) == ()
    assert builder.problems == []
    # A suite of no-call cases has no origin tools: an empty mapping, not None.
    document = own([one(steps=[{"expect": "none"}])])
    suite = check_suite(json.dumps(document).encode(), "s.json").suite
    assert suite is not None and suite.origin_tools == {}


def test_a_built_suite_keeps_its_origins_validators() -> None:
    strict = {"type": "object", "properties": {"path": {"type": "string", "maxLength": 1}}}
    origin = {"kind": "tools_file", "tools": [{"name": "read_file", "parameters": strict}]}
    suite = check_suite(json.dumps(own([one()], origin=origin)).encode(), "s.json").suite
    assert suite is not None and sorted(suite.origin_tools) == ["read_file"]
    assert not suite.origin_tools["read_file"].is_valid({"path": "ab"})


def test_a_calls_audit_markers_are_read_and_checked() -> None:
    marker = {"arg": "path", "kind": "flipped", "reason": "either path is fine", "value": "b"}
    call = {**READ, "audit_accept": [marker]}
    suite = check_suite(
        json.dumps(own([one(steps=[{"expect": "call", "calls": [call]}])])).encode(), "s.json"
    ).suite
    assert suite is not None
    assert suite.cases[0].steps[0].calls[0].audit_accept == (
        AuditAccept("path", "flipped", "either path is fine", "b", True),
    )
    bad = {**READ, "audit_accept": {"arg": "path"}}
    assert problems(own([one(steps=[{"expect": "call", "calls": [bad]}])])) == [
        "case c1.steps[0].calls[0].audit_accept: must be a list of {arg, kind, reason[, value]} "
        "objects"
    ]


def test_a_reference_that_is_no_object_is_kept_as_none() -> None:
    builder = SuiteBuilder("s.json")
    call = builder.call({"name": "read_file", "reference": []}, "at", {"read_file"}, {}, False)
    assert call == ExpectedCall("read_file", (), None, None)
    assert builder.problems == ["at.reference: missing or not an argument object"]


def test_the_origin_is_not_asked_when_the_suites_schema_refuses() -> None:
    strict = {"type": "object", "properties": {"path": {"type": "string", "maxLength": 1}}}
    origin = {"kind": "tools_file", "tools": [{"name": "read_file", "parameters": strict}]}
    # Refused by both schemas: too long for the origin, an unknown argument for the suite's.
    call = {**READ, "args": {}, "reference": {"path": "ab", "n": 1}}
    assert problems(own([one(steps=[{"expect": "call", "calls": [call]}])], origin=origin)) == [
        "case c1.steps[0].calls[0].reference: does not validate against read_file's schema: "
        "(root): Additional properties are not allowed ('n' was unexpected)"
    ]


def test_a_check_with_a_bad_operand_is_left_out() -> None:
    builder = SuiteBuilder("s.json")
    assert builder.args({"p": [{"nearly": 1}, {"eq": 2}], "q": {"range": 3}}, "at", None) == (
        ("p", (Check("eq", 2),)),
        ("q", ()),
    )
    assert builder.problems == [
        "at.p[0]: unknown check operator 'nearly' (known: eq, subset, regex, oneOf, contains, "
        "present, absent, range)",
        "at.q: range needs an object with min and/or max",
    ]


@pytest.mark.parametrize("steps", [[], "x", {"expect": "none"}])
def test_steps_that_are_no_list_are_one_problem(steps: Any) -> None:
    assert problems(own([one(steps=steps)])) == ["case c1.steps: missing or not a non-empty list"]
    # No group rule is asked of a case with no steps, a Lobstack one's neither.
    lobstack = own([one("chains-01", steps, group="chains")], name="lobstack-x")
    assert problems(lobstack) == ["case chains-01.steps: missing or not a non-empty list"]


def test_group_rules_are_lobstacks_only() -> None:
    assert problems(own([one("chains-01", group="chains")])) == []
    assert problems(own([one("no_call-01", group="no_call")])) == []


def test_a_tool_offered_twice_is_said_once() -> None:
    assert problems(own([one(tools=["read_file", "read_file"])])) == [
        "case c1.tools: 'read_file' is offered 2 times"
    ]


def test_the_id_and_message_rules_are_both_said() -> None:
    said = [{"role": "user", "content": 3}]
    content = "messages[0].content: must be a string, got a number"
    assert problems(own([one("-x", messages=said)])) == [
        "case -x.id: must be 1 to 100 letters, digits, '_', '.' or '-', starting with a letter "
        "or digit",
        f"case -x.{content}",
    ]
    lobstack = own([one("selection-1", group="selection", messages=said)], name="lobstack-x")
    assert problems(lobstack) == [
        "case selection-1.id: must be <group>-NN with NN from 01 to 99, here selection-01 to "
        "selection-99",
        f"case selection-1.{content}",
    ]


def test_a_message_object_with_another_role_is_refused() -> None:
    said = [{"role": "robot", "content": "x"}]
    assert problems(own([one(messages=said)])) == [
        f"case c1.messages[0]: must be an object with role one of {ROLES}"
    ]


def test_a_case_that_does_not_build_still_has_its_steps_read() -> None:
    steps = [{"expect": "call", "calls": [{"name": "zz", "reference": {}}]}]
    assert problems(own([one(group="", steps=steps)])) == [
        "case c1.group: missing or not a string of 1 to 64 characters",
        "case c1.steps[0].calls[0].name: 'zz' is not among the case's offered tools",
    ]


def test_a_built_lobstack_case_gets_the_shape_rule() -> None:
    case = one("selection-01", [{"expect": "none"}], group="selection")
    assert problems(own([case], name="lobstack-x")) == [
        "case selection-01.steps: a selection case has one step expecting one call; this one has "
        "1 step (none)"
    ]


def test_a_step_with_another_expect_is_refused() -> None:
    assert problems(own([one(steps=[{"expect": "maybe"}])])) == [
        'case c1.steps[0].expect: must be "call" or "none"'
    ]
    builder = SuiteBuilder("s.json")
    assert builder.steps(["x"], "w", set(), {}) == []
    assert builder.problems == ['w.steps[0].expect: must be "call" or "none"']
