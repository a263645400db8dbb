"""Keep secrets out of cassettes and printed lines, and change nothing else (decision
``METHOD.md#scrub-secrets-not-text``).

Two tools, each where it is safe:

- The known credential values (the key, a base URL's userinfo) are removed everywhere (bodies, reasons, printed
  lines) in every form a body may carry them: raw, JSON-escaped (``\\/``, ``\\uXXXX``), URL-encoded (``%XX``), and
  base64 (alone, and as the ``user:password`` of HTTP Basic), and any mix of those escapes.
- Credential-bearing headers are dropped, and key *shapes* (``Bearer ...``, ``sk-...``) are blanked, but only in
  header values and URLs: in model output those shapes are ordinary text ("Basic overview.md"), and rewriting an
  answer would flip its verdict at rescore.
"""

from __future__ import annotations

import base64
import functools
import re
from typing import Any
from urllib.parse import parse_qsl, urlencode, urlsplit, urlunsplit

SECRET_HEADERS = frozenset(
    {
        "authorization",
        "proxy-authorization",
        "x-api-key",
        "api-key",
        "x-lobstack-api-key",
        "openai-organization",
        "openai-project",
        "cookie",
        "set-cookie",
    }
)
SECRET_QUERY_PARAMETERS = (
    "api_key",
    "apikey",
    "key",
    "token",
    "access_token",
    "code",
    "api-key",
    "sig",
)
REDACTED = "<redacted>"
# Known values shorter than this are not searched for: they would match ordinary words of recorded answers.
MIN_SECRET_LENGTH = 8
# Bearer and Basic credentials and common key shapes: only for header values and URLs (never for model output).
_KEY_SHAPES = re.compile(
    r"(?i)((?:bearer|basic)\s+)[A-Za-z0-9._~+/=-]{8,}|\b(sk|lsk|lob)[-_][A-Za-z0-9_-]{12,}"
)


def _searchable(secrets: tuple[str, ...]) -> list[str]:
    return [s for s in dict.fromkeys(secrets) if s and len(s) >= MIN_SECRET_LENGTH]


def _encodings(secret: str) -> list[str]:
    """The forms a gateway may echo ``secret`` in, before escapes: raw, and base64 of it (standard and URL-safe,
    with and without padding), and of ``:secret`` and ``secret:`` (HTTP Basic with an empty user or password)."""
    forms = [secret]
    for text in (secret, f":{secret}", f"{secret}:"):
        raw = text.encode("utf-8", "backslashreplace")
        for encoded in (
            base64.b64encode(raw).decode("ascii"),
            base64.urlsafe_b64encode(raw).decode("ascii"),
        ):
            forms += [encoded, encoded.rstrip("=")]
    return [f for f in dict.fromkeys(forms) if len(f) >= MIN_SECRET_LENGTH]


def _hex(value: int, width: int) -> str:
    return "".join(f"[{d}{d.upper()}]" if d.isalpha() else d for d in f"{value:0{width}x}")


def _char(c: str) -> str:
    """A regex for one character of a secret as it may appear: itself, ``\\uXXXX``, ``%XX`` (or ``\\/``)."""
    options = [re.escape(c), r"\\u" + _hex(ord(c), 4)]
    if ord(c) < 128:
        options.append("%" + _hex(ord(c), 2))
    if c == "/":
        options.append(r"\\/")
    if c == " ":
        options.append(r"\+")
    return "(?:" + "|".join(options) + ")"


# An escape that may stand for an ASCII character of a secret: only a text holding one needs the slow pattern.
_ASCII_ESCAPE = re.compile(r"\\u00[0-7][0-9a-fA-F]|\\/|%[0-7][0-9a-fA-F]")
_ANY_ESCAPE = re.compile(r"\\u[0-9a-fA-F]{4}|\\/|%[0-9a-fA-F]{2}")


