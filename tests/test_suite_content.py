"""The published suite 1.0.0 (evals/suite.json): its shape, and that its checks pass and fail what they should.

Everything goes through the scorer (``parse_suite``, ``judge_step``); nothing here re-implements a check.
"""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from scorer import Case, ModelResponse, Suite, ToolCall, judge_step, parse_suite

SUITE_PATH = Path(__file__).resolve().parents[1] / "evals" / "suite.json"
# The method page's group table, typed in from the page (not read from the suite).
PAGE_COUNTS = {"selection": 14, "arguments": 16, "near_misses": 12, "no_call": 14, "parallel": 12, "chains": 12}
# The method page's validation keywords, plus the two annotations CONTRACTS allows.
KEYWORDS = {
    "type", "enum", "const", "properties", "required", "additionalProperties", "items", "minItems", "maxItems",
    "minimum", "maximum", "minLength", "maxLength", "pattern", "description", "title",
}  # fmt: skip


@pytest.fixture(scope="module")
def suite() -> Suite:
    return parse_suite(SUITE_PATH.read_bytes(), str(SUITE_PATH))


@pytest.fixture(scope="module")
def raw() -> dict[str, Any]:
    return json.loads(SUITE_PATH.read_text(encoding="utf-8"))


def answer(*calls: tuple[str, Any], content: str | None = None) -> ModelResponse:
    """A model response with these (name, arguments) calls; dict arguments are sent as JSON strings."""
    tool_calls = tuple(
        ToolCall(f"call_{i}", name, json.dumps(args) if isinstance(args, dict) else args)
        for i, (name, args) in enumerate(calls)
    )
    return ModelResponse(content, tool_calls, "test/model", {})


def schema_keywords(schema: Any, where: str) -> list[str]:
    """Every key of a schema object that is not an allowed keyword, walking properties and items."""
    bad = [f"{where}.{key}" for key in schema if key not in KEYWORDS]
    for name, sub in schema.get("properties", {}).items():
        bad += schema_keywords(sub, f"{where}.properties.{name}")
    for key in ("items", "additionalProperties"):
        if isinstance(schema.get(key), dict):
            bad += schema_keywords(schema[key], f"{where}.{key}")
    return bad


def test_identity(suite: Suite) -> None:
    assert (suite.name, suite.version, suite.released) == ("lobstack-tool-calling", "1.0.0", "2026-10-21")


def test_group_counts_are_the_method_pages(suite: Suite) -> None:
    assert Counter(case.group for case in suite.cases) == PAGE_COUNTS
    assert len(suite.cases) == 80


def test_ids_are_unique_and_numbered_per_group(suite: Suite) -> None:
    ids = [case.id for case in suite.cases]
    assert len(set(ids)) == len(ids)
    for group, count in PAGE_COUNTS.items():
        assert sorted(i for i in ids if i.startswith(group + "-")) == [f"{group}-{n:02d}" for n in range(1, count + 1)]


def test_tool_schemas_use_only_the_page_keywords(raw: dict[str, Any]) -> None:
    bad = []
    for name, tool in raw["tools"].items():
        params = tool["function"]["parameters"]
        bad += schema_keywords(params, name)
        assert params["additionalProperties"] is False, name
    assert bad == []


def test_system_prompt_names_date_weekday_and_zone(suite: Suite) -> None:
    assert "2026-10-21" in suite.system_prompt
    assert "Wednesday" in suite.system_prompt
    assert "UTC" in suite.system_prompt


def test_group_shapes(suite: Suite) -> None:
    for case in suite.cases:
        kinds = [step.expect for step in case.steps]
        sizes = [len(step.calls) for step in case.steps if step.expect == "call"]
        if case.group == "chains":
            assert 2 <= len(case.steps) <= 4 and set(sizes) == {1}, case.id
        elif case.group == "no_call":
            assert kinds == ["none"], case.id
        elif case.group == "parallel":
            assert kinds == ["call"] and 2 <= sizes[0] <= 3, case.id
        else:
            assert kinds == ["call"] and sizes == [1], case.id
        if case.group == "selection":
            assert len(case.tools) >= 6, case.id
    lengths = Counter(len(case.steps) for case in suite.cases if case.group == "chains")
    assert lengths[3] >= 3 and lengths[4] >= 2


def test_every_reference_passes_its_checks_and_schema(suite: Suite) -> None:
    for case in suite.cases:
        for step in case.steps:
            if step.expect == "call":
                for expected in step.calls:
                    assert expected.reference is not None, case.id
                    assert suite.tools[expected.name].errors(expected.reference) == [], case.id


def run_case(case: Case, suite: Suite, respond) -> bool:  # type: ignore[no-untyped-def]
    """Judge every step of a case with ``respond(step)``; stop at the first failing step like the runner."""
    return all(judge_step(step, respond(step), case, suite).passed for step in case.steps)


