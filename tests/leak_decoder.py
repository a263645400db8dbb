"""An independent key finder for the scrubber's tests: shares no code with ``recorder.secret_*``.

It decodes by brute force with the standard library (``base64``, ``binascii``, ``codecs``,
``html``, ``urllib.parse``), every decoding of every view, nested up to ``depth``, and says whether
any view holds 16 consecutive characters of the key (the whole key when it is shorter). A view is
decoded further only while it still holds 16 printable characters in a row (or a NUL, for UTF-16
and UTF-32): a decoding of noise is noise.
"""

from __future__ import annotations

import base64
import binascii
import codecs
import html
import re
import warnings
from collections.abc import Iterator
from urllib.parse import unquote_to_bytes

PART = 16
_TEXTY = re.compile(rb"[\x20-\x7e\t\r\n]{16}")
_B64_RUN = re.compile(rb"[A-Za-z0-9+/=_\-\s]{20,}")
_HEX_RUN = re.compile(rb"[0-9a-fA-F\s]{32,}")


def _utf(data: bytes) -> Iterator[bytes]:
    if b"\x00" not in data:
        return
    for codec, width in (("utf-16-le", 2), ("utf-16-be", 2), ("utf-32-le", 4), ("utf-32-be", 4)):
        for offset in range(width):
            chunk = data[offset:]
            chunk = chunk[: len(chunk) // width * width]
            yield chunk.decode(codec, "replace").encode("utf-8", "replace")


def _base64(data: bytes) -> Iterator[bytes]:
    for run in _B64_RUN.findall(data):
        for piece in re.split(rb"=+", re.sub(rb"\s+", b"", run)):
            piece = piece.replace(b"-", b"+").replace(b"_", b"/")
            for offset in range(4):
                chunk = piece[offset:]
                chunk = chunk[: len(chunk) // 4 * 4]
                if len(chunk) >= 20:
                    yield base64.b64decode(chunk)


def _hex(data: bytes) -> Iterator[bytes]:
    for run in _HEX_RUN.findall(data):
        digits = re.sub(rb"\s+", b"", run)
        for offset in (0, 1):
            chunk = digits[offset:]
            yield binascii.unhexlify(chunk[: len(chunk) // 2 * 2])


def _text(data: bytes) -> Iterator[bytes]:
    text = data.decode("latin-1")
    yield html.unescape(text).encode("utf-8", "surrogatepass")
    # numeric references as written (html.unescape turns &#0; into U+FFFD, as HTML5 says)
    numeric = re.sub(r"&#(\d+);", lambda m: chr(min(int(m.group(1)), 0x10FFFF)), text)
    numeric = re.sub(
        r"&#[xX]([0-9a-fA-F]+);", lambda m: chr(min(int(m.group(1), 16), 0x10FFFF)), numeric
    )
    yield numeric.encode("utf-8", "surrogatepass")
    yield unquote_to_bytes(data)
    yield binascii.a2b_qp(data)
    json_like = text.replace("\\/", "/").replace('\\"', '"')
    with warnings.catch_warnings():  # "invalid escape sequence": kept as written, as JSON can't
        warnings.simplefilter("ignore", DeprecationWarning)
        unescaped = codecs.decode(json_like.encode("latin-1"), "unicode_escape", "replace")
    yield unescaped.encode("utf-8", "surrogatepass")


def views(data: bytes, depth: int) -> Iterator[bytes]:
    """``data`` and every decoding of it, nested up to ``depth`` decodings."""
    yield data
    if depth == 0:
        return
    seen = {data}
    for child in (*_utf(data), *_base64(data), *_hex(data), *_text(data)):
        if child in seen or not (_TEXTY.search(child) or b"\x00" in child):
            continue
        seen.add(child)
        yield from views(child, depth - 1)


def parts(key: str) -> list[bytes]:
    """Every run of 16 consecutive characters of ``key`` (the key itself when shorter)."""
    raw = key.encode("utf-8")
    size = min(PART, len(raw))
    return [raw[i : i + size] for i in range(len(raw) - size + 1)]


def recoverable(data: bytes | str, key: str, depth: int = 4) -> bool:
    """True when some decoding of ``data``, nested up to ``depth``, holds a long part of ``key``."""
    raw = data.encode("utf-8", "surrogatepass") if isinstance(data, str) else data
    pattern = re.compile(b"|".join(re.escape(p) for p in parts(key)))
    return any(pattern.search(view) for view in views(raw, depth))
