"""Wrong answers (mutants) to one step, each built from the step's reference calls with one
thing wrong."""

from __future__ import annotations

from typing import Any

import scorer.audit.schema_facts as schema_facts
from scorer.audit.model import Answer
from scorer.audit.values import Sources, wrong_values
from scorer.jsonvalue import json_copy, json_equal
from scorer.suite.model import Case, Suite

TEXT_ANSWER = "Sure, I will take care of that."


def reference_calls(case: Case, step: int) -> tuple[tuple[str, dict[str, Any]], ...]:
    """The step's expected calls with their reference arguments, in the suite's order."""
    return tuple((call.name, json_copy(call.reference or {})) for call in case.steps[step].calls)


def step_wrong(case: Case, suite: Suite, step: int, sources: Sources) -> list[Answer]:
    """Every mutant of step ``step``: whole-step ones first, then one per call and argument."""
    if case.steps[step].expect == "none":
        return [Answer(step, True, "call_where_none", ((tool, {}),)) for tool in case.tools]
    refs = reference_calls(case, step)
    out = [Answer(step, True, "text_answer", (), content=TEXT_ANSWER)]
    for j, (name, args) in enumerate(refs):
        out += [
            Answer(step, True, "other_tool", _replace(refs, j, (tool, args)), call=j, value=tool)
            for tool in case.tools
            if tool != name
        ]
    out.append(Answer(step, True, "extra_call", (*refs, refs[0])))
    if len(refs) > 1:
        out += [
            Answer(step, True, "call_missing", refs[:j] + refs[j + 1 :], call=j)
            for j in range(len(refs))
        ]
    for j, (name, _args) in enumerate(refs):
        out += _argument_mutants(refs, j, schema_facts.parameters(suite, name), sources, step)
    return out


def _argument_mutants(
    refs: tuple[tuple[str, dict[str, Any]], ...],
    j: int,
    schema: dict[str, Any],
    sources: Sources,
    step: int,
) -> list[Answer]:
    args = refs[j][1]
    props, required = schema_facts.properties(schema), schema_facts.required(schema)
    defaults = schema_facts.defaults(schema)
    out: list[Answer] = []
    for arg, value in args.items():
        if arg in required:
            out.append(_with(refs, j, step, "required_left_out", (arg,), None, False))
        elif not (arg in defaults and json_equal(value, defaults[arg])):
            out.append(_with(refs, j, step, "left_out", (arg,), None, False))
        for kind, path, wrong in wrong_values(value, props.get(arg), sources, (arg,)):
            out.append(_with(refs, j, step, kind, path, wrong, kind != "field_dropped"))
    return out


def _with(
    refs: tuple[tuple[str, dict[str, Any]], ...],
    j: int,
    step: int,
    kind: str,
    path: tuple[str, ...],
    value: Any,
    has: bool,
) -> Answer:
    """The reference calls with call ``j``'s argument at ``path`` (keys from the arguments object
    down) set to ``value`` (left out when not ``has``)."""
    name, args = refs[j]
    changed = json_copy(args)
    *parents, last = path
    target = changed
    for key in parents:
        target = target[key]
    if has:
        target[last] = value
    else:
        del target[last]
    return Answer(
        step,
        True,
        kind,
        _replace(refs, j, (name, changed)),
        call=j,
        arg=".".join(path),
        value=value,
        has_value=has,
        path=path,
    )


Calls = tuple[tuple[str, dict[str, Any]], ...]


def _replace(refs: Calls, j: int, call: tuple[str, dict[str, Any]]) -> Calls:
    return (*refs[:j], call, *refs[j + 1 :])
