"""The ``http.client`` response under the recorder's urllib3 connections: what a gateway's answer is
before ``requests``, vcrpy or urllib3's decoders see it.

- Every ``1xx`` answer before the final one is skipped (RFC 9110 section 15.2), as ``100
  Continue`` is.
- An unsolicited ``101 Switching Protocols`` is a network error
  (``docs/commands/record.md#an-unsolicited-101-is-a-network-error``): the request asked for no
  upgrade, and what follows a 101 is no longer HTTP, so there is no answer to judge.
- A body with any ``Content-Encoding`` (one coding or a list, in one header or several) is decoded
  here, a chunk at a time, under the answer cap (decision ``METHOD.md#answer-size-cap``,
  ``recorder.content_coding``): vcrpy's stub reads the body with ``preload_content``, so urllib3
  would inflate it whole in one call (1.5 MB of gzip can be 1.5 GB, two gzip layers far more)
  before ``--max-answer-mb`` got a chance. urllib3 and the cassette get the decoded body with no
  ``Content-Encoding`` left; a coding it does not know, or a body that does not decode, is the
  attempt's network error.
"""

from __future__ import annotations

import contextvars
import http.client
import io
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from recorder.content_coding import decode_capped
from recorder.transport import (
    CHUNK,
    DEFAULT_MAX_ANSWER_MB,
    MIB,
    ProtocolSwitch,
    read_capped,
)

_limit: contextvars.ContextVar[int] = contextvars.ContextVar(
    "answer_limit", default=DEFAULT_MAX_ANSWER_MB * MIB
)


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
            # several Content-Encoding headers are one list (RFC 9110 section 5.3), as urllib3
            # reads them
            codings = self.msg.get_all("Content-Encoding")
            if codings:
                self._decode_body(", ".join(codings), _limit.get())

        def _decode_body(self, header: str, limit: int) -> None:
            """Read the whole body (at most ``limit`` bytes) and undo the codings ``header``
            lists (at most ``limit`` bytes each): urllib3 then reads the decoded body, with no
            ``Content-Encoding`` left to apply."""
            try:
                raw = read_capped(iter(lambda: self.read(CHUNK), b""), limit)
                body = decode_capped(raw, header, limit)
            except BaseException:
                self.close()
                raise
            del self.msg["Content-Encoding"]
            del self.msg["Content-Length"]
            self.msg["Content-Length"] = str(len(body))
            # read to the end by urllib3, then closed as a socket's file is
            self.fp = io.BytesIO(body)
            self.length = len(body)
            self.chunked = False

    connection.response_class = FinalResponse
