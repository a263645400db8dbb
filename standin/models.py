"""The deterministic reference models of the stand-in gateway that answer in OpenAI's own shape.

Every model is a pure function from an ``Ask`` (where the request is in the suite, the offered tool
names, the request digest and the seed) to a ``Reply``. None of them looks at wall time or global
state, so the same request always gets the same answer.

- ``ref/oracle``: at a call step, one call per expected call in the suite's order with
  ``arguments = json.dumps(reference)``; at a ``none`` step (or past the last step) text.
- ``ref/abstain``: always text.
- ``ref/first-tool``: calls the first offered tool with ``"{}"``; text when nothing is offered. It
  needs no suite, so it answers unknown conversations the same way.
- ``ref/noisy``: per (seed, case id, step) a seeded hash picks the correct answer (half the time) or
  one mistake; see ``noisy_behaviour``.

``flaky`` has ``ref/flaky``, the one model that answers the same request differently (a draw
per answer).
- ``ref/no-temperature``: the oracle, served by a model that drops ``temperature``.
- ``ref/xss``: the oracle with hostile text and string arguments, for HTML report tests.

``styles`` has the models that answer as other providers do, ``malformed`` the one that breaks the
shape, and ``catalog`` the list of served names and ``auto``, the router.

Any suite model on a conversation the suite does not have answers ``UNKNOWN_TEXT``.
Tool-call ids are ``call_`` + 12 hex digits of a hash of (case id, step, index).
"""

from __future__ import annotations

import json
from typing import Any

from standin.hashing import digest, pick
from standin.reply import Ask, Reply, ToolCall

UNKNOWN_TEXT = "I can't help with that."
ORACLE_TEXT = "No tool is needed for this. Here is my answer in text."
ABSTAIN_TEXT = "I will answer in text without calling any tool."
FIRST_TOOL_TEXT = "I have no tool to call."
NOISY_TEXT = "I think I can answer that without a tool."
XSS_TEXT = "<script>alert(1)</script>"
XSS_STRINGS = ('"><img src=x onerror=alert(1)>', "javascript:alert(1)")
WRONG_STRING = "zz-wrong-value"
EXTRA_ARGUMENT = "unexpected_argument"

CALL_MISTAKES = (
    "wrong_value",
    "missing_or_extra_call",
    "made_up_tool",
    "non_json_arguments",
    "schema_invalid_arguments",
    "text_instead_of_calls",
)
NONE_MISTAKE = "call_when_none_needed"


def call_id(case_id: str, step: int, index: int) -> str:
    """The deterministic id of the ``index``-th call of a step."""
    return "call_" + digest("call", case_id, step, index)[:12]


def _args_json(value: dict[str, Any]) -> str:
    return json.dumps(value, ensure_ascii=False)


def reference_calls(ask: Ask) -> tuple[ToolCall, ...] | None:
    """The oracle's calls at a call step, ``None`` when the step expects text (or is unknown)."""
    pos = ask.position
    step = pos.step if pos else None
    if pos is None or step is None or step.expect != "call":
        return None
    return tuple(
        ToolCall(call_id(pos.case.id, pos.step_index, i), c.name, _args_json(c.reference))
        for i, c in enumerate(step.calls)
    )


def oracle(ask: Ask) -> Reply:
    """Answers every step with the suite's references."""
    if ask.position is None:
        return Reply(UNKNOWN_TEXT)
    calls = reference_calls(ask)
    return Reply(None, calls) if calls else Reply(ORACLE_TEXT)


def abstain(ask: Ask) -> Reply:
    """Never calls a tool."""
    return Reply(ABSTAIN_TEXT if ask.position else UNKNOWN_TEXT)


def first_tool(ask: Ask) -> Reply:
    """Calls the first offered tool with empty arguments."""
    if not ask.offered:
        return Reply(FIRST_TOOL_TEXT)
    return Reply(
        None, (ToolCall("call_" + digest("first", ask.body_digest)[:12], ask.offered[0], "{}"),)
    )


def noisy_behaviour(seed: int, case_id: str, step_index: int, expect: str) -> str:
    """``"correct"`` about half the time, else one mistake from ``CALL_MISTAKES`` (or
    ``NONE_MISTAKE``)."""
    if pick(2, "noisy", seed, case_id, step_index) == 0:
        return "correct"
    if expect != "call":
        return NONE_MISTAKE
    return CALL_MISTAKES[pick(len(CALL_MISTAKES), "noisy-mistake", seed, case_id, step_index)]


