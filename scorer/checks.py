"""Argument checks: one small predicate per operator, in a name -> function table.

Each predicate takes ``(present, value, operand)`` and says whether the check holds; ``present`` is False when
the argument was left out. ``describe`` words a failure (``"expected eq 10, got 11"``) only when one is reported.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from scorer.jsonvalue import is_number, json_equal, render
from scorer.patterns import PatternError, compile_pattern, pattern_search

Predicate = Callable[[bool, Any, Any], bool]
ABSENT = "nothing (argument left out)"


def check_eq(present: bool, value: Any, operand: Any) -> bool:
    return present and json_equal(value, operand)


def _subset_holds(value: Any, operand: Any) -> bool:
    if isinstance(operand, dict):
        return isinstance(value, dict) and all(
            key in value
            and (
                _subset_holds(value[key], expected)
                if isinstance(expected, dict) and isinstance(value[key], dict)
                else json_equal(value[key], expected)
            )
            for key, expected in operand.items()
        )
    return isinstance(value, list) and all(
        any(json_equal(item, want) for item in value) for want in operand
    )


def check_subset(present: bool, value: Any, operand: Any) -> bool:
    return present and _subset_holds(value, operand)


def check_regex(present: bool, value: Any, operand: Any) -> bool:
    # Case-insensitive, by RE2: linear in the answer's length (scorer/patterns.py).
    return present and isinstance(value, str) and pattern_search(operand, value, ignore_case=True)


def check_one_of(present: bool, value: Any, operand: Any) -> bool:
    if not present:
        return None in operand
    return any(json_equal(value, member) for member in operand)


def check_contains(present: bool, value: Any, operand: Any) -> bool:
    return present and isinstance(value, str) and operand.casefold() in value.casefold()


def check_present(present: bool, value: Any, operand: Any) -> bool:
    return present


def check_absent(present: bool, value: Any, operand: Any) -> bool:
    return not present


def check_range(present: bool, value: Any, operand: Any) -> bool:
    low, high = operand.get("min"), operand.get("max")
    return (
        present
        and is_number(value)
        and (low is None or value >= low)
        and (high is None or value <= high)
    )


CHECKS: dict[str, Predicate] = {
    "eq": check_eq,
    "subset": check_subset,
    "regex": check_regex,
    "oneOf": check_one_of,
    "contains": check_contains,
    "present": check_present,
    "absent": check_absent,
    "range": check_range,
}


def describe(op: str, operand: Any, present: bool, value: Any) -> str:
    """What a failed check expected and what it got."""
    got = render(value) if present else ABSENT
    if op == "present":
        return f"expected present, got {ABSENT}"
    if op == "absent":
        return f"expected absent, got {got}"
    if op == "range":
        low, high = operand.get("min"), operand.get("max")
        lo = "" if low is None else render(low)
        hi = "" if high is None else render(high)
        return f"expected range [{lo}, {hi}], got {got}"
    return f"expected {op} {render(operand)}, got {got}"


def operand_problem(op: str, operand: Any) -> str | None:
    """What is wrong with a check's operand, or None when it is well typed."""
    if op not in CHECKS:
        return f"unknown check operator {op!r} (known: {', '.join(CHECKS)})"
    if op == "subset" and not isinstance(operand, dict | list):
        return "subset needs an object or an array"
    if op in ("regex", "contains") and not isinstance(operand, str):
        return f"{op} needs a string"
    if op == "regex":
        try:
            compile_pattern(operand, ignore_case=True)
        except PatternError as exc:
            return f"regex does not compile: {exc}"
    if op == "oneOf" and not (isinstance(operand, list) and operand):
        return "oneOf needs a non-empty list"
    if op in ("present", "absent") and operand is not True:
        return f"{op} needs true"
    if op == "range":
        if not isinstance(operand, dict) or not operand or set(operand) - {"min", "max"}:
            return "range needs an object with min and/or max"
        if not all(is_number(bound) for bound in operand.values()):
            return "range bounds must be numbers"
        if "min" in operand and "max" in operand and operand["min"] > operand["max"]:
            return "range min is greater than max"
    return None


def run_check(op: str, operand: Any, present: bool, value: Any) -> str | None:
    """Run one check; ``None`` when it holds, else the failure text."""
    return None if CHECKS[op](present, value, operand) else describe(op, operand, present, value)
