"""Reference models that answer the way real providers do, each right on every step (the oracle's
calls), so a runner that handles the shape scores 100% and one that does not is caught
(docs/GATEWAYS.md has the real shapes).

- ``ref/reasoning``: a thinking model (DeepSeek's ``reasoning_content``, OpenRouter's
  ``reasoning_details`` with a signature). A follow-up whose earlier assistant messages with tool
  calls lack either, or changed it, is refused with a 400, as DeepSeek's thinking mode does.
- ``ref/gemini-style``: Gemini's OpenAI-compatible API: tool-call ids are ``""``, no ``content``
  beside calls, and the first call of each answer carries
  ``extra_content.google.thought_signature``. A follow-up whose calls lost their signature is
  refused with a 400, as Gemini 3 does; empty ``tool_call_id`` s are refused by every model.
- ``ref/content-parts``: Mistral's reasoning models: ``content`` is a list of parts (a ``thinking``
  part, then the ``text`` part), calls have no ``type`` but an ``index``, ids are 9 letters
  and digits.
- ``ref/error-in-200``: OpenRouter's errors inside a 200. Per (seed, case, step): a quarter of the
  steps answer ``{"error": {"code": 502, ...}}`` to the first attempt, an eighth answer a 503
  mid-generation (the error beside ``choices`` with ``finish_reason: "error"``) to the first
  attempt, an eighth always answer an in-body 400; the rest answer normally.
- ``ref/openrouter-style``: OpenRouter routing to Claude: no price header on any answer, the price
  in the body (``usage.cost`` with ``cost_details``, ``is_byok`` and token details, priced in
  ``standin.pricing``), a ``gen-...`` id, ``provider``, ``native_finish_reason``, ``content: ""``
  beside calls with an ``index`` and ``reasoning: null``.
"""

from __future__ import annotations

import base64
from typing import Any

from standin.hashing import digest, pick
from standin.models import oracle
from standin.reply import Ask, Reply, ToolCall

ERROR_502 = "Upstream error from provider: connection reset by peer"
ERROR_503 = "No provider was available to finish the request"
ERROR_400 = "Provider returned error"


def reasoning_text(case_id: str, step: int, calls: tuple[ToolCall, ...]) -> str:
    """The thinking a reference model shows for a step (deterministic)."""
    names = ", ".join(c.name for c in calls) or "no tool"
    return (
        f"Step {step + 1} of {case_id}: the request needs {names}. Checking the arguments "
        "against the schema."
    )


def signature(kind: str, case_id: str, step: int) -> str:
    """An opaque base64 signature, as providers send, fixed by (kind, case, step)."""
    return base64.b64encode(bytes.fromhex(digest(kind, case_id, step)[:48])).decode("ascii")


def _call_json(call: ToolCall) -> dict[str, Any]:
    return {
        "id": call.id,
        "type": "function",
        "function": {"name": call.name, "arguments": call.arguments},
    }


def _history(ask: Ask) -> list[tuple[int, int, dict[str, Any]]]:
    """(message index, step, message) of every assistant message after the case's
    opening messages."""
    if ask.position is None:
        return []
    start = 1 + len(ask.position.case.messages)
    found, step = [], 0
    for index, message in enumerate(ask.messages[start:], start):
        if isinstance(message, dict) and message.get("role") == "assistant":
            found.append((index, step, message))
            step += 1
    return found


# --- ref/reasoning --------------------------------------------------------------------------------


def _details(case_id: str, step: int, text: str) -> list[dict[str, Any]]:
    sig = signature("reasoning", case_id, step)
    return [
        {
            "type": "reasoning.text",
            "text": text,
            "signature": sig,
            "format": "anthropic-claude-v1",
            "index": 0,
        }
    ]


def reasoning(ask: Ask) -> Reply:
    """The oracle's answer with its reasoning beside it."""
    reply = oracle(ask)
    if ask.position is None:
        return reply
    case_id, step = ask.position.case.id, ask.position.step_index
    text = reasoning_text(case_id, step, reply.tool_calls)
    message: dict[str, Any] = {
        "role": "assistant",
        "content": reply.content if reply.content is not None else "",
        "reasoning_content": text,
        "reasoning_details": _details(case_id, step, text),
        "refusal": None,
    }
    if reply.tool_calls:
        message["tool_calls"] = [_call_json(c) for c in reply.tool_calls]
    return Reply(reply.content, reply.tool_calls, message=message)


def reasoning_check(ask: Ask) -> str | None:
    """A 400's message when an earlier assistant message with tool calls came back without
    its reasoning."""
    for index, step, message in _history(ask):
        if not message.get("tool_calls"):
            continue
        case_id = ask.position.case.id  # type: ignore[union-attr]
        expected = reasoning(_at(ask, step))
        if "reasoning_content" not in message:
            return (
                "Missing `reasoning_content` field in the assistant message at message index "
                f"{index}: in thinking mode, send back the reasoning_content of every assistant "
                "message with tool calls"
            )
        assert expected.message is not None
        if message["reasoning_content"] != expected.message["reasoning_content"]:
            return (
                f"The reasoning_content of the assistant message at index {index} was changed "
                f"({case_id})"
            )
        if message.get("reasoning_details") != expected.message["reasoning_details"]:
            return (
                f"The reasoning_details of the assistant message at index {index} must come "
                "back unchanged"
            )
    return None


