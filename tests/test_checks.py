"""Argument checks, one table row per edge case of docs/FORMATS.md, "Suite file"."""

import json
from pathlib import Path

import pytest

from scorer.checks import CASE_INSENSITIVE, OPERATORS, operand_problem, operator, run_check

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
