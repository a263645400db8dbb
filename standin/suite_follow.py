"""The stand-in follows its suite file: an edit is served from the next request on, and every answer
names the suite it was made from (docs/standin.md#the-suite-it-serves).

Each request stats the file (cheap); when its modification time, size or inode changed, the file is
read again. A file that cannot be used as it is (half written by an editor, a typo) keeps the suite
served before, and the next change is read again. The suite served is named, in the banner and in
the ``X-Lobstack-Suite`` header of every answer, by its name, version and the sha256 of the file's
bytes: ``record`` compares that with the suite it records, so an answer made from another suite is
never kept as the model's (recorder/suite_served.py).
"""

from __future__ import annotations

import os
import threading
from collections.abc import Callable
from pathlib import Path
from urllib.parse import quote

from scorer.errors import SuiteError
from standin.suite_index import SuiteIndex, index_of_bytes, load_suite_index

SUITE_HEADER = "X-Lobstack-Suite"
Signature = tuple[int, int, int, int] | None


def _signature(path: Path) -> Signature:
    try:
        stat = os.stat(path)
    except OSError:
        return None
    return (stat.st_mtime_ns, stat.st_ctime_ns, stat.st_size, stat.st_ino)


def suite_header(index: SuiteIndex) -> str:
    """``name=<name>; version=<version>; sha256=<hex>`` (the name percent-encoded: ASCII only)."""
    return f"name={quote(index.name, safe='')}; version={quote(index.version, safe='')}; " + (
        f"sha256={index.sha256}"
    )


def suite_line(index: SuiteIndex) -> str:
    """The suite as the banner names it: ``NAME VERSION (sha256 <first 12>)``."""
    return f"{index.name} {index.version} (sha256 {index.sha256[:12]})"


class SuiteFollower:
    """The suite file's current index; ``on_change`` is told each new suite served, or why an
    edited file is not (the one before is kept)."""

    def __init__(self, path: Path, on_change: Callable[[str], None] | None = None) -> None:
        self._path = path
        self._signature = _signature(path)
        self._index = load_suite_index(path)
        self._lock = threading.Lock()
        self._on_change = on_change

    def current(self) -> SuiteIndex:
        """The suite to answer from: the file read again first when it changed."""
        signature = _signature(self._path)
        if signature == self._signature:
            return self._index
        with self._lock:
            if signature != self._signature:
                self._signature = signature
                self._reread()
            return self._index

    def _reread(self) -> None:
        try:
            index = index_of_bytes(self._path.read_bytes(), self._path)
        except (OSError, SuiteError) as exc:
            self._tell(f"suite file changed but cannot be used; still serving "
                       f"{suite_line(self._index)}: {exc}")  # fmt: skip
            return
        if index.sha256 != self._index.sha256:
            self._index = index
            self._tell(f"suite file changed: now serving {suite_line(index)}")

    def _tell(self, line: str) -> None:
        if self._on_change is not None:
            self._on_change(line)
