"""The stand-in's ``/v1/responses`` and ``/v1/messages``: read the request as Chat Completions
(``standin.dialect_in``), let the gateway answer it (faults, checks and models as for Chat), then
write the answer in the dialect (``standin.dialect_out``), streamed as SSE when asked
(``standin.sse``)."""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import replace
from typing import Any

import standin.dialect_in as dialect_in
import standin.dialect_out as dialect_out
import standin.sse as sse
from standin.dialect_in import MESSAGES_PATH, RESPONSES_PATH

PATHS = {RESPONSES_PATH: "responses", MESSAGES_PATH: "messages"}


def _json_answer(answer: Any, kind: str, value: Any, status: int | None = None) -> Any:
    headers = tuple(h for h in answer.headers if h[0].lower() != "content-type")
    return replace(
        answer,
        status=answer.status if status is None else status,
        headers=(("Content-Type", "application/json"), *headers),
        body=json.dumps(value, ensure_ascii=False).encode("utf-8"),
    )


def route(
    kind: str,
    body: bytes,
    headers: dict[str, str],
    chat: Callable[[bytes, dict[str, Any]], Any],
    error: Callable[[int, str], Any],
) -> Any:
    """The outcome of one Responses or Messages request; ``chat`` answers the Chat request it
    means (with the original request kept for faults), ``error`` makes an error answer."""
    try:
        request = json.loads(body.decode("utf-8"))
    except (UnicodeDecodeError, json.JSONDecodeError) as exc:
        return _refuse(kind, error(400, f"We could not parse the JSON body of your request: {exc}"))
    if not isinstance(request, dict):
        return _refuse(kind, error(400, "The request body must be a JSON object."))
    if kind == "responses":
        converted, problem = dialect_in.responses_to_chat(request)
    else:
        converted, problem = dialect_in.messages_to_chat(request, headers)
    if converted is None:
        return _refuse(kind, error(400, problem or "bad request"))
    answer = chat(json.dumps(converted, ensure_ascii=False).encode("utf-8"), request)
    if not hasattr(answer, "status"):  # a hang-up
        return answer
    if answer.status != 200:
        return replace(answer, body=dialect_out.error_body(kind, answer.status, answer.body))
    try:
        completion = json.loads(answer.body)
    except ValueError:
        return answer  # garbage stays garbage
    model = str(request.get("model"))
    if kind == "responses":
        value = dialect_out.responses_body(completion, model)
    else:
        value = dialect_out.messages_body(completion, model)
    if value is None:
        return answer
    if request.get("stream") is True:
        frames = sse.encode(kind, value, sse.stream_fault(request.get("model")))
        headers_out = tuple(h for h in answer.headers if h[0].lower() != "content-type")
        return replace(
            answer, headers=(("Content-Type", sse.CONTENT_TYPE), *headers_out), body=frames
        )
    return _json_answer(answer, kind, value)


def _refuse(kind: str, answer: Any) -> Any:
    return replace(answer, body=dialect_out.error_body(kind, answer.status, answer.body))
