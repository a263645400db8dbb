"""The one small interface between the runner and the network: send one request, get one answer.

Recording uses ``RequestsTransport`` (real HTTP through ``requests``, captured by vcrpy); rescoring
swaps in a cassette-backed transport, so record and rescore share every line of the runner.
"""

from __future__ import annotations

import hashlib
import json
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any, Literal, Protocol

from recorder.answer_limits import (
    CHUNK,
    DEFAULT_MAX_ANSWER_MB,
    MIB,
    AnswerTooLarge,
    ProtocolSwitch,
    UndecodableAnswer,
    read_capped,
)
from recorder.unreachable import no_connection_cause, no_connection_text
from scorer.wire.headers import recorded_headers

DEFAULT_TIMEOUT_S = 120.0
ACCEPT_ENCODING = "gzip, deflate"


@dataclass(frozen=True)
class HttpRequest:
    """A POST of a JSON body to ``url``; ``headers``, what the run's dialect and settings add
    (``recorder.gateway``)."""

    url: str
    body: dict[str, Any]
    headers: tuple[tuple[str, str], ...] = ()

    def body_bytes(self) -> bytes:
        """The exact bytes sent (UTF-8 JSON; key order as built, so the same request is the same
        bytes; a lone surrogate an answer carried, sent back in a chain, as its JSON escape)."""
        return json.dumps(self.body, ensure_ascii=False).encode("utf-8", "backslashreplace")

    def digest(self) -> str:
        """sha256 of the body as canonical JSON (sorted keys): ties a manifest attempt to its
        request, whatever the key order the suite file happens to use."""
        canonical = json.dumps(self.body, ensure_ascii=False, sort_keys=True, separators=(",", ":"))
        return hashlib.sha256(canonical.encode("utf-8", "backslashreplace")).hexdigest()


@dataclass(frozen=True)
class HttpAnswer:
    """An HTTP answer of any status; ``headers`` keys are lower-case."""

    status: int
    headers: dict[str, str]
    body: bytes
    wall_ms: float
    first_byte_ms: float | None = None  # when the body's first bytes came (a stream's first event)


class TransportFailure(Exception):
    """The request did not complete: no answer in time, or the connection failed.
    ``unreachable`` is why no connection could be opened at all (refused, a name that does not
    resolve, no route: ``recorder.unreachable``), else None."""

    def __init__(
        self,
        kind: Literal["timeout", "network_error"],
        detail: str,
        wall_ms: float,
        unreachable: str | None = None,
    ) -> None:
        super().__init__(f"{kind}: {detail}")
        self.kind = kind
        self.detail = detail
        self.wall_ms = wall_ms
        self.unreachable = unreachable


class Unrecorded(Exception):
    """Replay has no recorded answer for this request (raised only by
    cassette-backed transports)."""


class Transport(Protocol):
    """Sends one request and returns its answer, or raises TransportFailure (or Unrecorded
    on replay)."""

    def send(self, request: HttpRequest) -> HttpAnswer: ...


