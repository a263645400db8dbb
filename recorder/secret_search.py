"""Does any decoding of a recorded text reveal a credential? The fail-closed search behind the
scrubber (decision ``METHOD.md#scrub-fails-closed``).

The search walks views of the bytes, breadth first: the bytes themselves, then what each decoding
makes of a view, nested up to ``MAX_DEPTH`` decodings:

- ``escapes``: every escape undone at once: HTML character references (named, decimal, hex),
  JSON ``\\uXXXX`` and ``\\n``-style escapes, ``\\xXX``, URL ``%XX`` and quoted-printable ``=XX``
  and soft line breaks (escapes of several kinds mixed or nested take one layer each);
- ``base64``: every run of base64 characters (standard and URL-safe mixed, line breaks inside
  ignored, padded or not; a space ends a run) decoded at each of its 4 character offsets;
- ``hex``: every run of hex digits (either case, line breaks ignored) decoded at both offsets;
- ``UTF-16`` / ``UTF-32``: every run of ASCII characters written in UTF-16 or UTF-32 (either byte
  order, at any offset, with or without a byte order mark) read as text.

A view holds a credential when it holds the whole value or a long part of it: ``LONG_PART`` (16)
consecutive characters, or the whole value when shorter. Each decoded view keeps only its runs at
least that long of printable ASCII and NUL (so ASCII in UTF-16/32 too) and of the credentials'
other bytes (their characters beyond ASCII in UTF-8: a password in any script), so decoded noise (a
wrong base64 offset, binary data) ends the walk at once, and ordinary answers cost a few passes.

It fails closed: a view still decodable at ``MAX_DEPTH`` decodings, or a walk that would examine
more than ``BUDGET_FACTOR`` times the input plus ``BUDGET_FLOOR`` bytes, is reported as suspect.
"""

from __future__ import annotations

import binascii
import functools
import re
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass

MIN_SECRET_LENGTH = 8  # shorter values are not searched: they would match ordinary words
LONG_PART = 16  # consecutive characters of a credential that count as a leak of it
MAX_DEPTH = 4  # nested decodings examined; one more that would apply makes the text suspect
BUDGET_FACTOR = 8
BUDGET_FLOOR = 1 << 20
TOO_DEEP = "encoded too deeply to be checked for a credential"
TOO_COSTLY = "too costly to check for a credential"
_SEPARATOR = b"\xff\xff"  # between kept runs: in no alphabet, so no run spans two


@dataclass(frozen=True)
class Finding:
    """Why a text may not be kept: the decodings (outermost first) of the view that held a
    credential (``whole``: all of it, else a long part), or, when ``suspect`` is set, why the
    text could not be examined in full."""

    chain: tuple[str, ...]
    whole: bool = False
    suspect: str = ""

    @property
    def marker(self) -> str:
        """What replaces the text: ``[removed: held a credential in base64]``."""
        if self.suspect:
            return f"[removed: {self.suspect}]"
        what = "a credential" if self.whole else "part of a credential"
        where = " in ".join(reversed(self.chain)) or "clear text"
        return f"[removed: held {what} in {where}]"


@dataclass(frozen=True)
class _Needle:
    value: bytes
    part: int
    anchors: tuple[tuple[int, bytes], ...]  # (offset in value, bytes): one in every long part


def _needle(secret: str) -> _Needle:
    value = secret.encode("utf-8", "surrogatepass")
    part = min(len(value), LONG_PART)
    # Every run of ``part`` bytes of the value holds one anchor whole: anchors of ``size`` bytes
    # every ``step`` bytes, so each candidate costs one bytes.find.
    size = min(8, part)
    step = part - size + 1
    anchors = tuple((i, value[i : i + size]) for i in range(0, len(value) - size + 1, step))
    return _Needle(value, part, anchors)


@functools.lru_cache(maxsize=32)
def _needles(secrets: tuple[str, ...]) -> tuple[_Needle, ...]:
    kept = [s for s in dict.fromkeys(secrets) if s and len(s) >= MIN_SECRET_LENGTH]
    return tuple(_needle(s) for s in kept)