def _at(ask: Ask, step: int) -> Ask:
    """The same conversation as asked at an earlier step (what the model answered then)."""
    from dataclasses import replace

    from standin.suite_index import Position

    return replace(ask, position=Position(ask.position.case, step), messages=())  # type: ignore[union-attr]


# --- ref/gemini-style -----------------------------------------------------------------------------


def gemini_style(ask: Ask) -> Reply:
    """The oracle's answer as Gemini's OpenAI-compatible API sends it."""
    reply = oracle(ask)
    if ask.position is None or not reply.tool_calls:
        return reply
    case_id, step = ask.position.case.id, ask.position.step_index
    calls = [_call_json(c) | {"id": ""} for c in reply.tool_calls]
    calls[0]["extra_content"] = {
        "google": {"thought_signature": signature("gemini", case_id, step)}
    }
    return Reply(
        reply.content, reply.tool_calls, message={"role": "assistant", "tool_calls": calls}
    )


def gemini_check(ask: Ask) -> str | None:
    """A 400's message when an earlier function call came back without its thought signature."""
    for index, step, message in _history(ask):
        calls = message.get("tool_calls")
        if not isinstance(calls, list) or not calls or not isinstance(calls[0], dict):
            continue
        want = signature("gemini", ask.position.case.id, step)  # type: ignore[union-attr]
        extra = calls[0].get("extra_content")
        google = extra.get("google") if isinstance(extra, dict) else None
        got = google.get("thought_signature") if isinstance(google, dict) else None
        if got != want:
            name = (calls[0].get("function") or {}).get("name", "?")
            return (
                f"Function call `{name}` in the {index}. content block is missing a "
                "`thought_signature` (or it was changed): send back every function call with the "
                "signature it came with"
            )
    return None


# --- ref/content-parts ----------------------------------------------------------------------------


def content_parts(ask: Ask) -> Reply:
    """The oracle's answer as Mistral's reasoning models send it."""
    reply = oracle(ask)
    if ask.position is None:
        return reply
    case_id, step = ask.position.case.id, ask.position.step_index
    parts: list[dict[str, Any]] = [
        {
            "type": "thinking",
            "thinking": [{"type": "text", "text": reasoning_text(case_id, step, reply.tool_calls)}],
        }
    ]
    if reply.content is not None:
        parts.append({"type": "text", "text": reply.content})
    message: dict[str, Any] = {"role": "assistant", "content": parts}
    if reply.tool_calls:
        message["tool_calls"] = [
            {
                "id": digest("mistral", case_id, step, i)[:9],
                "function": {"name": c.name, "arguments": c.arguments},
                "index": i,
            }
            for i, c in enumerate(reply.tool_calls)
        ]
    return Reply(reply.content, reply.tool_calls, message=message)


# --- ref/error-in-200 -----------------------------------------------------------------------------


def error_fate(seed: int, case_id: str, step: int) -> str:
    """``retry_502``, ``mid_503``, ``error_400`` or ``normal`` for one step."""
    roll = pick(8, "error-in-200", seed, case_id, step)
    return ("retry_502", "retry_502", "mid_503", "error_400")[roll] if roll < 4 else "normal"


def error_in_200(ask: Ask) -> Reply:
    """The oracle's answer, or an error object inside a 200 (see the module doc)."""
    reply = oracle(ask)
    if ask.position is None:
        return reply
    fate = error_fate(ask.seed, ask.position.case.id, ask.position.step_index)
    if fate == "retry_502" and ask.attempt == 1:
        return Reply(None, body_error={"code": 502, "message": ERROR_502})
    if fate == "mid_503" and ask.attempt == 1:
        return Reply(None, body_error={"code": 503, "message": ERROR_503}, mid_generation=True)
    if fate == "error_400":
        return Reply(
            None,
            body_error={
                "code": 400,
                "message": ERROR_400,
                "metadata": {"raw": "invalid tool schema"},
            },
        )
    return reply


# --- ref/openrouter-style -------------------------------------------------------------------------


def openrouter_style(ask: Ask) -> Reply:
    """The oracle's answer as OpenRouter sends Claude's (the body around it is
    ``standin.wire.openrouter_json``)."""
    reply = oracle(ask)
    if ask.position is None:
        return reply
    case_id, step = ask.position.case.id, ask.position.step_index
    message: dict[str, Any] = {
        "role": "assistant",
        "content": reply.content if reply.content is not None else "",
        "refusal": None,
        "reasoning": None,
    }
    if reply.tool_calls:
        message["tool_calls"] = [
            {
                "index": i,
                **_call_json(c),
                "id": "toolu_" + digest("openrouter", case_id, step, i)[:24],
            }
            for i, c in enumerate(reply.tool_calls)
        ]
    return Reply(reply.content, reply.tool_calls, message=message)
