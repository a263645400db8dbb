"""Reading a suite file for diffing (the I/O edge): its bytes and its parsed object, or one
clear error."""

from __future__ import annotations

from pathlib import Path

from fileio.reading import read_bytes
from replay.results.typed import SuiteData
from scorer.errors import SuiteError
from scorer.suite.file import decode_suite, parse_suite


def read_suite_json(path: Path) -> tuple[bytes, SuiteData]:
    """The raw bytes and the parsed object of a suite file (JSON, or YAML by its name). An invalid
    suite is the error ``suite check`` gives (``parse_suite``: the first problem, with its case,
    field and YAML line): a diff against a suite that does not load would compare what no
    command can score."""
    raw = read_bytes(path, "suite file", SuiteError)
    parse_suite(raw, str(path))
    data = decode_suite(raw, str(path))[0]
    assert isinstance(data, dict)  # parse_suite refused any other top level
    return raw, data
