"""The group rules of ``suite check`` (scorer/suite/rules.py): a test per rule, on built suites
and via the CLI."""

from __future__ import annotations

import copy
import dataclasses
import datetime
import json
from pathlib import Path
from typing import Any

import pytest

from lobstack_eval.main import main
from scorer import Suite, check_suite
from scorer.suite import kind as suite_kind
from scorer.suite import rules as suite_rules
from scorer.suite.model import Case, ExpectedCall, Step
from tests.suitekit import case, make_suite, suite_dict

READ = {
    "name": "read_file",
    "args": {"path": {"eq": "a.txt"}},
    "reference": {"path": "a.txt"},
    "result": "text",
}
ONE = {"expect": "call", "calls": [READ]}
TWO = {"expect": "call", "calls": [READ, READ]}
NONE = {"expect": "none"}

# One case per group, each in the shape the method page gives it.
GOOD = [
    case("selection-01", [ONE]),
    case("arguments-01", [ONE], group="arguments"),
    case("near_misses-01", [ONE], group="near_misses"),
    case("no_call-01", [NONE], group="no_call"),
    case("parallel-01", [TWO], group="parallel"),
    case("chains-01", [ONE, ONE, NONE], group="chains"),
]


@pytest.fixture(scope="module")
def good() -> Suite:
    return make_suite(GOOD)


def with_case(suite: Suite, case_id: str, **changes: Any) -> Suite:
    """The suite with one built case changed (bypassing the builder, so only the group rules
    judge it)."""
    cases = tuple(dataclasses.replace(c, **changes) if c.id == case_id else c for c in suite.cases)
    return dataclasses.replace(suite, cases=cases)


def steps_of(suite: Suite, *shapes: str) -> tuple[Any, ...]:
    """Built steps by shape name: ``one``, ``two``, ``three``, ``four`` (calls) or ``none``."""
    one = suite.case("selection-01").steps[0]
    none = suite.case("no_call-01").steps[0]
    sizes = {"one": 1, "two": 2, "three": 3, "four": 4}
    return tuple(
        none if s == "none" else dataclasses.replace(one, calls=one.calls * sizes[s])
        for s in shapes
    )


def test_the_good_suite_breaks_no_rule(good: Suite) -> None:
    assert suite_rules.problems(good) == []


@pytest.mark.parametrize("group", ["selection", "arguments", "near_misses"])
@pytest.mark.parametrize(
    ("shape", "described"),
    [
        (("two",), "1 step (2 calls)"),
        (("one", "one"), "2 steps (1 call, 1 call)"),
        (("none",), "1 step (none)"),
    ],
)
def test_one_call_groups_have_one_step_expecting_one_call(
    good: Suite, group: str, shape: tuple[str, ...], described: str
) -> None:
    broken = with_case(good, f"{group}-01", steps=steps_of(good, *shape))
    assert suite_rules.problems(broken) == [
        f"case {group}-01.steps: a {group} case has one step expecting one call; this one has "
        f"{described}"
    ]


@pytest.mark.parametrize(
    ("shape", "described"),
    [
        (("one",), "1 step (1 call)"),
        (("four",), "1 step (4 calls)"),
        (("two", "two"), "2 steps (2 calls, 2 calls)"),
    ],
)
def test_parallel_has_one_step_expecting_two_or_three_calls(
    good: Suite, shape: tuple[str, ...], described: str
) -> None:
    broken = with_case(good, "parallel-01", steps=steps_of(good, *shape))
    assert suite_rules.problems(broken) == [
        "case parallel-01.steps: a parallel case has one step expecting two or three calls; this "
        f"one has {described}"
    ]
    assert suite_rules.problems(with_case(good, "parallel-01", steps=steps_of(good, "three"))) == []


