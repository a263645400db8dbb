"""Run one case as the method says: the case's messages and tools, temperature 0, chains step by step.

After a passing step the runner appends the model's assistant message as sent and one ``tool`` message per
call with the scripted result of the expected call it was matched to, then asks again; a chain stops at the
first step that fails. The same code runs against the network (record) and against cassettes (rescore).
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from typing import Any

from recorder.client import call_with_retries
from recorder.transport import HttpRequest, Transport, Unrecorded
from scorer.judge import StepVerdict, judge_step
from scorer.outcome import Attempt, CaseOutcome, StepRecord
from scorer.response import MalformedResponse, ModelResponse, parse_completion
from scorer.strict_json import deeper_than
from scorer.suite_model import Case, Step, Suite

# A chat completion is about 6 levels deep; arguments sent as an object add a few. A bound keeps every later reader
# (results.json, the HTML report) far from Python's recursion limit, with room under strict_json.MAX_DEPTH.
BODY_MAX_DEPTH = 64
TOO_DEEP = f"malformed response: the body is nested more than {BODY_MAX_DEPTH} levels deep"
NO_SCRIPTED_RESULT = "error: this call does not match any expected call, so the suite has no result for it"


def request_body(suite: Suite, case: Case, model: str, messages: list[dict[str, Any]]) -> dict[str, Any]:
    """Exactly the method's request: model, system message then the conversation, the case's tools, temperature 0."""
    return {
        "model": model,
        "messages": [{"role": "system", "content": suite.system_prompt}, *messages],
        "tools": [suite.tools[name].spec for name in case.tools],
        "temperature": 0,
    }


def follow_up(step: Step, response: ModelResponse, verdict: StepVerdict) -> list[dict[str, Any]]:
    """The messages appended after a step: the assistant message as sent, then one tool message per call."""
    assistant: dict[str, Any] = {"role": "assistant", "content": response.message.get("content")}
    if "tool_calls" in response.message:
        assistant["tool_calls"] = response.message["tool_calls"]
    tools = []
    for call, partner in zip(response.tool_calls, verdict.assignment, strict=True):
        result = step.calls[partner].result if partner is not None else None
        tools.append(
            {"role": "tool", "tool_call_id": call.id, "content": result if result is not None else NO_SCRIPTED_RESULT}
        )
    return [assistant, *tools]


def run_case(
    suite: Suite,
    case: Case,
    model: str,
    base_url: str,
    transport: Transport,
    sleep: Callable[[float], None] = time.sleep,
) -> CaseOutcome:
    """Run every step of ``case`` until one fails; the outcome carries every attempt and reached step."""
    url = f"{base_url.rstrip('/')}/chat/completions"
    messages = [dict(m) for m in case.messages]
    attempts: list[Attempt] = []
    steps: list[StepRecord] = []

    def finish(status: str, reason: str | None) -> CaseOutcome:
        return CaseOutcome(case, status, reason, tuple(steps), tuple(attempts))  # type: ignore[arg-type]

    for index, step in enumerate(case.steps):
        request = HttpRequest(url, request_body(suite, case, model, messages))
        try:
            result = call_with_retries(transport, request, index, sleep)
        except Unrecorded as missing:
            return finish("unrecorded", f"step {index + 1}: {missing}")
        attempts.extend(result.attempts)
        if result.failure is not None or result.answer is None:
            return finish("errored", f"step {index + 1}: {result.failure}")
        try:
            body = json.loads(result.answer.body)
            too_deep = deeper_than(body, BODY_MAX_DEPTH)
        except ValueError:
            return finish("errored", f"step {index + 1}: malformed response: the body is not JSON")
        except RecursionError:  # deeper than the parser goes
            too_deep = True
        if too_deep:
            return finish("errored", f"step {index + 1}: {TOO_DEEP}")
        try:
            response = parse_completion(body)
        except MalformedResponse as exc:
            return finish("errored", f"step {index + 1}: {exc}")
        verdict = judge_step(step, response, case, suite)
        steps.append(StepRecord(index, response, verdict))
        if not verdict.passed:
            return finish("failed", f"step {index + 1}: {verdict.reason}")
        messages.extend(follow_up(step, response, verdict))
    return finish("passed", None)
