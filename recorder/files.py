"""Reading and writing project files: suites, JSON documents, atomic writes."""

from __future__ import annotations

import hashlib
import os
import tempfile
from pathlib import Path
from typing import Any

from scorer import strict_json
from scorer.errors import CassetteError, SuiteError, UsageError
from scorer.suite_file import check_suite, decode_suite, is_yaml, parse_suite
from scorer.suite_model import Suite, SuiteCheck


def read_bytes(path: Path, what: str, error: type[Exception] = CassetteError) -> bytes:
    """Read a file, turning a missing or unreadable file into a one-line ``error``."""
    try:
        return path.read_bytes()
    except FileNotFoundError:
        raise error(f"{path}: no such {what}") from None
    except IsADirectoryError:
        raise error(f"{path}: is a directory, expected a {what}") from None
    except OSError as exc:
        raise error(f"{path}: cannot read the {what}: {exc.strerror}") from None


_SUITES: dict[
    tuple[str, bytes], Suite
] = {}  # (path, sha256 of the bytes) -> the checked suite, in this process
_SUITES_KEPT = 8


def read_suite(path: Path) -> Suite:
    """Load and validate a suite file; SuiteError names the file and the first problem. The same bytes at the same
    path are checked once per process (record reads the suite to plan, to record and in each worker it forks)."""
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
    """A suite file's document (JSON, or YAML by its name) as plain data, unchecked (the report's view)."""
    if is_yaml(str(path)):
        return decode_suite(read_bytes(path, "suite file", SuiteError), str(path))[0]
    return read_json(path, "suite file", SuiteError)


def read_json(path: Path, what: str, error: type[Exception] = CassetteError) -> Any:
    """Parse a JSON file; a corrupt one is a one-line ``error`` naming the file and position."""
    return strict_json.loads_file_or_error(
        read_bytes(path, what, error), f"{path}: the {what} is", error
    )


def inside(root: Path, *parts: str) -> Path:
    """``root / parts``, after checking that it resolves (symlinks followed) to a path strictly under ``root``:
    every file the tool writes goes through here, so no name from a suite, a model or a link can escape."""
    path = root.joinpath(*parts)
    base, resolved = root.resolve(), path.resolve()
    if resolved == base or not resolved.is_relative_to(base):
        raise UsageError(f"{path}: resolves to {resolved}, outside {root}; refusing to write there")
    return path


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


def json_utf8(text: str) -> bytes:
    """JSON text as UTF-8, a lone surrogate (valid in JSON, ``"\\ud800"``, not encodable) written as its escape:
    in JSON text a surrogate can only stand inside a string, where ``\\udXXX`` is the same value (decision
    ``METHOD.md#lone-surrogates-round-trip``)."""
    return text.encode("utf-8", "backslashreplace")


def write_atomic(path: Path, text: str) -> None:
    """Write a text file (UTF-8, ``\n`` line ends) whole or not at all."""
    write_bytes_atomic(path, text.encode("utf-8"))


def write_bytes_atomic(path: Path, data: bytes) -> None:
    """Write a file whole or not at all: a temp file in the same directory, fsync, then rename."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        os.chmod(
            tmp, 0o666 & ~_umask()
        )  # mkstemp makes 0600 files; reports and cassettes are for sharing
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(tmp, path)
    except OSError as exc:
        Path(tmp).unlink(missing_ok=True)
        if (
            exc.filename is None
        ):  # a write's error (a file-size limit, a full disk) names no file: name this one
            raise OSError(exc.errno, exc.strerror or str(exc), str(path)) from exc
        raise
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
