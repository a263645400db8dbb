"""JSON equality, copy and short rendering (scorer/jsonvalue.py), by exact value."""

from __future__ import annotations

from typing import Any

import pytest

from scorer.jsonvalue import is_number, json_copy, json_equal, render


@pytest.mark.parametrize(
    ("value", "number"),
    [(1, True), (1.5, True), (-0.0, True), (True, False), (False, False), ("1", False),
     (None, False), ([1], False)],
)  # fmt: skip
def test_is_number(value: Any, number: bool) -> None:
    assert is_number(value) is number


@pytest.mark.parametrize(
    ("a", "b", "equal"),
    [
        (1, 1.0, True),
        (1.0, 1, True),
        (1, 2, False),
        (True, 1, False),
        (1, True, False),
        (0, False, False),
        (True, True, True),
        (False, False, True),
        (True, False, False),
        (None, None, True),
        (None, False, False),
        (False, None, False),
        ("1", 1, False),
        (1, "1", False),
        ("a", "a", True),
        ("a", "b", False),
        ({"a": 1, "b": [1, 2]}, {"b": [1.0, 2], "a": 1.0}, True),
        ({"a": 1}, {"a": True}, False),
        ({"a": 1}, {"a": 1, "b": 1}, False),
        ({"a": 1, "b": 1}, {"a": 1}, False),
        ({"a": 1}, {"b": 1}, False),
        ({}, [], False),
        ([], {}, False),
        ([1, 2], [2, 1], False),
        ([1, 2], [1, 2, 3], False),
        ([1, 2, 3], [1, 2], False),
        ([1, [True]], [1.0, [True]], True),
        ([1, [True]], [1.0, [1]], False),
        ([], [], True),
        ({}, {}, True),
    ],
)
def test_json_equal(a: Any, b: Any, equal: bool) -> None:
    assert json_equal(a, b) is equal


def test_json_copy_copies_containers_and_shares_scalars() -> None:
    text = "x" * 50
    value = {"a": [1, {"b": text}], "c": None}
    copied = json_copy(value)
    assert copied == value
    assert copied is not value and copied["a"] is not value["a"]
    assert copied["a"][1] is not value["a"][1] and copied["a"][1]["b"] is text
    copied["a"][1]["b"] = "y"
    assert value["a"][1]["b"] == text


def test_render() -> None:
    assert (
        render({"b": 1, "a": "\u00e9", "c": [1, None]}) == '{"a": "\u00e9", "b": 1, "c": [1, null]}'
    )
    assert render("x" * 79) == '"' + "x" * 78 + "\u2026"  # 81 characters: cut to 80
    assert render("x" * 78) == '"' + "x" * 78 + '"'  # 80 characters: kept whole
    assert render("abcdef", limit=5) == '"abc\u2026'
    assert render({1, 2}) == "{1, 2}"  # not JSON: its repr
    looped: list[Any] = []
    looped.append(looped)
    assert render(looped) == "[[...]]"  # ValueError (a circular reference): its repr
