"""Argument checks, one table row per edge case of docs/FORMATS.md, "Suite file"."""

import json
from pathlib import Path

import pytest

from scorer.checks import (
    CASE_INSENSITIVE,
    OPERATORS,
    Operator,
    _any_operand,
    _needs_true,
    operand_problem,
    operator,
    run_check,
)

ROWS = json.loads((Path(__file__).parent / "tables" / "checks.json").read_text(encoding="utf-8"))


@pytest.mark.parametrize("row", ROWS, ids=[row["id"] for row in ROWS])
def test_check_table(row: dict) -> None:
    present = not row.get("absent", False)
    failure = run_check(row["op"], row["operand"], present, row.get("value"))
    assert (failure is None) == row["holds"], failure
    assert operand_problem(row["op"], row["operand"]) is None


def test_failure_names_what_was_expected_and_got() -> None:
    assert run_check("eq", 10, True, 11) == "expected eq 10, got 11"
    assert run_check("eq", "a", False, None) == 'expected eq "a", got nothing (argument left out)'
    assert run_check("absent", True, True, 3) == "expected absent, got 3"


@pytest.mark.parametrize(
    ("op", "operand", "fragment"),
    [
        ("equals", 1, "unknown check operator"),
        ("regex", "([a-z", "does not compile"),
        ("regex", 5, "needs a string"),
        ("regex", r"(\w)\1", "the linear-time engine (RE2) cannot run it"),
        ("regex", "(?<=a)b", "the linear-time engine (RE2) cannot run it"),
        ("range", {"min": "1"}, "bounds must be numbers"),
        ("range", {"min": True}, "bounds must be numbers"),
        ("range", {"low": 1}, "min and/or max"),
        ("range", {"min": 5, "max": 1}, "greater than max"),
        ("oneOf", "a", "non-empty list"),
        ("oneOf", [], "non-empty list"),
        ("subset", "a", "object or an array"),
        ("present", False, "needs true"),
    ],
)
def test_operand_problems(op: str, operand: object, fragment: str) -> None:
    problem = operand_problem(op, operand)
    assert problem is not None and fragment in problem


def _method_checks_table() -> list[str]:
    """The rows of METHOD.md's checks table ("| Check | Holds when |"), without header and rule."""
    lines = (Path(__file__).parent.parent / "docs" / "METHOD.md").read_text("utf-8").splitlines()
    start = lines.index("| Check | Holds when |") + 2
    rows = []
    for line in lines[start:]:
        if not line.startswith("|"):
            break
        rows.append(line)
    return rows


def test_method_table_is_the_registry() -> None:
    """METHOD.md's checks table has one line per registered operator: its own, and no other."""
    rows = _method_checks_table()
    assert sorted(rows) == sorted(op.method_row for op in OPERATORS.values())
    assert len(rows) == len(OPERATORS)


def test_every_operator_has_table_rows_that_hold_and_fail() -> None:
    """Each operator is exercised by tests/tables/checks.json, both holding and failing."""
    for name in OPERATORS:
        outcomes = {row["holds"] for row in ROWS if row["op"] == name}
        assert outcomes == {True, False}, name


@pytest.mark.parametrize("name", sorted(OPERATORS))
def test_case_insensitivity_is_declared(name: str) -> None:
    """An operator declared case-insensitive holds for a value in other case; the others do not."""
    operand = {"regex": "oslo", "contains": "oslo"}.get(name)
    if operand is None:
        assert name not in CASE_INSENSITIVE
        return
    assert name in CASE_INSENSITIVE
    assert run_check(name, operand, True, "OSLO, Norway") is None


def test_case_sensitive_string_operators() -> None:
    """eq and oneOf compare text exactly (METHOD.md decision 21)."""
    assert run_check("eq", "oslo", True, "OSLO") is not None
    assert run_check("oneOf", ["oslo"], True, "OSLO") is not None
    assert {"regex", "contains"} == CASE_INSENSITIVE


def test_an_operator_is_declared_once() -> None:
    with pytest.raises(ValueError, match="declared twice"):
        operator("eq", doc="again")(lambda present, value, operand: present)


