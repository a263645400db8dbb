"""results.json's entries (scorer/results.py) and a repeated run's (scorer/repeated_results.py)
from hand-made outcomes: every field written out here, not computed by the code under test."""

from __future__ import annotations

from typing import Any

from scorer.judge import CallVerdict, StepVerdict
from scorer.outcome import Attempt, CaseOutcome, StepRecord
from scorer.repeated_results import repeated_case_document
from scorer.results import (
    anomaly_counts,
    case_document,
    dropped_temperature,
    dumps,
    first_byte_p50,
    in_suite_order,
    results_document,
)
from scorer.wire.response import ModelResponse, ToolCall
from tests.suitekit import case, make_suite

SUITE = make_suite(
    [
        case("no_call-01", [{"expect": "none"}], group="no_call"),
        case("no_call-02", [{"expect": "none"}], group="no_call"),
    ]
)
A = SUITE.cases[0]


def outcome(status: str, reason: str | None = None, *attempts: Attempt, steps=()) -> CaseOutcome:
    return CaseOutcome(A, status, reason, tuple(steps), tuple(attempts))  # type: ignore[arg-type]


CALLS = (ToolCall("c1", "get_weather", '{"city": "Oslo"}'), ToolCall(None, "made_up", {"x": 1}))
VERDICT = StepVerdict(
    False,
    "wrong tool",
    (
        CallVerdict("get_weather", True, True, True, "string"),
        CallVerdict("made_up", False, False, None, "object"),
    ),
    (0, None),
)


def test_case_document_every_field() -> None:
    answer = ModelResponse("hi", CALLS, "gw-model", {"role": "assistant"}, anomalies=("gap",))
    plain = ModelResponse(None, CALLS[:1], None, {"role": "assistant"})
    steps = (
        StepRecord(0, answer, VERDICT),
        StepRecord(1, plain, None),
        StepRecord(2, None, StepVerdict(True, None, (), ())),
    )
    attempts = (
        Attempt(0, 1, "error", 500, 12.5),
        Attempt(0, 2, "ok", 200, 80.0, "0.002", cost_source="table", first_byte_ms=30.0),
    )
    assert case_document(outcome("failed", "wrong tool", *attempts, steps=steps)) == {
        "id": "no_call-01",
        "group": "no_call",
        "status": "failed",
        "reason": "wrong tool",
        "steps": [
            {
                "index": 0,
                "passed": False,
                "reason": "wrong tool",
                "response": {
                    "content": "hi",
                    "model": "gw-model",
                    "tool_calls": [
                        {
                            "id": "c1",
                            "name": "get_weather",
                            "arguments": '{"city": "Oslo"}',
                            "arguments_form": "string",
                            "offered": True,
                            "parsed": True,
                            "schema_valid": True,
                        },
                        {
                            "id": None,
                            "name": "made_up",
                            "arguments": {"x": 1},
                            "arguments_form": "object",
                            "offered": False,
                            "parsed": False,
                            "schema_valid": None,
                        },
                    ],
                },
                "transport_anomalies": ["gap"],
            },
            {
                "index": 1,
                "passed": False,
                "reason": None,
                "response": {
                    "content": None,
                    "model": None,
                    "tool_calls": [
                        {
                            "id": "c1",
                            "name": "get_weather",
                            "arguments": '{"city": "Oslo"}',
                            "arguments_form": None,
                            "offered": None,
                            "parsed": None,
                            "schema_valid": None,
                        }
                    ],
                },
            },
            {"index": 2, "passed": True, "reason": None, "response": None},
        ],
        "attempts": [
            {
                "step": 0,
                "attempt": 1,
                "outcome": "error",
                "status": 500,
                "wall_ms": 12.5,
                "cost_usd": None,
            },
            {
                "step": 0,
                "attempt": 2,
                "outcome": "ok",
                "status": 200,
                "wall_ms": 80.0,
                "cost_usd": "0.002",
                "cost_source": "table",
                "first_byte_ms": 30.0,
            },
        ],
    }


