"""Where ``suite new`` reads the user's tools: an OpenAI-style tools file, or a live MCP server's
``tools/list``.

A live server is asked once, through the official ``mcp`` SDK (stdio: a command it starts and stops;
or a streamable-HTTP URL), when the suite is built: its name, version and tool list are written into
the suite, and nothing at record or rescore time calls it again.
"""

from __future__ import annotations

import json
import os
import shlex
import shutil
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from fileio.reading import read_bytes
from scorer import strict_json
from scorer.errors import SuiteError
from scorer.suite_draft import ListedTool, TakenResult, required_reference


@dataclass(frozen=True)
class ToolList:
    """The tools as listed (each as given: the suite's ``origin.tools``), the parsed tools, and
    the origin."""

    listed: tuple[dict[str, Any], ...]
    tools: tuple[ListedTool, ...]
    origin: dict[str, Any]
    taken: tuple[TakenResult, ...] = ()


def read_tools_file(path: Path) -> ToolList:
    """An OpenAI-style tools file: a list of ``{"type": "function", "function": {...}}`` (or bare
    functions), or an object with such a ``tools`` list; SuiteError naming the file and the entry
    when it is not one."""
    raw = read_bytes(path, "tools file", SuiteError)
    try:
        data = strict_json.loads_file(raw)
    except (ValueError, UnicodeDecodeError) as exc:
        raise SuiteError(f"{path}: not valid JSON: {exc}") from None
    entries = data.get("tools") if isinstance(data, dict) else data
    if not isinstance(entries, list) or not entries:
        raise SuiteError(
            f"{path}: expected a non-empty list of tools (or an object with one in 'tools')"
        )
    tools = []
    for index, entry in enumerate(entries):
        function = (
            entry.get("function") if isinstance(entry, dict) and "function" in entry else entry
        )
        if not isinstance(function, dict) or not isinstance(function.get("name"), str):
            raise SuiteError(f"{path}: tools[{index}]: not a function tool with a name")
        description = function.get("description")
        strict = function.get("strict")
        tools.append(
            ListedTool(
                function["name"],
                description if isinstance(description, str) else "",
                # An MCP tools/list answer saved to a file names the schema inputSchema.
                function.get("parameters", function.get("inputSchema")),
                strict,  # kept as given: the suite check names one that is not a boolean
            )
        )
    _unique(tools, str(path))
    return ToolList(tuple(entries), tuple(tools), {"kind": "tools_file", "tools": entries})


def _unique(tools: list[ListedTool], source: str) -> None:
    seen: set[str] = set()
    for tool in tools:
        if tool.name in seen:
            raise SuiteError(f"{source}: the tool {tool.name!r} is listed twice")
        seen.add(tool.name)


Chain = tuple[str, dict[str, Any] | None]


def _is_url(target: str) -> bool:
    return target.startswith(("http://", "https://"))


def check_server_command(target: str) -> None:
    """SuiteError naming the program when ``--mcp``'s command line (not a URL) cannot start: not
    a command line, or a program that is not on PATH (or, as a path, not an executable file).
    Said before anything is started, where the SDK would only say FileNotFoundError."""
    if _is_url(target):
        return
    try:
        argv = shlex.split(target)
    except ValueError as exc:  # an unclosed quote
        raise SuiteError(f"--mcp {target}: not a command line: {exc}") from None
    if not argv:
        raise SuiteError("--mcp: an empty command")
    program = argv[0]
    if shutil.which(program) is not None:
        return
    if os.sep in program or (os.altsep is not None and os.altsep in program):
        if os.path.exists(program):
            raise SuiteError(
                f"--mcp {target}: the server command {program!r} is not an executable file"
            )
        raise SuiteError(f"--mcp {target}: the server command {program!r} was not found")
    raise SuiteError(f"--mcp {target}: the server command {program!r} was not found on PATH")


