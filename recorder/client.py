"""One API call with the method's retry rule, and nothing more.

Retried: a request that did not complete (network error, or no answer in 120 s) or that got 429, 502, 503 or
504; up to 3 retries, 1, 2 and 4 seconds apart (Retry-After is not honoured: the method fixes the schedule).
Any other answer is the model's result.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass

from recorder.transport import HttpAnswer, HttpRequest, Transport, TransportFailure
from scorer.outcome import Attempt

RETRY_STATUSES = frozenset({429, 502, 503, 504})
BACKOFF_S = (1.0, 2.0, 4.0)
COST_HEADER = "x-lobstack-cost-usd"
DROPPED_HEADER = "x-lobstack-dropped-params"


@dataclass(frozen=True)
class CallResult:
    """The final answer (None when the request never completed) and every attempt made."""

    answer: HttpAnswer | None
    attempts: tuple[Attempt, ...]
    failure: str | None

    @property
    def transport_error(self) -> bool:
        """True when the call ended on a transport error (worth recording again)."""
        return self.failure is not None and (self.answer is None or self.answer.status in RETRY_STATUSES)


def _attempt(step: int, number: int, answer: HttpAnswer) -> Attempt:
    outcome = "ok" if 200 <= answer.status < 300 else f"http_{answer.status}"
    return Attempt(
        step=step,
        attempt=number,
        outcome=outcome,
        status=answer.status,
        wall_ms=answer.wall_ms,
        cost_usd=answer.headers.get(COST_HEADER),
        dropped_params=answer.headers.get(DROPPED_HEADER),
    )


def call_with_retries(
    transport: Transport, request: HttpRequest, step: int, sleep: Callable[[float], None] = time.sleep
) -> CallResult:
    """Send ``request``, retrying transport errors as the method says."""
    attempts: list[Attempt] = []
    for number in range(1, len(BACKOFF_S) + 2):
        try:
            answer = transport.send(request)
        except TransportFailure as failure:
            attempts.append(Attempt(step, number, failure.kind, None, failure.wall_ms))
            last: str = f"{failure.kind} after {number} attempt(s): {failure.detail}"
            answer = None
        else:
            attempts.append(_attempt(step, number, answer))
            if answer.status not in RETRY_STATUSES:
                failure_text = None if 200 <= answer.status < 300 else f"HTTP {answer.status}{_error_text(answer)}"
                return CallResult(answer, tuple(attempts), failure_text)
            last = f"HTTP {answer.status} after {number} attempt(s){_error_text(answer)}"
        if number <= len(BACKOFF_S):
            sleep(BACKOFF_S[number - 1])
    return CallResult(answer, tuple(attempts), last)


def _error_text(answer: HttpAnswer) -> str:
    """The OpenAI-style error message of an error answer, if it has one."""
    import json

    try:
        message = json.loads(answer.body)["error"]["message"]
    except (ValueError, KeyError, TypeError):
        return ""
    return f": {str(message)[:160]}" if message else ""