def test_dropped_temperature_true_false_or_unknown() -> None:
    said = Attempt(0, 1, "ok", 200, 1.0, dropped_params="top_p, Temperature")
    other = Attempt(0, 1, "ok", 200, 1.0, dropped_params="top_p", lobstack=True)
    silent = Attempt(0, 1, "ok", 200, 1.0)
    assert dropped_temperature([outcome("passed", None, silent, said)]) is True
    assert dropped_temperature([outcome("passed", None, other), outcome("passed")]) is False
    assert dropped_temperature([outcome("passed", None, silent)]) is None
    assert dropped_temperature([]) is None


def test_first_byte_median_of_the_streamed_attempts() -> None:
    def entry(*times: float | None) -> dict[str, Any]:
        return {"attempts": [{} if t is None else {"first_byte_ms": t} for t in times]}

    assert first_byte_p50({"results": [entry(30.0, None), entry(10.0, 20.0)]}) == 20.0
    assert first_byte_p50({"results": [entry(10.0), entry(25.0)]}) == 17.5
    assert first_byte_p50({"results": [entry(None)]}) is None
    assert first_byte_p50({}) is None


def test_anomaly_counts_by_case_and_kind() -> None:
    document = {
        "results": [
            {"steps": [{"transport_anomalies": ["late", "gap"]}, {"transport_anomalies": ["gap"]}]},
            {"steps": [{}, {"transport_anomalies": []}]},
            {"steps": [{"transport_anomalies": ["gap"]}]},
            {},
        ]
    }
    counted = anomaly_counts(document)
    assert counted == {"cases": 2, "kinds": {"gap": 3, "late": 1}}
    assert list(counted["kinds"]) == ["gap", "late"]
    assert anomaly_counts({}) == {"cases": 0, "kinds": {}}


def test_in_suite_order_and_the_document() -> None:
    b = CaseOutcome(SUITE.cases[1], "passed", None, (), ())
    a = outcome("errored", "timeout")
    ids = in_suite_order(SUITE, ["x", "no_call-02", "y", "no_call-01"], lambda i: i)
    assert ids == ["no_call-01", "no_call-02", "x", "y"]
    document = results_document(SUITE, "Model M", "m", [b, a], {"name": "old"})
    assert {k: v for k, v in document.items() if k != "suite"} == {
        "format_version": 1,
        "recorded_suite": {"name": "old"},
        "model": "Model M",
        "model_slug": "m",
        "temperature_ignored": None,
        "results": [
            {
                "id": "no_call-01",
                "group": "no_call",
                "status": "errored",
                "reason": "timeout",
                "steps": [],
                "attempts": [],
            },
            {
                "id": "no_call-02",
                "group": "no_call",
                "status": "passed",
                "reason": None,
                "steps": [],
                "attempts": [],
            },
        ],
    }
    assert document["suite"] == {
        "name": SUITE.name,
        "version": SUITE.version,
        "sha256": SUITE.sha256,
    }
    assert results_document(SUITE, "M", "m", [])["recorded_suite"] is None


def test_dumps_sorted_indented_with_a_newline() -> None:
    assert dumps({"b": 1, "a": [1.5, "é"]}) == '{\n  "a": [\n    1.5,\n    "é"\n  ],\n  "b": 1\n}\n'


