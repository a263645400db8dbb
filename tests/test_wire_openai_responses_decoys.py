"""An output item is free JSON: a call is an item whose ``type`` is ``function_call``, never one
whose look-alike key (``XXtypeXX``, ``TYPE``) says so, nor one of a look-alike type. Items and the
expected follow-up by hand."""

from __future__ import annotations

from scorer.wire.openai_responses import follow_up
from scorer.wire.response import ModelResponse, ToolCall


def test_only_the_type_field_makes_a_call() -> None:
    look_alike = {"XXtypeXX": "function_call", "TYPE": "function_call"}
    reasoning = {"type": "reasoning", "id": "rs_1", "summary": [], **look_alike}
    call = {"type": "function_call", "call_id": "old", "name": "get", "arguments": "{}"}
    odd = [{"type": "XXfunction_callXX"}, {"type": "FUNCTION_CALL"}]
    answer = ModelResponse(None, (ToolCall("old", "get", "{}"),), "m", [reasoning, *odd, call])
    assert follow_up(answer, ["new"], ["r1"]) == [
        reasoning,
        *odd,
        {**call, "call_id": "new"},
        {"type": "function_call_output", "call_id": "new", "output": "r1"},
    ]
