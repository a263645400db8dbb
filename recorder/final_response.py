"""The ``http.client`` response under the recorder's urllib3 connections: what a gateway's answer is
before ``requests``, vcrpy or urllib3's decoders see it.

- Every ``1xx`` answer before the final one is skipped (RFC 9110 section 15.2), as ``100
  Continue`` is.
- An unsolicited ``101 Switching Protocols`` is a network error
  (``docs/commands/record.md#an-unsolicited-101-is-a-network-error``): the request asked for no
  upgrade, and what follows a 101 is no longer HTTP, so there is no answer to judge.
- Every body is read here whole, as raw bytes from the socket, under the answer cap and the
  attempt's deadline (``recorder.bounded_read``): vcrpy's stub reads the body with
  ``preload_content``, so urllib3 would read a plain endless body, or inflate a coded one (1.5 MB
  of gzip can be 1.5 GB, two gzip layers far more), whole in one call before ``--max-answer-mb``
  got a chance. A ``Content-Length`` above the cap is refused unread.
- Any ``Content-Encoding`` (one coding or a list, in one header or several) is then undone, a
  chunk at a time, under the cap (``recorder.content_coding``). urllib3 and the cassette get the
  decoded body with no ``Content-Encoding`` nor ``Transfer-Encoding`` left and its
  ``Content-Length``. A coding it does not know, or a body that does not decode, is the attempt's
  network error in a 2xx answer; an error status keeps its status and its body as received, with
  the ``x-lobstack-undecoded`` header naming the coding
  (``docs/commands/record.md#an-error-status-whose-body-does-not-decode-keeps-its-status``).
"""

from __future__ import annotations

import http.client
import io
from typing import Any

from recorder.answer_limits import ProtocolSwitch, UndecodableAnswer
from recorder.bounded_read import current_bounds, deadline_file, read_bounded
from recorder.content_coding import UNDECODED_HEADER, decode_capped, shown_codings


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

        def __init__(self, sock: Any, *args: Any, **kwargs: Any) -> None:
            super().__init__(sock, *args, **kwargs)
            self.fp = deadline_file(self.fp, sock)  # the headers too wait at most until then

        def begin(self) -> None:
            super().begin()
            try:
                self._read_whole(current_bounds().max_bytes)
            except BaseException:
                self.close()
                raise

        def _read_whole(self, limit: int) -> None:
            """Read the body (at most ``limit`` bytes; a longer ``Content-Length`` unread) and
            undo the codings its ``Content-Encoding`` lists (at most ``limit`` bytes each):
            urllib3 then reads the decoded body, with nothing left to apply."""
            chunked = self.chunked
            body = read_bounded(self.read, self.length, limit)
            # several Content-Encoding headers are one list (RFC 9110 section 5.3), as urllib3
            # reads them
            codings = ", ".join(self.msg.get_all("Content-Encoding") or ())
            if codings:
                try:
                    body = decode_capped(body, codings, limit)
                except UndecodableAnswer:
                    if 200 <= self.status < 300:  # no answer to judge: the attempt's network error
                        raise
                    self.msg[UNDECODED_HEADER] = shown_codings(codings)  # kept as received
            if codings or chunked:  # a plain body with a Content-Length keeps its headers as sent
                for name in ("Content-Encoding", "Transfer-Encoding", "Content-Length"):
                    del self.msg[name]
                self.msg["Content-Length"] = str(len(body))
            # read to the end by urllib3 (or vcrpy), then closed as a socket's file is
            self.fp = io.BytesIO(body)
            self.length = len(body)
            self.chunked = False

    connection.response_class = FinalResponse
