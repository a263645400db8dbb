"""An answer's body as a cassette keeps it: decoded (``Content-Encoding``) under a size cap, and
kept losslessly when it is not UTF-8 (decisions ``METHOD.md#answer-size-cap`` and
``METHOD.md#non-utf8-answers``).

vcrpy's own decoding (``decode_compressed_response``) inflates a body whole in one call: a 1.5 MB
gzip body can become 1.5 GB. Here it is inflated a chunk at a time and given up as soon as it passes
the cap. A body that is not UTF-8 (a proxy's Latin-1 error page) cannot go into vcrpy's JSON
cassette as it is: ``string`` holds it decoded with U+FFFD for each bad byte (what plain vcrpy
replays; readable in a review) and ``bytes_base64`` the exact bytes, which replay serves, so the
answer is judged as what it is at record and at rescore alike.
"""

from __future__ import annotations

import base64
import zlib
from collections.abc import Callable
from typing import Any

from recorder.transport import AnswerTooLarge

BYTES_KEY = "bytes_base64"
_CHUNK = 64 * 1024
# zlib window bits: gzip, zlib (deflate as RFC 9110 means it), raw deflate (what some servers send
# as deflate)
_WBITS = {"gzip": (31,), "x-gzip": (31,), "deflate": (15, -15)}


def _inflate(raw: bytes, wbits: int, limit: int) -> bytes:
    inflater = zlib.decompressobj(wbits)
    out: list[bytes] = []
    size = 0
    data = raw
    while data:
        chunk = inflater.decompress(data, _CHUNK)
        size += len(chunk)
        if size > limit:
            raise AnswerTooLarge(limit)
        out.append(chunk)
        data = inflater.unconsumed_tail
        if inflater.eof:
            break
    tail = inflater.flush()
    if size + len(tail) > limit:
        raise AnswerTooLarge(limit)
    return b"".join(out) + tail


def decode_capped(raw: bytes, encoding: str, limit: int) -> bytes | None:
    """``raw`` decoded from ``encoding`` (gzip or deflate), or None for an encoding this does not
    know or a body that does not decode (kept as received); AnswerTooLarge as soon as the output
    passes ``limit`` bytes."""
    for wbits in _WBITS.get(encoding.strip().lower(), ()):
        try:
            return _inflate(raw, wbits, limit)
        except zlib.error:
            continue
    return None


def _header(headers: dict[str, Any], name: str) -> tuple[str | None, list[str]]:
    for key, value in headers.items():
        if key.lower() == name:
            return key, list(value) if isinstance(value, list) else [value]
    return None, []


def capped_response(
    response: dict[str, Any], limit: int, scrub: Callable[[bytes], bytes] = lambda raw: raw
) -> dict[str, Any]:
    """vcrpy's response dict with its body decoded under ``limit`` (the ``Content-Encoding`` header
    then dropped and ``content-length`` set, as vcrpy's own decoding does), passed through
    ``scrub``, and stored losslessly if it is not UTF-8."""
    body = response.get("body") or {}
    raw = body.get("string")
    if isinstance(raw, str):
        raw = raw.encode("utf-8", "backslashreplace")
    if not isinstance(raw, bytes):
        return response
    if len(raw) > limit:
        raise AnswerTooLarge(limit)
    headers = dict(response.get("headers") or {})
    name, encodings = _header(headers, "content-encoding")
    if name is not None and len(encodings) == 1 and "," not in encodings[0]:
        decoded = decode_capped(raw, encodings[0], limit)
        if decoded is not None:
            raw = decoded
            del headers[name]
            length_name, _ = _header(headers, "content-length")
            headers.pop(length_name or "", None)
            headers["content-length"] = [str(len(raw))]
    response["headers"] = headers
    raw = scrub(raw)
    try:
        body["string"] = raw.decode("utf-8")
    except UnicodeDecodeError:
        body["string"] = raw.decode("utf-8", "replace")
        body[BYTES_KEY] = base64.b64encode(raw).decode("ascii")
    response["body"] = body
    return response


def recorded_bytes(body: dict[str, Any]) -> bytes:
    """The exact bytes of a recorded response body (``bytes_base64`` when the body was
    not UTF-8)."""
    encoded = body.get(BYTES_KEY)
    if isinstance(encoded, str):
        return base64.b64decode(encoded, validate=True)
    return str(body["string"]).encode("utf-8", "backslashreplace")