@functools.lru_cache(maxsize=32)
def _forms(secrets: tuple[str, ...]) -> tuple[str, ...]:
    # Longest first, so a value that contains another (``user:key`` and ``key``) is replaced whole.
    return tuple(
        sorted({f for s in _searchable(secrets) for f in _encodings(s)}, key=len, reverse=True)
    )


@functools.lru_cache(maxsize=32)
def _pattern(secrets: tuple[str, ...]) -> re.Pattern[str] | None:
    forms = _forms(secrets)
    return (
        re.compile("|".join("".join(_char(c) for c in form) for form in forms)) if forms else None
    )


def scrub_text(text: str, secrets: tuple[str, ...] = ()) -> str:
    """``text`` with every known secret value replaced, in any form a body may carry it; nothing else changes."""
    secrets = tuple(secrets)
    pattern = _pattern(secrets)
    if pattern is None or not text:
        return text
    forms = _forms(secrets)
    for form in forms:  # the raw forms: plain replacement, fast on any size
        if form in text:
            text = text.replace(form, REDACTED)
    escape = _ASCII_ESCAPE if all(c.isascii() for form in forms for c in form) else _ANY_ESCAPE
    return pattern.sub(REDACTED, text) if escape.search(text) else text


def scrub_shapes(text: str, secrets: tuple[str, ...] = ()) -> str:
    """``scrub_text`` and every key-shaped token blanked: for header values and URLs only."""
    return _KEY_SHAPES.sub(lambda m: (m.group(1) or "") + REDACTED, scrub_text(text, secrets))


def scrub_known(body: Any, secrets: tuple[str, ...]) -> Any:
    """A body (bytes or str; others unchanged) with every known secret value replaced."""
    return scrub_body(body, secrets)


def scrub_headers(headers: dict[str, Any], secrets: tuple[str, ...]) -> dict[str, Any]:
    """Headers without credential headers, values scrubbed (vcrpy keeps values as str or lists of str)."""
    kept: dict[str, Any] = {}
    for name, value in headers.items():
        if name.lower() in SECRET_HEADERS:
            continue
        if isinstance(value, list):
            kept[name] = [scrub_shapes(v, secrets) if isinstance(v, str) else v for v in value]
        else:
            kept[name] = scrub_shapes(value, secrets) if isinstance(value, str) else value
    return kept


def scrub_body(body: Any, secrets: tuple[str, ...]) -> Any:
    """A body with secrets replaced: text as text, bytes as bytes (bytes that are not UTF-8 are searched as
    Latin-1, which maps each byte to one character and back, so they come back byte for byte but the key)."""
    if isinstance(body, str):
        return scrub_text(body, secrets)
    if not isinstance(body, bytes) or _pattern(tuple(secrets)) is None:
        return body
    try:
        return scrub_text(body.decode("utf-8"), secrets).encode("utf-8", "backslashreplace")
    except UnicodeDecodeError:
        return scrub_text(body.decode("latin-1"), secrets).encode("latin-1")


def public_url(url: str, secrets: tuple[str, ...] = ()) -> str:
    """``url`` as it may be shown: no userinfo, every query value and the fragment hidden, known secrets and key
    shapes blanked (a Google-style ``?key=``, Azure's ``?code=``)."""
    try:
        parts = urlsplit(url)
        netloc = parts.hostname or ""
        if ":" in netloc:
            netloc = f"[{netloc}]"
        if parts.port is not None:
            netloc += f":{parts.port}"
    except ValueError:
        return scrub_shapes(re.sub(r"//[^/@]*@", "//", url).split("?", 1)[0], secrets)
    query = urlencode(
        [(name, REDACTED) for name, _ in parse_qsl(parts.query, keep_blank_values=True)], safe="<>"
    )
    if parts.query and not query:
        query = REDACTED
    fragment = REDACTED if parts.fragment else ""
    return scrub_shapes(urlunsplit((parts.scheme, netloc, parts.path, query, fragment)), secrets)
