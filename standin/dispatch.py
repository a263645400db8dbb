"""From one HTTP request to what the stand-in gateway does with it: answer (after a delay) or
hang up.

Order of decisions for ``POST /v1/chat/completions``: the body must be a JSON object with a
``model`` string and a non-empty ``messages`` list, and must not ask for ``stream`` (else 400), the
model must be served (else 404 ``model_not_found``); only then do faults apply, counted per (model
as sent, body digest). So bad requests are never faulted and their attempts are not counted. Every
outcome waits ``latency_ms`` first; a ``slow`` fault adds 1 s. Every answer, errors included,
carries ``x-lobstack-cost-usd`` (``0.0`` unless a model answered), except those of a model priced in
the body (``ref/openrouter-style``, OpenRouter's way: no price header on any of its answers, errors
and faults included, and ``usage.cost`` in its completions).
``x-lobstack-dropped-params: temperature`` is sent on a model's answer when the request had
``temperature`` and the model drops it. With ``upstream_prefix`` set, both headers are renamed with
it. Nothing from the request headers is echoed, but by the ``echo*`` faults. A conversation whose
``tool`` messages do not answer the calls before them, or (for the provider-style models) whose
earlier answers did not come back as they must, is refused with a 400 before the model answers. The
dispatcher also counts each model's answers per body digest (faulted and refused attempts are not
answers): ``ref/flaky`` draws from that count, so the n-th answer to a body is the same on every
gateway with the seed.
"""

from __future__ import annotations

import json
import threading
from collections import Counter
from dataclasses import dataclass, replace
from typing import Any

import standin.dialect_route as dialect_route
import standin.sse as sse
import standin.wire as wire
from standin.catalog import MODELS, model_names, offered_names, route
from standin.codings import CODED_KINDS, coded
from standin.config import GatewayConfig
from standin.faults import IN_BODY, IN_CHOICE, SLOW_EXTRA_S, scripted_fault, split_model_suffix
from standin.hashing import canonical_json, digest
from standin.history import tool_message_problem
from standin.hostile import HOSTILE_KINDS, INFORMATIONAL, MODEL_OUTPUT_KINDS, bend, hostile
from standin.hostile_text import TEXT_KINDS, hostile_body
from standin.pricing import Usage, cost_usd, estimate_tokens, format_usd, usage_with_cost
from standin.reply import Ask, repeat_of
from standin.request_check import request_problem
from standin.streamed import STREAMED_KINDS
from standin.suite_follow import SuiteFollower
from standin.suite_index import SuiteIndex

CHAT_PATH = "/v1/chat/completions"
MODELS_PATH = "/v1/models"


@dataclass(frozen=True)
class Answer:
    """Send this status, headers and body after ``delay_s`` seconds."""

    status: int
    headers: tuple[tuple[str, str], ...]
    body: bytes
    delay_s: float
    informational: tuple[
        bytes, ...
    ] = ()  # whole 1xx answers (status line and headers) written first
    stream: str | None = None  # a kind of standin.streamed: written over time, not at once


@dataclass(frozen=True)
class Hangup:
    """Close the connection without answering after ``delay_s`` seconds."""

    delay_s: float


Outcome = Answer | Hangup