@pytest.mark.parametrize(
    ("shape", "described"),
    [
        (("one",), "1 step (1 call)"),
        (("one", "one", "one", "one", "none"), "5 steps (1 call, 1 call, 1 call, 1 call, none)"),
        (("two", "one"), "2 steps (2 calls, 1 call)"),
    ],
)
def test_chains_have_two_to_four_steps_of_one_call(
    good: Suite, shape: tuple[str, ...], described: str
) -> None:
    broken = with_case(good, "chains-01", steps=steps_of(good, *shape))
    assert suite_rules.problems(broken) == [
        "case chains-01.steps: a chain has 2 to 4 steps, each call step expecting one call; this "
        f"one has {described}"
    ]
    for fine in (("one", "one"), ("one", "one", "one", "one"), ("one", "none")):
        assert (
            suite_rules.problems(with_case(good, "chains-01", steps=steps_of(good, *fine))) == []
        ), fine


def test_no_call_expects_no_call_first(good: Suite) -> None:
    broken = with_case(good, "no_call-01", steps=steps_of(good, "one", "none"))
    assert suite_rules.problems(broken) == [
        "case no_call-01.steps[0].expect: a no_call case expects no call first; this one has 2 "
        "steps (1 call, none)"
    ]


@pytest.mark.parametrize(
    ("case_id", "group"),
    [
        ("selection-1", "selection"),
        ("selection-00", "selection"),
        ("chains-01", "selection"),
        ("sel-01", "selection"),
        ("selection-100", "selection"),
        ("near-misses-01", "near_misses"),
        ("selection-01 ", "selection"),
    ],
)
def test_ids_are_group_dash_two_digits(good: Suite, case_id: str, group: str) -> None:
    broken = with_case(good, "selection-01", id=case_id, group=group)
    assert suite_rules.problems(broken) == [
        f"case {case_id}.id: must be <group>-NN with NN from 01 to 99, here {group}-01 to "
        f"{group}-99"
    ]
    assert suite_rules.problems(with_case(good, "selection-01", id="selection-99")) == []


@pytest.mark.parametrize("case_id", ["a", "9", "A.b-c_9", "x..y", "a" * 100, "0" + "." * 99])
def test_every_suite_takes_a_file_name_as_case_id(case_id: str) -> None:
    assert suite_rules.file_id_problems(case_id) == []


@pytest.mark.parametrize(
    "case_id", ["", ".", "..", ".a", "-a", "_a", "a" * 101, "a/b", "a b", "a*b", "a:b"]
)
def test_a_case_id_that_is_no_file_name_is_refused(case_id: str) -> None:
    assert suite_rules.file_id_problems(case_id) == [
        f"case {case_id}.id: must be 1 to 100 letters, digits, '_', '.' or '-', starting with a "
        "letter or digit"
    ]


@pytest.mark.parametrize(
    ("content", "kind"),
    [
        (None, "null"),
        ([{"type": "text", "text": "hi"}], "an array"),
        ({"text": "hi"}, "an object"),
        (3, "a number"),
        (2.5, "a number"),
        (True, "a boolean"),
        # No JSON or YAML value is another type; the fallback names the Python type.
        (datetime.date(2026, 1, 2), "date"),
    ],
)
def test_message_contents_are_strings(good: Suite, content: Any, kind: str) -> None:
    messages = ({"role": "user", "content": "first"}, {"role": "assistant", "content": content})
    broken = with_case(good, "no_call-01", messages=messages)
    assert suite_rules.problems(broken) == [
        f"case no_call-01.messages[1].content: must be a string, got {kind}"
    ]
    missing = with_case(good, "no_call-01", messages=({"role": "user"},))
    assert suite_rules.problems(missing) == [
        "case no_call-01.messages[0].content: must be a string, got null"
    ]


def test_published_1_1_0_must_match_the_method_table(good: Suite) -> None:
    counts = good.group_counts()
    found = suite_rules.count_problems("lobstack-tool-calling", "1.1.0", counts)
    assert len(found) == 6
    assert found[0] == (
        "cases: group 'selection' has 1 cases; the method page's table for lobstack-tool-calling "
        "1.1.0 says 14"
    )
    assert suite_rules.count_problems("lobstack-tool-calling", "1.0.0", counts) == [
        line.replace("1.1.0", "1.0.0") for line in found
    ]
    # Another version of the published suite, or another suite, is not held to the table.
    assert suite_rules.count_problems("lobstack-tool-calling", "1.2.0", counts) == []
    assert suite_rules.count_problems("my-suite", "1.1.0", counts) == []