def test_repeated_case_the_representative_repeat_and_every_run() -> None:
    runs = [
        outcome("errored", "timeout", Attempt(0, 1, "timeout", None, None)),
        outcome("failed", "wrong"),
        outcome("passed"),
    ]
    assert repeated_case_document(runs) == {
        "id": "no_call-01",
        "group": "no_call",
        "status": "failed",
        "reason": "repeat 2: wrong",
        "steps": [],
        "attempts": [],
        "repeat_statuses": ["errored", "failed", "passed"],
        "passed_repeats": 1,
        "scored_repeats": 2,
        "runs": [
            {
                "status": "errored",
                "reason": "timeout",
                "steps": [],
                "attempts": [
                    {
                        "step": 0,
                        "attempt": 1,
                        "outcome": "timeout",
                        "status": None,
                        "wall_ms": None,
                        "cost_usd": None,
                    }
                ],
                "repeat": 1,
                "answers_sha256": [],
            },
            {
                "status": "failed",
                "reason": "wrong",
                "steps": [],
                "attempts": [],
                "repeat": 2,
                "answers_sha256": [],
            },
            {
                "status": "passed",
                "reason": None,
                "steps": [],
                "attempts": [],
                "repeat": 3,
                "answers_sha256": [],
            },
        ],
    }
    passed = repeated_case_document([outcome("passed"), outcome("passed")])
    assert (passed["status"], passed["reason"], passed["passed_repeats"]) == ("passed", None, 2)


def test_repeated_results_document_in_suite_order() -> None:
    from scorer.repeated_results import repeated_results_document

    b = SUITE.cases[1]
    dropped = Attempt(0, 1, "ok", 200, 5.0, dropped_params="temperature", lobstack=True)
    second = [
        CaseOutcome(b, "passed", None, (), (dropped,)),
        CaseOutcome(b, "errored", "x", (), ()),
    ]
    first = [outcome("unrecorded", "no exchange"), outcome("passed")]
    document = repeated_results_document(SUITE, "Model M", "m", [second, first], {"name": "old"})
    assert list(document) == [
        "format_version",
        "suite",
        "recorded_suite",
        "model",
        "model_slug",
        "temperature_ignored",
        "results",
    ]
    assert document["format_version"] == 1
    assert document["suite"] == {
        "name": SUITE.name,
        "version": SUITE.version,
        "sha256": SUITE.sha256,
    }
    assert (document["recorded_suite"], document["model"], document["model_slug"]) == (
        {"name": "old"},
        "Model M",
        "m",
    )
    assert document["temperature_ignored"] is True  # read over every repeat of every case
    entries = document["results"]
    assert [(e["id"], e["status"], e["reason"]) for e in entries] == [
        ("no_call-01", "passed", None),
        ("no_call-02", "passed", None),
    ]
    assert [e["repeat_statuses"] for e in entries] == [
        ["unrecorded", "passed"],
        ["passed", "errored"],
    ]
    assert [[r["repeat"] for r in e["runs"]] for e in entries] == [[1, 2], [1, 2]]
    assert entries[1]["attempts"] == [
        {"step": 0, "attempt": 1, "outcome": "ok", "status": 200, "wall_ms": 5.0, "cost_usd": None}
    ]
    unknown = repeated_results_document(SUITE, "M", "m", [first])
    assert unknown["recorded_suite"] is None and unknown["temperature_ignored"] is None
    assert [e["id"] for e in unknown["results"]] == ["no_call-01"]


def test_repeated_case_of_passed_repeats_with_answers() -> None:
    """Every repeat passed (the representative's reason is None) and each reached a step: each run
    keeps its answers' digests, sha256 of the canonical answer text written here by hand."""
    import hashlib

    text = '{"content":"hi","model":"gw","tool_calls":[]}'
    said = ModelResponse("hi", (), "gw", {"role": "assistant"})
    runs = [
        outcome("passed", steps=[StepRecord(0, None, None)]),
        outcome("passed", steps=[StepRecord(0, said, StepVerdict(True, None, (), ()))]),
    ]
    nothing = {"index": 0, "passed": False, "reason": None, "response": None}
    answered = {
        "index": 0,
        "passed": True,
        "reason": None,
        "response": {"content": "hi", "model": "gw", "tool_calls": []},
    }
    assert repeated_case_document(runs) == {
        "id": "no_call-01",
        "group": "no_call",
        "status": "passed",
        "reason": None,
        "steps": [nothing],
        "attempts": [],
        "repeat_statuses": ["passed", "passed"],
        "passed_repeats": 2,
        "scored_repeats": 2,
        "runs": [
            {
                "status": "passed",
                "reason": None,
                "steps": [nothing],
                "attempts": [],
                "repeat": 1,
                "answers_sha256": [hashlib.sha256(b"null").hexdigest()],
            },
            {
                "status": "passed",
                "reason": None,
                "steps": [answered],
                "attempts": [],
                "repeat": 2,
                "answers_sha256": [hashlib.sha256(text.encode()).hexdigest()],
            },
        ],
    }


