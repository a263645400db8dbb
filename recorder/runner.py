"""Run one case as the method says: the case's messages and tools, temperature 0, chains step
by step.

After a passing step the runner appends the model's answer exactly as it was sent (every field:
``reasoning_content``, ``reasoning_details``, the calls' ``extra_content``, Responses' reasoning
items...: reasoning providers refuse a follow-up without them) and each call's scripted result of
the expected call it was matched to, in the run's dialect (``scorer.wire.dialect``), then asks
again; a chain stops at the first step that fails. A call without a usable id gets a stable
generated one, written into both the echoed call and its tool message. The same code runs against
the network (record) and against cassettes (rescore).
"""

from __future__ import annotations

import hashlib
import time
from collections.abc import Callable
from typing import Any

from recorder.answer_read import TOO_DEEP
from recorder.client import call_with_retries
from recorder.gateway import METHOD_GATEWAY, Gateway
from recorder.transport import HttpRequest, Transport, Unrecorded
from scorer.judge import StepVerdict, judge_step
from scorer.outcome import Attempt, CaseOutcome, StepRecord
from scorer.suite.model import Case, Step, Suite
from scorer.wire.dialect import DEFAULT, Dialect
from scorer.wire.response import ModelResponse

NO_SCRIPTED_RESULT = (
    "error: this call does not match any expected call, so the suite has no result for it"
)


def request_body(
    suite: Suite,
    case: Case,
    model: str,
    echoed: list[dict[str, Any]],
    gateway: Gateway | None = None,
) -> dict[str, Any]:
    """The request of one step: the case's messages, what the chain echoed so far, and the tools,
    in the gateway's dialect (default: the method's Chat Completions request)."""
    gateway = gateway or METHOD_GATEWAY
    tools = [suite.tools[name].spec for name in case.tools]
    messages = [dict(m) for m in case.messages]
    return gateway.dialect.request_body(
        model, suite.system_prompt, messages, tools, echoed, gateway.wire
    )


def generated_id(case_id: str, step: int, position: int) -> str:
    """The stable id given to the ``position``-th call of step ``step`` when the model sent none
    (or a repeat)."""
    digest = hashlib.sha256(
        f"lobstack-eval\x1f{case_id}\x1f{step}\x1f{position}".encode()
    ).hexdigest()
    return "call_" + digest[:24]


def call_ids(case_id: str, step: int, response: ModelResponse) -> list[str]:
    """The id each call goes by in the conversation: its own when it is a non-empty string not used
    by an earlier call of the same answer, else a generated one (Gemini sends ``""`` for every
    call; others send none)."""
    ids: list[str] = []
    for position, call in enumerate(response.tool_calls):
        usable = isinstance(call.id, str) and call.id != "" and call.id not in ids
        ids.append(call.id if usable else generated_id(case_id, step, position))  # type: ignore[arg-type]
    return ids


def follow_up(
    step: Step,
    response: ModelResponse,
    verdict: StepVerdict,
    case_id: str = "",
    index: int = 0,
    dialect: Dialect = DEFAULT,
) -> list[dict[str, Any]]:
    """What a chain appends after a passing step, in ``dialect``'s words: the answer echoed as
    sent, then each call's scripted result (of the expected call it was matched to)."""
    ids = call_ids(case_id, index, response)
    results = []
    for partner in verdict.assignment:
        result = step.calls[partner].result if partner is not None else None
        results.append(result if result is not None else NO_SCRIPTED_RESULT)
    return dialect.follow_up(response, ids, results)


def run_case(
    suite: Suite,
    case: Case,
    model: str,
    gateway: Gateway,
    transport: Transport,
    sleep: Callable[[float], None] = time.sleep,
) -> CaseOutcome:
    """Run every step of ``case`` until one fails; the outcome carries every attempt and
    reached step. ``gateway`` is the run's Gateway (its dialect, settings and price header)."""
    echoed: list[dict[str, Any]] = []
    attempts: list[Attempt] = []
    steps: list[StepRecord] = []

    def finish(status: str, reason: str | None) -> CaseOutcome:
        return CaseOutcome(case, status, reason, tuple(steps), tuple(attempts))  # type: ignore[arg-type]

    for index, step in enumerate(case.steps):
        try:
            body = request_body(suite, case, model, echoed, gateway)
            request = HttpRequest(gateway.endpoint, body, gateway.headers())
            result = call_with_retries(transport, request, index, sleep, gateway)
        except Unrecorded as missing:
            return finish("unrecorded", f"step {index + 1}: {missing}")
        except (
            RecursionError
        ):  # an echoed message too deep to send: the answer before it was too deep to use
            return finish("errored", f"step {index}: {TOO_DEEP}")
        attempts.extend(result.attempts)
        response = result.response  # the client read the body once: error answer or not
        if result.failure is not None or response is None:
            return finish("errored", f"step {index + 1}: {result.failure}")
        try:
            verdict = judge_step(step, response, case, suite)
        except RecursionError:
            return finish("errored", f"step {index + 1}: {TOO_DEEP}")
        steps.append(StepRecord(index, response, verdict))
        if not verdict.passed:
            named = f" (transport anomaly: {'; '.join(response.anomalies)})"
            reason = f"step {index + 1}: {verdict.reason}" + (named if response.anomalies else "")
            return finish("failed", reason)
        echoed.extend(follow_up(step, response, verdict, case.id, index, gateway.dialect))
    return finish("passed", None)
