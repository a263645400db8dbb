"""Reading a file, a missing or unreadable or corrupt one turned into a one-line ``error``."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import orjson

from scorer import strict_json
from scorer.errors import CassetteError


def read_bytes(path: Path, what: str, error: type[Exception] = CassetteError) -> bytes:
    """Read a file, turning a missing or unreadable file into a one-line ``error``."""
    try:
        return path.read_bytes()
    except FileNotFoundError:
        raise error(f"{path}: no such {what}") from None
    except IsADirectoryError:
        raise error(f"{path}: is a directory, expected a {what}") from None
    except OSError as exc:
        raise error(f"{path}: cannot read the {what}: {exc.strerror}") from None


def read_json(path: Path, what: str, error: type[Exception] = CassetteError) -> Any:
    """Parse a JSON file strictly (``strict_json.loads_file``); a corrupt one is a one-line
    ``error`` naming the file and position."""
    raw = read_bytes(path, what, error)
    fast = parsed_fast(raw)
    if fast is not None:
        return fast[0]
    return strict_json.loads_file_or_error(raw, f"{path}: the {what} is", error)


# Every ASCII digit made "0", every other byte kept: a run of 19 zeros is a run of 19 digits.
_DIGITS = bytes.maketrans(b"123456789", b"0" * 9)
_LONG_DIGITS = b"0" * 19


def parsed_fast(raw: bytes) -> tuple[Any] | None:
    """``(value,)``: what ``strict_json.loads_file`` gives for ``raw``, parsed by orjson (0.16 ms
    for a 93 kB results.json, the strict decoder with its number hooks 0.57 ms), when that is
    provably the same value; None when it may not be: the caller then parses strictly, which also
    words every error.

    orjson refuses every text the strict parse refuses (NaN, Infinity, a number beyond a double,
    invalid UTF-8, a byte order mark, nesting past 1024 levels) and some it reads (an escaped lone
    surrogate): None for all of them. Where both read a text they give the same value (the same
    correctly rounded doubles, the last of duplicate keys, the same strings) but for an integer
    beyond 64 bits, which orjson reads as a float: no such integer is written without 19 digits in
    a row, and a text holding 19 digits in a row (in a number or a string) is left to the strict
    parse. The nesting bound is checked as ``loads_file`` checks it."""
    if raw.translate(_DIGITS).find(_LONG_DIGITS) >= 0:
        return None
    return orjson_within_depth(raw)


def orjson_within_depth(raw: bytes) -> tuple[Any] | None:
    """``(value,)``: ``raw`` parsed by orjson, when it parses and nests no deeper than
    ``strict_json.FILE_MAX_DEPTH`` (checked as ``loads_file`` checks it, only when the text has
    enough brackets to break it); else None. Integers beyond 64 bits are the caller's to rule
    out."""
    try:
        value = orjson.loads(raw)
    except orjson.JSONDecodeError:
        return None
    limit = strict_json.FILE_MAX_DEPTH
    if raw.count(b"{") + raw.count(b"[") > limit and strict_json.deeper_than(value, limit):
        return None
    return (value,)