def test_a_step_answered_in_text_alone() -> None:
    """One step, a text answer judged passed, no call and no transport anomaly."""
    said = ModelResponse("hi", (), "gw", {"role": "assistant"})
    steps = [StepRecord(0, said, StepVerdict(True, None, (), ()))]
    assert case_document(outcome("passed", steps=steps))["steps"] == [
        {
            "index": 0,
            "passed": True,
            "reason": None,
            "response": {"content": "hi", "model": "gw", "tool_calls": []},
        }
    ]


def test_steps_that_all_have_an_answer_and_a_verdict() -> None:
    calls = ModelResponse(None, CALLS, "gw", {"role": "assistant"})
    late = ModelResponse("ok", (), None, {"role": "assistant"}, anomalies=("late", "gap"))
    steps = [
        StepRecord(0, calls, VERDICT),
        StepRecord(1, late, StepVerdict(True, None, (), ())),
    ]
    assert case_document(outcome("failed", "wrong tool", steps=steps))["steps"] == [
        {
            "index": 0,
            "passed": False,
            "reason": "wrong tool",
            "response": {
                "content": None,
                "model": "gw",
                "tool_calls": [
                    {
                        "id": "c1",
                        "name": "get_weather",
                        "arguments": '{"city": "Oslo"}',
                        "arguments_form": "string",
                        "offered": True,
                        "parsed": True,
                        "schema_valid": True,
                    },
                    {
                        "id": None,
                        "name": "made_up",
                        "arguments": {"x": 1},
                        "arguments_form": "object",
                        "offered": False,
                        "parsed": False,
                        "schema_valid": None,
                    },
                ],
            },
        },
        {
            "index": 1,
            "passed": True,
            "reason": None,
            "response": {"content": "ok", "model": None, "tool_calls": []},
            "transport_anomalies": ["late", "gap"],
        },
    ]


def test_helpers_on_documents_without_the_optional_keys() -> None:
    assert anomaly_counts({}) == {"cases": 0, "kinds": {}}
    streamed = {"results": [{"attempts": [{"first_byte_ms": 4.0}, {"first_byte_ms": 2.0}]}]}
    assert first_byte_p50(streamed) == 3.0
    assert first_byte_p50({"results": [{"id": "a"}]}) is None  # an entry without attempts
    assert anomaly_counts({"results": [{"id": "a"}]}) == {"cases": 0, "kinds": {}}
    ids = in_suite_order(SUITE, ["z", "no_call-02", "a", "no_call-01"], lambda i: i)
    assert ids == ["no_call-01", "no_call-02", "z", "a"]  # the rest in the order given


def test_a_case_of_one_repeat() -> None:
    """A case with a single repeat recorded (the others never ran) is still its own entry."""
    from scorer.repeated_results import repeated_results_document

    entry = repeated_case_document([outcome("passed")])
    assert (entry["id"], entry["group"], entry["repeat_statuses"]) == (
        "no_call-01",
        "no_call",
        ["passed"],
    )
    document = repeated_results_document(SUITE, "M", "m", [[outcome("failed", "x")]])
    assert [(e["id"], e["reason"]) for e in document["results"]] == [("no_call-01", "repeat 1: x")]
