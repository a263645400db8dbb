"""A suite's tools and messages are read under their own names only, never under a look-alike
key (``XXfunctionXX``, ``FUNCTION``, ``XXnameXX``) the object may also hold. Values by hand."""

from __future__ import annotations

from scorer.suite.messages import Calls, function_parts, pieces


def test_function_parts_reads_the_function_and_its_name() -> None:
    tool = {
        "type": "function",
        "function": {"name": "get", "XXnameXX": "x", "NAME": "y", "parameters": {"type": "object"}},
        "XXfunctionXX": {"name": "x2"},
        "FUNCTION": {"name": "y2"},
    }
    assert function_parts(tool) == ("get", None, {"type": "object"})


def test_a_call_is_read_from_its_function() -> None:
    call = {
        "id": "c1",
        "type": "function",
        "function": {"name": "get", "arguments": "{}", "XXnameXX": "x", "NAME": "y"},
        "XXfunctionXX": {"name": "x2", "arguments": "A"},
        "FUNCTION": {"name": "y2", "arguments": "B"},
    }
    message = {"role": "assistant", "content": None, "tool_calls": [call]}
    assert pieces([message]) == [Calls(None, (("c1", "get", "{}"),))]
