"""Keep secrets out of cassettes: drop credential headers and blank any value that looks like a key."""

from __future__ import annotations

import re
from typing import Any

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
SECRET_QUERY_PARAMETERS = ("api_key", "apikey", "key", "token", "access_token")
REDACTED = "<redacted>"
# Known values shorter than this are not searched for: they would match ordinary words of recorded answers.
MIN_SECRET_LENGTH = 8
# Bearer and Basic credentials and common key shapes, wherever they appear.
_KEY_SHAPES = re.compile(r"(?i)((?:bearer|basic)\s+)[A-Za-z0-9._~+/=-]{8,}|\b(sk|lsk|lob)[-_][A-Za-z0-9_-]{12,}")


def _searchable(secrets: tuple[str, ...]) -> list[str]:
    # Longest first, so a value that contains another (``user:key`` and ``key``) is replaced whole.
    return sorted((s for s in secrets if s and len(s) >= MIN_SECRET_LENGTH), key=len, reverse=True)


def scrub_text(text: str, secrets: tuple[str, ...] = ()) -> str:
    """``text`` with every known secret value and every key-shaped token replaced."""
    for secret in _searchable(secrets):
        text = text.replace(secret, REDACTED)
    return _KEY_SHAPES.sub(lambda m: (m.group(1) or "") + REDACTED, text)


def scrub_known(body: Any, secrets: tuple[str, ...]) -> Any:
    """A body with every known secret value replaced (bytes or str; other bodies unchanged)."""
    for secret in _searchable(secrets):
        if isinstance(body, bytes) and secret.encode() in body:
            body = body.replace(secret.encode(), REDACTED.encode())
        elif isinstance(body, str) and secret in body:
            body = body.replace(secret, REDACTED)
    return body


def scrub_headers(headers: dict[str, Any], secrets: tuple[str, ...]) -> dict[str, Any]:
    """Headers without credential headers, values scrubbed (vcrpy keeps values as str or lists of str)."""
    kept: dict[str, Any] = {}
    for name, value in headers.items():
        if name.lower() in SECRET_HEADERS:
            continue
        if isinstance(value, list):
            kept[name] = [scrub_text(v, secrets) if isinstance(v, str) else v for v in value]
        else:
            kept[name] = scrub_text(value, secrets) if isinstance(value, str) else value
    return kept


def scrub_body(body: Any, secrets: tuple[str, ...]) -> Any:
    """A body (bytes or str) with secrets replaced; other bodies unchanged."""
    if isinstance(body, bytes):
        try:
            return scrub_text(body.decode("utf-8"), secrets).encode("utf-8")
        except UnicodeDecodeError:
            return body
    if isinstance(body, str):
        return scrub_text(body, secrets)
    return body