class RequestsTransport:
    """Real HTTP with ``requests``; the wall time covers sending the request and reading the whole
    body, and ``timeout_s`` bounds that whole time (not each read). ``auth`` is a base URL's
    userinfo, sent as Basic auth (it then replaces the Bearer key, as ``requests`` does).
    Redirects are not followed (a 3xx is an answer: the runner names where it points); the body
    is read as raw bytes under ``max_bytes`` and the deadline before anything decodes it
    (``recorder.bounded_read``), and given up past ``max_bytes`` on the wire or decoded."""

    def __init__(
        self,
        api_key: str | None,
        timeout_s: float = DEFAULT_TIMEOUT_S,
        auth: tuple[str, str] | None = None,
        max_bytes: int = DEFAULT_MAX_ANSWER_MB * MIB,
        key_headers: Callable[[str], dict[str, str]] | None = None,
    ) -> None:
        import requests

        from recorder.final_response import install

        install()
        self._requests = requests
        self._session = requests.Session()
        self._session.auth = auth
        # The codings recorder.content_coding decodes under the cap, said outright: requests
        # would also offer br or zstd when their packages happen to be installed.
        self._headers = {
            "Accept-Encoding": ACCEPT_ENCODING,
            "Content-Type": "application/json",
            "Accept": "application/json",
        }
        if api_key:  # as the dialect takes the key (Anthropic: x-api-key), else Bearer
            self._headers.update(
                key_headers(api_key) if key_headers else {"Authorization": f"Bearer {api_key}"}
            )
        self.timeout_s = timeout_s
        self.max_bytes = max_bytes

    def send(self, request: HttpRequest) -> HttpAnswer:
        from urllib3.exceptions import HTTPError as Urllib3Error

        from recorder.bounded_read import answer_bounds
        from recorder.deadline import DeadlineExpired, wall_clock_limit

        requests = self._requests
        started = time.perf_counter()
        try:
            # SIGALRM stops connecting and sending in the main thread; the answer's every read
            # waits at most until the same deadline, in any thread (recorder.bounded_read)
            with wall_clock_limit(self.timeout_s), answer_bounds(self.max_bytes, self.timeout_s):
                response = self._session.post(
                    request.url,
                    data=request.body_bytes(),
                    headers={**self._headers, **dict(request.headers)},
                    timeout=self.timeout_s,
                    allow_redirects=False,
                    stream=True,
                )
                try:
                    # read whole: the connection goes back to the pool
                    first: list[float] = []
                    body = read_capped(_timed(response.iter_content(CHUNK), first, started),
                                       self.max_bytes)  # fmt: skip
                except BaseException:
                    response.close()
                    raise
        except (AnswerTooLarge, ProtocolSwitch, UndecodableAnswer) as exc:
            self._fresh_session()  # the connection holds an unread body, or no longer speaks HTTP
            raise TransportFailure("network_error", str(exc), _ms(started)) from None
        except DeadlineExpired:
            self._fresh_session()  # the interrupted connection is in an unknown state
            raise TransportFailure(
                "timeout", f"no whole answer within {self.timeout_s:g} s", _ms(started)
            ) from None
        except requests.Timeout as exc:
            raise TransportFailure("timeout", _short(exc), _ms(started)) from None
        except (requests.ConnectionError, requests.exceptions.ChunkedEncodingError) as exc:
            cause = no_connection_cause(exc)
            if cause is not None:  # said plainly: urllib3's text cut at 200 characters hid it
                detail = no_connection_text(request.url, cause)
                raise TransportFailure("network_error", detail, _ms(started), cause) from None
            raise TransportFailure("network_error", _short(exc), _ms(started)) from None
        except (
            requests.exceptions.InvalidHeader,
            requests.exceptions.ContentDecodingError,
            Urllib3Error,
        ) as exc:
            # An answer HTTP cannot read (two Content-Lengths that disagree, a "gzip" body that is
            # not): this case's network error, retried, never the end of the run. vcrpy's stub
            # raises urllib3's own errors.
            self._fresh_session()
            raise TransportFailure("network_error", _short(exc), _ms(started)) from None
        headers = recorded_headers(response.headers)  # as replay reads the cassette's
        first_byte = first[0] if first else None
        return HttpAnswer(response.status_code, headers, body, _ms(started), first_byte)

    def _fresh_session(self) -> None:
        auth = self._session.auth
        self._session.close()
        self._session = self._requests.Session()
        self._session.auth = auth

    def close(self) -> None:
        self._session.close()


def _timed(chunks: Iterable[bytes], first: list[float], started: float) -> Iterable[bytes]:
    """``chunks``, noting in ``first`` when the first non-empty one came."""
    for chunk in chunks:
        if chunk and not first:
            first.append(_ms(started))
        yield chunk


def _ms(started: float) -> float:
    return round((time.perf_counter() - started) * 1000, 3)


def _short(exc: Exception) -> str:
    text = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
    return text[:200]
