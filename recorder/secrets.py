"""Keep secrets out of cassettes and printed lines, and change nothing else (decision
``METHOD.md#scrub-secrets-not-text``).

Two tools, each where it is safe:

- The known credential values (the key, a base URL's userinfo) are removed everywhere (bodies,
  reasons, printed lines) in every form a server may write them, found as a search: up to four
  nested layers of escapes are undone (HTML character references, named, decimal or hex, any case;
  JSON ``\\uXXXX`` and ``\\/``; URL ``%XX``), and each layer is searched for the value raw and for
  the base64 characters it alone decides at each of the three offsets it may start at
  (``base64("Bearer KEY")``; standard or URL-safe, padded or not).
- Credential-bearing headers are dropped, and key *shapes* (``Bearer ...``, ``sk-...``) are blanked,
  but only in header values and URLs: in model output those shapes are ordinary text ("Basic
  overview.md"), and rewriting an answer would flip its verdict at rescore.

Then a last gate that fails closed (``recorder.secret_gate``): a text, header value or body that
any decoding still shows to hold a credential, or a long part of one, is replaced whole by a
marker that says why (decision ``METHOD.md#scrub-fails-closed``).
"""

from __future__ import annotations

import base64
import bisect
import functools
import re
from typing import Any
from urllib.parse import parse_qsl, urlencode, urlsplit, urlunsplit

from recorder.secret_gate import gate_body, gate_text
from recorder.secret_search import MIN_SECRET_LENGTH, examine

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
# Bearer and Basic credentials and common key shapes: only for header values and URLs (never for
# model output).
_KEY_SHAPES = re.compile(
    r"(?i)((?:bearer|basic)\s+)[A-Za-z0-9._~+/=-]{8,}|\b(sk|lsk|lob)[-_][A-Za-z0-9_-]{12,}"
)


def _searchable(secrets: tuple[str, ...]) -> list[str]:
    return [s for s in dict.fromkeys(secrets) if s and len(s) >= MIN_SECRET_LENGTH]


_URLSAFE = str.maketrans("+/", "-_")


