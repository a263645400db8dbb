"""Writing a file whole or not at all, and never through a symbolic link below its root (issue 42).

Every file the tool writes goes through ``write_bytes_atomic``. Given the root the user named
(``--cassettes``, ``--out``, ``--rows``, a model dir under them), each folder from the root down to
the file is opened with ``O_NOFOLLOW`` relative to the one above it (created when missing), and the
file is written and renamed inside the last one: a folder or file swapped for a link, at any level,
is refused with one line naming it, never followed, even when it was swapped after a check by name.
The root itself is taken as given (a user may point ``--out`` at a link on purpose).
"""

from __future__ import annotations

import contextlib
import errno
import os
import secrets
import stat
from pathlib import Path

from fileio.safe_paths import link_refused

_DIR_FLAGS = os.O_RDONLY | getattr(os, "O_DIRECTORY", 0) | getattr(os, "O_NOFOLLOW", 0)
_FILE_FLAGS = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0)


def json_utf8(text: str) -> bytes:
    """JSON text as UTF-8, a lone surrogate (valid in JSON, ``"\\ud800"``, not encodable) written as
    its escape: in JSON text a surrogate can only stand inside a string, where ``\\udXXX`` is the
    same value (decision ``METHOD.md#lone-surrogates-round-trip``)."""
    return text.encode("utf-8", "backslashreplace")


def write_atomic(path: Path, text: str, root: Path | None = None) -> None:
    """Write a text file (UTF-8, ``\n`` line ends) whole or not at all (``write_bytes_atomic``)."""
    write_bytes_atomic(path, text.encode("utf-8"), root)


def _is_link(name: str, dir_fd: int) -> bool:
    try:
        return stat.S_ISLNK(os.stat(name, dir_fd=dir_fd, follow_symlinks=False).st_mode)
    except FileNotFoundError:
        return False


def open_folder(root: Path, folder: Path) -> int:
    """A descriptor of ``folder`` (``root`` or below it, as written), each level below ``root``
    opened with ``O_NOFOLLOW`` relative to the one above and created when missing; LinkRefused
    naming the first level that is a symbolic link. The caller closes it."""
    root.mkdir(parents=True, exist_ok=True)
    fd = os.open(root, os.O_RDONLY | getattr(os, "O_DIRECTORY", 0))
    current = root
    try:
        for part in folder.relative_to(root).parts:
            current = current / part
            with contextlib.suppress(FileExistsError):
                if not _is_link(part, fd):
                    os.mkdir(part, dir_fd=fd)
            try:
                inner = os.open(part, _DIR_FLAGS, dir_fd=fd)
            except OSError as exc:
                if exc.errno in (errno.ELOOP, errno.ENOTDIR) and _is_link(part, fd):
                    raise link_refused(current, root) from None
                if exc.errno == errno.ENOTDIR:  # a file there: said as mkdir says it
                    raise FileExistsError(
                        errno.EEXIST, os.strerror(errno.EEXIST), str(current)
                    ) from None
                raise OSError(exc.errno, exc.strerror or str(exc), str(current)) from None
            os.close(fd)
            fd = inner
    except BaseException:
        os.close(fd)
        raise
    return fd


def write_bytes_atomic(path: Path, data: bytes, root: Path | None = None) -> None:
    """Write a file whole or not at all: a temp file in the same folder, fsync, then rename. No
    folder below ``root`` (default: the file's own folder) nor the file itself may be a symbolic
    link (``open_folder``); the file's mode is 0666 less the umask, as for any new file."""
    root = path.parent if root is None else root
    fd = open_folder(root, path.parent)
    tmp = f".{path.name}.{secrets.token_hex(4)}.tmp"
    try:
        if _is_link(path.name, fd):
            raise link_refused(path, root)
        handle = os.open(tmp, _FILE_FLAGS, 0o666, dir_fd=fd)  # reports and cassettes are shared
        try:
            view = memoryview(data)
            while view:
                view = view[os.write(handle, view) :]
            os.fsync(handle)
        finally:
            os.close(handle)
        os.replace(tmp, path.name, src_dir_fd=fd, dst_dir_fd=fd)
    except OSError as exc:
        with contextlib.suppress(OSError):
            os.unlink(tmp, dir_fd=fd)
        if exc.filename is None or exc.filename == tmp:
            # a write's error (a file-size limit, a full disk) names no file, or the temp file:
            # name this one
            raise OSError(exc.errno, exc.strerror or str(exc), str(path)) from exc
        raise
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp, dir_fd=fd)
        raise
    finally:
        os.close(fd)
