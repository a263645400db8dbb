"""strict_json.loads_file: a clean file is parsed without a walk, and every bad one is still
refused with its field."""

from __future__ import annotations

import pytest

from scorer.strict_json import FILE_MAX_DEPTH, NotStrictFile, loads_file, loads_file_or_error


def nested(levels: int) -> str:
    return "[" * levels + "]" * levels


@pytest.mark.parametrize(
    ("text", "problem"),
    [
        ('{"a": [1, {"b": NaN}]}', "a[1].b: NaN is not JSON"),
        ('{"a": {"c": -Infinity}}', "a.c: -Infinity is not JSON"),
        ('{"x": [0, 1e400]}', "x[1]: 1e400 is out of range"),
        ('{"x": 1' + "0" * 400 + ".5}", "x: 1" + "0" * 400 + ".5 is out of range"),
        ('{"first": NaN, "second": Infinity}', "first: NaN is not JSON"),
        ('{"n": [-' + "9" * 5000 + "]}", "n[0]: a number with more than 4300 digits"),
        (nested(FILE_MAX_DEPTH + 1), f"nested more than {FILE_MAX_DEPTH} levels deep"),
        ('{"a": ' + nested(FILE_MAX_DEPTH) + "}", f"nested more than {FILE_MAX_DEPTH} levels deep"),
    ],
)
def test_bad_files_are_refused_with_the_field(text: str, problem: str) -> None:
    with pytest.raises(NotStrictFile) as error:
        loads_file(text)
    assert str(error.value) == problem


@pytest.mark.parametrize(
    ("text", "value"),
    [
        (nested(FILE_MAX_DEPTH), None),  # exactly the limit
        ('{"s": "' + "[{" * 300 + '"}', {"s": "[{" * 300}),  # brackets inside a string do not nest
        ('{"n": "NaN", "i": "Infinity", "e": "1e400", "x": 1e308, "y": 1e-400}', None),
        ("[1.5, -0.0, 2e-5, 12345678901234567890]", [1.5, -0.0, 2e-5, 12345678901234567890]),
    ],
)
def test_good_files_parse_as_json_parses_them(text: str, value: object) -> None:
    import json

    assert loads_file(text) == json.loads(text)
    assert loads_file(text.encode("utf-8")) == json.loads(text)
    if value is not None:
        assert loads_file(text) == value


@pytest.mark.parametrize(
    ("raw", "line"),
    [
        (b"\xff{}", "f.json: the x is not UTF-8 text"),
        (b'{"a": }', "f.json: the x is not valid JSON (Expecting value at line 1)"),
        (b'{"a": [NaN]}', "f.json: the x is not valid JSON (a[0]: NaN is not JSON)"),
    ],
)
def test_loads_file_or_error_gives_one_line(raw: bytes, line: str) -> None:
    with pytest.raises(KeyError) as caught:
        loads_file_or_error(raw, "f.json: the x is", KeyError)
    assert caught.value.args == (line,)
    assert loads_file_or_error(b'{"a": 1}', "unused", KeyError) == {"a": 1}


# scorer/strict_json.py by exact value (issue 43's mutation benchmark): limits and texts written
# by hand from the module's docstring (4300 digits, 100 levels for an answer, 200 for a file).
DIGITS = "9" * 4300


def test_loads_is_strict() -> None:
    from scorer.strict_json import NotStrictJson, loads

    assert loads('{"a": 1.5, "b": [1, -2]}') == {"a": 1.5, "b": [1, -2]}
    assert loads(b'{"a": "\\u00e9"}') == {"a": "\u00e9"}
    assert loads(DIGITS) == int(DIGITS) and loads("-" + DIGITS) == -int(DIGITS)
    for text, literal, said in [
        ("NaN", "NaN", "NaN is not JSON"),
        ("[-Infinity]", "-Infinity", "-Infinity is not JSON"),
        ('{"x": 1e400}', "1e400", "1e400 is not JSON"),
        ("[" + DIGITS + "9]", DIGITS + "9", "a number with more than 4300 digits"),
        ("-" + DIGITS + "9", "-" + DIGITS + "9", "a number with more than 4300 digits"),
    ]:
        with pytest.raises(NotStrictJson) as caught:
            loads(text)
        assert (caught.value.literal, str(caught.value)) == (literal, said)
    with pytest.raises(ValueError) as caught:
        loads("{")
    assert not isinstance(caught.value, NotStrictJson)