# Exact texts and edges, so that a changed message or bound fails by assertion (issue 43).
@pytest.mark.parametrize(
    ("op", "operand", "present", "value", "failure"),
    [
        ("present", True, False, None, "expected present, got nothing (argument left out)"),
        ("absent", True, True, "x", 'expected absent, got "x"'),
        ("range", {"min": 1, "max": 5}, True, 9, "expected range [1, 5], got 9"),
        ("range", {"max": 5}, True, 9, "expected range [, 5], got 9"),
        ("range", {"min": 1}, True, 0, "expected range [1, ], got 0"),
        (
            "range",
            {"min": 1.5},
            False,
            None,
            "expected range [1.5, ], got nothing (argument left out)",
        ),
        ("contains", "oslo", True, 3, 'expected contains "oslo", got 3'),
        ("oneOf", ["a", "b"], True, "c", 'expected oneOf ["a", "b"], got "c"'),
        ("subset", {"a": 1}, True, {"a": 2}, 'expected subset {"a": 1}, got {"a": 2}'),
    ],
)
def test_failure_texts_exact(
    op: str, operand: object, present: bool, value: object, failure: str
) -> None:
    assert run_check(op, operand, present, value) == failure


@pytest.mark.parametrize(
    ("op", "operand", "present", "value"),
    [
        ("range", {"min": 1, "max": 5}, True, 1),
        ("range", {"min": 1, "max": 5}, True, 5),
        ("range", {"min": 1}, True, 10**9),
        ("range", {"max": 5}, True, -(10**9)),
        ("present", True, True, None),
        ("absent", True, False, None),
        ("subset", {"a": {"b": 1}}, True, {"a": {"b": 1, "c": 2}, "d": 3}),
        ("subset", [1], True, [2, 1]),
    ],
)
def test_checks_that_hold(op: str, operand: object, present: bool, value: object) -> None:
    assert run_check(op, operand, present, value) is None


@pytest.mark.parametrize(
    ("op", "operand", "problem"),
    [
        (
            "equals",
            1,
            "unknown check operator 'equals' (known: eq, subset, regex, oneOf, contains, present, "
            "absent, range)",
        ),
        ("regex", 5, "regex needs a string"),
        ("contains", 5, "contains needs a string"),
        ("contains", None, "contains needs a string"),
        ("present", 1, "present needs true"),
        ("absent", False, "absent needs true"),
        ("range", {}, "range needs an object with min and/or max"),
        ("range", [1, 2], "range needs an object with min and/or max"),
        ("range", {"min": 1, "step": 2}, "range needs an object with min and/or max"),
        ("range", {"max": "5"}, "range bounds must be numbers"),
        ("range", {"min": 5, "max": 4.5}, "range min is greater than max"),
        ("subset", 1, "subset needs an object or an array"),
        ("oneOf", [], "oneOf needs a non-empty list"),
    ],
)
def test_operand_problems_exact(op: str, operand: object, problem: str) -> None:
    assert operand_problem(op, operand) == problem


@pytest.mark.parametrize(
    ("op", "operand"),
    [
        ("range", {"min": 1, "max": 1}),
        ("range", {"min": -1.5}),
        ("range", {"max": 0}),
        ("contains", ""),
        ("present", True),
        ("absent", True),
        ("regex", "^a+$"),
        ("subset", []),
        ("eq", None),
    ],
)
def test_operands_without_problems(op: str, operand: object) -> None:
    assert operand_problem(op, operand) is None


def test_needs_true_words_the_operator() -> None:
    # The rule is made when the operators are declared, at import: called here to be tested.
    assert _needs_true("present")(True) is None
    assert _needs_true("absent")(1) == "absent needs true"
    assert _needs_true("x")(False) == "x needs true"


def test_operator_registers_its_declaration(monkeypatch: pytest.MonkeyPatch) -> None:
    """A new operator's declaration, defaults included, lands in the registry as given."""
    registry: dict = {}
    monkeypatch.setattr("scorer.checks.OPERATORS", registry)

    def holds(present: bool, value: object, operand: object) -> bool:
        return present

    assert operator("demo", doc="a demo")(holds) is holds
    assert registry == {"demo": Operator("demo", holds, _any_operand, False, "a demo")}
    assert registry["demo"].operand_problem(object()) is None

    def rule(operand: object) -> str | None:
        return "bad"

    assert operator("demo2", doc="d2", operand=rule, case_insensitive=True)(holds) is holds
    assert registry["demo2"] == Operator("demo2", holds, rule, True, "d2")
    with pytest.raises(ValueError, match=r"^check operator 'demo' declared twice$"):
        operator("demo", doc="again")(holds)
    assert list(registry) == ["demo", "demo2"]
