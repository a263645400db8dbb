"""An answer's ``Content-Encoding``, undone a chunk at a time under the answer cap (decision
``METHOD.md#answer-size-cap``).

- The header is a list of codings in the order they were applied (RFC 9110 section 8.4), in one
  header or several: they are undone last applied first, each one's output capped, so a bomb
  wrapped in two gzip layers stops at the cap like one in a single layer.
- gzip (``x-gzip``) and deflate are decoded; ``identity`` is none. Any other coding is refused
  (``UndecodableAnswer``) before anything is decoded: no library behind the recorder gets a body
  it would decode whole, and the request never offers another (``Accept-Encoding: gzip,
  deflate``).
- A gzip body is every member in turn (RFC 1952 section 2.2), as HTTP clients read it; bytes after
  the last whole member that begin no member are ignored, as urllib3 ignores them.
"""

from __future__ import annotations

import zlib
from collections.abc import Iterator

from recorder.answer_limits import CHUNK, UndecodableAnswer, read_capped

_GZIP = 31
# zlib window bits: gzip, zlib (deflate as RFC 9110 means it), raw deflate (what some servers send
# as deflate); identity has nothing to undo
_WBITS = {"gzip": (_GZIP,), "x-gzip": (_GZIP,), "deflate": (15, -15), "identity": ()}
# Input is given to zlib this much at a time: what zlib leaves unread is copied on every call, so
# a slice this small keeps a body of a million tiny gzip members linear, not quadratic.
_STEP = 4 * 1024
_SHOWN = 40  # characters of a header value an error quotes
# Set by the recorder on an error answer whose body it kept as received, not decoded: its value is
# the Content-Encoding list that did not decode (docs/FORMATS.md, the cassette's response).
UNDECODED_HEADER = "x-lobstack-undecoded"


def codings(header: str) -> list[str]:
    """The codings a ``Content-Encoding`` value lists (``"gzip, deflate"``; several headers joined
    with commas), lower-cased, in the order they were applied; empty list elements are skipped
    (RFC 9110 section 5.6.1)."""
    return [c.strip().lower() for c in header.split(",") if c.strip()]


def _inflated(raw: bytes, wbits: int) -> Iterator[bytes]:
    """``raw`` inflated a chunk at a time: nothing is inflated beyond what is asked for."""
    view = memoryview(raw)
    taken = 0
    pending: bytes | memoryview = b""  # input given to zlib that it has not used yet
    inflater = zlib.decompressobj(wbits)
    members = 0
    while True:
        if not pending:
            if taken >= len(view):
                break
            pending, taken = view[taken : taken + _STEP], taken + _STEP
        try:
            out = inflater.decompress(pending, CHUNK)
        except zlib.error:
            if members:  # not a gzip member after a whole one: trailing bytes, ignored
                return
            raise
        yield out
        pending = inflater.unconsumed_tail
        if inflater.eof:
            members += 1
            if wbits != _GZIP:  # one deflate stream is the whole body
                return
            pending = inflater.unused_data
            inflater = zlib.decompressobj(wbits)
    yield inflater.flush()  # a body cut off inside a member: what it holds, as urllib3 gives


def _undone(body: bytes, coding: str, header: str, limit: int) -> bytes:
    for wbits in _WBITS[coding]:
        try:
            return read_capped(_inflated(body, wbits), limit)
        except zlib.error:
            continue
    if not _WBITS[coding]:
        return body
    raise UndecodableAnswer(
        f"received an answer with content-encoding: {_shown(header)}, but failed to decode it "
        f"({coding} did not decode)"
    )


def _shown(header: str) -> str:
    text = " ".join(header.split())
    text = text if len(text) <= _SHOWN else text[: _SHOWN - 1] + "…"
    return text if text.isprintable() else repr(text)


def shown_codings(header: str) -> str:
    """A ``Content-Encoding`` value as an error or a header quotes it: one line of printable ASCII,
    at most 40 characters."""
    return _shown(header).encode("ascii", "backslashreplace").decode("ascii")


def undecoded_note(value: str | None) -> str:
    """What an error answer's reason adds when its body was kept undecoded (``value``, its
    ``x-lobstack-undecoded`` header; None: it was decoded)."""
    if value is None:
        return ""
    return f" (its body did not decode as content-encoding: {value}; kept as received)"


def decode_capped(raw: bytes, header: str, limit: int) -> bytes:
    """``raw`` with every coding the ``Content-Encoding`` value ``header`` lists undone, last
    applied first. AnswerTooLarge as soon as a layer's output passes ``limit`` bytes;
    UndecodableAnswer (one line quoting the header) for a coding this does not know or a body that
    does not decode as its coding."""
    listed = codings(header)
    unknown = [c for c in listed if c not in _WBITS]
    if unknown:
        raise UndecodableAnswer(
            f"received an answer with content-encoding: {_shown(header)}, which the recorder "
            "does not decode (it decodes gzip, deflate and identity)"
        )
    body = raw
    for coding in reversed(listed):
        body = _undone(body, coding, header, limit)
    return body
