"""API dialects by name: the one entry point to the wire format (request body, answer
parsing, headers).

A second dialect (say, a messages API) is one new module of plain functions like
``scorer/openai_chat.py`` plus one entry in ``DIALECTS``; the recorder and the judge read every fact
of the format from a ``Dialect``.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from scorer import openai_chat
from scorer.errors import UsageError
from scorer.response import BodyError, ModelResponse, body_error, parse_completion


@dataclass(frozen=True)
class Dialect:
    """Every fact of one API's wire format that lobstack-eval uses."""

    name: str
    path: str  # below the API root (--base-url)
    request_body: Callable[
        [str, str, list[dict[str, Any]], list[dict[str, Any]]], dict[str, Any]
    ]  # (model, system prompt, conversation, tools) -> the JSON body
    parse_answer: Callable[[Any], ModelResponse]  # a decoded 2xx body -> the model's answer
    body_error: Callable[[Any], BodyError | None]  # the error object a 2xx body may carry
    echoed_calls: Callable[[dict[str, Any]], list[dict[str, Any]]]  # the calls of an echoed message
    tool_result: Callable[[str, str, str, bool], dict[str, Any]]  # (id, name, content, legacy)
    cost_header: str
    dropped_header: str
    routing_headers: tuple[str, ...]


OPENAI_CHAT = Dialect(
    name="openai-chat",
    path=openai_chat.PATH,
    request_body=openai_chat.request_body,
    parse_answer=parse_completion,
    body_error=body_error,
    echoed_calls=openai_chat.echoed_calls,
    tool_result=openai_chat.tool_result,
    cost_header=openai_chat.COST_HEADER,
    dropped_header=openai_chat.DROPPED_HEADER,
    routing_headers=openai_chat.ROUTING_HEADERS,
)
DIALECTS = {dialect.name: dialect for dialect in (OPENAI_CHAT,)}
DEFAULT = OPENAI_CHAT


def dialect(name: str) -> Dialect:
    """The dialect registered as ``name``; a UsageError listing the known ones otherwise."""
    try:
        return DIALECTS[name]
    except KeyError:
        raise UsageError(
            f"unknown API dialect {name!r}; known: {', '.join(sorted(DIALECTS))}"
        ) from None
