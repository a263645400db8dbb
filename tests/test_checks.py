"""Argument checks, one table row per edge case of docs/FORMATS.md, "Suite file"."""

import json
from pathlib import Path

import pytest

from scorer.checks import operand_problem, run_check

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