class Dispatcher:
    """Decides outcomes; the only state is the attempt counter, guarded by a lock."""

    def __init__(self, config: GatewayConfig, suite: SuiteFollower) -> None:
        self._config = config
        self._follower = suite
        # The suite each request is answered from, per handler thread (``handle`` sets it).
        self._local = threading.local()
        self._latency_s = config.latency_ms / 1000.0
        self._attempts: Counter[tuple[str, str]] = Counter()
        self._lock = threading.Lock()

    def handle(
        self,
        method: str,
        path: str,
        body: bytes,
        headers: dict[str, str] | None = None,
        suite: SuiteIndex | None = None,
    ) -> Outcome:
        """The outcome of one request (``headers`` are only ever echoed by the ``echo`` fault),
        answered from ``suite`` (the follower's current one when None)."""
        self._local.suite = suite if suite is not None else self._follower.current()
        self._local.repeat = repeat_of(headers or {})
        route_path = path.split("?", 1)[0].rstrip("/")
        if method == "POST" and route_path == CHAT_PATH:
            return self._chat(body, path, headers or {})
        if method == "POST" and route_path in dialect_route.PATHS:
            return dialect_route.route(
                dialect_route.PATHS[route_path],
                body,
                headers or {},
                lambda chat, _original: self._chat(chat, CHAT_PATH, headers or {}),
                lambda status, message: self._error(status, message),
            )
        if method == "GET" and route_path == MODELS_PATH:
            return self._answer(200, wire.models_json(model_names()))
        return self._error(
            404, f"Unknown request URL: {method} {route_path or '/'}", code="unknown_url"
        )

    def _answer(
        self,
        status: int,
        value: Any,
        cost: float = 0.0,
        extra_s: float = 0.0,
        raw: bytes | None = None,
        extra_headers: tuple[tuple[str, str], ...] = (),
    ) -> Answer:
        prefix = self._config.upstream_prefix
        own = (
            (prefix + name, value)
            for name, value in ((self._config.cost_header, format_usd(cost)), *extra_headers)
        )
        headers = (("Content-Type", "application/json"), *own)
        if prefix:  # the upstream's Server, forwarded as a LiteLLM proxy forwards it
            headers = (*headers, (prefix + "server", self._config.server))
        body = raw if raw is not None else wire.encode(value)
        return Answer(status, headers, body, self._latency_s + extra_s)

    def _error(
        self, status: int, message: str, param: str | None = None, code: str | None = None
    ) -> Answer:
        return self._answer(status, wire.error_json(status, message, param, code))

    def _chat(
        self, body: bytes, path: str = CHAT_PATH, headers: dict[str, str] | None = None
    ) -> Outcome:
        try:
            request = json.loads(body.decode("utf-8"))
        except (UnicodeDecodeError, json.JSONDecodeError) as exc:
            return self._error(400, f"We could not parse the JSON body of your request: {exc}")
        streamed = isinstance(request, dict) and request.get("stream") is True
        if streamed:  # answered whole, then sent as SSE chunks (standin.sse)
            request = {k: v for k, v in request.items() if k not in ("stream", "stream_options")}
        problem = request_problem(request)
        if problem:
            return self._error(400, problem[1], param=problem[0])
        if streamed:
            fault = sse.stream_fault(request.get("model"))
            return stream_chat(self._chat(wire.encode(request), path, headers), fault)
        model: str = request["model"]
        split = split_model_suffix(model)
        if split is None or split[0] not in (*MODELS, "auto"):
            return self._error(
                404, f"The model `{model}` does not exist", param="model", code="model_not_found"
            )
        outcome = self._hosted(request, model, *split, path=path, headers=headers or {})
        if sse.CUT_ARGS in split[1] and isinstance(outcome, Answer) and outcome.status == 200:
            outcome = replace(outcome, body=sse.cut_body(outcome.body))
        if isinstance(outcome, Answer) and split[0] in MODELS and MODELS[split[0]].price_in_body:
            priced = self._config.upstream_prefix + self._config.cost_header
            headers = tuple(h for h in outcome.headers if h[0] != priced)
            return replace(outcome, headers=headers)
        return outcome

    def _hosted(
        self,
        request: dict[str, Any],
        model: str,
        base: str,
        script: tuple[str, ...],
        path: str = CHAT_PATH,
        headers: dict[str, str] | None = None,
    ) -> Outcome:
        """The outcome of a request to a served model: a fault, a refusal, or the model's answer."""
        body_digest = digest(canonical_json(request))
        with self._lock:
            self._attempts[(model, body_digest)] += 1
            attempt = self._attempts[(model, body_digest)]
        if script:
            fault = scripted_fault(script, attempt)
        else:
            fault = self._config.faults.decide(self._config.seed, body_digest, attempt)
        extra_s = 0.0
        if fault in sse.STREAM_KINDS:  # applied as the answer is streamed (standin.sse)
            fault = None
        if fault == "timeout":
            return Hangup(self._latency_s + self._config.timeout_sleep_s)
        if fault == "drop":
            return Hangup(self._latency_s)
        if fault == "garbage":
            return self._answer(200, None, raw=wire.GARBAGE_BODY)
        if fault == "empty":
            return self._answer(200, {})
        if fault is not None and fault.startswith(IN_BODY):
            code = int(fault.removeprefix(IN_BODY))
            return self._answer(
                200, {"error": {"code": code, "message": f"Injected fault: error {code} in a 200"}}
            )
        if fault is not None and fault.startswith(IN_CHOICE):
            code = int(fault.removeprefix(IN_CHOICE))
            return self._answer(200, wire.choice_error_json(model, code))
        if fault in HOSTILE_KINDS and fault not in MODEL_OUTPUT_KINDS:
            status, extra, raw = hostile(fault, path, headers or {})
            return Answer(status, extra, raw, self._latency_s)
        if fault in MODEL_OUTPUT_KINDS:
            answer = self._complete(request, base, body_digest, extra_s, attempt)
            if answer.status != 200:
                return answer
            informational = (INFORMATIONAL[fault],) if fault in INFORMATIONAL else ()
            return replace(
                answer, body=bend(fault, json.loads(answer.body)), informational=informational
            )
        if fault in CODED_KINDS:
            answer = self._complete(request, base, body_digest, extra_s, attempt)
            extra, body = coded(fault, answer.body)
            return replace(answer, headers=(*answer.headers, *extra), body=body)
        if fault in STREAMED_KINDS:
            if fault in ("drip", "driphead"):
                answer = self._complete(request, base, body_digest, extra_s, attempt)
                return replace(answer, stream=fault)
            return Answer(
                200, (("Content-Type", "application/json"),), b"", self._latency_s, (), fault
            )
        if fault in TEXT_KINDS:
            normal = self._complete(request, base, body_digest, extra_s, attempt)
            status, body = hostile_body(fault, normal.body)
            return replace(normal, status=status, body=body)
        if fault == "slow":
            extra_s = SLOW_EXTRA_S
        elif fault is not None:
            status = int(fault)
            return self._error(status, f"Injected fault: the gateway answered {status}")
        return self._complete(request, base, body_digest, extra_s, attempt)

    def _complete(
        self, request: dict[str, Any], base: str, body_digest: str, extra_s: float, attempt: int
    ) -> Answer:
        offered = offered_names(request.get("tools"))
        messages = request["messages"]
        suite: SuiteIndex = self._local.suite
        position = suite.locate(messages, offered)
        schemas = suite.tool_schemas
        ask = Ask(
            position, offered, body_digest, self._config.seed, schemas, attempt, tuple(messages),
            run=self._config.run, drift_from=self._config.drift_from,
        )  # fmt: skip
        picked = route(base, ask)
        spec = MODELS[picked]
        problem = tool_message_problem(messages) or (spec.check(ask) if spec.check else None)
        if problem:
            return self._error(400, problem, param="messages")
        # ref/flaky's draw: the repeat the recorder names, so an answer depends on the request and
        # its repeat alone, never on what the gateway answered before (a recording reproduces)
        ask = replace(ask, occurrence=getattr(self._local, "repeat", 1))
        reply = spec.answer(ask)
        message = wire.message_json(reply)
        usage = Usage(
            estimate_tokens(canonical_json(request)), estimate_tokens(canonical_json(message))
        )
        completion_id = "chatcmpl-" + digest("completion", body_digest)[:24]
        dropped: tuple[tuple[str, str], ...] = ()
        if spec.drops_temperature and "temperature" in request:
            dropped = ((wire.DROPPED_HEADER, "temperature"),)
        served = reply.model or picked  # the snapshot behind the name, when the model says one
        if spec.price_in_body and reply.body_error is None:
            value = wire.openrouter_json(
                completion_id, served, reply, usage_with_cost(picked, usage)
            )
        else:
            value = wire.completion_json(completion_id, served, reply, usage)
        cost = 0.0 if reply.body_error is not None else cost_usd(picked, usage)
        return self._answer(200, value, cost, extra_s, extra_headers=dropped + reply.headers)


def stream_chat(outcome: Outcome, fault: str | None) -> Outcome:
    """A Chat answer as SSE chunks (``standin.sse``), when it is a completion."""
    if not isinstance(outcome, Answer) or outcome.status != 200:
        return outcome
    try:
        value = json.loads(outcome.body)
        value["choices"][0]["message"]
    except (ValueError, KeyError, IndexError, TypeError):
        return outcome  # a fault's body, sent as it is
    headers = tuple(h for h in outcome.headers if h[0].lower() != "content-type")
    frames = sse.encode("chat", value, fault)
    return replace(outcome, headers=(("Content-Type", sse.CONTENT_TYPE), *headers), body=frames)
