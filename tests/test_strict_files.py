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
