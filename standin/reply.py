"""What a reference model sees of a request (``Ask``) and what it answers (``Reply``)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from standin.suite_index import Position

# ``ref/drifting``'s first changed run unless ``gateway --drift-from`` says otherwise: after the 10
# runs ``drift`` learns from and 5 more, as in the committed histories (scripts/record_history.py),
# so a history recorded with the defaults shows a change ``drift`` finds. A change inside the first
# 10 runs is part of the baseline: drift never alarms on it.
DEFAULT_DRIFT_FROM = 16


@dataclass(frozen=True)
class ToolCall:
    """One call of an answer; ``arguments`` is the raw string sent (it need not be JSON)."""

    id: str
    name: str
    arguments: str


@dataclass(frozen=True)
class Reply:
    """An assistant message: text, calls, or both.

    Provider-style models shape the wire themselves: ``message`` replaces the OpenAI-shaped message
    whole, ``finish_reason`` the usual one, and ``body_error`` turns the answer into an error object
    inside a 200 (with ``choices`` beside it when ``mid_generation``).
    """

    content: str | None
    tool_calls: tuple[ToolCall, ...] = ()
    message: dict[str, Any] | None = None
    finish_reason: str | None = None
    body_error: dict[str, Any] | None = None
    mid_generation: bool = False
    # The answering model's identity when it is not the name asked for (a snapshot behind the name):
    # the body's ``model`` (and ``system_fingerprint``, derived from it) and extra response headers
    # (routing headers).
    model: str | None = None
    headers: tuple[tuple[str, str], ...] = ()


# Which repeat of a case a request is (recorder.gateway.REPEAT_HEADER, sent from repeat 2 on).
REPEAT_HEADER = "X-Lobstack-Repeat"


@dataclass(frozen=True)
class Ask:
    """What a model sees of a request: where it is in the suite, the offered tools, the request
    digest, the seed, the tool schemas, which attempt of this same request it is (1-based), the
    request's messages, which repeat of its case the request is (``occurrence``, 1-based: the
    ``X-Lobstack-Repeat`` header, else 1), and the gateway's run and ``ref/drifting``'s
    change point."""

    position: Position | None
    offered: tuple[str, ...]
    body_digest: str
    seed: int
    tool_schemas: dict[str, dict[str, Any]]
    attempt: int = 1
    messages: tuple[Any, ...] = field(default=(), compare=False)
    occurrence: int = 1
    run: int | None = (
        None  # the gateway's run (``GatewayConfig.run``): which day's models it serves
    )
    drift_from: int = DEFAULT_DRIFT_FROM  # ``ref/drifting``'s change point


@dataclass(frozen=True)
class ModelSpec:
    """A hosted model: how it answers, whether it drops ``temperature``, what it requires of the
    conversation (``check`` returns the message of a 400 when an earlier answer did not come back
    as it must), and whether it is priced as OpenRouter prices (``price_in_body``: no price
    header on any answer, ``usage.cost`` in the body)."""

    answer: Callable[[Ask], Reply]
    drops_temperature: bool = False
    check: Callable[[Ask], str | None] | None = None
    price_in_body: bool = False


def repeat_of(headers: dict[str, str]) -> int:
    """The repeat a request belongs to: its ``X-Lobstack-Repeat`` header (``record --repeats``
    sends it from repeat 2 on), else 1."""
    for name, value in headers.items():
        if name.lower() == REPEAT_HEADER.lower():
            text = value.strip()
            return int(text) if text.isdigit() and len(text) <= 6 and int(text) > 0 else 1
    return 1
