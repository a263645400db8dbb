"""``ref/malformed``: answers whose tool calls break the shape the way real providers' sometimes do.

Per (seed, case, step) a seeded hash picks one shape for a call step; a no-call step is answered
with text. Every shape is a readable answer, so the method judges it (the step fails with a reason)
instead of erroring the case; ``legacy_function_call`` is a right call in the legacy shape and
passes; ``correct`` is the oracle's.
"""

from __future__ import annotations

import json
from typing import Any

from standin.hashing import pick
from standin.models import oracle
from standin.reply import Ask, Reply

SHAPES = (
    "correct",
    "tool_calls_object",
    "null_entry",
    "function_string",
    "legacy_function_call",
    "missing_arguments",
    "nan_arguments_object",
    "nan_arguments_string",
    "truncated_length",
    "deep_arguments",
)
DEEP_LEVELS = 2000  # past the judge's 100 levels and Python's parser: never a crash, a verdict


def malformed_shape(seed: int, case_id: str, step: int) -> str:
    """The shape ``ref/malformed`` answers a call step with."""
    return SHAPES[pick(len(SHAPES), "malformed", seed, case_id, step)]


def malformed(ask: Ask) -> Reply:
    """The oracle's calls, bent into the step's shape."""
    reply = oracle(ask)
    if ask.position is None or not reply.tool_calls:
        return reply
    shape = malformed_shape(ask.seed, ask.position.case.id, ask.position.step_index)
    calls: list[Any] = [
        {"id": c.id, "type": "function", "function": {"name": c.name, "arguments": c.arguments}}
        for c in reply.tool_calls
    ]
    first = calls[0]
    reference = json.loads(reply.tool_calls[0].arguments)
    finish = None
    message: dict[str, Any] = {
        "role": "assistant",
        "content": None,
        "refusal": None,
        "tool_calls": calls,
    }
    if shape == "tool_calls_object":
        message["tool_calls"] = first
    elif shape == "null_entry":
        message["tool_calls"] = [first, None, *calls[1:]]
    elif shape == "function_string":
        first["function"] = first["function"]["name"]
    elif shape == "legacy_function_call":
        del message["tool_calls"]
        message["function_call"] = first["function"]
    elif shape == "missing_arguments":
        del first["function"]["arguments"]
    elif shape == "nan_arguments_object":
        first["function"]["arguments"] = {
            **reference,
            "confidence": float("nan"),
        }  # written as a bare NaN
    elif shape == "nan_arguments_string":
        first["function"]["arguments"] = json.dumps(
            {**reference, "confidence": float("nan")}, ensure_ascii=False
        )
    elif shape == "truncated_length":
        text = first["function"]["arguments"]
        first["function"]["arguments"] = text[: len(text) // 2]
        finish = "length"
    elif shape == "deep_arguments":
        first["function"]["arguments"] = "[" * DEEP_LEVELS + "]" * DEEP_LEVELS
    return Reply(None, reply.tool_calls, message=message, finish_reason=finish)
