"""Right answers to one step: the reference, and the variants of it that the method says are
as right."""

from __future__ import annotations

from typing import Any

import scorer.audit.schema_facts as schema_facts
from scorer.audit.model import Answer
from scorer.audit.wrong import reference_calls
from scorer.checks import CASE_INSENSITIVE  # the checks the method makes case-insensitive
from scorer.jsonvalue import is_number, json_equal
from scorer.suite.model import Case, Suite

TEXT_REPLY = "Here is my answer, no tool needed."


def step_right(case: Case, suite: Suite, step: int) -> list[Answer]:
    """Every right answer to step ``step``: the reference first, then its variants."""
    if case.steps[step].expect == "none":
        return [Answer(step, False, "no_call", (), content=TEXT_REPLY)]
    refs = reference_calls(case, step)
    out = [Answer(step, False, "reference", refs)]
    if any(len(args) > 1 for _, args in refs):
        reordered = tuple((name, dict(reversed(args.items()))) for name, args in refs)
        out.append(Answer(step, False, "key_order", reordered))
    if len(refs) > 1:
        out.append(Answer(step, False, "call_order", tuple(reversed(refs))))
    for j, expected in enumerate(case.steps[step].calls):
        out += _call_variants(
            refs, j, schema_facts.parameters(suite, expected.name), expected.args, step
        )
    return out


def _call_variants(
    refs: tuple[tuple[str, dict[str, Any]], ...],
    j: int,
    schema: dict[str, Any],
    checks: tuple[tuple[str, tuple[Any, ...]], ...],
    step: int,
) -> list[Answer]:
    name, args = refs[j]
    out: list[Answer] = []

    def variant(
        kind: str, arg: str | None, changed: dict[str, Any], value: Any = None, has: bool = True
    ) -> None:
        calls = (*refs[:j], (name, changed), *refs[j + 1 :])
        path = () if arg is None else (arg,)
        out.append(
            Answer(step, False, kind, calls, call=j, arg=arg, value=value, has_value=has, path=path)
        )

    defaults = schema_facts.defaults(schema)
    for arg, default in defaults.items():
        if arg not in args:
            variant("default_given", arg, {**args, arg: default}, default)
        elif json_equal(args[arg], default):
            variant(
                "default_left_out", arg, {k: v for k, v in args.items() if k != arg}, None, False
            )
    if _has_int(args):
        variant("float_number", None, _floats(args))
    insensitive = {
        arg for arg, arg_checks in checks if {c.op for c in arg_checks} & CASE_INSENSITIVE
    }
    listed = {arg: [c.operand for c in arg_checks if c.op == "oneOf"] for arg, arg_checks in checks}
    for arg, value in args.items():
        toggled = value[:-1] if isinstance(value, str) and value.endswith("\n") else f"{value}\n"
        # A text of several lines, or one whose case lists it with and without the newline
        # (decision 35).
        if isinstance(value, str) and (
            "\n" in value.rstrip("\n") or any(toggled in o for o in listed.get(arg, []))
        ):
            variant("final_newline", arg, {**args, arg: toggled}, toggled)
        if isinstance(value, str) and arg in insensitive:
            recased = _recase(value)
            if recased != value:
                variant("case_variant", arg, {**args, arg: recased}, recased)
    return out


def _has_int(value: Any) -> bool:
    if isinstance(value, dict):
        return any(_has_int(v) for v in value.values())
    if isinstance(value, list):
        return any(_has_int(v) for v in value)
    return is_number(value) and isinstance(value, int)


def _floats(value: Any) -> Any:
    """``value`` with every integer written as a float (10 -> 10.0); booleans stay booleans."""
    if isinstance(value, dict):
        return {k: _floats(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_floats(v) for v in value]
    return float(value) if is_number(value) and isinstance(value, int) else value


def _recase(text: str) -> str:
    """Upper case where that keeps one character per character (so ``ß`` stays), else lower case."""
    upper = "".join(ch.upper() if len(ch.upper()) == 1 else ch for ch in text)
    return upper if upper != text else text.lower()
