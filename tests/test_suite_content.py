"""The published suite 1.0.0: the method page's table, the schema subset, and references that pass the judge."""

from __future__ import annotations

import json
from collections import Counter
from typing import Any

from recorder.files import check_suite_file, read_suite
from scorer import ModelResponse, ToolCall, judge_step
from scorer.schema import ALLOWED_KEYWORDS
from tests.conftest import ROOT

SUITE_PATH = ROOT / "evals" / "suite.json"
SUITE = read_suite(SUITE_PATH)
RAW = json.loads(SUITE_PATH.read_text(encoding="utf-8"))


def test_suite_check_passes_with_the_method_pages_counts() -> None:
    report = check_suite_file(SUITE_PATH)
    assert report.problems == ()
    assert report.group_counts == {
        "selection": 14,
        "arguments": 16,
        "near_misses": 12,
        "no_call": 14,
        "parallel": 12,
        "chains": 12,
    }
    assert (SUITE.name, SUITE.version, SUITE.released) == ("lobstack-tool-calling", "1.0.0", "2026-10-21")


def test_ids_are_unique() -> None:
    ids = [case["id"] for case in RAW["cases"]]
    assert len(ids) == len(set(ids)) == 80


def _keywords(schema: Any) -> set[str]:
    if not isinstance(schema, dict):
        return set()
    found = set(schema)
    for name, sub in schema.get("properties", {}).items():
        found |= _keywords(sub)
    for key in ("items", "additionalProperties"):
        found |= _keywords(schema.get(key))
    return found


def test_tool_schemas_use_only_the_whitelisted_keywords() -> None:
    used: set[str] = set()
    for tool in RAW["tools"].values():
        used |= _keywords(tool["function"]["parameters"])
    assert used <= ALLOWED_KEYWORDS, used - ALLOWED_KEYWORDS


def _answer(calls: list[tuple[str, Any]]) -> ModelResponse:
    tool_calls = tuple(ToolCall(f"call_{i}", name, args) for i, (name, args) in enumerate(calls))
    return ModelResponse(None if calls else "A plain text answer.", tool_calls, "test", {"role": "assistant"})


def test_reference_calls_pass_every_step_of_every_case() -> None:
    passed = 0
    for case in SUITE.cases:
        ok = True
        for step in case.steps:
            response = _answer([(call.name, json.dumps(call.reference)) for call in step.calls])
            verdict = judge_step(step, response, case, SUITE)
            assert verdict.passed, (case.id, verdict.reason)
            assert all(c.schema_valid for c in verdict.calls), case.id
            ok = ok and verdict.passed
        passed += ok
    assert passed == 80


def test_plain_text_passes_exactly_the_no_call_cases() -> None:
    passing = [
        case.id
        for case in SUITE.cases
        # A "none" step may only be last, so a text answer passes a case only by passing its first step.
        if judge_step(case.steps[0], _answer([]), case, SUITE).passed
    ]
    assert Counter(SUITE.case(c).group for c in passing) == {"no_call": 14}


def test_selection_offers_many_tools_and_chains_have_the_issue_lengths() -> None:
    for case in SUITE.cases:
        if case.group == "selection":
            assert len(case.tools) >= 6, case.id
    chains = [c for c in SUITE.cases if c.group == "chains"]
    assert sum(len(c.steps) == 3 for c in chains) >= 3 and sum(len(c.steps) == 4 for c in chains) >= 2
