"""Judging one step, exactly as the method page says.

No call expected: passes when the response has no tool calls. Calls expected: passes when the names
called equal the names expected as a multiset, every call's arguments parse as a JSON object, and
the calls can be matched one to one with the expected calls so that every argument check holds (a
real bipartite matching).
"""

from __future__ import annotations

from dataclasses import dataclass

from scorer.arguments import ArgumentsForm, ParsedArguments, parse_arguments
from scorer.matching import max_matching, same_names
from scorer.suite.model import Case, ExpectedCall, Step, Suite
from scorer.wire.response import ModelResponse, ToolCall
from scorer.wire.text_calls import text_call_name


@dataclass(frozen=True)
class CallVerdict:
    """Facts about one call the model made, for the per-call metrics."""

    name: str
    offered: bool
    parsed: bool
    schema_valid: bool | None
    arguments_form: ArgumentsForm


@dataclass(frozen=True)
class StepVerdict:
    """A step's result: ``assignment[i]`` is the expected call index matched to the model's call
    ``i`` (None when unmatched). Right tool is not read here: it is counted from the names a
    results file keeps (``scorer.metrics.right_tool``), by the same rule
    (``scorer.matching.same_names``)."""

    passed: bool
    reason: str | None
    calls: tuple[CallVerdict, ...]
    assignment: tuple[int | None, ...]


def _names(names: list[str]) -> str:
    return "[" + ", ".join(names) + "]"


def _sent_name(response: ModelResponse, index: int) -> str:
    """Call ``index``'s name as sent, as the dialect's decoder read it (``scorer.wire.response``):
    the judge never reads the wire."""
    if response.sent_names is not None and index < len(response.sent_names):
        return response.sent_names[index]
    return response.tool_calls[index].name or "(no name)"


def call_failures(expected: ExpectedCall, arguments: dict[str, object]) -> list[str]:
    """Every failed check of ``expected`` against one parsed arguments object, as
    ``name.arg: ...`` reasons."""
    failures = []
    for arg, checks in expected.args:
        for check in checks:
            failure = check.run(arg in arguments, arguments.get(arg))
            if failure:
                failures.append(f"{expected.name}.{arg}: {failure}")
    return failures


def call_holds(expected: ExpectedCall, arguments: dict[str, object]) -> bool:
    """True when every check of ``expected`` holds on one parsed arguments object."""
    return all(
        check.holds(arg in arguments, arguments.get(arg))
        for arg, checks in expected.args
        for check in checks
    )


def _call_verdict(call: ToolCall, parsed: ParsedArguments, case: Case, suite: Suite) -> CallVerdict:
    offered = call.name in case.tools
    valid: bool | None = None
    if offered:
        text = call.arguments if isinstance(call.arguments, str) else None
        valid = parsed.ok and suite.tools[call.name].is_valid(parsed.value, text)
    return CallVerdict(call.name, offered, parsed.ok, valid, parsed.form)


def judge_step(step: Step, response: ModelResponse, case: Case, suite: Suite) -> StepVerdict:
    """Judge the model's response to one step of ``case``."""
    calls = response.tool_calls
    parsed = [
        parse_arguments(call.arguments) for call in calls
    ]  # once: the verdicts and the checks share it
    verdicts = tuple(
        _call_verdict(call, args, case, suite) for call, args in zip(calls, parsed, strict=True)
    )
    got = [call.name for call in calls]
    sent = [
        _sent_name(response, i) for i in range(len(calls))
    ]  # for reasons only; ``got`` is what counts
    if response.problems:  # judged, never errored: the answer is readable, its calls are not
        reason = f"malformed tool calls: {response.problems[0]}"
        return StepVerdict(False, reason, verdicts, (None,) * len(calls))
    if step.expect == "none":
        if not calls:
            return StepVerdict(True, None, verdicts, ())
        return StepVerdict(
            False, f"expected no call, got {_names(sent)}", verdicts, (None,) * len(calls)
        )
    want = [call.name for call in step.calls]
    unmatched = (None,) * len(calls)
    if not same_names(got, want):
        reason = f"names differ: expected {_names(want)}, got {_names(sent)}"
        looks_like = None if calls else text_call_name(response.content, case.tools)
        if (
            looks_like
        ):  # the verdict stands (no call was made); the reason says where the call may have gone
            reason += (
                f" (the text looks like a call to {looks_like}: the server's tool parser "
                "may be off)"
            )
        return StepVerdict(False, reason, verdicts, unmatched)
    for call, args in zip(calls, parsed, strict=True):
        if not args.ok:
            return StepVerdict(False, _not_an_object(call, args, response), verdicts, unmatched)
    edges = [
        [
            j
            for j, expected in enumerate(step.calls)
            if expected.name == call.name and call_holds(expected, args.value or {})
        ]
        for call, args in zip(calls, parsed, strict=True)
    ]
    assignment = tuple(max_matching(edges, len(step.calls)))
    if all(partner is not None for partner in assignment):
        return StepVerdict(True, None, verdicts, assignment)
    return StepVerdict(
        False, _matching_reason(step, calls, parsed, assignment), verdicts, assignment
    )


def _not_an_object(call: ToolCall, args: ParsedArguments, response: ModelResponse) -> str:
    """``name.arguments: not a JSON object``, with why when known (a NaN, too deep, an answer
    cut off)."""
    why = [args.why] if args.why else []
    cut_off = response.cut_off or (
        "finish_reason is length" if response.finish_reason == "length" else None
    )
    if cut_off:
        why.append(f"the answer was cut off: {cut_off}")
    return f"{call.name}.arguments: not a JSON object" + (f" ({'; '.join(why)})" if why else "")


def _matching_reason(step: Step, calls, parsed, assignment) -> str:  # type: ignore[no-untyped-def]
    """Why no one-to-one matching exists: the first unmatched expected call against its closest
    same-name call."""
    matched = {partner for partner in assignment if partner is not None}
    for j, expected in enumerate(step.calls):
        if j in matched:
            continue
        candidates = [i for i, call in enumerate(calls) if call.name == expected.name]
        free = [i for i in candidates if assignment[i] is None] or candidates
        failures = min(
            (call_failures(expected, parsed[i].value or {}) for i in free),
            key=len,
        )
        if failures:
            return "; ".join(failures)
        return (
            f"{expected.name}: each matching call is already needed for another expected "
            f"{expected.name} call"
        )
    return "no one-to-one matching of calls"
