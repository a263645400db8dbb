"""A text answer that looks like a tool call never parsed into one (``scorer.wire.text_calls``):
a Hermes ``<tool_call>`` tag or a bare JSON object naming an offered tool, as vLLM, llama.cpp and
Ollama send it with their tool parser off; only a bounded prefix and a bounded number of objects
are read."""

from __future__ import annotations

import pytest

from scorer.wire.text_calls import MAX_OBJECTS, PREFIX_CHARS, TAG, text_call_name

OFFERED = ("get_weather", "get_time")


@pytest.mark.parametrize(
    ("text", "name"),
    [
        ('<tool_call>\n{"name": "get_weather", "arguments": {"city": "Paris"}}\n</tool_call>',
         "get_weather"),
        ('Sure.<tool_call> \t\r\n{"name": "not_offered", "arguments": {}}</tool_call>',
         "not_offered"),
        ('<tool_call>{"function": {"name": "get_time"}}</tool_call>', "get_time"),
        ('<tool_call>{"name": "", "function": {"name": "get_time"}}', "get_time"),
        ('<tool_call>{"name": 3, "function": {"name": "get_time"}}', "get_time"),
        ('<tool_call>{"name": 3, "function": "lookup"}', "a tool"),
        ('<tool_call>{"name": ""}', "a tool"),
        ('<tool_call>{"name": "get_time", "arguments": {"city": "Par', "get_time"),
        ('<tool_call>{"x": "get_time", "y": "get_weather"', "get_time"),
        ('<tool_call>{"x": "get_weather", "y": "get_time"', "get_weather"),
        ("<tool_call>[1, 2]", "a tool"),
        ("<tool_call>", "a tool"),
        ("<tool_call>   ", "a tool"),
        ('"get_time" <tool_call> nothing', "a tool"),
        ('{"name": "get_weather", "arguments": {}}', "get_weather"),
        ('I will call {"name": "get_time"} now', "get_time"),
        ('{"function": {"name": "get_time"}, "id": "c"}', "get_time"),
        ('{"name": "search", "arguments": {}}', None),
        ('{"a": {"name": "get_time"}}', "get_time"),
        ('{"name": "search"} then {"name": "get_weather"}', "get_weather"),
        ("{not json} {also not}", None),
        ('{"name": ["get_time"]}', None),
        ("The weather is fine.", None),
        ("", None),
        (None, None),
    ],
    ids=[
        "hermes",
        "hermes-not-offered",
        "hermes-function-name",
        "empty-name-then-function",
        "number-name-then-function",
        "function-text",
        "empty-name",
        "cut-json-quoted-name",
        "first-quoted-wins",
        "first-quoted-wins-other",
        "hermes-list",
        "bare-tag",
        "tag-and-spaces",
        "quoted-before-tag",
        "bare-object",
        "object-in-text",
        "bare-function-name",
        "not-offered",
        "nested-object",
        "second-object",
        "broken-objects",
        "list-name",
        "plain-text",
        "empty",
        "none",
    ],
)  # fmt: skip
def test_what_a_text_looks_like_a_call_to(text: str | None, name: str | None) -> None:
    assert text_call_name(text, OFFERED) == name


def test_the_offered_tools_may_be_a_list() -> None:
    assert text_call_name('{"name": "get_time"}', ["get_time"]) == "get_time"
    assert text_call_name('<tool_call>{"x": "get_time"', ["get_time"]) == "get_time"


def test_the_bounds() -> None:
    assert (PREFIX_CHARS, MAX_OBJECTS, TAG) == (4096, 16, "<tool_call>")


def test_only_the_first_4096_characters_are_read() -> None:
    fits = " " * (4096 - len("<tool_call>")) + "<tool_call>"
    assert text_call_name(fits, OFFERED) == "a tool"
    assert text_call_name(" " + fits, OFFERED) is None
    call = '{"name": "get_time"}'
    assert text_call_name(" " * (4096 - len(call)) + call, OFFERED) == "get_time"
    assert text_call_name(" " * (4097 - len(call)) + call, OFFERED) is None


def test_at_most_16_objects_are_tried() -> None:
    call = '{"name": "get_time"}'
    assert text_call_name("{} " * 15 + call, OFFERED) == "get_time"
    assert text_call_name("{} " * 16 + call, OFFERED) is None


def test_an_object_nested_past_the_parser_is_no_call() -> None:
    deep = '{"name": "get_time", "a": ' + "[" * 2000 + "]" * 2000 + "}"  # 2,000 deep: past 1,000
    assert text_call_name("<tool_call>" + deep, OFFERED) == "get_time"  # found quoted
    assert text_call_name(deep, OFFERED) is None


@pytest.mark.parametrize(
    ("text", "name"),
    [
        # a name written only in function.name, not offered: no quoted tool stands in for it
        ('<tool_call>{"function": {"name": "lookup"}}', "lookup"),
        ('<tool_call>{"name": 3, "function": {"name": "lookup"}}', "lookup"),
        # a name of its own wins over function.name
        ('<tool_call>{"name": "lookup", "function": {"name": "other"}}', "lookup"),
        ('<tool_call> {"name": "lookup"}', "lookup"),  # one space
        ('<tool_call>   {"name": "lookup"}', "lookup"),  # three
        ('<tool_call>X{"name": "lookup"}', "a tool"),  # only white space is skipped
        ('<tool_call>{"name": "first"}<tool_call>{"name": "second"}', "first"),
        ('<tool_call>{"x": "get_time", "y": "get_weather", "z": "get_time"', "get_time"),
        ('{{"name": "get_time"}}', "get_time"),  # the next "{" is the very next character
    ],
    ids=["function-name-only", "number-name-function", "name-over-function", "one-space",
         "three-spaces", "no-white-space", "first-tag", "first-quote-of-a-name",
         "adjacent-braces"],
)  # fmt: skip
def test_what_a_text_looks_like_a_call_to_edges(text: str, name: str) -> None:
    assert text_call_name(text, OFFERED) == name


def test_a_quoted_name_at_the_very_start() -> None:
    from scorer.wire.text_calls import _quoted_name

    assert _quoted_name('"get_time"', OFFERED) == "get_time"
    assert _quoted_name('x "get_weather" "get_time"', OFFERED) == "get_weather"
