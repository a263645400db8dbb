"""Reading suite files (checked once per process); the general file I/O is in ``fileio``."""

from __future__ import annotations

import hashlib
from pathlib import Path
from typing import Any

from fileio.reading import read_bytes
from scorer import strict_json
from scorer.errors import SuiteError
from scorer.suite.file import check_suite, decode_suite, is_yaml, parse_suite
from scorer.suite.model import Suite, SuiteCheck

# (path, sha256 of the bytes) -> the checked suite, and the suite's document, in this process
_SUITES: dict[tuple[str, bytes], Suite] = {}
_DOCUMENTS: dict[tuple[str, bytes], Any] = {}
_KEPT = 8


def read_suite(path: Path) -> Suite:
    """Load and validate a suite file; SuiteError names the file and the first problem. The same
    bytes at the same path are checked once per process (record reads the suite to plan, to
    record and in each worker it forks)."""
    raw = read_bytes(path, "suite file", SuiteError)
    return _kept(
        _SUITES, (str(path), hashlib.sha256(raw).digest()), lambda: parse_suite(raw, str(path))
    )


def _kept(cache: dict[tuple[str, bytes], Any], key: tuple[str, bytes], make: Any) -> Any:
    """``cache[key]``, made by ``make()`` the first time (the oldest of ``_KEPT`` dropped); what
    ``make`` raises is not kept."""
    if key not in cache:
        value = make()
        if len(cache) >= _KEPT:
            cache.pop(next(iter(cache)))
        cache[key] = value
    return cache[key]


def check_suite_file(path: Path) -> SuiteCheck:
    """Every problem of a suite file (for ``suite check``)."""
    return check_suite(read_bytes(path, "suite file", SuiteError), str(path))


def read_suite_document(path: Path) -> Any:
    """A suite file's document (JSON, or YAML by its name) as plain data, unchecked (the
    report's view). The same bytes at the same path are decoded once per process (one that renders
    many pages, the pytest plugin's or the tests', parsed the same 160 kB suite for each): the
    document is shared, read it only."""
    raw = read_bytes(path, "suite file", SuiteError)
    return _kept(
        _DOCUMENTS, (str(path), hashlib.sha256(raw).digest()), lambda: _document(path, raw)
    )


def _document(path: Path, raw: bytes) -> Any:
    if is_yaml(str(path)):
        return decode_suite(raw, str(path))[0]
    return strict_json.loads_file_or_error(raw, f"{path}: the suite file is", SuiteError)