def test_reference_answers_pass_all_80(suite: Suite) -> None:
    # Reversed call order: the judge's one-to-one matching, not list position, must pair the calls.
    def oracle(step):  # type: ignore[no-untyped-def]
        return answer(*[(c.name, c.reference) for c in reversed(step.calls)])

    passed = [case.id for case in suite.cases if run_case(case, suite, oracle)]
    assert len(passed) == 80


def test_plain_text_passes_exactly_the_no_call_cases(suite: Suite) -> None:
    passed = {case.id for case in suite.cases if run_case(case, suite, lambda step: answer(content="Sure."))}
    assert len(passed) == 14
    assert passed == {case.id for case in suite.cases if case.group == "no_call"}


def reference(suite: Suite, case_id: str, step: int = 0) -> dict[str, Any]:
    return dict(suite.case(case_id).steps[step].calls[0].reference or {})


# Plausible wrong answers that the checks must reject: (case, step, tool, changes to the reference).
WRONG = [
    ("arguments-11", 0, "create_event", {"start": "2026-10-21T09:00", "end": "2026-10-21T10:00"}),  # today
    ("arguments-11", 0, "create_event", {"start": "2026-10-22T21:00", "end": "2026-10-22T22:00"}),  # 9 pm
    ("arguments-12", 0, "update_issue", {"due_date": "2026-10-30"}),
    ("arguments-13", 0, "update_event", {"start": "2026-10-30T16:00", "end": "2026-10-30T16:30"}),  # a week late
    ("arguments-13", 0, "update_event", {"end": "2026-10-21T16:30"}),  # end left on the old day
    ("arguments-14", 0, "create_event", {"start": "2026-10-27T10:00", "end": "2026-10-27T10:45"}),  # not converted
    ("arguments-04", 0, "update_issue", {"priority": "high"}),
    ("arguments-06", 0, "web_search", {"max_results": 5}),
    ("arguments-07", 0, "comment_on_issue", {"body": "We can't reproduce this with the 'compact' layout."}),
    ("arguments-08", 0, "write_file", {"content": "DATABASE_URL=\\nREDIS_URL=\\nSTRIPE_SECRET_KEY="}),
    ("arguments-08", 0, "write_file", {"append": True}),
    ("arguments-09", 0, "send_email", {"subject": "Cafe Lumiere mockups"}),
    ("arguments-10", 0, "send_slack_message", {"text": "Honjitsu wa yoroshiku onegai itashimasu."}),
    ("arguments-16", 0, "git_commit", {"all": True}),
    ("arguments-16", 0, "git_commit", {"paths": ["src/harbor/auth/session.py", "tests/test_session.py"]}),
    ("selection-01", 0, "read_file", {"end_line": 100}),
    ("chains-03", 1, "read_file", {"path": "src/harbor/db/migrations/0040_add_booking_notes.py"}),
    ("chains-07", 1, "read_file", {"start_line": 43, "end_line": 53}),
    ("chains-08", 2, "send_slack_message", {"channel": "@priya"}),  # last week's primary
    ("chains-12", 1, "read_email", {"message_id": "msg_5521"}),
    ("chains-12", 3, "reply_to_email", {"body": "See you then."}),
]


@pytest.mark.parametrize(("case_id", "step", "tool", "change"), WRONG, ids=[f"{w[0]}-{i}" for i, w in enumerate(WRONG)])
def test_plausible_wrong_arguments_fail(suite: Suite, case_id: str, step: int, tool: str, change: dict) -> None:
    case = suite.case(case_id)
    args = {**reference(suite, case_id, step), **change}
    assert not judge_step(case.steps[step], answer((tool, args)), case, suite).passed


# The look-alike tool with the reference's arguments must fail on the name.
LOOK_ALIKES = [
    ("near_misses-01", "send_slack_message"),
    ("near_misses-02", "send_email"),
    ("near_misses-03", "git_diff"),
    ("near_misses-04", "git_status"),
    ("near_misses-05", "fetch_url"),
    ("near_misses-06", "read_file"),
    ("near_misses-07", "comment_on_issue"),
    ("near_misses-08", "get_pull_request"),
    ("near_misses-09", "crm_update"),
    ("near_misses-10", "crm_insert"),
    ("near_misses-11", "search_docs"),
    ("near_misses-12", "send_email"),
]


@pytest.mark.parametrize(("case_id", "other"), LOOK_ALIKES, ids=[c for c, _ in LOOK_ALIKES])
def test_near_miss_look_alike_is_offered_and_fails(suite: Suite, case_id: str, other: str) -> None:
    case = suite.case(case_id)
    assert other in case.tools
    verdict = judge_step(case.steps[0], answer((other, reference(suite, case_id))), case, suite)
    assert not verdict.passed and not verdict.names_match


def test_parallel_cases_fail_when_a_call_is_missing(suite: Suite) -> None:
    for case in suite.cases:
        if case.group == "parallel":
            calls = case.steps[0].calls
            partial = answer(*[(c.name, c.reference) for c in calls[:-1]])
            assert not judge_step(case.steps[0], partial, case, suite).passed, case.id
