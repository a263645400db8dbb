"""Hostile answers: what proxies, load balancers and odd gateways send, for ``--faults`` kinds and
model suffixes.

- ``latin1``: a 500 whose body is a Latin-1 HTML page (not UTF-8), as a proxy's error page is.
- ``gzipbomb``: a 200 whose gzip body expands to ``BOMB_BYTES`` (a few kB on the wire).
- ``hugebomb``: a 200 whose gzip body expands to ``HUGE_BOMB_BYTES`` of spaces (about 1.5 MB on the
  wire): more than a test's address-space limit, so only a decoder that stops at the cap
  survives it.
- ``hugebomb2``: the same 1.5 GiB sent as two gzip layers (``Content-Encoding: gzip, gzip``, a few
  kB on the wire): the outer layer is small, so only a decoder that caps every layer survives it.
- ``redirect``: a 307 to the same URL with a ``/`` added (the stand-in serves both, so following
  loops forever).
- ``bigheader``: a 200 with 200 headers of 1 kB each (more lines than HTTP clients accept).
- ``twolengths``: a 200 with two Content-Length headers that disagree (a broken proxy; HTTP clients
  refuse it).
- ``badgzip``: a 200 that says ``Content-Encoding: gzip`` over a body that is not gzip (a
  misconfigured proxy).
- ``badgzip500``: a 500 that says ``Content-Encoding: gzip`` over a broken gzip body (a gzip header,
  then bytes that are no deflate data).
- ``echo``: a 401 that echoes the request's headers, ``/`` written ``\\/`` as PHP's ``json_encode``
  writes it.
- ``echoencoded`` / ``echohtml``: a 401 that echoes the ``Authorization`` header in the encodings a
  server may apply (``echo_forms``: base64 of it and of the whole header line, standard and
  URL-safe, padded or not; HTML character references; URL and JSON escapes; and their combinations),
  in a JSON error message or an HTML page.
- ``echomime``: a 401 whose JSON error dumps the request's headers (``Authorization`` first) in
  MIME base64 (RFC 2045: a line break every 76 characters), so a key longer than 35 characters is
  split by a line break.
- ``echoutf16``: a 401 whose JSON error quotes the ``Authorization`` header, the body in UTF-16
  (little-endian, with a byte order mark; ``charset=utf-16``).
- ``surrogatename`` / ``surrogatereasoning``: the model's answer with a lone surrogate (``\\udfff``)
  appended to the first call's name, or a ``"reasoning_content": "\\ud800"`` in its message (valid
  JSON, not encodable as UTF-8).
- ``earlyhints``: the model's answer after a ``103 Early Hints`` informational answer (RFC 8297; a
  client skips it).
- ``upgrade``: the model's answer after an unsolicited ``101 Switching Protocols`` (no request asks
  for one).
- ``bom``: the model's answer with a UTF-8 byte order mark before the JSON.
- ``hugeint``: the model's answer with a 5000-digit integer in an unused field (valid JSON, beyond
  Python's 4300-digit ``int`` limit).
- A status 600-999 (``600``, ``999``) is an error answer with that status, like any 4xx or 5xx kind.
"""

from __future__ import annotations

import base64
import functools
import gzip
import json
import struct
import zlib
from typing import Any
from urllib.parse import quote

HOSTILE_KINDS = (
    "latin1",
    "gzipbomb",
    "hugebomb",
    "hugebomb2",
    "redirect",
    "bigheader",
    "twolengths",
    "badgzip",
    "badgzip500",
    "echo",
    "echoencoded",
    "echohtml",
    "echomime",
    "echoutf16",
    "surrogatename",
    "surrogatereasoning",
    "earlyhints",
    "upgrade",
    "bom",
    "hugeint",
)
MODEL_OUTPUT_KINDS = (
    "surrogatename",
    "surrogatereasoning",
    "earlyhints",
    "upgrade",
    "bom",
    "hugeint",
)  # the model answers, then its answer is bent
BOMB_BYTES = 40 * 1024 * 1024  # beyond the recorder's default cap of 32 MiB
HUGE_BOMB_BYTES = 1536 * 1024 * 1024  # 1.5 GiB: what a 1.5 MB answer may claim to be
_BLOCK = 1024 * 1024
LATIN1_PAGE = (
    "<html><head><title>500 Erreur interne</title></head><body><h1>Erreur interne du serveur</h1>"
    "<p>Le serveur a rencontré une erreur. Réessayez plus tard. © Proxy façade</p></body></html>"
).encode("latin-1")
BROKEN_GZIP = b"\x1f\x8b\x08\x00\x00\x00\x00\x00\x00\xffnot deflate data"
BIG_HEADERS = 200
HUGE_DIGITS = 5000
EARLY_HINTS = b"HTTP/1.1 103 Early Hints\r\nLink: </style.css>; rel=preload; as=style\r\n\r\n"
SWITCHING = b"HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n\r\n"
INFORMATIONAL = {"earlyhints": EARLY_HINTS, "upgrade": SWITCHING}


