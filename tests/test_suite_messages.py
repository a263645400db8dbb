"""The suite's messages read into neutral pieces (scorer/suite/messages.py), which every dialect
writes in its own words: each kind of message, and the tool's parts."""

from __future__ import annotations

from scorer.suite.messages import Calls, Result, Text, function_parts, pieces

CALL = {"id": "c1", "type": "function", "function": {"name": "f", "arguments": '{"a": 1}'}}


def test_each_message_becomes_its_piece() -> None:
    messages = [
        {"role": "user", "content": "hi"},
        {"role": "assistant", "content": None, "tool_calls": [CALL, {"function": {"name": "g"}}]},
        {"role": "assistant", "content": "let me look", "tool_calls": [CALL]},
        {"role": "assistant", "content": "", "tool_calls": [CALL]},
        {"role": "tool", "tool_call_id": "c1", "content": "result"},
        {"role": "tool", "content": {"k": "\u00e9"}},
        {"role": "assistant", "content": [{"text": "a"}, "x", {"type": "image"}, {"text": "b"}]},
        {"role": "system", "content": 3},
        {"role": "user"},
        {"role": "assistant", "content": "no calls", "tool_calls": []},
        {"role": "user", "content": "not an assistant", "tool_calls": [CALL]},
        {"content": "no role"},
    ]
    assert pieces(messages) == [
        Text("user", "hi"),
        Calls(None, (("c1", "f", '{"a": 1}'), ("", "g", "{}"))),
        Calls("let me look", (("c1", "f", '{"a": 1}'),)),
        Calls(None, (("c1", "f", '{"a": 1}'),)),
        Result("c1", "result"),
        Result("", '{"k": "\u00e9"}'),
        Text("assistant", "ab"),
        Text("system", "3"),
        Text("user", ""),
        Text("assistant", "no calls"),
        Text("user", "not an assistant"),
        Text("None", "no role"),
    ]


def test_a_calls_text_parts_are_joined() -> None:
    message = {"role": "assistant", "content": [{"text": "a"}, {"text": "b"}], "tool_calls": [CALL]}
    assert pieces([message]) == [Calls("ab", (("c1", "f", '{"a": 1}'),))]


def test_a_tools_name_description_and_parameters() -> None:
    schema = {"type": "object", "properties": {"x": {"type": "string"}}}
    tool = {"function": {"name": "f", "description": "d", "parameters": schema}}
    assert function_parts(tool) == ("f", "d", schema)
    empty = {"type": "object", "properties": {}}
    assert function_parts({"function": {"name": "g"}}) == ("g", None, empty)
    assert function_parts({"function": {"name": "g", "parameters": {}}}) == ("g", None, empty)


def test_no_messages_are_no_pieces_and_only_a_parts_text_is_read() -> None:
    assert pieces([]) == []
    assert pieces([{"role": "user", "content": [{"": "not text", "text": "a"}]}]) == [
        Text("user", "a")
    ]
    assert pieces([{"role": "user", "content": [{"type": "x"}]}]) == [Text("user", "")]
