"""``suite audit``'s judging (scorer/audit/judging.py) and its totals (scorer/audit/model.py): the
chat-completion body an answer becomes, the verdict it gets, and what the origin's schema refuses,
each expected value written out by hand (the OpenAI chat-completion shape, jsonschema messages)."""

from __future__ import annotations

import dataclasses
from typing import Any

from scorer.audit.judging import completion_body, judge_answer, origin_rejects
from scorer.audit.model import Answer, CaseAudit, SuiteAudit
from scorer.schema.subset import make_validator
from scorer.suite.model import Suite
from tests.suitekit import make_suite, single_step_case

READ_A = {
    "expect": "call",
    "calls": [
        {"name": "read_file", "args": {"path": {"eq": "a.txt"}}, "reference": {"path": "a.txt"}}
    ],
}
# The origin lists read_file stricter than the suite does: a path of 1 to 3 characters, at most
# line 10.
ORIGIN_READ = {
    "type": "object",
    "properties": {
        "path": {"type": "string", "minLength": 1, "maxLength": 3},
        "start_line": {"type": "integer", "maximum": 10},
    },
}


def _suite(step: dict[str, Any]) -> Suite:
    suite = make_suite([single_step_case(step)])
    return dataclasses.replace(suite, origin_tools={"read_file": make_validator(ORIGIN_READ)})


def _calls(*calls: tuple[str, dict[str, Any]]) -> Answer:
    return Answer(0, True, "test", tuple(calls))


def test_an_answer_with_calls_is_a_chat_completion_with_its_arguments_as_json_text() -> None:
    answer = _calls(
        ("read_file", {"path": "ü.md", "start_line": 2}), ("get_weather", {"city": "Oslo"})
    )
    assert completion_body(answer) == {
        "model": "suite-audit",
        "choices": [
            {
                "index": 0,
                "message": {
                    "role": "assistant",
                    "content": None,
                    "tool_calls": [
                        {
                            "id": "call_audit_0",
                            "type": "function",
                            "function": {
                                "name": "read_file",
                                "arguments": '{"path": "ü.md", "start_line": 2}',
                            },
                        },
                        {
                            "id": "call_audit_1",
                            "type": "function",
                            "function": {"name": "get_weather", "arguments": '{"city": "Oslo"}'},
                        },
                    ],
                },
                "finish_reason": "tool_calls",
            }
        ],
    }


def test_a_text_answer_has_no_tool_calls_and_stops() -> None:
    answer = Answer(0, False, "no_call", (), content="No tool needed.")
    assert completion_body(answer) == {
        "model": "suite-audit",
        "choices": [
            {
                "index": 0,
                "message": {"role": "assistant", "content": "No tool needed."},
                "finish_reason": "stop",
            }
        ],
    }


def test_the_judge_passes_the_reference_and_names_a_wrong_argument() -> None:
    suite = _suite(READ_A)
    case = suite.cases[0]
    right = judge_answer(_calls(("read_file", {"path": "a.txt"})), case, suite)
    assert (right.passed, right.reason, right.assignment) == (True, None, (0,))
    assert [(c.name, c.offered, c.parsed, c.schema_valid) for c in right.calls] == [
        ("read_file", True, True, True)
    ]
    wrong = judge_answer(_calls(("read_file", {"path": "b.txt"})), case, suite)
    assert (wrong.passed, wrong.assignment) == (False, (None,))
    assert wrong.reason is not None and "read_file.path" in wrong.reason
    text = judge_answer(Answer(0, True, "text_answer", (), content="Sure."), case, suite)
    assert (text.passed, text.reason) == (False, "names differ: expected [read_file], got []")


def test_the_origin_names_its_first_error_of_the_first_call_it_refuses() -> None:
    suite = _suite(READ_A)
    two_errors = _calls(
        ("get_weather", {"city": "Oslo"}), ("read_file", {"path": "abcd", "start_line": 20})
    )
    assert origin_rejects(two_errors, suite) == "read_file: path: 'abcd' is too long"
    assert origin_rejects(_calls(("read_file", {"path": "ab", "start_line": 3})), suite) is None
    # a tool the origin does not list is not checked against it
    assert origin_rejects(_calls(("get_weather", {"city": ""})), suite) is None


def test_looser_only_names_only_what_the_suite_itself_accepts() -> None:
    suite = _suite(READ_A)
    both_refuse = _calls(("read_file", {"path": ""}))  # the suite's minLength 1 refuses it too
    assert origin_rejects(both_refuse, suite) == "read_file: path: '' should be non-empty"
    assert origin_rejects(both_refuse, suite, looser_only=False) == (
        "read_file: path: '' should be non-empty"
    )
    assert origin_rejects(both_refuse, suite, looser_only=True) is None
    only_origin = _calls(("read_file", {"path": "abcd"}))  # the suite has no maxLength
    assert origin_rejects(only_origin, suite, looser_only=True) == (
        "read_file: path: 'abcd' is too long"
    )


def _case(case_id: str, tried: int, killed: int) -> CaseAudit:
    return CaseAudit(case_id, tried, killed, 2, 2, (), (), ())


def test_a_suite_total_sums_one_count_over_the_cases() -> None:
    audit = SuiteAudit("s", "1.0.0", (_case("a", 3, 2), _case("b", 4, 4)))
    assert audit.total("mutants_tried") == 7
    assert audit.total("mutants_killed") == 6
    assert audit.total("rights_tried") == 4
    assert SuiteAudit("s", "1.0.0", ()).total("mutants_tried") == 0