def list_mcp_tools(target: str, timeout: float, chains: tuple[Chain, ...] = ()) -> ToolList:
    """The tools of the MCP server at ``target``: a URL (``http://``, ``https://``: streamable HTTP)
    or a command line (stdio, started and stopped here); and for each of ``chains`` (a tool, its
    arguments or None for values made from its schema), that tool called once, its result kept.
    SuiteError naming the server when it cannot be listed (or a chain's tool called) within
    ``timeout`` seconds."""
    import anyio

    check_server_command(target)
    with tempfile.TemporaryFile("w+", encoding="utf-8", errors="replace") as errlog:
        try:
            server, listed, taken = anyio.run(_list, target, timeout, errlog, chains)
        except (
            BaseException
        ) as exc:  # an ExceptionGroup from the SDK's task groups, or a plain error
            if isinstance(exc, KeyboardInterrupt | SystemExit):
                raise
            leaf = _first_leaf(exc)
            if isinstance(leaf, SuiteError):  # raised inside the session: a chain's unknown tool
                raise leaf from None
            errlog.seek(0)
            tail = [line for line in errlog.read().splitlines() if line.strip()][-1:]
            said = f" (the server said: {tail[0][:300]})" if tail else ""
            raise SuiteError(
                f"--mcp {target}: cannot list its tools: {_reason(leaf)}{said}"
            ) from None
    tools = []
    for index, entry in enumerate(listed):
        name = entry.get("name") if isinstance(entry, dict) else None
        if not isinstance(name, str):
            raise SuiteError(f"--mcp {target}: tools[{index}] has no name")
        description = entry.get("description")
        tools.append(
            ListedTool(
                name, description if isinstance(description, str) else "", entry.get("inputSchema")
            )
        )
    if not tools:
        raise SuiteError(f"--mcp {target}: the server lists no tools")
    _unique(tools, f"--mcp {target}")
    origin = {"kind": "mcp", "server": server, "tools": listed}
    return ToolList(tuple(listed), tuple(tools), origin, tuple(taken))


def _first_leaf(exc: BaseException) -> BaseException:
    """The first leaf error of an exception (group): what the SDK's task groups wrap."""
    while isinstance(exc, BaseExceptionGroup) and exc.exceptions:
        exc = exc.exceptions[0]
    return exc


def _reason(exc: BaseException) -> str:
    """A leaf error (``_first_leaf``) as one line."""
    if isinstance(exc, TimeoutError):
        return "no answer in time"
    text = str(exc).strip().splitlines()
    return f"{type(exc).__name__}: {text[0][:300]}" if text else type(exc).__name__


async def _list(
    target: str, timeout: float, errlog: Any, chains: tuple[Chain, ...]
) -> tuple[dict[str, str], list[dict[str, Any]], list[TakenResult]]:
    import anyio
    from mcp import ClientSession

    with anyio.fail_after(timeout):
        async with (
            _transport(target, errlog) as streams,
            ClientSession(streams[0], streams[1]) as session,
        ):
            init = await session.initialize()
            info = init.model_dump(by_alias=True, mode="json", exclude_none=True).get(
                "serverInfo", {}
            )
            listed: list[dict[str, Any]] = []
            cursor = None
            while True:
                params = None
                if cursor is not None:
                    from mcp.types import PaginatedRequestParams

                    params = PaginatedRequestParams(cursor=cursor)
                page = await session.list_tools(params=params)
                listed += [
                    t.model_dump(by_alias=True, mode="json", exclude_none=True) for t in page.tools
                ]
                cursor = page.next_cursor
                if cursor is None:
                    break
            taken = [await _take(session, listed, name, arguments) for name, arguments in chains]
    server = {
        "name": str(info.get("name") or "unnamed"),
        "version": str(info.get("version") or "unknown"),
    }
    return server, listed, taken


async def _take(
    session: Any, listed: list[dict[str, Any]], name: str, arguments: dict[str, Any] | None
) -> TakenResult:
    """Call tool ``name`` once (the only call any command makes to it) and keep its
    result's text."""
    entry = next((t for t in listed if t.get("name") == name), None)
    if entry is None:
        raise SuiteError(f"--chain {name}: the server lists no tool {name!r}")
    if arguments is None:
        arguments = required_reference(ListedTool(name, "", entry.get("inputSchema")))
    result = await session.call_tool(name, arguments)
    parts = []
    for item in result.model_dump(by_alias=True, mode="json", exclude_none=True).get("content", []):
        is_text = item.get("type") == "text" and isinstance(item.get("text"), str)
        parts.append(item["text"] if is_text else json.dumps(item, sort_keys=True))
    return TakenResult(name, arguments, "\n".join(parts))


def _transport(target: str, errlog: Any) -> Any:
    if _is_url(target):
        from mcp.client.streamable_http import streamable_http_client

        return streamable_http_client(target)
    from mcp.client.stdio import StdioServerParameters, stdio_client

    argv = shlex.split(target)  # check_server_command has read it
    return stdio_client(StdioServerParameters(command=argv[0], args=argv[1:]), errlog=errlog)
