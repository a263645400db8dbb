"""One writer per output dir: ``rescore``, ``merge`` and ``report`` hold an advisory lock on the dir
they write.

Two rescores into one ``--out`` (two CI jobs in one workspace, a second terminal) each removed the
other's results.json as stale and both exited 0. The lock is an ``flock`` on ``<out>/.lock``, the
same style as record's lock on a model dir (recorder/lock.py): the kernel drops it when its holder
dies, the file names the holder for the second run's error, and it is removed on release. It is
opened with ``O_NOFOLLOW``: a ``.lock`` that is a symbolic link (git stores them) is refused, never
followed to truncate a file elsewhere. Every file inside is written atomically (temp file, then
rename), so a reader never sees half a file; the lock keeps two writers apart.
"""

from __future__ import annotations

import contextlib
import os
import socket
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from scorer.errors import ResultsError

try:
    import fcntl
except ImportError:  # pragma: no cover - not POSIX: output dirs are not locked there
    fcntl = None  # type: ignore[assignment]

LOCK = ".lock"


def _open(path: Path) -> int:
    try:
        return os.open(
            path, os.O_RDWR | os.O_CREAT | os.O_NOFOLLOW | getattr(os, "O_CLOEXEC", 0), 0o666
        )
    except OSError as exc:
        if path.is_symlink():
            raise ResultsError(
                f"{path}: a symbolic link; remove it (the lock file is never a link)"
            ) from None
        raise ResultsError(f"{path}: cannot open the lock file: {exc.strerror or exc}") from None


@contextmanager
def out_dir_lock(out: Path, command: str) -> Iterator[None]:
    """Hold ``out``'s lock while ``command`` writes there; ResultsError naming the holder when
    another run has it."""
    if fcntl is None:
        yield
        return
    created = not out.exists()
    out.mkdir(parents=True, exist_ok=True)
    path = out / LOCK
    while True:
        fd = _open(path)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            holder = os.read(fd, 200).decode("utf-8", "replace").strip() or "another process"
            os.close(fd)
            raise ResultsError(
                f"{out} is being written by another run ({holder}); wait for it to finish, then "
                f"run {command} again"
            ) from None
        try:
            same = os.fstat(fd).st_ino == os.stat(path, follow_symlinks=False).st_ino
        except FileNotFoundError:
            same = False
        if same:
            break
        os.close(fd)  # the holder removed the file as we opened it: lock the new one
    holder = f"{command}: pid {os.getpid()} on {socket.gethostname()}\n".encode()
    # Written first, then cut to its length (a dead holder's longer line goes): truncating to zero
    # first made ext4 (auto_da_alloc) flush the file at close, 2 to 4 ms of waiting a command.
    os.write(fd, holder)
    os.ftruncate(fd, len(holder))
    try:
        yield
    finally:
        with contextlib.suppress(OSError):
            path.unlink()  # before unlocking: a run that opened this file then retries on a new one
        os.close(fd)
        if created:  # a run that wrote nothing (refused before writing) leaves no empty dir behind
            with contextlib.suppress(OSError):
                out.rmdir()


@contextmanager
def rows_lock(rows: Path | None, out: Path, command: str) -> Iterator[None]:
    """Hold the ``--rows`` dir's lock too (``out_dir_lock``), from its checks to its last partition:
    two runs appending to one rows dir each checked the suite files before the other wrote.
    Nothing without ``--rows``; one lock when ``--rows`` is ``out`` itself."""
    if rows is None or rows.resolve() == out.resolve():
        yield
        return
    with out_dir_lock(rows, f"{command} --rows"):
        yield