@functools.lru_cache(maxsize=4)
def bomb(size: int = BOMB_BYTES) -> bytes:
    """``size`` zero bytes, gzipped (about 1/1000 of the size)."""
    return gzip.compress(b"\0" * size, compresslevel=9, mtime=0)


@functools.lru_cache(maxsize=1)
def huge_bomb(size: int = HUGE_BOMB_BYTES) -> bytes:
    """``size`` spaces (a multiple of 1 MiB), gzipped as one member, built in well under a second.

    After a full flush deflate forgets what came before, so every 1 MiB block compresses to the same
    bytes: the block is compressed once and repeated (compressing 1.5 GB would take 10 s)."""
    block = b" " * _BLOCK
    count = size // _BLOCK
    deflate = zlib.compressobj(9, zlib.DEFLATED, -15)
    deflate.compress(b"")
    repeated = deflate.compress(block) + deflate.flush(zlib.Z_FULL_FLUSH)
    crc = 0
    for _ in range(count):
        crc = zlib.crc32(block, crc)
    header = b"\x1f\x8b\x08\x00\x00\x00\x00\x00\x02\xff"  # gzip, deflate, no name, mtime 0
    end = deflate.flush(zlib.Z_FINISH)
    trailer = struct.pack("<II", crc, size & 0xFFFFFFFF)
    return header + repeated * count + end + trailer


@functools.lru_cache(maxsize=1)
def double_bomb() -> bytes:
    """``huge_bomb()`` gzipped once more: its 1.5 MB of repeated blocks take a few kB."""
    return gzip.compress(huge_bomb(), compresslevel=9, mtime=0)


def _b64(text: str) -> list[str]:
    raw = text.encode("utf-8")
    forms = [base64.b64encode(raw).decode("ascii"), base64.urlsafe_b64encode(raw).decode("ascii")]
    return forms + [f.rstrip("=") for f in forms]


def _entities(text: str) -> str:
    """Escaped as an HTML page may: ``+`` as ``&#43;``, ``/`` as ``&#x2F;``, ``=`` as
    ``&equals;``."""
    return text.replace("+", "&#43;").replace("/", "&#x2F;").replace("=", "&equals;")


def echo_forms(value: str) -> list[str]:
    """``value`` (an ``Authorization`` header) as echoing servers write it, one form
    per encoding."""
    line = f"Authorization: {value}"
    encoded = _b64(value) + _b64(line)
    return [
        *encoded,
        _entities(value),
        value.replace("+", "&plus;").replace("/", "&sol;"),
        value.replace("+", "&#X2b;").replace("/", "&#0047"),
        quote(value, safe=""),
        "".join(f"\\u{ord(c):04x}" for c in value),
        *(_entities(e) for e in encoded[:2]),  # base64, then HTML-escaped
        quote(encoded[1], safe=""),  # base64 of the line, URL-encoded
        "".join(f"\\u{ord(c):04X}" if c in "+/" else c for c in encoded[0]),  # then JSON-escaped
        _entities(value).replace("&", "&amp;"),  # HTML-escaped twice
        quote(_entities(value), safe=""),  # an HTML-escaped value, URL-encoded
    ]


