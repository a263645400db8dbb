"""Argument checks: one object per operator, in one registry (``OPERATORS``).

An operator is one decorated predicate (``@operator(...)``, like a vcrpy matcher registered by
name): the predicate takes ``(present, value, operand)`` and says whether the check holds
(``present`` is False when the argument was left out); the declaration holds its operand rule,
whether it ignores case and its line in METHOD.md's checks table (a test keeps the two equal).
``describe`` words a failure (``"expected eq 10, got 11"``) only when one is reported. Adding an
operator is one declaration here plus its rows in tests/tables/checks.json (CONTRIBUTING.md, "Add a
check operator").
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from scorer.jsonvalue import is_number, json_equal, render
from scorer.patterns import PatternError, compile_pattern, pattern_search

Predicate = Callable[[bool, Any, Any], bool]
OperandRule = Callable[[Any], "str | None"]
ABSENT = "nothing (argument left out)"


@dataclass(frozen=True)
class Operator:
    """One check operator: its predicate, its operand rule (what is wrong with an operand, or
    None), whether it ignores case, and what METHOD.md's table says it holds for."""

    name: str
    holds: Predicate
    operand_problem: OperandRule
    case_insensitive: bool
    doc: str

    @property
    def method_row(self) -> str:
        """Its line in METHOD.md's checks table."""
        return f"| `{self.name}` | {self.doc} |"


OPERATORS: dict[str, Operator] = {}


def _any_operand(operand: Any) -> str | None:
    return None


def operator(
    name: str, *, doc: str, operand: OperandRule = _any_operand, case_insensitive: bool = False
) -> Callable[[Predicate], Predicate]:
    """Register the decorated predicate as check operator ``name``."""

    def register(holds: Predicate) -> Predicate:
        if name in OPERATORS:
            raise ValueError(f"check operator {name!r} declared twice")
        OPERATORS[name] = Operator(name, holds, operand, case_insensitive, doc)
        return holds

    return register


def _needs_true(name: str) -> OperandRule:
    return lambda operand: None if operand is True else f"{name} needs true"


def _string_operand(operand: Any, name: str) -> str | None:
    return None if isinstance(operand, str) else f"{name} needs a string"


@operator(
    "eq",
    doc="the argument is present and JSON-equal (`1 == 1.0`, `true != 1`, key order ignored)",
)
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


@operator(
    "subset",
    doc="an object with at least these keys and values, recursing into objects; or an array with "
    "each of these items",
    operand=lambda operand: (
        None if isinstance(operand, dict | list) else "subset needs an object or an array"
    ),
)
def check_subset(present: bool, value: Any, operand: Any) -> bool:
    return present and _subset_holds(value, operand)


def _regex_operand(operand: Any) -> str | None:
    if not isinstance(operand, str):
        return "regex needs a string"
    try:
        compile_pattern(operand, ignore_case=True)
    except PatternError as exc:
        return f"regex does not compile: {exc}"
    return None


@operator(
    "regex",
    doc="a string matching the pattern (case-insensitive, searched anywhere in it, by RE2: "
    "[decision](decisions/judging.md#patterns-run-by-re2))",
    operand=_regex_operand,
    case_insensitive=True,
)
def check_regex(present: bool, value: Any, operand: Any) -> bool:
    # Case-insensitive, by RE2: linear in the answer's length (scorer/patterns.py).
    return present and isinstance(value, str) and pattern_search(operand, value, ignore_case=True)


@operator(
    "oneOf",
    doc="equal to one of the values; a `null` member also accepts the argument being left out",
    operand=lambda operand: (
        None if isinstance(operand, list) and operand else "oneOf needs a non-empty list"
    ),
)
def check_one_of(present: bool, value: Any, operand: Any) -> bool:
    if not present:
        return None in operand
    return any(json_equal(value, member) for member in operand)


@operator(
    "contains",
    doc="a string containing this text (case-insensitive)",
    operand=lambda operand: _string_operand(operand, "contains"),
    case_insensitive=True,
)
def check_contains(present: bool, value: Any, operand: Any) -> bool:
    return present and isinstance(value, str) and operand.casefold() in value.casefold()


@operator("present", doc="the key is there, whatever its value", operand=_needs_true("present"))
def check_present(present: bool, value: Any, operand: Any) -> bool:
    return present


@operator("absent", doc="the key is not there", operand=_needs_true("absent"))
def check_absent(present: bool, value: Any, operand: Any) -> bool:
    return not present


def _range_operand(operand: Any) -> str | None:
    if not isinstance(operand, dict) or not operand or set(operand) - {"min", "max"}:
        return "range needs an object with min and/or max"
    if not all(is_number(bound) for bound in operand.values()):
        return "range bounds must be numbers"
    if "min" in operand and "max" in operand and operand["min"] > operand["max"]:
        return "range min is greater than max"
    return None


@operator(
    "range",
    doc="a number (not a boolean) within the inclusive bounds",
    operand=_range_operand,
)
def check_range(present: bool, value: Any, operand: Any) -> bool:
    low, high = operand.get("min"), operand.get("max")
    return (
        present
        and is_number(value)
        and (low is None or value >= low)
        and (high is None or value <= high)
    )


CHECKS: dict[str, Predicate] = {name: op.holds for name, op in OPERATORS.items()}
CASE_INSENSITIVE = frozenset(name for name, op in OPERATORS.items() if op.case_insensitive)


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
    if op not in OPERATORS:
        return f"unknown check operator {op!r} (known: {', '.join(OPERATORS)})"
    return OPERATORS[op].operand_problem(operand)


def run_check(op: str, operand: Any, present: bool, value: Any) -> str | None:
    """Run one check; ``None`` when it holds, else the failure text."""
    return None if CHECKS[op](present, value, operand) else describe(op, operand, present, value)
