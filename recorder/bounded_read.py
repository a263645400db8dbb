"""The one bounded read of an answer: its raw bytes from the socket, under the answer cap and the
attempt's deadline, before anything decodes or buffers them (decisions ``METHOD.md#answer-size-cap``
and ``METHOD.md#timeout``).

Why here, under urllib3 and ``requests``: vcrpy's recording stub calls ``read()`` on the
``http.client`` response itself before urllib3 or ``requests`` see the answer, so a ``stream=True``
read above it comes too late (a plain endless chunked body was read whole: 22.6 GB in 38 s). Every
answer, content-coded or not, is read here a chunk at a time:

- a ``Content-Length`` above the cap is refused before one byte of the body is read;
- the body is given up as soon as it passes the cap;
- every read from the socket waits at most until the deadline of the whole attempt (connecting,
  sending, the headers and the body), so a server that drips its headers or body a byte at a time
  stops at ``--timeout`` in any thread (the ``SIGALRM`` limit of ``recorder.deadline`` only works in
  the main thread).
"""

from __future__ import annotations

import contextlib
import contextvars
import io
import socket
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass

from recorder.answer_limits import CHUNK, DEFAULT_MAX_ANSWER_MB, MIB, AnswerTooLarge, read_capped
from recorder.deadline import DeadlineExpired


@dataclass(frozen=True)
class AnswerBounds:
    """How much of an answer may be read (``max_bytes``, on the wire and decoded) and until when
    (``deadline``, a ``time.monotonic()`` instant; None: no deadline)."""

    max_bytes: int = DEFAULT_MAX_ANSWER_MB * MIB
    deadline: float | None = None


_DEFAULT = AnswerBounds()  # frozen: one shared default is safe
_bounds: contextvars.ContextVar[AnswerBounds | None] = contextvars.ContextVar(
    "answer_bounds", default=None
)


@contextmanager
def answer_bounds(max_bytes: int, timeout_s: float | None = None) -> Iterator[None]:
    """Answers read in this block (this thread) are capped at ``max_bytes`` and must be whole
    within ``timeout_s`` seconds of now."""
    deadline = None if timeout_s is None else time.monotonic() + timeout_s
    token = _bounds.set(AnswerBounds(max_bytes, deadline))
    try:
        yield
    finally:
        _bounds.reset(token)


def current_bounds() -> AnswerBounds:
    """The bounds of the answer being read in this thread."""
    return _bounds.get() or _DEFAULT


class DeadlineReader(io.RawIOBase):
    """A socket's reader whose every read waits at most until ``deadline``: a per-read timeout
    alone lets a server that sends a byte just before each timeout hold the attempt forever.
    ``DeadlineExpired`` once the deadline has passed."""

    def __init__(self, raw: io.RawIOBase, sock: socket.socket, deadline: float) -> None:
        super().__init__()
        self._raw = raw
        self._sock = sock
        self._deadline = deadline
        self._per_read = sock.gettimeout()  # the read timeout urllib3 set

    def readable(self) -> bool:
        return True

    def fileno(self) -> int:
        return self._raw.fileno()

    def readinto(self, buffer: memoryview) -> int:  # type: ignore[override]
        left = self._deadline - time.monotonic()
        if left <= 0:
            raise DeadlineExpired
        self._sock.settimeout(left if self._per_read is None else min(left, self._per_read))
        try:
            count = self._raw.readinto(buffer)
        except TimeoutError:
            if time.monotonic() >= self._deadline:
                raise DeadlineExpired from None
            raise
        finally:
            with contextlib.suppress(OSError):  # a socket closed meanwhile needs no timeout
                self._sock.settimeout(self._per_read)
        return count if count is not None else 0

    def close(self) -> None:
        if not self.closed:
            self._raw.close()
        super().close()


def deadline_file(fp: io.BufferedReader, sock: socket.socket) -> io.BufferedReader:
    """``fp`` (``http.client``'s ``sock.makefile("rb")``, nothing read from it yet) with every read
    bounded by this thread's answer deadline; ``fp`` itself when there is none."""
    deadline = current_bounds().deadline
    if deadline is None:
        return fp
    return io.BufferedReader(DeadlineReader(fp.detach(), sock, deadline))  # type: ignore[arg-type]


def read_bounded(read: Callable[[int], bytes], length: int | None, max_bytes: int) -> bytes:
    """The whole body ``read(CHUNK)`` yields (an empty chunk ends it), at most ``max_bytes``:
    AnswerTooLarge unread when the announced ``length`` (``Content-Length``) is above the cap, else
    as soon as the body passes it."""
    if length is not None and length > max_bytes:
        raise AnswerTooLarge(max_bytes)
    return read_capped(iter(lambda: read(CHUNK), b""), max_bytes)