def _longest(data: bytes, needle: _Needle) -> int:
    """The longest match of part of ``needle`` in ``data`` that is at least ``part`` long, or 0."""
    value, best = needle.value, 0
    for offset, anchor in needle.anchors:
        at = data.find(anchor)
        while at >= 0:
            left = 0
            while left < offset and left < at and data[at - left - 1] == value[offset - left - 1]:
                left += 1
            end, rest, right = at + len(anchor), offset + len(anchor), 0
            while rest + right < len(value) and end + right < len(data):
                if data[end + right] != value[rest + right]:
                    break
                right += 1
            length = left + len(anchor) + right
            if length == len(value):
                return length
            if length >= needle.part:
                best = max(best, length)
            at = data.find(anchor, at + 1)
    return best


def _table(alphabet: bytes) -> bytes:
    """A ``bytes.translate`` table: ``a`` for each byte of ``alphabet``, a space for the rest."""
    return bytes(ord("a") if byte in alphabet else ord(" ") for byte in range(256))


_TEXT = b"\x00\t\n\r" + bytes(range(0x20, 0x7F))
_TEXTUAL = _table(_TEXT)
# Line breaks inside (MIME wraps its lines at 76), but no spaces: words of prose are short runs.
_BASE64 = _table(b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/-_\r\n")
_HEX = _table(b"0123456789abcdefABCDEF\r\n")
_ASCII = _table(bytes(range(0x80)))


def _long_runs(data: bytes, table: bytes, least: int) -> list[bytes]:
    """The runs of at least ``least`` bytes of ``table``'s alphabet in ``data``: found with
    ``bytes.find`` on a translated copy, linear and at C speed (a regular expression takes a
    step per byte, in Python's engine)."""
    marks = data.translate(table)
    probe = b"a" * least
    runs = []
    at = marks.find(probe)
    while at >= 0:  # ``at`` is where a run starts: what came before was a shorter run
        end = marks.find(b" ", at)
        end = len(marks) if end < 0 else end
        runs.append(data[at:end])
        at = marks.find(probe, end)
    return runs


def _textual(needles: tuple[_Needle, ...]) -> bytes:
    """The table of what a decoded view keeps: printable ASCII and NUL, and every other byte of
    the credentials (UTF-8). Without those, a password such as ``p\u00e4sswort1234`` lost its
    ``\u00e4`` in every decoded view and was found in none (a leak, in hex or wrapped base64); a
    few bytes more in the alphabet leave noise as short as before."""
    own = {byte for needle in needles for byte in needle.value}.difference(_TEXT)
    return _table(_TEXT + bytes(sorted(own))) if own else _TEXTUAL


def _kept(pieces: list[bytes], part: int, textual: bytes = _TEXTUAL) -> bytes:
    """The text-like runs of at least ``part`` bytes in ``pieces`` (``textual``'s alphabet:
    printable ASCII and NUL, so ASCII in UTF-16 or UTF-32 too, raw or half escaped, and the
    credentials' own bytes), each with a few characters besides NUL: all a later view needs."""
    runs = _long_runs(_SEPARATOR.join(pieces), textual, part)
    return _SEPARATOR.join(r for r in runs if len(r) - r.count(0) >= part // 4)


_ESCAPE = re.compile(
    rb"&#[xX]0*([0-9a-fA-F]{1,6});?|&#0*([0-9]{1,7});?|&([A-Za-z][A-Za-z0-9]{1,31});"
    rb"|\\u([0-9a-fA-F]{4})|\\x([0-9a-fA-F]{2})|\\([\\/\"'bfnrt])|%([0-9a-fA-F]{2})"
    rb"|=([0-9a-fA-F]{2})|=\r?\n"
)
_JSON_CHARS = {b"b": b"\b", b"f": b"\f", b"n": b"\n", b"r": b"\r", b"t": b"\t"}


@functools.lru_cache(maxsize=1)
def _entities() -> dict[bytes, bytes]:
    from html.entities import html5

    named = {n.lower(): c for n, c in html5.items() if n.endswith(";")}
    named.update({n: c for n, c in html5.items() if n.endswith(";")})
    return {n.encode("ascii"): c.encode("utf-8") for n, c in named.items()}


def _char(code: int) -> bytes:
    return chr(code).encode("utf-8", "surrogatepass") if code <= 0x10FFFF else b""


def _unescape(match: re.Match[bytes]) -> bytes:
    hex_ref, decimal, name, json_hex, x_hex, json_char, percent, quoted = match.groups()
    if hex_ref or json_hex:
        return _char(int(hex_ref or json_hex, 16))
    if decimal:
        return _char(int(decimal))
    if name:
        entities = _entities()
        return entities.get(name + b";") or entities.get(name.lower() + b";") or match.group(0)
    if json_char:
        return _JSON_CHARS.get(json_char, json_char)
    if x_hex or percent or quoted:
        return bytes([int(x_hex or percent or quoted, 16)])
    return b""  # a quoted-printable soft line break


def _escapes(data: bytes, part: int, textual: bytes = _TEXTUAL) -> bytes:
    if not _ESCAPE.search(data):
        return b""
    undone = _ESCAPE.sub(_unescape, data)
    # Only unknown names (``&foo;`` stays as written): nothing to decode, not a layer more. It
    # was one, so "Tom&Jerry;" in an answer read as nested too deeply and was removed.
    return b"" if undone == data else _kept([undone], part, textual)


_URLSAFE = bytes.maketrans(b"-_", b"+/")
_BREAKS = b"\r\n"


def _offsets(stream: bytes, quantum: int, decode: Callable[[bytes], bytes]) -> list[bytes]:
    """``stream`` decoded from each of its first ``quantum`` offsets. The runs of a view are joined
    into one stream: a run that starts at any offset in it is read aligned from one of them (a
    junction decodes to noise, or, after a run of whole quanta, goes on into the next run), so
    there is no call per run."""
    decoded = []
    for offset in range(quantum):
        chunk = stream[offset:]
        decoded.append(decode(chunk[: len(chunk) // quantum * quantum]))
    return decoded


def _base64(data: bytes, part: int, textual: bytes = _TEXTUAL) -> bytes:
    runs = _long_runs(data, _BASE64, -(-4 * part // 3))
    if not runs:
        return b""
    stream = b"".join(runs).translate(_URLSAFE, _BREAKS) + b"A" * 3  # the last run's tail too
    return _kept(_offsets(stream, 4, binascii.a2b_base64), part, textual)


def _hex(data: bytes, part: int, textual: bytes = _TEXTUAL) -> bytes:
    runs = _long_runs(data, _HEX, 2 * part)
    if not runs:
        return b""
    stream = b"".join(runs).translate(None, _BREAKS)
    return _kept(_offsets(stream, 2, binascii.unhexlify), part, textual)


def _wide(unit: int) -> Callable[[bytes, int, bytes], bytes]:
    zeros = b"\x00" * (unit - 1)

    def read(data: bytes, part: int, textual: bytes = _TEXTUAL) -> bytes:
        # ASCII text only (METHOD.md): ``textual`` is taken for the decodings' one signature
        if zeros not in data:
            return b""
        low = rb"(?:[\x00-\x7f]%s){%d,}" % (re.escape(zeros), part)
        high = rb"(?:%s[\x00-\x7f]){%d,}" % (re.escape(zeros), part)
        runs = []
        # only where ``unit * part`` bytes in a row are ASCII or NUL: never in noise
        for region in _long_runs(data, _ASCII, unit * part):
            runs += [m.group(0)[0::unit] for m in re.finditer(low, region)]
            runs += [m.group(0)[unit - 1 :: unit] for m in re.finditer(high, region)]
        return _SEPARATOR.join(run for run in runs if run.strip(b"\x00"))

    return read


_DECODINGS: tuple[tuple[str, Callable[[bytes, int, bytes], bytes]], ...] = (
    ("escapes", _escapes),
    ("base64", _base64),
    ("hex", _hex),
    ("UTF-16", _wide(2)),
    ("UTF-32", _wide(4)),
)


def examine(text: str | bytes, secrets: tuple[str, ...]) -> Finding | None:
    """Why ``text`` may not be kept (a decoding of it holds a credential, or it could not be
    examined in full), or ``None`` when it is clean."""
    needles = _needles(tuple(secrets))
    if not needles or not text:
        return None
    data = text.encode("utf-8", "surrogatepass") if isinstance(text, str) else text
    part = min(n.part for n in needles)
    textual = _textual(needles)
    budget = BUDGET_FACTOR * len(data) + BUDGET_FLOOR
    queue: deque[tuple[bytes, tuple[str, ...]]] = deque([(data, ())])
    while queue:
        view, chain = queue.popleft()
        budget -= len(view)
        if budget < 0:
            return Finding(chain, suspect=TOO_COSTLY)
        for needle in needles:
            length = _longest(view, needle)
            if length:
                return Finding(chain, whole=length == len(needle.value))
        for name, decode in _DECODINGS:
            decoded = decode(view, part, textual)
            if not decoded:
                continue
            if len(chain) == MAX_DEPTH:
                return Finding((*chain, name), suspect=TOO_DEEP)
            queue.append((decoded, (*chain, name)))
    return None
