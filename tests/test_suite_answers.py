"""The suite's own regression test: plausible right and near-miss wrong answers for every case, run
through the judge.

``tests/tables/suite_answers.json`` has one row per answer: the case, the step it answers, whether
the judge must pass it, why it is right or wrong, and the calls (or the text) of the answer. A suite
change that makes a check narrower than its request fails a right row; one that makes it looser than
the request passes a wrong row.
"""

from __future__ import annotations

import json
from collections import defaultdict
from pathlib import Path
from typing import Any

import pytest

from scorer import Case, ModelResponse, Suite, ToolCall, json_equal, judge_step, parse_suite
from scorer.matching import same_names

ROOT = Path(__file__).resolve().parents[1]
ROWS: list[dict[str, Any]] = json.loads(
    (ROOT / "tests" / "tables" / "suite_answers.json").read_text(encoding="utf-8")
)
# Checks that leave no other wording: the value is fixed, or (subset) what may be added is
# not wording.
FIXED = {"eq", "absent", "subset"}


@pytest.fixture(scope="module")
def suite() -> Suite:
    path = ROOT / "evals" / "suite.json"
    return parse_suite(path.read_bytes(), str(path))


def response(row: dict[str, Any]) -> ModelResponse:
    calls = tuple(
        ToolCall(f"call_{i}", call["name"], json.dumps(call["arguments"], ensure_ascii=False))
        for i, call in enumerate(row["calls"])
    )
    return ModelResponse(row.get("content"), calls, "test/model", {})


def row_id(row: dict[str, Any]) -> str:
    label = f"{row['case']}.{row['step']}-{'right' if row['passed'] else 'wrong'}-{row['why']}"
    # ASCII only: pytest escapes any other character in an id ("\\u3002"), and that escaped id,
    # given back to select the test (mutmut does), is not found: the whole run fails.
    return "".join(c if c.isascii() else f"U+{ord(c):04X}" for c in label)


@pytest.mark.parametrize("row", ROWS, ids=[row_id(row) for row in ROWS])
def test_answer(suite: Suite, row: dict[str, Any]) -> None:
    case = suite.case(row["case"])
    verdict = judge_step(case.steps[row["step"]], response(row), case, suite)
    assert verdict.passed == row["passed"], f"{row['why']}: {verdict.reason or 'passed'}"


def test_rows_are_well_formed(suite: Suite) -> None:
    ids = {case.id for case in suite.cases}
    for row in ROWS:
        assert set(row) <= {"case", "step", "passed", "why", "calls", "content"}, row
        assert row["case"] in ids and row["why"], row
        assert 0 <= row["step"] < len(suite.case(row["case"]).steps), row
    assert len({row_id(row) for row in ROWS}) == len(ROWS), (
        "two rows with the same case, step and reason"
    )


def test_every_case_has_a_right_and_a_wrong_answer(suite: Suite) -> None:
    seen: dict[str, set[bool]] = defaultdict(set)
    for row in ROWS:
        seen[row["case"]].add(row["passed"])
    assert [case.id for case in suite.cases if seen[case.id] != {True, False}] == []


def differs_from_reference(case: Case, row: dict[str, Any]) -> bool:
    """True when the row's calls are not the reference calls of its step (whatever their order)."""
    expected = [(c.name, c.reference) for c in case.steps[row["step"]].calls]
    got = [(c["name"], c["arguments"]) for c in row["calls"]]
    unmatched = list(expected)
    for name, args in got:
        match = next((e for e in unmatched if e[0] == name and json_equal(e[1], args)), None)
        if match is None:
            return True
        unmatched.remove(match)
    return bool(unmatched)


def checks_only_fixed_values(case: Case) -> bool:
    return all(
        check.op in FIXED
        for step in case.steps
        for call in step.calls
        for _, checks in call.args
        for check in checks
    )


def test_every_case_with_room_for_wording_has_a_right_answer_worded_differently(
    suite: Suite,
) -> None:
    missing = []
    for case in suite.cases:
        if case.group == "no_call" or checks_only_fixed_values(case):
            continue
        if not any(
            row["passed"] and differs_from_reference(case, row)
            for row in ROWS
            if row["case"] == case.id
        ):
            missing.append(case.id)
    assert missing == []


def test_every_case_that_checks_arguments_has_a_wrong_value_not_only_a_wrong_tool(
    suite: Suite,
) -> None:
    missing = []
    for case in suite.cases:
        if not any(call.args for step in case.steps for call in step.calls):
            continue
        near = False
        for row in ROWS:
            if row["case"] == case.id and not row["passed"]:
                step = case.steps[row["step"]]
                verdict = judge_step(step, response(row), case, suite)
                called = [call.name for call in verdict.calls]
                near = near or same_names(called, [call.name for call in step.calls])
        if not near:
            missing.append(case.id)
    assert missing == []
