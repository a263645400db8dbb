"""scorer.json_text writes exactly the text of json.dumps(indent=2, sort_keys=True,
ensure_ascii=False, allow_nan=False): for every committed results file and for the values where
orjson and Python differ."""

from __future__ import annotations

import json
import math
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scorer.json_text import dumps_indented
from scorer.strict_json import NonFinite
from tests.conftest import ROOT


def python(value: Any) -> str:
    return json.dumps(value, indent=2, sort_keys=True, ensure_ascii=False, allow_nan=False)


RESULTS = sorted(ROOT.glob("reports/*/results.json")) + sorted(
    ROOT.glob("tests/fixtures/**/results.json")
)


def test_every_committed_results_file_is_written_byte_for_byte() -> None:
    assert len(RESULTS) >= 11
    for path in RESULTS:
        document = json.loads(path.read_text(encoding="utf-8"))
        assert dumps_indented(document) == python(document), path


TRICKY: list[Any] = [
    # floats Python writes with an exponent, and their neighbours without one
    [
        1e-05,
        1.5e-05,
        0.0001,
        9.999e-05,
        2.7755575615628914e-15,
        5e-324,
        1e16,
        1e15,
        9999999999999998.0,
        1e308,
    ],
    {"a": -1e-07, "b": [-1e-07, -1e-07], "c": {"d": 1.2345678901234567e-300}},
    [0.0, -0.0, 100.0, 64.1025641025641, 0.1, 1 / 3, 2.5, -2.5],
    # the same exponent float as a number and inside strings (only the number is rewritten)
    {"n": 1e-05, "s": "1e-05", "t": "x 1e-05,", "u": " 0.00001", "k": [1e-05], "1e-05": 1e-05},
    # strings: escapes, control characters, non-ASCII, line and paragraph separators,
    # astral characters
    [
        '"quoted" \\ back',
        "\n\r\t\b\f",
        "".join(map(chr, range(32))),
        "\x7f",
        "é ü ß 中文 🙂",
        "\u2028\u2029\ufeff",
    ],
    # key order: case, digits, non-ASCII, astral, empty
    {"b": 1, "B": 2, "a": 3, "é": 4, "z": 5, "🙂": 6, "": 7, "10": 8, "9": 9},
    # empties, nesting, nulls, booleans, integers at and beyond 64 bits
    {
        "e": [],
        "o": {},
        "n": None,
        "t": True,
        "f": False,
        "l": [[[]], [{}]],
        "i": [0, -1, 2**63 - 1, -(2**63)],
    },
    {"big": 2**64, "bigger": -(2**70)},
    # str subclasses (strict_json's marker) and tuples
    {"marker": NonFinite("NaN"), "tuple": (1, "two", 3.0)},
]


@pytest.mark.parametrize("value", TRICKY)
def test_tricky_values_are_written_as_python_writes_them(value: Any) -> None:
    assert dumps_indented(value) == python(value)


@pytest.mark.parametrize(
    "value", [[math.nan], {"x": {"y": [math.inf]}}, -math.inf, [1.0, -math.inf]]
)
def test_nan_and_infinities_are_refused_like_python(value: Any) -> None:
    with pytest.raises(ValueError):
        python(value)
    with pytest.raises(ValueError):
        dumps_indented(value)


def test_what_orjson_refuses_goes_to_pythons_encoder_and_what_neither_takes_is_refused() -> None:
    for value in ({1: "int key", 3: "another"}, {2.5: "float key"}, {"x": 2**64}):
        assert dumps_indented(value) == python(value)
    for value in ({"x": {1, 2}}, [object()], {(1, 2): "tuple key"}):
        with pytest.raises(TypeError):
            python(value)
        with pytest.raises(TypeError):
            dumps_indented(value)


json_values = st.recursive(
    st.none()
    | st.booleans()
    | st.integers()
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(),
    lambda children: (
        st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=6), children, max_size=4)
    ),
    max_leaves=25,
)


@settings(max_examples=400, deadline=None)
@given(json_values)
def test_any_json_value_is_written_as_python_writes_it(value: Any) -> None:
    assert dumps_indented(value) == python(value)


@settings(max_examples=2000, deadline=None)
@given(st.lists(st.floats(allow_nan=False, allow_infinity=False), min_size=1, max_size=8))
def test_any_float_is_written_as_python_writes_it(values: list[float]) -> None:
    assert dumps_indented({"v": values, "w": values[0]}) == python({"v": values, "w": values[0]})


def test_text_reads_back_to_the_same_values() -> None:
    from scorer.json_text import loads_text

    for path in RESULTS:
        text = path.read_text(encoding="utf-8")
        assert loads_text(text) == json.loads(text)
    value = {"big": 2**70, "float": 2.7755575615628914e-15, "text": "é\n🙂"}
    assert loads_text(dumps_indented(value)) == value


@pytest.mark.parametrize(
    ("value", "text"),
    [
        ("\udc80", '"\\udc80"'),
        (["\udc80"], '[\n  "\\udc80"\n]'),
        ({"s": "a\udc80", "b": 2**64}, '{\n  "b": 18446744073709551616,\n  "s": "a\\udc80"\n}'),
        ({"e": 1e-05, "f": [1e16, 0.5]}, '{\n  "e": 1e-05,\n  "f": [\n    1e+16,\n    0.5\n  ]\n}'),
    ],
    ids=["bare-surrogate", "surrogate-in-list", "surrogate-and-big-int", "exponents"],
)
def test_exact_text_of_what_python_cannot_write_as_utf8(value: Any, text: str) -> None:
    """A lone surrogate (valid JSON as its escape) is written as that escape, so the text is
    UTF-8 and reads back to the same string; written out by hand."""
    from scorer.json_text import loads_text

    assert dumps_indented(value) == text
    text.encode("utf-8")
    assert loads_text(text) == value


def test_nan_is_refused_with_its_value_named() -> None:
    with pytest.raises(
        ValueError, match=r"^Out of range float values are not JSON compliant: nan$"
    ):
        dumps_indented({"a": [1.0, math.nan]})


@pytest.mark.parametrize(
    ("value", "text"),
    [
        (1e-05, "1e-05"),  # a bare float: no space before it to find it by
        ("\u00e9", '"\u00e9"'),  # a bare string: Python's encoder, UTF-8 kept
        ({"b": 2**64, "k": "\u00e9"}, '{\n  "b": 18446744073709551616,\n  "k": "\u00e9"\n}'),
        (["a", 1e-07], '[\n  "a",\n  1e-07\n]'),  # a string before the float does not hide it
    ],
    ids=["bare-float", "bare-non-ascii", "python-path-non-ascii", "string-then-float"],
)
def test_exact_text_of_scalars_and_the_python_path(value: Any, text: str) -> None:
    assert dumps_indented(value) == text