def _base64_cores(secret: str) -> list[str]:
    """The base64 characters that ``secret``'s bytes alone decide, at each of the three offsets it
    may start at in a longer encoded text (``base64("Bearer KEY")`` starts it at offset 1): found
    inside any base64 of any text holding the secret, standard or URL-safe, padded or not."""
    raw = secret.encode("utf-8", "backslashreplace")
    cores = []
    for offset in range(3):
        encoded = base64.b64encode(b"\0" * offset + raw + b"\0\0").decode("ascii")
        first = -(-8 * offset // 6)  # the first character with no bit of what comes before
        last = 8 * (offset + len(raw)) // 6  # past the last one with no bit of what comes after
        core = encoded[first:last]
        cores += [core, core.translate(_URLSAFE)]
    return cores


def _encodings(secret: str) -> list[str]:
    """The forms a gateway may echo ``secret`` in once its escapes are undone: raw (a space also as
    ``+``), and the base64 of any text holding it."""
    forms = [secret, secret.replace(" ", "+"), *_base64_cores(secret)]
    return [f for f in dict.fromkeys(forms) if len(f) >= MIN_SECRET_LENGTH]


@functools.lru_cache(maxsize=32)
def _forms(secrets: tuple[str, ...]) -> tuple[str, ...]:
    return tuple(dict.fromkeys(f for s in _searchable(secrets) for f in _encodings(s)))


# One escape a server may write a character as: an HTML character reference (hex or decimal, the
# semicolon optional as browsers allow; or named, any case), a JSON escape, or URL percent-encoding.
# Escapes nest (an HTML page quoting a URL-encoded value): each layer of them is undone in turn, up
# to _LAYERS deep.
_ESCAPE = re.compile(
    r"&#[xX]0*([0-9a-fA-F]{1,6});?|&#0*([0-9]{1,7});?|&([A-Za-z][A-Za-z0-9]{1,31});"
    r"|\\u([0-9a-fA-F]{4})|\\([\\/\"])|%([0-9a-fA-F]{2})"
)
_LAYERS = 4


@functools.lru_cache(maxsize=1)
def _entities() -> dict[str, str]:
    from html.entities import html5

    named = {name.lower(): char for name, char in html5.items() if len(char) == 1}
    named.update({name: char for name, char in html5.items() if len(char) == 1})
    return named


def _unescape(match: re.Match[str]) -> str | None:
    hex_ref, decimal, name, json_hex, json_char, percent = match.groups()
    if hex_ref or json_hex:
        code = int(hex_ref or json_hex, 16)
    elif decimal:
        code = int(decimal)
    elif name:
        entities = _entities()
        return entities.get(name + ";") or entities.get((name + ";").lower())
    elif json_char:
        return json_char
    else:
        code = int(percent, 16)
        if code >= 128:  # a byte of a UTF-8 sequence, not a character
            return None
    return chr(code) if code <= 0x10FFFF else None


class _Layer:
    """``text`` with one layer of escapes undone, and the way back from its positions
    to ``text``'s."""

    def __init__(self, text: str) -> None:
        pieces: list[str] = []
        self.at: list[int] = []  # where each undone escape's character is in the result
        self.span: list[tuple[int, int]] = []  # and where the escape was in ``text``
        done = size = 0
        for match in _ESCAPE.finditer(text):
            char = _unescape(match)
            if char is None:
                continue
            pieces.append(text[done : match.start()])
            size += match.start() - done
            self.at.append(size)
            self.span.append(match.span())
            pieces.append(char)
            size += 1
            done = match.end()
        pieces.append(text[done:])
        self.text = "".join(pieces)

    def source(self, start: int, end: int) -> tuple[int, int]:
        """The span of ``text`` that became ``self.text[start:end]``."""
        return self._where(start)[0], self._where(end - 1)[1]

    def _where(self, position: int) -> tuple[int, int]:
        k = bisect.bisect_right(self.at, position) - 1
        if k >= 0 and self.at[k] == position:
            return self.span[k]
        source = position if k < 0 else self.span[k][1] + position - self.at[k] - 1
        return source, source + 1


def _found(text: str, forms: tuple[str, ...]) -> list[tuple[int, int]]:
    spans = []
    for form in forms:
        at = text.find(form)
        while at >= 0:
            spans.append((at, at + len(form)))
            at = text.find(form, at + 1)
    return spans


def secret_spans(text: str, secrets: tuple[str, ...]) -> list[tuple[int, int]]:
    """Where ``text`` holds a known secret value, in any form found once up to four layers of
    escapes are undone: merged, sorted spans of ``text``."""
    forms = _forms(tuple(secrets))
    if not forms or not text:
        return []
    spans = _found(text, forms)
    layers: list[_Layer] = []
    current = text
    while len(layers) < _LAYERS and _ESCAPE.search(current):
        layers.append(_Layer(current))
        if layers[-1].text == current:
            break
        current = layers[-1].text
        for start, end in _found(current, forms):
            for layer in reversed(layers):
                start, end = layer.source(start, end)
            spans.append((start, end))
    merged: list[tuple[int, int]] = []
    for start, end in sorted(spans):
        if merged and start <= merged[-1][1]:
            merged[-1] = (merged[-1][0], max(end, merged[-1][1]))
        else:
            merged.append((start, end))
    return merged


def scrub_text(text: str, secrets: tuple[str, ...] = ()) -> str:
    """``text`` with every known secret value replaced, in any form a body may carry it; nothing
    else changes, unless a decoding still shows a credential: then the marker replaces it whole."""
    return gate_text(_spans_removed(text, secrets), tuple(secrets))


def _spans_removed(text: str, secrets: tuple[str, ...]) -> str:
    spans = secret_spans(text, tuple(secrets))
    if not spans:
        return text
    pieces, done = [], 0
    for start, end in spans:
        pieces += [text[done:start], REDACTED]
        done = end
    pieces.append(text[done:])
    return "".join(pieces)


def scrub_shapes(text: str, secrets: tuple[str, ...] = ()) -> str:
    """``scrub_text`` and every key-shaped token blanked: for header values and URLs only."""
    return _KEY_SHAPES.sub(lambda m: (m.group(1) or "") + REDACTED, scrub_text(text, secrets))


def scrub_known(body: Any, secrets: tuple[str, ...]) -> Any:
    """A body (bytes or str; others unchanged) with every known secret value replaced."""
    return scrub_body(body, secrets)


def scrub_headers(headers: dict[str, Any], secrets: tuple[str, ...]) -> dict[str, Any]:
    """Headers without credential headers, values scrubbed (vcrpy keeps values as str or lists
    of str)."""
    kept: dict[str, Any] = {}
    for name, value in headers.items():
        if name.lower() in SECRET_HEADERS or examine(name, secrets):
            continue
        if isinstance(value, list):
            kept[name] = [scrub_shapes(v, secrets) if isinstance(v, str) else v for v in value]
        else:
            kept[name] = scrub_shapes(value, secrets) if isinstance(value, str) else value
    return kept


def scrub_body(body: Any, secrets: tuple[str, ...]) -> Any:
    """A body with secrets replaced: text as text, bytes as bytes (bytes that are not UTF-8 are
    searched as Latin-1, which maps each byte to one character and back, so they come back byte
    for byte but the key); then gated: a body a decoding still shows a credential in loses the
    strings that hold it, or is replaced whole (``recorder.secret_gate``)."""
    secrets = tuple(secrets)
    if isinstance(body, str):
        text = _spans_removed(body, secrets)
        raw = text.encode("utf-8", "surrogatepass")
        gated = gate_body(raw, secrets)
        return text if gated is raw else gated.decode("utf-8", "surrogatepass")
    if not isinstance(body, bytes) or not _forms(secrets):
        return body
    try:
        raw = _spans_removed(body.decode("utf-8"), secrets).encode("utf-8", "backslashreplace")
    except UnicodeDecodeError:
        raw = _spans_removed(body.decode("latin-1"), secrets).encode("latin-1")
    return gate_body(raw, secrets)


def public_url(url: str, secrets: tuple[str, ...] = ()) -> str:
    """``url`` as it may be shown: no userinfo, every query value and the fragment hidden, known
    secrets and key shapes blanked (a Google-style ``?key=``, Azure's ``?code=``)."""
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
