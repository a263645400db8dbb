"""What real providers send, run through the real runner and judge: one table row per shape
(tests/tables/shapes.json).

Each row scripts the HTTP answers of one case (a body as JSON, or raw text for what JSON cannot
hold) and states the verdict the method requires; every row's results document must also be writable
as strict JSON.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from recorder.gateway import Gateway
from recorder.manifest import recorded_case
from recorder.runner import generated_id, run_case
from recorder.transport import HttpAnswer, HttpRequest
from replay.scored import summarized
from scorer import dumps
from scorer.results import results_document as skeleton
from tests.suitekit import TOOLS, make_suite


def results_document(suite: Any, model: str, slug: str, outcomes: list[Any]) -> dict[str, Any]:
    """results.json as rescore writes it: the entries, then the summary of their rows."""
    return summarized(suite, skeleton(suite, model, slug, outcomes))


ROWS = json.loads((Path(__file__).parent / "tables" / "shapes.json").read_text(encoding="utf-8"))
WEATHER = {
    "name": "get_weather",
    "args": {"city": {"eq": "Oslo"}},
    "reference": {"city": "Oslo"},
    "result": "Oslo: 4 C",
}
LIMA = {
    "name": "get_weather",
    "args": {"city": {"eq": "Lima"}},
    "reference": {"city": "Lima"},
    "result": "Lima: 19 C",
}
TIME_TOOL = {
    "type": "function",
    "function": {
        "name": "get_time",
        "description": "The time now.",
        "parameters": {"type": "object", "properties": {}},
    },
}
# The table names cases by what they expect; the suite needs <group>-NN ids.
CASES = {
    "c-call": ("selection-01", [{"expect": "call", "calls": [WEATHER]}]),
    "c-none": ("no_call-01", [{"expect": "none"}]),
    "c-parallel": ("parallel-01", [{"expect": "call", "calls": [WEATHER, LIMA]}]),
    "c-chain": ("chains-01", [{"expect": "call", "calls": [WEATHER]}, {"expect": "none"}]),
    "c-time": (
        "selection-02",
        [{"expect": "call", "calls": [{"name": "get_time", "args": {}, "reference": {}}]}],
    ),
}
SUITE = make_suite(
    [
        {
            "id": case_id,
            "group": case_id.split("-")[0],
            "tools": [*TOOLS, "get_time"],
            "messages": [{"role": "user", "content": f"request for {case_id}"}],
            "steps": steps,
        }
        for case_id, steps in CASES.values()
    ],
    {**TOOLS, "get_time": TIME_TOOL},
)
COST = "x-lobstack-cost-usd"
ATTEMPT_KEYS = ("step", "attempt", "outcome", "status", "wall_ms", "cost_usd")  # docs/FORMATS.md


class ScriptedTransport:
    """Answers each request with the next scripted answer and keeps every request."""

    def __init__(self, answers: list[HttpAnswer]) -> None:
        self.answers = list(answers)
        self.requests: list[HttpRequest] = []

    def send(self, request: HttpRequest) -> HttpAnswer:
        self.requests.append(request)
        request.body_bytes()  # what goes on the wire must be encodable
        return self.answers.pop(0)


def http_answer(spec: dict[str, Any]) -> HttpAnswer:
    if "text" in spec:
        body = spec["text"].encode()
    else:
        value = spec.get("body") or {
            "id": "chatcmpl-1",
            "object": "chat.completion",
            "created": 1,
            "model": "provider/model",
            **spec.get("extra", {}),
            "choices": [
                {
                    "index": 0,
                    "message": spec["message"],
                    "finish_reason": spec.get("finish_reason", "stop"),
                }
            ],
        }
        body = json.dumps(value).encode()
    headers = spec.get("headers", {COST: "0.001"})
    return HttpAnswer(spec.get("status", 200), headers, body, 10.0)


def run(row: dict[str, Any]) -> tuple[Any, ScriptedTransport, list[float]]:
    transport = ScriptedTransport([http_answer(a) for a in row["answers"]])
    sleeps: list[float] = []
    case = SUITE.case(CASES[row["case"]][0])
    outcome = run_case(
        SUITE, case, "provider/model", Gateway("http://gw/v1"), transport, sleeps.append
    )
    return outcome, transport, sleeps


def with_ids(value: Any, case: str) -> Any:
    """The row's ``GENERATED-<n>`` placeholders replaced by the runner's stable id for step 1,
    position n."""
    case_id = CASES[case][0]
    text = json.dumps(value)
    for n in range(4):
        text = text.replace(f"GENERATED-{n}", generated_id(case_id, 0, n))
    return json.loads(text)


@pytest.mark.parametrize("row", ROWS, ids=[row["id"] for row in ROWS])
def test_shape(row: dict[str, Any]) -> None:
    outcome, transport, sleeps = run(row)
    assert (outcome.status, outcome.reason) == (row["status"], row.get("reason"))
    document = json.loads(
        dumps(results_document(SUITE, "provider/model", "m", [outcome]))
    )  # strict JSON out
    result = document["results"][0]
    if "outcomes" in row:
        assert [a["outcome"] for a in result["attempts"]] == row["outcomes"]
    if "sleeps" in row:
        assert sleeps == row["sleeps"]
    if "errored_by_transport" in row:
        entry = recorded_case(outcome, ["x"] * len(outcome.attempts), "0.1.0")
        assert entry.errored_by_transport is row["errored_by_transport"]
    if "ids" in row:  # results keep what the model sent
        assert [c["id"] for c in result["steps"][0]["response"]["tool_calls"]] == row["ids"]
    if "content" in row:
        assert result["steps"][0]["response"]["content"] == row["content"]
    if "cost_usd" in row:
        assert document["cost_usd"] == row["cost_usd"]
    if (
        "prices" in row
    ):  # each attempt's price text as sent, and "body" when it came from usage.cost
        assert [[a["cost_usd"], a.get("cost_source")] for a in result["attempts"]] == row["prices"]
        keys = [
            sorted(ATTEMPT_KEYS + (("cost_source",) if source else ()))
            for _, source in row["prices"]
        ]
        assert [
            sorted(a) for a in result["attempts"]
        ] == keys  # no cost_source on a header-priced attempt
    if "temperature_ignored" in row:
        assert document["temperature_ignored"] is row["temperature_ignored"]
    if "echo" in row or "tool_messages" in row:
        sent = transport.requests[1].body["messages"]
        opening = 1 + len(SUITE.case(CASES[row["case"]][0]).messages)
        if "echo" in row:
            assert sent[opening] == with_ids(row["echo"], row["case"])
            assert list(sent[opening]) == list(
                with_ids(row["echo"], row["case"])
            )  # key order as sent
        if "tool_messages" in row:
            assert sent[opening + 1 :] == with_ids(row["tool_messages"], row["case"])


def test_a_repeated_id_gets_a_generated_one_in_the_call_and_its_tool_message() -> None:
    from recorder.runner import follow_up
    from scorer import judge_step, parse_completion

    calls = [
        {
            "id": "call_1",
            "type": "function",
            "function": {"name": "get_weather", "arguments": json.dumps(a)},
        }
        for a in ({"city": "Oslo"}, {"city": "Lima"})
    ]
    body = {"choices": [{"message": {"role": "assistant", "content": None, "tool_calls": calls}}]}
    case = SUITE.case("parallel-01")
    response = parse_completion(body)
    verdict = judge_step(case.steps[0], response, case, SUITE)
    assistant, *tools = follow_up(case.steps[0], response, verdict, case.id, 0)
    second = generated_id(case.id, 0, 1)
    assert [c["id"] for c in assistant["tool_calls"]] == ["call_1", second]
    assert [(m["tool_call_id"], m["content"]) for m in tools] == [
        ("call_1", "Oslo: 4 C"),
        (second, "Lima: 19 C"),
    ]
    assert [c.id for c in response.tool_calls] == ["call_1", "call_1"]  # what results.json keeps


def test_generated_ids_are_stable_and_distinct() -> None:
    assert generated_id("chains-01", 0, 0) == generated_id("chains-01", 0, 0)
    ids = {generated_id(c, s, p) for c in ("a", "b") for s in range(3) for p in range(3)}
    assert len(ids) == 18 and all(i.startswith("call_") and len(i) == 29 for i in ids)


DEEP = 100_000


@pytest.mark.parametrize(
    ("arguments", "reason"),
    [
        ("[" * DEEP + "]" * DEEP, "not a JSON object (nested deeper than 100 levels)"),
        (
            '{"a": ' + "[" * 150 + "]" * 150 + "}",
            "not a JSON object (nested deeper than 100 levels)",
        ),
        ('{"a": ' * DEEP + "1" + "}" * DEEP, "not a JSON object (nested deeper than 100 levels)"),
        ("{" * DEEP, "not a JSON object"),  # not JSON at its second character, whatever the depth
    ],
    ids=["100000-brackets", "150-levels", "100000-objects", "100000-open-braces"],
)
def test_deeply_nested_arguments_string_fails_the_step(arguments: str, reason: str) -> None:
    message = {
        "role": "assistant",
        "content": None,
        "tool_calls": [
            {
                "id": "c",
                "type": "function",
                "function": {"name": "get_weather", "arguments": arguments},
            }
        ],
    }
    outcome, _, _ = run({"case": "c-call", "answers": [{"message": message}]})
    assert (outcome.status, outcome.reason) == (
        "failed",
        f"step 1: get_weather.arguments: {reason}",
    )
    dumps(results_document(SUITE, "provider/model", "m", [outcome]))


def test_deeply_nested_body_is_errored_with_a_clear_reason() -> None:
    deep = "[" * DEEP + "]" * DEEP
    text = (
        '{"choices": [{"message": {"role": "assistant", "tool_calls": [{"id": "c", "type": '
        '"function", '
    )
    text += f'"function": {{"name": "get_weather", "arguments": {deep}}}}}]}}}}]}}'
    outcome, _, _ = run({"case": "c-call", "answers": [{"text": text}]})
    assert (outcome.status, outcome.reason) == (
        "errored",
        "step 1: malformed response: the body nests too deeply to read",
    )


def test_arguments_object_sent_directly_too_deep_fails_the_step() -> None:
    nested: Any = "x"
    for _ in range(150):
        nested = [nested]
    function = {"name": "get_weather", "arguments": {"city": nested}}
    message = {
        "role": "assistant",
        "content": None,
        "tool_calls": [{"id": "c", "type": "function", "function": function}],
    }
    outcome, _, _ = run({"case": "c-call", "answers": [{"message": message}]})
    assert (
        outcome.reason
        == "step 1: get_weather.arguments: not a JSON object (nested deeper than 100 levels)"
    )
    dumps(results_document(SUITE, "provider/model", "m", [outcome]))


def test_a_sum_of_prices_beyond_a_double_is_unpriced() -> None:
    answer = {"headers": {COST: "1" + "0" * 308}, "message": {"role": "assistant", "content": "Hi"}}
    outcome, _, _ = run({"case": "c-none", "answers": [answer]})
    document = results_document(SUITE, "provider/model", "m", [outcome, outcome])
    assert document["cost_usd"] is None and document["cost_per_100_cases_usd"] is None
    dumps(document)
