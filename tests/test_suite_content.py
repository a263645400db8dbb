"""The published suite 1.2.0 (evals/suite.json): its shape, its tool order, one consistent world,
and that its checks pass and fail what they should (the answers per case are in
tests/test_suite_answers.py).

Everything goes through the scorer (``parse_suite``, ``judge_step``); nothing here re-implements
a check.
"""

from __future__ import annotations

import json
import re
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from scorer import Case, ModelResponse, Suite, ToolCall, judge_step, parse_suite
from scorer.matching import same_names

SUITE_PATH = Path(__file__).resolve().parents[1] / "evals" / "suite.json"
# The method page's group table, typed in from the page (not read from the suite).
PAGE_COUNTS = {
    "selection": 14,
    "arguments": 16,
    "near_misses": 12,
    "no_call": 14,
    "parallel": 12,
    "chains": 12,
}
# The method page's validation keywords, plus the two annotations docs/FORMATS.md ("Suite
# file") allows.
KEYWORDS = {
    "type",
    "enum",
    "const",
    "properties",
    "required",
    "additionalProperties",
    "items",
    "minItems",
    "maxItems",
    "minimum",
    "maximum",
    "minLength",
    "maxLength",
    "pattern",
    "description",
    "title",
}


@pytest.fixture(scope="module")
def suite() -> Suite:
    return parse_suite(SUITE_PATH.read_bytes(), str(SUITE_PATH))


@pytest.fixture(scope="module")
def raw() -> dict[str, Any]:
    return json.loads(SUITE_PATH.read_text(encoding="utf-8"))


def answer(*calls: tuple[str, Any], content: str | None = None) -> ModelResponse:
    """A model response with these (name, arguments) calls; dict arguments are sent as
    JSON strings."""
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


def open_objects(schema: Any, where: str) -> list[str]:
    """Every object schema, nested ones included, that does not set
    ``additionalProperties: false``."""
    found = (
        [where]
        if schema.get("type") == "object" and schema.get("additionalProperties") is not False
        else []
    )
    for name, sub in schema.get("properties", {}).items():
        found += open_objects(sub, f"{where}.properties.{name}")
    if isinstance(schema.get("items"), dict):
        found += open_objects(schema["items"], f"{where}.items")
    return found


def test_identity(suite: Suite) -> None:
    assert (suite.name, suite.version, suite.released) == (
        "lobstack-tool-calling",
        "1.2.0",
        "2026-12-03",
    )


def test_group_counts_are_the_method_pages(suite: Suite) -> None:
    assert Counter(case.group for case in suite.cases) == PAGE_COUNTS
    assert len(suite.cases) == 80


def test_ids_are_unique_and_numbered_per_group(suite: Suite) -> None:
    ids = [case.id for case in suite.cases]
    assert len(set(ids)) == len(ids)
    for group, count in PAGE_COUNTS.items():
        assert sorted(i for i in ids if i.startswith(group + "-")) == [
            f"{group}-{n:02d}" for n in range(1, count + 1)
        ]


def test_tool_schemas_use_only_the_page_keywords(raw: dict[str, Any]) -> None:
    bad = []
    for name, tool in raw["tools"].items():
        bad += schema_keywords(tool["function"]["parameters"], name)
    assert bad == []


def test_every_object_in_a_tool_schema_rejects_unknown_keys(raw: dict[str, Any]) -> None:
    # The method page: an invented argument name makes a call schema-invalid, at any depth (the
    # CRM's where/values).
    assert [
        o
        for name, tool in raw["tools"].items()
        for o in open_objects(tool["function"]["parameters"], name)
    ] == []


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
    """Judge every step of a case with ``respond(step)``; stop at the first failing step like
    the runner."""
    return all(judge_step(step, respond(step), case, suite).passed for step in case.steps)


def test_reference_answers_pass_all_80(suite: Suite) -> None:
    # Reversed call order: the judge's one-to-one matching, not list position, must pair the calls.
    def oracle(step):  # type: ignore[no-untyped-def]
        return answer(*[(c.name, c.reference) for c in reversed(step.calls)])

    passed = [case.id for case in suite.cases if run_case(case, suite, oracle)]
    assert len(passed) == 80


def test_plain_text_passes_exactly_the_no_call_cases(suite: Suite) -> None:
    passed = {
        case.id
        for case in suite.cases
        if run_case(case, suite, lambda step: answer(content="Sure."))
    }
    assert len(passed) == 14
    assert passed == {case.id for case in suite.cases if case.group == "no_call"}


def reference(suite: Suite, case_id: str, step: int = 0) -> dict[str, Any]:
    return dict(suite.case(case_id).steps[step].calls[0].reference or {})


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
    assert not verdict.passed
    assert not same_names([c.name for c in verdict.calls], [c.name for c in case.steps[0].calls])


