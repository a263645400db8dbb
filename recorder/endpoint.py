"""Where record sends its requests, and what of that address may be shown or stored.

A base URL may carry credentials (``http://user:KEY@host/v1``). They are taken out of the URL at
once and sent as HTTP Basic auth, as ``requests`` would; the URL that is sent, printed or written
never holds them. What is stored (run.json's ``base_url``, every cassette URI) is also independent
of the port a loopback server happened to get: a local stand-in on another port is the same
endpoint, so re-recording it changes no file but timings.
"""

from __future__ import annotations

import base64
import ipaddress
import os
from dataclasses import dataclass
from urllib.parse import unquote, urlsplit, urlunsplit

from recorder.secrets import public_url as hidden_url
from recorder.secrets import scrub_shapes, scrub_text
from scorer.errors import GatewayError, UsageError

DEFAULT_BASE_URL = "https://www.lobstack.ai/api/gateway/v1"
BASE_URL_ENV = "LOBSTACK_BASE_URL"
API_KEY_ENV = "LOBSTACK_API_KEY"
_DEFAULT_PORTS = {"http": 80, "https": 443}


def is_loopback(url: str) -> bool:
    """True for 127.0.0.0/8, ::1 and localhost."""
    host = urlsplit(url).hostname or ""
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def _netloc(host: str, port: int | None) -> str:
    host = f"[{host}]" if ":" in host else host
    return host if port is None else f"{host}:{port}"


def stored_uri(uri: str) -> str:
    """``uri`` as run.json and cassettes keep it: no userinfo, no default port, and no port at all
    for a loopback host (a local server listens wherever it was started; the URI stays one that
    plain vcrpy can replay).

    Strings that are not http(s) URLs are returned unchanged (a matcher must not fail on a
    corrupt cassette)."""
    try:
        parts = urlsplit(uri)
        port = parts.port
    except ValueError:
        return uri
    if parts.scheme not in _DEFAULT_PORTS or not parts.hostname:
        return uri
    if is_loopback(uri) or port == _DEFAULT_PORTS[parts.scheme]:
        port = None
    return urlunsplit(
        (parts.scheme, _netloc(parts.hostname, port), parts.path, parts.query, parts.fragment)
    )


def same_endpoint(uri_a: str, uri_b: str) -> bool:
    """True when two URIs are the same once stored (a loopback server's port plays no part)."""
    return uri_a == uri_b or stored_uri(uri_a) == stored_uri(uri_b)


@dataclass(frozen=True)
class Endpoint:
    """The gateway to record from: ``url`` has no credentials; ``auth`` and ``api_key`` never leave
    the process except in the request's Authorization header."""

    url: str
    api_key: str | None = None
    auth: tuple[str, str] | None = None

    @property
    def stored(self) -> str:
        """The base URL as run.json keeps it (see ``stored_uri``)."""
        return stored_uri(self.url)

    @property
    def secrets(self) -> tuple[str, ...]:
        """Every credential value, in the forms a gateway might echo them (raw, Basic-encoded)."""
        values = [self.api_key or ""]
        if self.auth:
            user, password = self.auth
            pair = f"{user}:{password}"
            values += [password, user, pair, base64.b64encode(pair.encode("utf-8")).decode("ascii")]
        return tuple(v for v in dict.fromkeys(values) if v)

    def scrub(self, text: str) -> str:
        """``text`` with every credential value removed, in any form a body may carry it: for every
        line printed or written (key shapes are left alone: such a line may quote a
        model's answer)."""
        return scrub_text(text, self.secrets)


def parse_base_url(url: str, api_key: str | None = None) -> Endpoint:
    """An Endpoint from a base URL (credentials in its userinfo are split off); UsageError names a
    bad URL without repeating its credentials."""
    url = url.strip().rstrip("/")
    try:
        parts = urlsplit(url)
        port = parts.port
    except ValueError as exc:
        raise UsageError(f"--base-url: not a valid URL ({scrub_shapes(str(exc))})") from None
    auth = None
    if parts.username is not None or parts.password is not None:
        auth = (unquote(parts.username or ""), unquote(parts.password or ""))
    endpoint = Endpoint(
        urlunsplit(
            (parts.scheme, _netloc(parts.hostname or "", port), parts.path, parts.query, "")
        ),
        api_key,
        auth,
    )
    shown = hidden_url(
        endpoint.url, endpoint.secrets
    )  # a query may hold a key (?key=, ?code=): never shown
    if parts.scheme not in _DEFAULT_PORTS or not parts.hostname:
        raise UsageError(f"--base-url {shown!r} is not an http(s) URL")
    if parts.query or parts.fragment:
        raise UsageError(
            f"--base-url {shown!r}: an API root has no query or fragment (a key goes in "
            f"{API_KEY_ENV}; values hidden here)"
        )
    for path in ("/chat/completions", "/responses", "/messages"):  # every dialect's path
        if endpoint.url.endswith(path):
            raise UsageError(f"--base-url {shown!r} must end before {path} (e.g. .../v1)")
    return endpoint


def locate_endpoint(option: str | None) -> Endpoint:
    """``--base-url``, else env ``LOBSTACK_BASE_URL``, else the real gateway, with the key from env
    ``LOBSTACK_API_KEY`` if set; a bad URL is a UsageError, a missing key is not checked (see
    ``require_key``). The key is taken without surrounding whitespace (a pasted key often has
    some; no key has any), so an empty or blank one is no key at all (decision 101)."""
    endpoint = parse_base_url(option or os.environ.get(BASE_URL_ENV) or DEFAULT_BASE_URL)
    return Endpoint(endpoint.url, os.environ.get(API_KEY_ENV, "").strip() or None, endpoint.auth)


def require_key(endpoint: Endpoint) -> Endpoint:
    """``endpoint``, or GatewayError when a non-loopback URL has neither a key nor userinfo: call it
    before the first request (and only when there is one to send: planning needs no key)."""
    if endpoint.api_key is None and endpoint.auth is None and not is_loopback(endpoint.url):
        raise GatewayError(
            f"{API_KEY_ENV} is not set; it is needed for {endpoint.url} (a loopback URL needs no "
            "key)"
        )
    if endpoint.api_key is not None and any(ord(c) < 32 or ord(c) == 127 for c in endpoint.api_key):
        # requests would refuse the header with an error quoting it, escaped past the scrubber:
        # never show the key.
        raise GatewayError(
            f"{API_KEY_ENV} holds a line break or another control character; a key is one line"
        )
    return endpoint


def resolve_endpoint(option: str | None) -> Endpoint:
    """``locate_endpoint`` checked by ``require_key``: a non-loopback URL without a key (or
    userinfo) is an error before any request."""
    return require_key(locate_endpoint(option))


def resolve_base_url(option: str | None) -> str:
    """The base URL to record from, validated and as given (``record`` splits off any credentials
    itself; show it with ``public_url``)."""
    url = (option or os.environ.get(BASE_URL_ENV) or DEFAULT_BASE_URL).strip().rstrip("/")
    parse_base_url(url)
    return url


def public_url(base_url: str) -> str:
    """``base_url`` without its credentials: what may be printed."""
    endpoint = parse_base_url(base_url)
    return hidden_url(endpoint.url, endpoint.secrets)
