"""Writing a file whole or not at all."""

from __future__ import annotations

import os
import tempfile
from pathlib import Path


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


def json_utf8(text: str) -> bytes:
    """JSON text as UTF-8, a lone surrogate (valid in JSON, ``"\\ud800"``, not encodable) written as
    its escape: in JSON text a surrogate can only stand inside a string, where ``\\udXXX`` is the
    same value (decision ``METHOD.md#lone-surrogates-round-trip``)."""
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