def test_parallel_cases_fail_when_a_call_is_missing(suite: Suite) -> None:
    for case in suite.cases:
        if case.group == "parallel":
            calls = case.steps[0].calls
            partial = answer(*[(c.name, c.reference) for c in calls[:-1]])
            assert not judge_step(case.steps[0], partial, case, suite).passed, case.id


def right_tool(case: Case) -> str:
    """The tool of the first expected call of the case's first step (the first call listed,
    for Parallel)."""
    return case.steps[0].calls[0].name


def test_the_right_tools_position_follows_the_case_number(suite: Suite) -> None:
    # The method page's tool-order rule: case NN offers its right tool at position ((NN - 1) mod
    # m) + 1, where m is the fewest tools any case of its group offers, so across each group the
    # right tool is first, second, ... in turn.
    fewest: dict[str, int] = {}
    for case in suite.cases:
        fewest[case.group] = min(fewest.get(case.group, len(case.tools)), len(case.tools))
    wrong = []
    for case in suite.cases:
        if case.group == "no_call":
            continue
        number = int(case.id.rsplit("-", 1)[1])
        if case.tools.index(right_tool(case)) + 1 != (number - 1) % fewest[case.group] + 1:
            wrong.append(case.id)
    assert wrong == []


def test_no_position_holds_the_right_tool_beyond_chance(suite: Suite) -> None:
    # A model that always calls the tool at one position p gets Right tool on the single-call cases
    # whose right tool is there; per group that is never more than one case above the group's count
    # divided by its tool count.
    for group in ("selection", "arguments", "near_misses", "parallel", "chains"):
        cases = [c for c in suite.cases if c.group == group]
        for position in range(max(len(c.tools) for c in cases)):
            at = sum(
                1 for c in cases if position < len(c.tools) and c.tools[position] == right_tool(c)
            )
            assert at <= sum(1 / len(c.tools) for c in cases) + 1, (group, position + 1, at)


@pytest.mark.parametrize(("case_id", "other"), LOOK_ALIKES, ids=[c for c, _ in LOOK_ALIKES])
def test_near_miss_look_alike_sits_after_in_odd_cases_and_before_in_even_ones(
    suite: Suite, case_id: str, other: str
) -> None:
    case = suite.case(case_id)
    offset = case.tools.index(other) - case.tools.index(right_tool(case))
    assert offset == (1 if int(case_id[-2:]) % 2 else -1)


# Arguments that name a file, directory, test, URL or Slack channel: exact spellings, never a
# case-insensitive match.
EXACT_ARGUMENTS = {
    "path",
    "paths",
    "target",
    "url",
    "channel",
    "message_id",
    "event_id",
    "doc_id",
    "id",
}


def test_paths_urls_and_ids_are_checked_exactly(suite: Suite) -> None:
    loose = [
        f"{case.id}.{call.name}.{arg}: {check.op}"
        for case in suite.cases
        for step in case.steps
        for call in step.calls
        for arg, checks in call.args
        for check in checks
        if arg in EXACT_ARGUMENTS and check.op not in ("eq", "oneOf")
    ]
    assert loose == []


def test_urls_are_accepted_with_and_without_a_trailing_slash(suite: Suite) -> None:
    for case in suite.cases:
        for step in case.steps:
            for call in step.calls:
                for arg, checks in call.args:
                    if arg == "url":
                        (check,) = checks
                        forms = {u.rstrip("/") for u in check.operand}
                        assert len(forms) == 1 and {u.endswith("/") for u in check.operand} == {
                            True,
                            False,
                        }, case.id


def test_the_same_call_gets_the_same_answer_in_every_case(suite: Suite) -> None:
    # One made-up world: a request two cases make alike (same tool, same reference arguments) has
    # one result.
    answers: dict[tuple[str, str], set[str]] = {}
    for case in suite.cases:
        for step in case.steps:
            for call in step.calls:
                if call.result is not None:
                    key = (call.name, json.dumps(call.reference, sort_keys=True))
                    answers.setdefault(key, set()).add(call.result)
    assert {key: results for key, results in answers.items() if len(results) > 1} == {}


def test_new_issues_and_pull_requests_get_numbers_no_other_case_uses(suite: Suite) -> None:
    created: dict[int, str] = {}
    existing: set[int] = set()
    for case in suite.cases:
        for step in case.steps:
            for call in step.calls:
                result = (
                    json.loads(call.result) if call.result and call.result.startswith("{") else {}
                )
                if call.name in ("create_issue", "create_pull_request"):
                    assert result["number"] not in created, (case.id, created)
                    created[result["number"]] = case.id
                elif isinstance(result.get("number"), int):
                    existing.add(result["number"])
                existing |= {v for arg, v in (call.reference or {}).items() if arg == "number"}
        for message in case.messages:
            existing |= {int(n) for n in re.findall(r"#(\d+)", message["content"])}
    assert created and min(created) > max(existing), (created, sorted(existing))
