"""API dialects by name: the one entry point to the wire format (request body, answer decoding,
the echo a chain sends back, the key's headers, error text, the retried statuses).

A run names its dialect (``record --dialect``; run.json's ``wire``, absent: ``chat``), and the
recorder and rescore reach the format through its ``Dialect``, but for what is read by the
dialect's name beside it: a streamed answer's frames (``scorer.wire.streams``), the body's
``usage.cost`` price (``scorer.wire.prices``) and a run's routing headers
(``scorer.run_identity``). The stand-in gateway keeps its own copy of every format on purpose (it
imitates a separate program). The judge reads only the neutral ``ModelResponse`` every decoder
returns, never the wire.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from scorer.errors import UsageError
from scorer.wire import anthropic_messages, openai_chat, openai_responses
from scorer.wire.response import (
    TRANSPORT_CODES,
    BodyError,
    ModelResponse,
    body_error,
    parse_completion,
)
from scorer.wire.settings import Wire, parse_params

RETRY_STATUSES = TRANSPORT_CODES  # the method's transport errors, one set for HTTP and in-body

RequestBody = Callable[
    [str, str, list[dict[str, Any]], list[dict[str, Any]], list[dict[str, Any]], Wire],
    dict[str, Any],
]  # (model, system prompt, the suite's messages, tools, echoed follow-ups, wire) -> JSON body


@dataclass(frozen=True)
class Dialect:
    """Every fact of one API's wire format that lobstack-eval uses."""

    name: str
    path: str  # below the API root (--base-url)
    request_body: RequestBody
    parse_answer: Callable[[Any], ModelResponse]  # a decoded 2xx body -> the model's answer
    body_error: Callable[[Any], BodyError | None]  # the error object a 2xx body may carry
    # (answer, each call's id, each call's scripted result) -> the items a chain appends
    follow_up: Callable[[ModelResponse, list[str], list[str]], list[dict[str, Any]]]
    auth_headers: Callable[[str], dict[str, str]]  # the API key as this API takes it
    error_text: Callable[[Any], str | None]  # the message of a decoded error body
    fixed_headers: dict[str, str] = field(default_factory=dict)  # sent with every request
    retry_statuses: frozenset[int] = RETRY_STATUSES
    cost_header: str = openai_chat.COST_HEADER
    dropped_header: str = openai_chat.DROPPED_HEADER
    routing_headers: tuple[str, ...] = openai_chat.ROUTING_HEADERS


CHAT = Dialect(
    name="chat",
    path=openai_chat.PATH,
    request_body=openai_chat.request_body,
    parse_answer=parse_completion,
    body_error=body_error,
    follow_up=openai_chat.follow_up,
    auth_headers=openai_chat.auth_headers,
    error_text=openai_chat.error_text,
)
RESPONSES = Dialect(
    name="responses",
    path=openai_responses.PATH,
    request_body=openai_responses.request_body,
    parse_answer=openai_responses.parse_answer,
    body_error=openai_responses.body_error,
    follow_up=openai_responses.follow_up,
    auth_headers=openai_chat.auth_headers,
    error_text=openai_chat.error_text,
)
MESSAGES = Dialect(
    name="messages",
    path=anthropic_messages.PATH,
    request_body=anthropic_messages.request_body,
    parse_answer=anthropic_messages.parse_answer,
    body_error=anthropic_messages.body_error,
    follow_up=anthropic_messages.follow_up,
    auth_headers=anthropic_messages.auth_headers,
    error_text=anthropic_messages.error_text,
    fixed_headers=anthropic_messages.FIXED_HEADERS,
    retry_statuses=RETRY_STATUSES | {529},  # Anthropic's "overloaded"
)
DIALECTS = {dialect.name: dialect for dialect in (CHAT, RESPONSES, MESSAGES)}
ALIASES = {"openai-chat": "chat"}  # the one dialect's name before there were three
DEFAULT = CHAT
OPENAI_CHAT = CHAT


def dialect(name: str) -> Dialect:
    """The dialect registered as ``name``; a UsageError listing the known ones otherwise."""
    try:
        return DIALECTS[ALIASES.get(name, name)]
    except KeyError:
        raise UsageError(
            f"unknown API dialect {name!r}; known: {', '.join(sorted(DIALECTS))}"
        ) from None


def checked_wire(name: str, stream: bool, params: list[str] | tuple[str, ...]) -> Wire:
    """The wire a recording asks for (``record --dialect --stream --param``, the plugin's
    ``--lobstack-*``): the dialect by its registered name, the settings parsed; a UsageError
    naming a bad one."""
    return Wire(dialect(name).name, stream, parse_params(params))
