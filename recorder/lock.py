"""One ``record`` per model dir at a time: an advisory lock held for the whole run, naming
its holder.

Two runs on one model dir would both pay for the same cases and keep only one run's manifest. The
lock is an ``flock`` on ``<model-dir>/.lock``; the kernel drops it when its holder dies, however it
dies, so a killed run never leaves a stale lock. The file holds who has it (pid and host) for the
error the second run prints, and is removed on release. Re-entrant within a process (the CLI locks
before planning, ``record()`` locks again). Forked workers close their inherited copy of the
descriptor at once: the lock is the parent's alone.
"""

from __future__ import annotations

import contextlib
import os
import socket
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from scorer.errors import CassetteError

try:
    import fcntl
except ImportError:  # pragma: no cover - not POSIX: runs are not locked there
    fcntl = None  # type: ignore[assignment]

LOCK = ".lock"
_held: dict[str, int] = {}
_fds: dict[str, int] = {}  # the locked descriptor of each model dir this process holds


def forget_inherited_locks() -> None:
    """In a forked child: close the copies of the parent's lock descriptors, so that the lock lives
    exactly as long as the parent (a dying child must not hold it for the next run; an orphan
    must not keep it either)."""
    for fd in _fds.values():
        with contextlib.suppress(OSError):
            os.close(fd)
    _fds.clear()
    _held.clear()


def holder_text() -> str:
    """Who this process is, as the lock file names it."""
    return f"pid {os.getpid()} on {socket.gethostname()}"


def _try_lock(path: Path) -> int | str:
    """The locked file descriptor, or the holder's text when another process has the lock."""
    while True:
        # O_NOFOLLOW: a symlinked .lock (git stores symlinks) must not truncate the file it
        # points to
        try:
            fd = os.open(path, os.O_RDWR | os.O_CREAT | os.O_NOFOLLOW, 0o666)
        except OSError as exc:
            if path.is_symlink():
                raise CassetteError(
                    f"{path} is a symlink; remove it (a lock file is the recorder's own)"
                ) from None
            raise CassetteError(
                f"{path}: cannot open the lock file ({exc.strerror or exc})"
            ) from None
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            holder = os.read(fd, 200).decode("utf-8", "replace").strip() or "another process"
            os.close(fd)
            return holder
        try:
            same = os.fstat(fd).st_ino == os.stat(path).st_ino
        except FileNotFoundError:
            same = False
        if same:
            return fd
        os.close(fd)  # the holder removed the file as we opened it: lock the new one


@contextmanager
def model_dir_lock(model_dir: Path) -> Iterator[None]:
    """Hold the model dir's lock; CassetteError naming the holder when another process records into
    it, or when its lock file is a symlink (callers check the dir itself with
    ``fileio.safe_paths.inside``)."""
    model_dir.mkdir(parents=True, exist_ok=True)
    key = str(model_dir.resolve())
    if fcntl is None or key in _held:
        _held[key] = _held.get(key, 0) + 1
        try:
            yield
        finally:
            _held[key] -= 1
            if not _held[key]:
                del _held[key]
        return
    path = model_dir / LOCK
    got = _try_lock(path)
    if isinstance(got, str):
        raise CassetteError(
            f"{model_dir} is being recorded by another run ({got}); wait for it to finish, or stop "
            "it, then run record again"
        )
    os.ftruncate(got, 0)
    os.write(got, f"{holder_text()}\n".encode())
    _held[key], _fds[key] = 1, got
    try:
        yield
    finally:
        del _held[key], _fds[key]
        path.unlink(
            missing_ok=True
        )  # before unlocking: a run that opened this file then retries on a new one
        os.close(got)
