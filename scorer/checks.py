"""Argument checks: one small function per operator, in a name -> function table.

Each check function takes ``(present, value, operand)`` and returns ``None`` when the check holds, or what was
wrong (``"expected eq 10, got 11"``). ``present`` is False when the argument was left out.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from functools import lru_cache
from typing import Any

from scorer.jsonvalue import is_number, json_equal, render

CheckFn = Callable[[bool, Any, Any], str | None]
ABSENT = "nothing (argument left out)"


def _got(present: bool, value: Any) -> str:
    return render(value) if present else ABSENT


def _fail(op: str, operand: Any, present: bool, value: Any) -> str:
    return f"expected {op} {render(operand)}, got {_got(present, value)}"


def check_eq(present: bool, value: Any, operand: Any) -> str | None:
    return None if present and json_equal(value, operand) else _fail("eq", operand, present, value)


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
    return isinstance(value, list) and all(any(json_equal(item, want) for item in value) for want in operand)


def check_subset(present: bool, value: Any, operand: Any) -> str | None:
    return None if present and _subset_holds(value, operand) else _fail("subset", operand, present, value)


@lru_cache(maxsize=4096)
def compile_regex(pattern: str) -> re.Pattern[str]:
    """Compile a check's pattern (case-insensitive), cached: the same patterns are used for every model."""
    return re.compile(pattern, re.IGNORECASE)


def check_regex(present: bool, value: Any, operand: Any) -> str | None:
    if present and isinstance(value, str) and compile_regex(operand).search(value):
        return None
    return _fail("regex", operand, present, value)


def check_one_of(present: bool, value: Any, operand: Any) -> str | None:
    if not present:
        return None if None in operand else _fail("oneOf", operand, present, value)
    return None if any(json_equal(value, member) for member in operand) else _fail("oneOf", operand, True, value)


def check_contains(present: bool, value: Any, operand: Any) -> str | None:
    if present and isinstance(value, str) and operand.casefold() in value.casefold():
        return None
    return _fail("contains", operand, present, value)


def check_present(present: bool, value: Any, operand: Any) -> str | None:
    return None if present else f"expected present, got {ABSENT}"


def check_absent(present: bool, value: Any, operand: Any) -> str | None:
    return None if not present else f"expected absent, got {render(value)}"


def check_range(present: bool, value: Any, operand: Any) -> str | None:
    low, high = operand.get("min"), operand.get("max")
    if present and is_number(value) and (low is None or value >= low) and (high is None or value <= high):
        return None
    bounds = f"[{'' if low is None else render(low)}, {'' if high is None else render(high)}]"
    return f"expected range {bounds}, got {_got(present, value)}"


CHECKS: dict[str, CheckFn] = {
    "eq": check_eq,
    "subset": check_subset,
    "regex": check_regex,
    "oneOf": check_one_of,
    "contains": check_contains,
    "present": check_present,
    "absent": check_absent,
    "range": check_range,
}


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
            compile_regex(operand)
        except re.error as exc:
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
    return CHECKS[op](present, value, operand)