def test_loads_marking_keeps_each_non_finite_number_as_its_text() -> None:
    from scorer.strict_json import NonFinite, loads_marking

    text = "[NaN, 1e400, -Infinity, 1.5, 2, " + DIGITS + "9, " + DIGITS + "]"
    value = loads_marking(text.encode("utf-8"))
    assert value == ["NaN", "1e400", "-Infinity", 1.5, 2, DIGITS + "9", int(DIGITS)]
    assert [type(item) for item in value] == [NonFinite] * 3 + [float, int, NonFinite, int]


@pytest.mark.parametrize(
    ("literal", "said"),
    [
        ("NaN", "NaN is not JSON"),
        ("1e400", "1e400 is not JSON"),
        (DIGITS, DIGITS + " is not JSON"),  # 4300 digits: not the reason
        (DIGITS + "9", "a number with more than 4300 digits"),
        ("-" + DIGITS + "9", "a number with more than 4300 digits"),
        (DIGITS + "e9", DIGITS + "e9 is not JSON"),
    ],
)
def test_problem_text(literal: str, said: str) -> None:
    from scorer.strict_json import problem_text

    assert problem_text(literal) == said


def test_position_text() -> None:
    import json

    from scorer.strict_json import position_text

    with pytest.raises(json.JSONDecodeError) as caught:
        json.loads('{"a":\n }')
    assert position_text(caught.value) == "Expecting value at line 2"
    assert position_text(caught.value, column=True) == "Expecting value at line 2 column 2"
    with pytest.raises(json.JSONDecodeError) as caught:
        json.loads('"abc')
    assert position_text(caught.value) == "Unterminated string starting at line 1"


def test_deeper_than_counts_objects_and_arrays_only() -> None:
    from scorer.strict_json import deeper_than

    assert not deeper_than([[]], 2) and deeper_than([[[]]], 2)
    assert not deeper_than([[1, "x"]], 2) and deeper_than({"a": {"b": {}}}, 2)
    assert not deeper_than(5, 0) and deeper_than([], 0)
    assert not deeper_than([1, [2], {"a": [3]}], 3) and deeper_than([1, [2], {"a": [[3]]}], 3)
    hundred: list = []
    for _ in range(99):
        hundred = [hundred]
    assert not deeper_than(hundred) and deeper_than([hundred])  # 100 levels by default


def test_first_non_finite() -> None:
    from scorer.strict_json import NonFinite, first_non_finite

    found = first_non_finite([1, {"a": [NonFinite("NaN")]}, "Infinity"])
    assert found == "NaN" and isinstance(found, NonFinite)
    assert first_non_finite([1, {"a": ["NaN"]}, None]) is None


@pytest.mark.parametrize(
    ("text", "problem"),
    [
        ("NaN", "the document: NaN is not JSON"),
        ('[{"a": NaN}]', "[0].a: NaN is not JSON"),
        ("[[0, Infinity]]", "[0][1]: Infinity is not JSON"),
        ("[" * 201 + "]" * 201, "nested more than 200 levels deep"),
        ("[" * 100_000, "nested more than 200 levels deep"),  # beyond Python's own parser
    ],
)
def test_file_problems_exact(text: str, problem: str) -> None:
    with pytest.raises(NotStrictFile) as error:
        loads_file(text)
    assert str(error.value) == problem


def test_file_problem_limit_and_a_wide_flat_file() -> None:
    from scorer.strict_json import file_problem

    assert file_problem([[1]], 1) == "nested more than 1 levels deep"
    assert file_problem([[1]], 2) is None
    wide = "[" + "[], " * 300 + "{}]"  # 301 brackets, 2 levels deep
    assert loads_file(wide) == [[]] * 300 + [{}]
