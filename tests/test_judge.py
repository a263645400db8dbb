"""The step judge: one table row per edge case, plus order-independence and reference properties."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scorer import ModelResponse, ToolCall, judge_step
from scorer.metrics import CaseRunView, StepRun, right_tool
from tests.suitekit import make_suite, single_step_case

ROWS = json.loads((Path(__file__).parent / "tables" / "judge.json").read_text(encoding="utf-8"))


def response(calls: list[dict[str, Any]], content: str | None = None) -> ModelResponse:
    tool_calls = tuple(
        ToolCall(f"call_{i}", c["name"], c.get("arguments")) for i, c in enumerate(calls)
    )
    return ModelResponse(content, tool_calls, "test-model", {"role": "assistant"})


def judged(row: dict[str, Any]) -> Any:
    suite = make_suite([single_step_case(row["step"])])
    c = suite.cases[0]
    return judge_step(c.steps[0], response(row["got"]), c, suite)


def right_tool_of(row: dict[str, Any]) -> bool | None:
    """Right tool of the row's one-step case as the metric counts it from the judged step's names
    (the judge keeps no field of its own for it)."""
    suite = make_suite([single_step_case(row["step"])])
    verdict = judged(row)
    status = "passed" if verdict.passed else "failed"
    step = StepRun(verdict.passed, tuple(call.name for call in verdict.calls))
    return right_tool(CaseRunView(suite.cases[0], status, {0: step}, ()))


@pytest.mark.parametrize("row", ROWS, ids=[row["id"] for row in ROWS])
def test_judge_table(row: dict[str, Any]) -> None:
    verdict = judged(row)
    assert verdict.passed == row["passed"], verdict.reason
    assert (verdict.reason is None) == row["passed"]
    if "reason" in row:
        assert verdict.reason == row["reason"]
    if "right_tool" in row:
        assert right_tool_of(row) is row["right_tool"]
    if "forms" in row:
        assert [c.arguments_form for c in verdict.calls] == row["forms"]
    if "offered" in row:
        assert [c.offered for c in verdict.calls] == row["offered"]
    if "valid" in row:
        assert [c.schema_valid for c in verdict.calls] == row["valid"]


def test_assignment_maps_each_call_to_its_expected_call() -> None:
    row = next(r for r in ROWS if r["id"] == "greedy-would-fail")
    assert judged(row).assignment == (1, 0)


def test_text_beside_calls_is_ignored() -> None:
    suite = make_suite([single_step_case({"expect": "none"})])
    c = suite.cases[0]
    assert judge_step(c.steps[0], response([], content="Hello!"), c, suite).passed


CALL_STEP_ROWS = [r for r in ROWS if r["step"]["expect"] == "call" and len(r["got"]) > 1]


@settings(max_examples=60, deadline=None)
@given(data=st.data())
def test_verdict_does_not_depend_on_call_order(data: st.DataObject) -> None:
    row = data.draw(st.sampled_from(CALL_STEP_ROWS))
    shuffled = data.draw(st.permutations(row["got"]))
    a, b = judged(row), judged({**row, "got": shuffled})
    assert a.passed == b.passed
    assert right_tool_of(row) == right_tool_of({**row, "got": shuffled})


REFERENCE_ROWS = [r for r in ROWS if r["step"]["expect"] == "call"]


@settings(max_examples=60, deadline=None)
@given(data=st.data())
def test_response_equal_to_references_always_passes(data: st.DataObject) -> None:
    row = data.draw(st.sampled_from(REFERENCE_ROWS))
    calls = [
        {"name": c["name"], "arguments": json.dumps(c["reference"])} for c in row["step"]["calls"]
    ]
    assert judged({**row, "got": data.draw(st.permutations(calls))}).passed


def _sent(*functions: dict[str, Any]) -> ModelResponse:
    from scorer import parse_completion

    calls = [{"id": f"c{i}", "type": "function", "function": f} for i, f in enumerate(functions)]
    return parse_completion(
        {"choices": [{"message": {"role": "assistant", "content": None, "tool_calls": calls}}]}
    )


@pytest.mark.parametrize(
    ("functions", "step", "reason"),
    [
        pytest.param(
            ({"name": "", "arguments": "{}"},),
            {"expect": "none"},
            'expected no call, got [""]',
            id="empty",
        ),
        pytest.param(
            ({"arguments": "{}"},),
            {"expect": "none"},
            "expected no call, got [(no name)]",
            id="missing",
        ),
        pytest.param(
            (
                {"name": "read_file", "arguments": "{}"},
                {"name": None},
                {"name": 7, "arguments": "{}"},
            ),
            {
                "expect": "call",
                "calls": [{"name": "read_file", "args": {}, "reference": {"path": "a"}}],
            },
            "names differ: expected [read_file], got [read_file, null, 7]",
            id="not-strings",
        ),
    ],
)
def test_nameless_calls_are_reported_as_sent(
    functions: tuple[dict[str, Any], ...], step: Any, reason: str
) -> None:
    """A call with an empty, missing or non-string name is named as sent, never as ``[]`` (which
    means no call)."""
    suite = make_suite([single_step_case(step)])
    c = suite.cases[0]
    verdict = judge_step(c.steps[0], _sent(*functions), c, suite)
    assert (verdict.passed, verdict.reason) == (False, reason)
