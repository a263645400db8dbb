"""Which transport failures mean that no gateway answered at all: the connection itself could not
be opened (connection refused, a host name that does not resolve, no route to the host).

A live gateway that is slow or busy gives something else (a timeout, a 5xx, a connection closed
mid-answer), so only these failures may tell ``record`` that the base URL is wrong or the gateway
is not running (decision ``recording.md#stop-when-unreachable``).
"""

from __future__ import annotations

import socket
from urllib.parse import urlsplit


def _chain(exc: BaseException) -> list[BaseException]:
    """``exc`` and what it wraps: its cause and context, and a ``MaxRetryError``'s ``reason``
    (which ``requests`` wraps as its ``ConnectionError``'s first argument)."""
    seen: list[BaseException] = []
    todo: list[object] = [exc]
    while todo and len(seen) < 20:
        item = todo.pop(0)
        if not isinstance(item, BaseException) or any(item is s for s in seen):
            continue
        seen.append(item)
        todo += [item.__cause__, item.__context__, getattr(item, "reason", None), *item.args[:1]]
    return seen


def no_connection_cause(exc: BaseException) -> str | None:
    """Why no connection could be opened (``connection refused``, ``the host name did not resolve
    (...)``), when ``exc`` (raised by ``requests``) is such a failure; else None."""
    from urllib3.exceptions import NewConnectionError

    chain = _chain(exc)
    if not any(isinstance(e, NewConnectionError) for e in chain):
        return None  # connected, then failed: the gateway is there (or a proxy is)
    for error in chain:
        if isinstance(error, socket.gaierror):
            return f"the host name did not resolve ({error.strerror or error})"
        if isinstance(error, OSError) and error.strerror:  # the socket's own error, not a wrapper
            return error.strerror[:1].lower() + error.strerror[1:]
    # urllib3 >= 2 names a failed lookup by its class; older ones only by the message
    if any(type(e).__name__ == "NameResolutionError" for e in chain):
        return "the host name did not resolve"
    return "the connection could not be opened"


def no_connection_text(url: str, cause: str) -> str:
    """The reason of an attempt that could not connect: where to, and why (no credentials: the
    URL sent never holds them)."""
    parts = urlsplit(url)
    try:
        port = parts.port or {"http": 80, "https": 443}.get(parts.scheme)
    except ValueError:
        port = None
    host = parts.hostname or url
    host = f"[{host}]" if ":" in host else host
    where = host if port is None else f"{host}:{port}"
    return f"could not connect to {where}: {cause}"
