"""One API call with the method's retry rule, and nothing more.

Retried: a request that did not complete (network error, or no answer in 120 s) or that got 429,
502, 503 or 504; up to 3 retries, 1, 2 and 4 seconds apart (Retry-After is not honoured: the method
fixes the schedule). Any other answer is the model's result (a status outside 100-599 too; a
redirect is not followed: its reason says where it points, to use as --base-url). An error object
inside a 2xx body (OpenRouter's mid-generation errors) is an error answer with the provider's code:
an in-body 429, 502, 503 or 504 is a transport error and retried like its HTTP twin; any other
in-body error errors the case with the provider's code and message.
"""

from __future__ import annotations

import re
import time
from collections.abc import Callable
from dataclasses import dataclass

from recorder.answer_read import read_body
from recorder.gateway import METHOD_GATEWAY, Gateway
from recorder.transport import HttpAnswer, HttpRequest, Transport, TransportFailure
from scorer.outcome import Attempt
from scorer.wire.dialect import Dialect
from scorer.wire.headers import gateway_header, speaks_lobstack
from scorer.wire.prices import attempt_price
from scorer.wire.response import BodyError, ModelResponse

BACKOFF_S = (1.0, 2.0, 4.0)
_TOKEN = re.compile(r"[!#$%&'*+.^_`|~0-9A-Za-z-]+")


def header_name(text: str) -> str | None:
    """``text`` lower-cased when it is an HTTP header name (an RFC 9110 token), else None."""
    text = text.strip()
    return text.lower() if _TOKEN.fullmatch(text) else None


@dataclass(frozen=True)
class CallResult:
    """The final answer (None when the request never completed), every attempt made, and either
    ``response``, the model's answer to judge, or ``failure``, why there is none (a transport
    failure, an error answer, or a 2xx body that is no chat completion)."""

    answer: HttpAnswer | None
    attempts: tuple[Attempt, ...]
    failure: str | None
    response: ModelResponse | None = None


def _attempt(
    step: int, number: int, answer: HttpAnswer, error: BodyError | None, gateway: Gateway
) -> Attempt:
    outcome = "ok" if 200 <= answer.status < 300 else f"http_{answer.status}"
    cost_text = gateway_header(answer.headers, gateway.cost_header)
    cost, source = attempt_price(cost_text, answer.status, answer.body)
    return Attempt(
        step=step,
        attempt=number,
        outcome=error.outcome if error else outcome,
        status=answer.status,
        wall_ms=answer.wall_ms,
        cost_usd=cost,
        dropped_params=gateway_header(answer.headers, gateway.dialect.dropped_header),
        cost_source=source,
        lobstack=speaks_lobstack(answer.headers),
        first_byte_ms=answer.first_byte_ms if gateway.wire.stream else None,
    )


def call_with_retries(
    transport: Transport,
    request: HttpRequest,
    step: int,
    sleep: Callable[[float], None] = time.sleep,
    gateway: Gateway = METHOD_GATEWAY,
) -> CallResult:
    """Send ``request``, retrying transport errors as the method says (and the statuses the
    gateway's dialect adds); ``gateway`` names the price header (an answer without it is priced by
    its body's ``usage.cost``, as OpenRouter sends it) and the dialect the answer is read in."""
    dialect = gateway.dialect
    attempts: list[Attempt] = []
    for number in range(1, len(BACKOFF_S) + 2):
        try:
            answer = transport.send(request)
        except TransportFailure as failure:
            attempts.append(Attempt(step, number, failure.kind, None, failure.wall_ms))
            last: str = f"{failure.kind} after {number} attempt(s): {failure.detail}"
            answer = None
        else:
            ok = 200 <= answer.status < 300
            reading = read_body(answer.body, dialect, gateway.wire.stream) if ok else None
            error = reading.error if reading is not None else None
            attempts.append(_attempt(step, number, answer, error, gateway))
            if error is not None and error.transport:
                last = f"{error.describe()} (after {number} attempt(s))"
            elif error is not None:
                return CallResult(answer, tuple(attempts), error.describe())
            elif reading is not None:
                return CallResult(answer, tuple(attempts), reading.problem, reading.response)
            elif answer.status not in dialect.retry_statuses:
                return CallResult(
                    answer, tuple(attempts), failure_line(answer, request.url, dialect)
                )
            else:
                last = (
                    f"HTTP {answer.status} after {number} attempt(s){_error_text(answer, dialect)}"
                )
                last += _undecoded(answer)
        if number <= len(BACKOFF_S):
            sleep(BACKOFF_S[number - 1])
    return CallResult(answer, tuple(attempts), last)


def failure_line(answer: HttpAnswer, url: str, dialect: Dialect | None = None) -> str:
    """The reason of a non-2xx answer: its status and error message, or where a redirect points."""
    dialect = dialect or METHOD_GATEWAY.dialect
    location = answer.headers.get("location")
    if 300 <= answer.status < 400 and location:
        return f"HTTP {answer.status}: {redirect_text(location, url, dialect.path)}"
    return f"HTTP {answer.status}{_error_text(answer, dialect)}{_undecoded(answer)}"


def _undecoded(answer: HttpAnswer) -> str:
    """The note of an error answer whose body the recorder kept undecoded
    (``recorder.final_response``)."""
    from recorder.content_coding import UNDECODED_HEADER, undecoded_note

    return undecoded_note(answer.headers.get(UNDECODED_HEADER))


def redirect_text(location: str, url: str, path: str = "/chat/completions") -> str:
    """``the gateway redirected to URL: use it as --base-url``, the URL as an API root
    (``/chat/completions`` taken off) and shown as URLs are (no credentials, no port for a
    loopback host, query values hidden)."""
    from urllib.parse import urljoin

    from recorder.endpoint import stored_uri
    from recorder.secrets import public_url

    target = urljoin(url, location.strip()).rstrip("/")
    target = target.removesuffix(path)
    return f"the gateway redirected to {public_url(stored_uri(target))}: use it as --base-url"


def _error_text(answer: HttpAnswer, dialect: Dialect) -> str:
    """The error message of an error answer, in its dialect's error body, if it has one."""
    import json

    try:
        message = dialect.error_text(json.loads(answer.body))
    except (ValueError, RecursionError):
        return ""
    return f": {message[:160]}" if message else ""
