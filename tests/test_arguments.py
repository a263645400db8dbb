"""A call's arguments under strict JSON (scorer.arguments): every outcome of ``parse_arguments``,
field by field, worked out by hand from METHOD.md ("arguments parse as a JSON object")."""

from __future__ import annotations

from typing import Any

import pytest

from scorer.arguments import TOO_DEEP, ParsedArguments, parse_arguments
from scorer.strict_json import MAX_DEPTH, NonFinite


def _nested(levels: int) -> str:
    """An object nesting ``levels`` arrays inside it, as JSON text."""
    return '{"a": ' + "[" * levels + "]" * levels + "}"


def test_too_deep_names_the_limit() -> None:
    assert MAX_DEPTH == 100
    assert TOO_DEEP == "nested deeper than 100 levels"


@pytest.mark.parametrize(
    ("raw", "parsed"),
    [
        pytest.param('{"city": "Oslo"}', ParsedArguments({"city": "Oslo"}, "string"), id="object"),
        pytest.param("{}", ParsedArguments({}, "string"), id="empty-object"),
        pytest.param("[1]", ParsedArguments(None, "string"), id="array"),
        pytest.param('"x"', ParsedArguments(None, "string"), id="json-string"),
        pytest.param("null", ParsedArguments(None, "string"), id="json-null"),
        pytest.param("{bad", ParsedArguments(None, "string"), id="not-json"),
        pytest.param("", ParsedArguments(None, "string"), id="empty-text"),
        pytest.param('{"n": NaN}', ParsedArguments(None, "string", "NaN is not JSON"), id="nan"),
        pytest.param(
            '{"n": 1e400}', ParsedArguments(None, "string", "1e400 is not JSON"), id="overflow"
        ),
        pytest.param(None, ParsedArguments(None, "other"), id="none"),
        pytest.param(7, ParsedArguments(None, "other"), id="number"),
        pytest.param(["a"], ParsedArguments(None, "other"), id="list"),
        pytest.param({"city": "Oslo"}, ParsedArguments({"city": "Oslo"}, "object"), id="dict"),
        pytest.param(
            {"n": NonFinite("NaN")},
            ParsedArguments(None, "object", "NaN is not JSON"),
            id="dict-with-nan",
        ),
        pytest.param(
            {"a": [{"b": NonFinite("-Infinity")}]},
            ParsedArguments(None, "object", "-Infinity is not JSON"),
            id="dict-with-nested-infinity",
        ),
    ],
)
def test_parse_arguments(raw: Any, parsed: ParsedArguments) -> None:
    assert parse_arguments(raw) == parsed


def test_ok_is_whether_there_is_an_object() -> None:
    assert ParsedArguments({}, "string").ok is True
    assert ParsedArguments(None, "string", "NaN is not JSON").ok is False


def test_depth_limit_of_a_string() -> None:
    # The object itself is one level: 99 arrays inside it make 100 levels, 100 arrays 101.
    assert parse_arguments(_nested(MAX_DEPTH - 1)) == ParsedArguments(
        {"a": _list(MAX_DEPTH - 1)}, "string"
    )
    assert parse_arguments(_nested(MAX_DEPTH)) == ParsedArguments(None, "string", TOO_DEEP)


def test_depth_limit_of_an_object_sent_directly() -> None:
    assert parse_arguments({"a": _list(MAX_DEPTH - 1)}).form == "object"
    assert parse_arguments({"a": _list(MAX_DEPTH - 1)}).value == {"a": _list(MAX_DEPTH - 1)}
    assert parse_arguments({"a": _list(MAX_DEPTH)}) == ParsedArguments(None, "object", TOO_DEEP)


def test_a_long_shallow_text_is_an_object() -> None:
    # Longer than 2 x MAX_DEPTH characters (where the depth is counted), one level deep.
    raw = '{"a": "' + "x" * 300 + '"}'
    assert parse_arguments(raw) == ParsedArguments({"a": "x" * 300}, "string")


def test_a_text_too_deep_for_python_is_too_deep() -> None:
    # Deeper than Python's recursion limit: json raises RecursionError, read as too deep.
    assert parse_arguments("[" * 100_000) == ParsedArguments(None, "string", TOO_DEEP)


def _list(levels: int) -> list[Any]:
    """``levels`` nested empty lists: ``_list(2) == [[]]``."""
    value: list[Any] = []
    for _ in range(levels - 1):
        value = [value]
    return value