def noisy(ask: Ask) -> Reply:
    """A seeded mix of right answers and the mistakes the scorer must catch."""
    pos = ask.position
    if pos is None:
        return Reply(UNKNOWN_TEXT)
    step = pos.step
    behaviour = noisy_behaviour(
        ask.seed, pos.case.id, pos.step_index, step.expect if step else "none"
    )
    if behaviour == "correct":
        calls = reference_calls(ask)
        return Reply(None, calls) if calls else Reply(NOISY_TEXT)
    return mistaken(ask, behaviour)


def mistaken(ask: Ask, behaviour: str) -> Reply:
    """The reference answer with one mistake (``behaviour``: one of ``CALL_MISTAKES``, or
    ``NONE_MISTAKE``)."""
    pos = ask.position
    assert pos is not None
    step = pos.step
    calls = reference_calls(ask)
    if behaviour == NONE_MISTAKE:
        name = ask.offered[0] if ask.offered else "web_search"
        return Reply(None, (ToolCall(call_id(pos.case.id, pos.step_index, 0), name, "{}"),))
    assert calls is not None and step is not None  # a call mistake is only picked at a call step
    if behaviour == "text_instead_of_calls":
        return Reply(NOISY_TEXT)
    if behaviour == "missing_or_extra_call":
        if len(calls) > 1:
            return Reply(None, calls[:-1])
        extra = ToolCall(call_id(pos.case.id, pos.step_index, 1), calls[0].name, calls[0].arguments)
        return Reply(None, (calls[0], extra))
    first, expected = calls[0], step.calls[0]
    if behaviour == "made_up_tool":
        name = first.name + "_v2"
        while name in ask.offered:
            name += "_v2"
        changed = ToolCall(first.id, name, first.arguments)
    elif behaviour == "non_json_arguments":
        changed = ToolCall(first.id, first.name, first.arguments[:-1])  # drops the closing brace
    elif behaviour == "wrong_value":
        wrong = _with_wrong_value(expected.reference, expected.checked_args)
        changed = ToolCall(first.id, first.name, _args_json(wrong))
    else:  # schema_invalid_arguments
        schema = ask.tool_schemas.get(first.name, {})
        changed = ToolCall(
            first.id, first.name, _args_json(_schema_breaking(expected.reference, schema))
        )
    return Reply(None, (changed, *calls[1:]))


def _with_wrong_value(reference: dict[str, Any], checked: tuple[str, ...]) -> dict[str, Any]:
    """The reference with its first checked (else first) argument changed so that its
    check fails."""
    keys = [k for k in checked if k in reference] or list(reference)
    if not keys:
        return {EXTRA_ARGUMENT: WRONG_STRING}
    return {**reference, keys[0]: _wrong(reference[keys[0]])}


def _wrong(value: Any) -> Any:
    if isinstance(value, bool):
        return not value
    if isinstance(value, int | float):
        return value + 1000
    if isinstance(value, list):
        return []
    if isinstance(value, dict):
        return {}
    return WRONG_STRING


def _schema_breaking(reference: dict[str, Any], schema: dict[str, Any]) -> dict[str, Any]:
    """An unknown key where the schema forbids extras, else the first required key removed."""
    required = [k for k in schema.get("required", []) if k in reference]
    if schema.get("additionalProperties") is False or not required:
        return {**reference, EXTRA_ARGUMENT: True}
    return {k: v for k, v in reference.items() if k != required[0]}


def no_temperature(ask: Ask) -> Reply:
    """The oracle (the server drops ``temperature`` for it)."""
    return oracle(ask)


def xss(ask: Ask) -> Reply:
    """The oracle with script-injection text and string arguments."""
    reply = oracle(ask)
    if not reply.tool_calls:
        return Reply(XSS_TEXT)
    return Reply(
        None,
        tuple(
            ToolCall(c.id, c.name, _args_json(_hostile(json.loads(c.arguments), [0])))
            for c in reply.tool_calls
        ),
    )


def _hostile(value: Any, counter: list[int]) -> Any:
    """Every string leaf replaced by the XSS payloads in turn (keys are kept)."""
    if isinstance(value, str):
        counter[0] += 1
        return XSS_STRINGS[(counter[0] - 1) % len(XSS_STRINGS)]
    if isinstance(value, list):
        return [_hostile(v, counter) for v in value]
    if isinstance(value, dict):
        return {k: _hostile(v, counter) for k, v in value.items()}
    return value