def test_every_rule_is_reported_not_just_the_first(good: Suite) -> None:
    broken = with_case(
        good,
        "selection-01",
        id="sel-01",
        steps=steps_of(good, "two"),
        messages=({"role": "user", "content": None},),
    )
    assert [line.split(":")[0] for line in suite_rules.problems(broken)] == [
        "case sel-01.id",
        "case sel-01.messages[0].content",
        "case sel-01.steps",
    ]


def test_suite_check_lists_group_rule_problems(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    doc = suite_dict(copy.deepcopy(GOOD))
    doc["cases"][0]["steps"] = [
        TWO
    ]  # a Selection case with two calls: the builder accepts it, the rules do not
    doc["cases"][3]["messages"][0]["content"] = [{"type": "text", "text": "hello"}]
    path = tmp_path / "suite.json"
    path.write_text(json.dumps(doc), encoding="utf-8")
    assert check_suite(path.read_bytes(), str(path)).suite is None
    assert main(["suite", "check", str(path)]) == 1
    err = capsys.readouterr().err.splitlines()
    assert err[:2] == [
        f"{path}: case selection-01.steps: a selection case has one step expecting one call; this "
        "one has 1 step (2 calls)",
        f"{path}: case no_call-01.messages[0].content: must be a string, got an array",
    ]
    assert err[2].startswith(f"error: {path}: 2 problem(s)")


def test_suite_check_lists_rule_problems_even_when_the_suite_does_not_build(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # A duplicate id stops the suite building; the id and message rules still judge every case,
    # once each.
    doc = suite_dict(copy.deepcopy(GOOD))
    doc["cases"].append(copy.deepcopy(doc["cases"][0]))
    doc["cases"][1]["id"] = "bad/id"
    doc["cases"][2]["messages"][0]["content"] = None
    doc["cases"][2]["tools"].append("fly")  # a builder problem in the same case: both are listed
    path = tmp_path / "suite.json"
    path.write_text(json.dumps(doc), encoding="utf-8")
    assert main(["suite", "check", str(path)]) == 1
    err = capsys.readouterr().err.splitlines()
    assert err[:-1] == [
        f"{path}: case bad/id.id: must be <group>-NN with NN from 01 to 99, here arguments-01 to "
        "arguments-99",
        f"{path}: case near_misses-01.tools: 'fly' is not in the tools catalogue (or its schema is "
        "invalid)",
        f"{path}: case near_misses-01.messages[0].content: must be a string, got null",
        f"{path}: case selection-01.id: duplicate case id",
    ]
    assert err[-1].startswith(f"error: {path}: 4 problem(s)")


# --- Tool names gateways accept -------------------------------------------------------------------

RULE = "1-64 characters of a-z, A-Z, 0-9, _ and - (^[a-zA-Z0-9_-]{1,64}$, OpenAI's rule)"


@pytest.mark.parametrize(
    ("name", "shown"),
    [
        ("read.file", "'read.file'"),
        ("read file", "'read file'"),
        ("r" * 200, "'" + "r" * 75 + "...'"),
        ("read\x07file", "'read\\x07file'"),
        ("lire_fiché", "'lire_fiché'"),
        ("", "''"),
    ],
    ids=["dot", "space", "200-characters", "control-character", "non-ascii", "empty"],
)
def test_suite_check_refuses_a_tool_name_gateways_refuse(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], name: str, shown: str
) -> None:
    from tests.suitekit import TOOLS

    doc = suite_dict(copy.deepcopy(GOOD), {**TOOLS, name: copy.deepcopy(TOOLS["read_file"])})
    doc["tools"][name]["function"]["name"] = name
    doc["cases"][0]["tools"].append(name)  # offered in selection-01, never expected
    path = tmp_path / "suite.json"
    path.write_text(json.dumps(doc), encoding="utf-8")
    assert main(["suite", "check", str(path)]) == 1
    err = capsys.readouterr().err.splitlines()
    assert err[:-1] == [
        f"{path}: tools[{shown}]: not a tool name gateways accept: {RULE}",
        f"{path}: case selection-01.tools: {shown} is not a tool name gateways accept: {RULE}",
    ]
    assert err[-1].startswith(f"error: {path}: 2 problem(s)")


@pytest.mark.parametrize("name", ["read_file", "a", "x" * 64, "Get-Weather_2"])
def test_a_tool_name_gateways_accept_passes(name: str) -> None:
    from tests.suitekit import TOOLS

    tools = {**TOOLS, name: copy.deepcopy(TOOLS["read_file"])}
    tools[name]["function"]["name"] = name
    cases = copy.deepcopy(GOOD)
    if name != "read_file":
        cases[0]["tools"].append(name)
    assert isinstance(make_suite(cases, tools), Suite)


def test_a_suite_without_cases_breaks_no_group_rule(good: Suite) -> None:
    assert suite_rules.problems(dataclasses.replace(good, cases=())) == []


@pytest.mark.parametrize(
    ("name", "lobstack"),
    [
        ("lobstack-tool-calling", True),
        ("lobstack-", True),
        ("lobstack-my-test", True),
        ("Lobstack-tool-calling", False),
        ("lobstack", False),
        ("my-lobstack-suite", False),
        (None, False),
        (3, False),
    ],
)
def test_a_lobstack_suite_is_named_lobstack_dash(name: object, lobstack: bool) -> None:
    assert suite_kind.is_lobstack(name) is lobstack
    counts = {"chains": 2, "other": 1}
    if lobstack:
        assert list(suite_kind.group_order(name, counts).items()) == [
            ("selection", 0),
            ("arguments", 0),
            ("near_misses", 0),
            ("no_call", 0),
            ("parallel", 0),
            ("chains", 2),
        ]
    else:
        assert list(suite_kind.group_order(name, counts).items()) == [("chains", 2), ("other", 1)]


def test_group_counts_against_the_method_table() -> None:
    table = {
        "selection": 14,
        "arguments": 16,
        "near_misses": 12,
        "no_call": 14,
        "parallel": 12,
        "chains": 12,
    }
    assert suite_rules.count_problems("lobstack-tool-calling", "1.1.0", table) == []
    # A group the counts do not hold has 0 cases.
    assert suite_rules.count_problems("lobstack-tool-calling", "1.0.0", {"chains": 12}) == [
        f"cases: group {group!r} has 0 cases; the method page's table for lobstack-tool-calling "
        f"1.0.0 says {count}"
        for group, count in table.items()
        if group != "chains"
    ]
    # A name or version that is no string (a YAML list) is no published suite.
    assert suite_rules.count_problems(["lobstack-tool-calling"], "1.1.0", {}) == []
    assert suite_rules.count_problems("lobstack-tool-calling", ["1.1.0"], {}) == []


def test_the_shape_rule_on_cases_built_by_hand() -> None:
    """Without the builder (no suite read): the rule and its wording alone."""
    call = ExpectedCall("f", (), {}, None)
    one, two, none = Step("call", (call,)), Step("call", (call, call)), Step("none")

    def shape(group: str, *steps: Step) -> list[str]:
        return suite_rules.shape_problems(Case(f"{group}-01", group, ("f",), (), steps))

    assert shape("no_call", one, none) == [
        "case no_call-01.steps[0].expect: a no_call case expects no call first; this one has 2 "
        "steps (1 call, none)"
    ]
    assert shape("no_call", none) == []
    assert shape("selection", one) == []
    assert shape("selection", none) == [
        "case selection-01.steps: a selection case has one step expecting one call; this one has "
        "1 step (none)"
    ]
    assert shape("parallel", two) == []
    assert shape("parallel", none) == [
        "case parallel-01.steps: a parallel case has one step expecting two or three calls; this "
        "one has 1 step (none)"
    ]
    assert shape("chains", one, one) == []
    assert shape("chains", one, none) == []
    assert shape("chains", two, none) == [
        "case chains-01.steps: a chain has 2 to 4 steps, each call step expecting one call; this "
        "one has 2 steps (2 calls, none)"
    ]
    assert shape("own_group", none, two, one) == []
