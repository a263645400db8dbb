"""A rescore's output directory: checked usable before any work, and owned afterwards.

``rescore --out DIR`` writes one ``<model-slug>/results.json`` per model it scored. A results.json
of any other model left in DIR (from an earlier rescore of other cassettes, or of a model that
failed this time) would be read by ``report`` and ``diff runs`` as if current, so rescore removes it
and says so. Only files that are results documents are removed; anything else in DIR is left alone.
"""

from __future__ import annotations

import contextlib
import errno
import os
import tempfile
from collections.abc import Collection, Sequence
from pathlib import Path

from fileio.safe_paths import link_in
from replay.results.read import read_results
from scorer.errors import ResultsError, UsageError

RESULTS = "results.json"


def _reason(exc: OSError) -> str:
    return exc.strerror or errno.errorcode.get(exc.errno or 0, "") or str(exc)


def check_writable_dir(path: Path, option: str) -> None:
    """UsageError (before any work) unless ``path`` is, or can be made, a directory this process can
    write in.

    The directory is created when missing (it is where the output goes anyway); a probe file proves
    it is writable, which permission bits alone cannot (read-only mounts, root, ACLs)."""
    if path.exists() and not path.is_dir():
        raise UsageError(f"{option} {path}: is a file, not a directory")
    try:
        path.mkdir(parents=True, exist_ok=True)
        with tempfile.TemporaryFile(dir=path, prefix=".lobstack-probe-"):
            pass
    except OSError as exc:
        raise UsageError(f"{option} {path}: cannot write there: {_reason(exc)}") from None


def check_outside(out: Path, inputs: Sequence[Path], option: str = "--out") -> None:
    """UsageError unless ``out`` is neither one of ``inputs`` nor inside one: what is written there
    would be read back as input (a results.json in a model's cassette folder, a reports folder
    taken for a model dir)."""
    target = out.resolve()
    for folder in inputs:
        source = folder.resolve()
        if target == source or source in target.parents:
            raise UsageError(f"{option} {out}: must not be {folder} or inside it")


def check_writable_file(path: Path, option: str) -> None:
    """UsageError (before any work) unless ``path`` can be written as a file: not a directory, and
    its folder exists and takes files. Nothing is created."""
    if path.is_dir():
        raise UsageError(f"{option} {path}: is a directory, not a file")
    parent = path.parent
    if not parent.is_dir():
        raise UsageError(f"{option} {path}: no such directory {parent}")
    try:
        with tempfile.TemporaryFile(dir=parent, prefix=".lobstack-probe-"):
            pass
    except OSError as exc:
        raise UsageError(f"{option} {path}: cannot write there: {_reason(exc)}") from None
    if path.exists() and not os.access(path, os.W_OK):
        raise UsageError(f"{option} {path}: cannot write there: the file is read-only")


def remove_stale_results(out: Path, keep: Collection[str]) -> list[Path]:
    """Remove ``out/<dir>/results.json`` for every ``<dir>`` not in ``keep`` (and the folder when it
    is then empty); returns the removed files, sorted. A results.json that is not a readable
    results document is left."""
    if not out.is_dir():
        return []
    removed = []
    for folder in sorted(p for p in out.iterdir() if p.is_dir() and p.name not in keep):
        path = folder / RESULTS
        if link_in(out, path) is not None or not path.is_file():
            # a link (to a folder or file anywhere) is not what rescore wrote: never delete
            # through it
            continue
        try:
            read_results(path)
        except ResultsError:
            # not one of ours, or already broken: report and diff runs name it if they read it
            continue
        path.unlink()
        removed.append(path)
        with contextlib.suppress(OSError):  # the folder holds something else too: leave it
            folder.rmdir()
    return removed
