"""The ``http.client`` response under the recorder's urllib3 connections: what a gateway's answer is
before ``requests``, vcrpy or urllib3's decoders see it.

- Every ``1xx`` answer before the final one is skipped (RFC 9110 section 15.2), as ``100
  Continue`` is.
- An unsolicited ``101 Switching Protocols`` is a network error
  (``docs/commands/record.md#an-unsolicited-101-is-a-network-error``): the request asked for no
  upgrade, and what follows a 101 is no longer HTTP, so there is no answer to judge.
- A gzip or deflate body is decoded here, a chunk at a time, under the answer cap (decision
  ``METHOD.md#answer-size-cap``): vcrpy's stub reads the body with ``preload_content``, so urllib3
  would inflate it whole in one call (1.5 MB of gzip can be 1.5 GB) before ``--max-answer-mb`` got
  a chance.
"""

from __future__ import annotations

import contextvars
import http.client
import io
import zlib
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from recorder.transport import (
    CHUNK,
    DEFAULT_MAX_ANSWER_MB,
    MIB,
    AnswerTooLarge,
    ProtocolSwitch,
    read_capped,
)

# zlib window bits: gzip, zlib (deflate as RFC 9110 means it), raw deflate (what some servers send
# as deflate)
_WBITS = {"gzip": (31,), "x-gzip": (31,), "deflate": (15, -15)}
_limit: contextvars.ContextVar[int] = contextvars.ContextVar(
    "answer_limit", default=DEFAULT_MAX_ANSWER_MB * MIB
)


def _inflated(raw: bytes, wbits: int) -> Iterator[bytes]:
    """``raw`` inflated a chunk at a time: nothing is inflated beyond what is asked for."""
    inflater = zlib.decompressobj(wbits)
    data = raw
    while data:
        yield inflater.decompress(data, CHUNK)
        data = inflater.unconsumed_tail
        if inflater.eof:
            break
    yield inflater.flush()


def decode_capped(raw: bytes, encoding: str, limit: int) -> bytes | None:
    """``raw`` decoded from ``encoding`` (gzip or deflate), or None for an encoding this does not
    know or a body that does not decode (kept as received); AnswerTooLarge as soon as the output
    passes ``limit`` bytes."""
    for wbits in _WBITS.get(encoding.strip().lower(), ()):
        try:
            return read_capped(_inflated(raw, wbits), limit)
        except zlib.error:
            continue
    return None


@contextmanager
def answer_limit(max_bytes: int) -> Iterator[None]:
    """Answers read in this block (this thread) are capped at ``max_bytes``, on the wire
    and decoded."""
    token = _limit.set(max_bytes)
    try:
        yield
    finally:
        _limit.reset(token)


def install() -> None:
    """Make urllib3's connections use ``FinalResponse`` (idempotent; process-wide, as
    urllib3 is)."""
    import urllib3.connection

    connection = urllib3.connection.HTTPConnection
    if getattr(connection.response_class, "lobstack_final", False):
        return

    class FinalResponse(connection.response_class):  # type: ignore[misc, name-defined]
        lobstack_final = True

        def _read_status(self) -> Any:
            while True:
                version, status, reason = super()._read_status()
                if status == 101:
                    raise ProtocolSwitch()
                if not 102 <= status <= 199:  # 100 is skipped by http.client itself
                    return version, status, reason
                # the 1xx answer's headers
                http.client._read_headers(self.fp)  # type: ignore[attr-defined]

        def begin(self) -> None:
            super().begin()
            encoding = (self.getheader("Content-Encoding") or "").strip().lower()
            if encoding in _WBITS:
                self._decode_body(encoding, _limit.get())

        def _decode_body(self, encoding: str, limit: int) -> None:
            """Read the whole body (at most ``limit`` bytes) and decode it (at most ``limit``
            bytes): urllib3 then reads the decoded body, with no ``Content-Encoding`` left to
            apply. A body that does not decode is served as received, so urllib3 says what it
            says of a bad gzip body."""
            try:
                body = read_capped(iter(lambda: self.read(CHUNK), b""), limit)
            except AnswerTooLarge:
                self.close()
                raise
            decoded = decode_capped(body, encoding, limit)
            if decoded is not None:
                body = decoded
                del self.msg["Content-Encoding"]
                del self.msg["Content-Length"]
                self.msg["Content-Length"] = str(len(body))
            self.fp = io.BytesIO(
                body
            )  # read to the end by urllib3, then closed as a socket's file is
            self.length = len(body)
            self.chunked = False

    connection.response_class = FinalResponse
