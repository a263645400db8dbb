"""fileio.reading.read_json: a file orjson can parse as the strict parse would is parsed by orjson,
every other one by ``strict_json.loads_file``; the value and every error are the same either way."""

from __future__ import annotations

import math
from pathlib import Path

import pytest

from fileio.reading import parsed_fast, read_json
from scorer.errors import ResultsError
from scorer.strict_json import FILE_MAX_DEPTH, loads_file


def _read(tmp_path: Path, raw: bytes) -> object:
    path = tmp_path / "results.json"
    path.write_bytes(raw)
    return read_json(path, "results file", ResultsError)


@pytest.mark.parametrize(
    ("raw", "value"),
    [
        # orjson reads an integer beyond 64 bits as a float; the strict parse keeps it whole
        (b'{"n": 18446744073709551616}', {"n": 18446744073709551616}),
        (b'{"n": [-9223372036854775809]}', {"n": [-9223372036854775809]}),
        # an escaped lone surrogate: orjson refuses it, the strict parse reads it
        (b'{"s": "\\ud800"}', {"s": "\ud800"}),
    ],
)
def test_what_orjson_reads_otherwise_is_read_strictly(
    tmp_path: Path, raw: bytes, value: object
) -> None:
    assert parsed_fast(raw) is None
    got = _read(tmp_path, raw)
    assert got == value and repr(got) == repr(value)


def test_a_clean_file_is_the_strict_value(tmp_path: Path) -> None:
    raw = (
        b'{"a": [0.1, 1e-400, -0.0, 5e-324, 1.7976931348623157e308, 123456789012345678],'
        b' "d": 1, "d": 2, "s": "\\u00e9\\ud83d\\ude00 \\"x\\"", "t": [true, false, null]}'
    )
    assert parsed_fast(raw) is not None
    got = _read(tmp_path, raw)
    assert repr(got) == repr(loads_file(raw))
    assert got == {
        "a": [0.1, 0.0, -0.0, 5e-324, 1.7976931348623157e308, 123456789012345678],
        "d": 2,
        "s": 'é😀 "x"',
        "t": [True, False, None],
    }
    assert math.copysign(1.0, got["a"][2]) == -1.0  # type: ignore[index]
    assert parsed_fast(b"null") == (None,) and _read(tmp_path, b"null") is None


@pytest.mark.parametrize(
    ("raw", "problem"),
    [
        # deeper than the files' bound, well within orjson's 1024 levels
        (b"[" * (FILE_MAX_DEPTH + 1) + b"]" * (FILE_MAX_DEPTH + 1), "nested more than 200"),
        (b'{"x": [1, NaN]}', "x[1]: NaN is not JSON"),
        (b'{"x": 1e400}', "x: 1e400 is out of range"),
        (b'{"x": 1', "not valid JSON (Expecting"),
        (b'{"x": "\xff"}', "not UTF-8 text"),
    ],
)
def test_a_bad_file_is_refused_as_the_strict_parse_refuses_it(
    tmp_path: Path, raw: bytes, problem: str
) -> None:
    assert parsed_fast(raw) is None
    with pytest.raises(ResultsError) as caught:
        _read(tmp_path, raw)
    assert str(caught.value).startswith(f"{tmp_path / 'results.json'}: the results file is ")
    assert problem in str(caught.value)