def hostile(
    kind: str, path: str, headers: dict[str, str]
) -> tuple[int, tuple[tuple[str, str], ...], bytes]:
    """``(status, headers, body)`` of a hostile answer that replaces the model's (not the
    model-output kinds)."""
    if kind == "latin1":
        return 500, (("Content-Type", "text/html; charset=iso-8859-1"),), LATIN1_PAGE
    if kind == "gzipbomb":
        return 200, (("Content-Type", "application/json"), ("Content-Encoding", "gzip")), bomb()
    if kind == "hugebomb":
        return (
            200,
            (("Content-Type", "application/json"), ("Content-Encoding", "gzip")),
            huge_bomb(),
        )
    if kind == "hugebomb2":
        stacked = ("Content-Encoding", "gzip, gzip")
        return 200, (("Content-Type", "application/json"), stacked), double_bomb()
    if kind == "redirect":
        return 307, (("Location", path + "/"), ("Content-Type", "text/plain")), b"moved"
    if kind == "bigheader":
        extra = tuple((f"X-Padding-{n}", "x" * 1024) for n in range(BIG_HEADERS))
        return 200, (("Content-Type", "application/json"), *extra), b"{}"
    if kind == "twolengths":  # the server adds the true Content-Length after this one
        return 200, (("Content-Type", "application/json"), ("Content-Length", "1")), b"{}"
    if kind == "badgzip":
        return (
            200,
            (("Content-Type", "application/json"), ("Content-Encoding", "gzip")),
            b'{"choices": []}',
        )
    if kind == "badgzip500":
        headers = (("Content-Type", "application/json"), ("Content-Encoding", "gzip"))
        return 500, headers, BROKEN_GZIP
    if kind == "echo":
        text = json.dumps(
            {"error": {"message": "invalid key", "request_headers": headers}}
        ).replace("/", "\\/")
        return 401, (("Content-Type", "application/json"),), text.encode("ascii")
    if kind == "echoencoded":
        forms = echo_forms(headers.get("Authorization", ""))
        text = json.dumps({"error": {"message": "invalid key: " + " ".join(forms)}})
        return 401, (("Content-Type", "application/json"),), text.encode("ascii")
    if kind == "echohtml":
        items = "".join(f"<li>{form}</li>" for form in echo_forms(headers.get("Authorization", "")))
        page = f"<html><body><h1>401 Unauthorized</h1><ul>{items}</ul></body></html>"
        return 401, (("Content-Type", "text/html"),), page.encode("ascii")
    if kind in ("echomime", "echoutf16"):
        return _echo_encoded_body(kind, headers)
    raise ValueError(kind)


def _echo_encoded_body(
    kind: str, headers: dict[str, str]
) -> tuple[int, tuple[tuple[str, str], ...], bytes]:
    auth = headers.get("Authorization", "")
    if kind == "echoutf16":
        text = json.dumps({"error": {"message": f"invalid key: Authorization: {auth}"}})
        utf16 = (("Content-Type", "application/json; charset=utf-16"),)
        return 401, utf16, b"\xff\xfe" + text.encode("utf-16-le")
    lines = [f"Authorization: {auth}"]
    lines += [f"{k}: {v}" for k, v in headers.items() if k.lower() != "authorization"]
    encoded = base64.b64encode("\r\n".join(lines).encode("utf-8")).decode("ascii")
    mime = "\r\n".join(encoded[i : i + 76] for i in range(0, len(encoded), 76))
    text = json.dumps({"error": {"message": "invalid key", "request_dump": mime}})
    return 401, (("Content-Type", "application/json"),), text.encode("ascii")


def bend(kind: str, value: dict[str, Any]) -> bytes:
    """A completion body with a lone surrogate put into the model's output (written with
    JSON escapes)."""
    if kind == "bom":
        return b"\xef\xbb\xbf" + json.dumps(value).encode("ascii")
    if kind == "hugeint":
        return json.dumps(value).encode("ascii")[:-1] + b', "x_trace": ' + b"9" * HUGE_DIGITS + b"}"
    if kind in INFORMATIONAL:
        return json.dumps(value).encode("ascii")
    message = value["choices"][0]["message"]
    if kind == "surrogatename" and message.get("tool_calls"):
        message["tool_calls"][0]["function"]["name"] += "\udfff"
    else:
        message["reasoning_content"] = "\ud800"
    return json.dumps(value).encode(
        "ascii"
    )  # ensure_ascii: the surrogate travels as "\ud800", valid JSON
