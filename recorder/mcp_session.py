"""One session with a live MCP server, through the official ``mcp`` SDK (an optional extra:
``lobstack-eval[mcp]``): ``initialize``, every page of ``tools/list``, and each ``--chain`` call.

Works with both SDK majors (1.x and 2.x; tested with 1.30.0 and 2.3.0): what differs between them
(the JSON-RPC parser, the HTTP client's name, a page's cursor attribute) is read from the SDK at
run time, and every answer is read through ``model_dump(by_alias=True)``, whose keys the protocol
fixes. A stdio server is started by ``recorder/mcp_stdio.py`` (its own process group, a bounded
stderr tail); an ``http(s)://`` server gets the ``--header`` lines on each request.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from recorder.mcp_stdio import Owned, owned_stdio
from scorer.errors import SuiteError
from scorer.schema.budget import listing_problems
from scorer.suite.draft.new import ListedTool, TakenResult, required_reference

Chain = tuple[str, dict[str, Any] | None]
EXTRA_HINT = (
    "--mcp needs the MCP SDK, an optional extra: install lobstack-eval[mcp] "
    "(pip install 'lobstack-eval[mcp]', or uv add mcp)"
)


@dataclass(frozen=True)
class Server:
    """How to reach the server: a URL, or a command line (argv) started with ``env``."""

    target: str
    argv: tuple[str, ...] = ()
    env: Mapping[str, str] = field(default_factory=dict)
    headers: Mapping[str, str] = field(default_factory=dict)
    keep_errors: bool = False


def require_sdk() -> None:
    """SuiteError with the extra's name when the ``mcp`` SDK is not installed."""
    try:
        import mcp  # noqa: F401
    except ImportError:
        raise SuiteError(EXTRA_HINT) from None


async def session_listing(
    server: Server, timeout: float, chains: Sequence[Chain], owned: Owned
) -> tuple[dict[str, str], list[dict[str, Any]], list[TakenResult]]:
    """The server's name and version, its tools as listed, and each chain's result."""
    import anyio
    from mcp import ClientSession

    with anyio.fail_after(timeout):
        async with (
            _transport(server, owned) as streams,
            ClientSession(streams[0], streams[1]) as session,
        ):
            init = await session.initialize()
            info = init.model_dump(by_alias=True, mode="json", exclude_none=True)
            listed: list[dict[str, Any]] = []
            cursor = None
            while True:
                page = await _page(session, cursor)
                dumped = page.model_dump(by_alias=True, mode="json", exclude_none=True)
                listed += dumped.get("tools", [])
                cursor = dumped.get("nextCursor")
                if not cursor:
                    break
            taken = [await _take(session, listed, server, *chain) for chain in chains]
    about = info.get("serverInfo", {})
    named = {
        "name": str(about.get("name") or "unnamed"),
        "version": str(about.get("version") or "unknown"),
    }
    return named, listed, taken


async def _page(session: Any, cursor: str | None) -> Any:
    if cursor is None:
        return await session.list_tools()
    from mcp.types import PaginatedRequestParams

    return await session.list_tools(params=PaginatedRequestParams(cursor=cursor))


async def _take(
    session: Any,
    listed: list[dict[str, Any]],
    server: Server,
    name: str,
    arguments: dict[str, Any] | None,
) -> TakenResult:
    """Call tool ``name`` once (the only call any command makes to it) and keep its result's
    text; a result flagged as an error stops here unless ``--keep-chain-errors``."""
    entry = next((t for t in listed if t.get("name") == name), None)
    if entry is None:
        raise SuiteError(f"--chain {name}: the server lists no tool {name!r}")
    if arguments is None:
        schema = entry.get("inputSchema")
        problems = listing_problems([(name, schema)])  # checked before any value is made
        if problems:
            raise SuiteError(f"--chain {name}: " + "; ".join(problems))
        arguments = required_reference(ListedTool(name, "", schema))
    result = await session.call_tool(name, arguments)
    dumped = result.model_dump(by_alias=True, mode="json", exclude_none=True)
    parts = []
    for item in dumped.get("content", []):
        is_text = item.get("type") == "text" and isinstance(item.get("text"), str)
        parts.append(item["text"] if is_text else json.dumps(item, sort_keys=True))
    text = "\n".join(parts)
    if dumped.get("isError") and not server.keep_errors:
        said = text.strip().splitlines()[0][:300] if text.strip() else "(no text)"
        raise SuiteError(
            f"--chain {name}: the server answered with an error: {said}; nothing written "
            "(fix the arguments, or pass --keep-chain-errors to keep the error as the result)"
        )
    return TakenResult(name, arguments, text)


def _transport(server: Server, owned: Owned) -> Any:
    if server.argv:
        return owned_stdio(server.argv, server.env, owned)
    from mcp.client import streamable_http

    new = getattr(streamable_http, "streamable_http_client", None)
    if new is None:  # an older 1.x: the headers go straight to the client
        return streamable_http.streamablehttp_client(server.target, headers=dict(server.headers))
    # The SDK's own client factory (its default timeouts), as its transport module imports it.
    client = streamable_http.create_mcp_http_client(headers=dict(server.headers))
    return _closing(new(server.target, http_client=client), client)


def _closing(transport: Any, client: Any) -> Any:
    """``transport``, then ``client`` closed (the SDK leaves a client it was given open)."""
    import contextlib

    @contextlib.asynccontextmanager
    async def both() -> Any:
        async with client, transport as streams:
            yield streams

    return both()
