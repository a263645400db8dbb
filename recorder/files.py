"""Reading suite files (checked once per process); the general file I/O is in ``fileio``."""

from __future__ import annotations

import hashlib
from pathlib import Path
from typing import Any

from fileio.reading import read_bytes, read_json
from scorer.errors import SuiteError
from scorer.suite.file import check_suite, decode_suite, is_yaml, parse_suite
from scorer.suite.model import Suite, SuiteCheck

_SUITES: dict[
    tuple[str, bytes], Suite
] = {}  # (path, sha256 of the bytes) -> the checked suite, in this process
_SUITES_KEPT = 8


def read_suite(path: Path) -> Suite:
    """Load and validate a suite file; SuiteError names the file and the first problem. The same
    bytes at the same path are checked once per process (record reads the suite to plan, to
    record and in each worker it forks)."""
    raw = read_bytes(path, "suite file", SuiteError)
    key = (str(path), hashlib.sha256(raw).digest())
    suite = _SUITES.get(key)
    if suite is None:
        suite = parse_suite(raw, str(path))
        if len(_SUITES) >= _SUITES_KEPT:
            _SUITES.pop(next(iter(_SUITES)))
        _SUITES[key] = suite
    return suite


def check_suite_file(path: Path) -> SuiteCheck:
    """Every problem of a suite file (for ``suite check``)."""
    return check_suite(read_bytes(path, "suite file", SuiteError), str(path))


def read_suite_document(path: Path) -> Any:
    """A suite file's document (JSON, or YAML by its name) as plain data, unchecked (the
    report's view)."""
    if is_yaml(str(path)):
        return decode_suite(read_bytes(path, "suite file", SuiteError), str(path))[0]
    return read_json(path, "suite file", SuiteError)
