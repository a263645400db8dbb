"""Answers written over time, for ``--faults`` kinds and model suffixes: bodies that never end, that
claim more than any cap, or that come a byte at a time (what ``record``'s bounded read of every
answer stops: decisions ``METHOD.md#answer-size-cap`` and ``METHOD.md#timeout``).

- ``endless``: a 200 with a plain chunked body (no ``Content-Encoding``) of spaces that never ends,
  until the client hangs up or the gateway stops.
- ``hugelength``: a 200 whose ``Content-Length`` says 1 TiB. The gateway sends the headers, then
  waits up to ``timeout_sleep_s`` for the client to hang up before it sends any of the body (then
  zero bytes until the client hangs up), so a test sees whether the client refused it unread.
- ``drip``: the model's answer, its headers at once and its body one byte every ``drip_ms``.
- ``driphead``: the model's answer with its status line and headers too sent one byte every
  ``drip_ms``.

Each such answer's end is kept (``StreamEnd``): how many body bytes were sent and whether the client
hung up first.
"""

from __future__ import annotations

import select
import socket
import time
from dataclasses import dataclass
from http.server import BaseHTTPRequestHandler
from threading import Event

STREAMED_KINDS = ("endless", "hugelength", "drip", "driphead")
HUGE_LENGTH = 1 << 40  # 1 TiB: more than any answer cap and any test's address space
_FRAME = 64 * 1024
_POLL_S = 0.05


@dataclass(frozen=True)
class StreamEnd:
    """How one streamed answer ended: its kind, the body bytes written, and ``hung_up`` when the
    client closed the connection before the gateway was done."""

    kind: str
    body_sent: int
    hung_up: bool


def _head(status: int, headers: tuple[tuple[str, str], ...]) -> bytes:
    lines = [f"HTTP/1.1 {status} OK", *(f"{name}: {value}" for name, value in headers)]
    return ("\r\n".join([*lines, "Connection: close"]) + "\r\n\r\n").encode("latin-1")


def _hung_up(conn: socket.socket, stopping: Event, wait_s: float) -> bool:
    """True once the client closes its side within ``wait_s`` (the gateway's stop ends
    the wait)."""
    end = time.monotonic() + wait_s
    while time.monotonic() < end and not stopping.is_set():
        readable, _w, _x = select.select([conn], [], [], _POLL_S)
        if readable:
            try:
                return conn.recv(1, socket.MSG_PEEK) == b""
            except OSError:
                return True
    return False


def _frames(framed: bool) -> tuple[bytes, int]:
    """One piece of an endless body of spaces (a chunk when ``framed``) and its body bytes."""
    chunk = b" " * _FRAME
    return (b"%x\r\n%s\r\n" % (len(chunk), chunk) if framed else chunk), len(chunk)


def write_streamed(
    kind: str,
    status: int,
    headers: tuple[tuple[str, str], ...],
    body: bytes,
    handler: BaseHTTPRequestHandler,
    stopping: Event,
    timings: tuple[float, float],
) -> StreamEnd:
    """Write the streamed answer ``kind`` on ``handler``'s connection (``body``: the model's answer
    for the drip kinds); ``timings`` is ``(drip_s, hang-up wait_s)``."""
    conn: socket.socket = handler.connection
    drip_s, wait_s = timings
    sent = 0
    try:
        if kind in ("endless", "hugelength"):
            framed = kind == "endless"
            extra = (
                ("Transfer-Encoding", "chunked") if framed else ("Content-Length", str(HUGE_LENGTH))
            )
            conn.sendall(_head(status, (*headers, extra)))
            if not framed and _hung_up(conn, stopping, wait_s):
                return StreamEnd(kind, 0, True)
            piece, size = _frames(framed)
            while not stopping.is_set():
                conn.sendall(piece)
                sent += size
        else:
            head = _head(status, (*headers, ("Content-Length", str(len(body)))))
            if kind == "drip":
                conn.sendall(head)
                head = b""
            whole = head + body
            for index in range(len(whole)):
                if stopping.wait(drip_s):
                    break
                conn.sendall(whole[index : index + 1])
                sent += index >= len(head)
    except OSError:  # BrokenPipeError, ConnectionResetError: the client hung up
        return StreamEnd(kind, sent, True)
    return StreamEnd(kind, sent, False)
