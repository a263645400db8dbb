"""Where ``suite new`` reads the user's tools: an OpenAI-style tools file, or a live MCP server's
``tools/list``.

A live server is asked once, through the official ``mcp`` SDK (stdio: a command it starts and stops;
or a streamable-HTTP URL), when the suite is built: its name, version and tool list are written into
the suite, and nothing at record or rescore time calls it again.
"""

from __future__ import annotations

import fnmatch
import json
import os
import re
import shlex
import shutil
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from fileio.reading import read_bytes
from scorer import strict_json
from scorer.errors import SuiteError, UsageError
from scorer.suite.draft.new import ListedTool, TakenResult


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


Chain = tuple[str, dict[str, Any] | None]  # recorder.mcp_session.Chain


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


def list_mcp_tools(
    target: str,
    timeout: float,
    chains: tuple[Chain, ...] = (),
    env: dict[str, str] | None = None,
    headers: dict[str, str] | None = None,
    keep_errors: bool = False,
) -> ToolList:
    """The tools of the MCP server at ``target``: a URL (``http://``, ``https://``: streamable HTTP,
    each of ``headers`` sent) or a command line (stdio, started with the user's environment plus
    ``env``, in a process group of its own, and stopped whole here); and for each of ``chains`` (a
    tool, its arguments or None for values made from its schema), that tool called once, its result
    kept. SuiteError naming the server when it cannot be listed (or a chain's tool called) within
    ``timeout`` seconds. The values of ``env`` and ``headers`` are never in what it returns or says
    (``hide_secrets``)."""
    import anyio

    from recorder.mcp_session import Server, require_sdk, session_listing
    from recorder.mcp_stdio import Owned, kill_group

    check_server_command(target)
    require_sdk()
    secrets = secret_values(env or {}, headers or {})
    argv = () if _is_url(target) else tuple(shlex.split(target))
    server = Server(target, argv, {**os.environ, **(env or {})}, dict(headers or {}), keep_errors)
    owned = Owned()
    try:
        named, listed, taken = anyio.run(session_listing, server, timeout, chains, owned)
    except BaseException as exc:  # an ExceptionGroup from the SDK's task groups, or a plain error
        if isinstance(exc, KeyboardInterrupt | SystemExit):
            raise
        ours = _our_error(exc)
        if ours is not None:  # a chain's unknown tool or error answer, junk on stdout
            raise SuiteError(hide_secrets(f"--mcp {target}: {ours}", secrets)) from None
        tail = owned.stderr.last_line()
        said = f" (the server said: {tail})" if tail else ""
        raise SuiteError(
            hide_secrets(f"--mcp {target}: cannot list its tools: {_reason(exc)}{said}", secrets)
        ) from None
    finally:
        kill_group(owned.pgid)  # whatever happened above, nothing of the server outlives us
    listed = hide_secrets(listed, secrets)
    taken = hide_secrets([[t.tool, t.arguments, t.result] for t in taken], secrets)
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
    origin = {"kind": "mcp", "server": named, "tools": listed}
    results = tuple(TakenResult(*one) for one in taken)
    return ToolList(tuple(listed), tuple(tools), origin, results)


def secret_values(env: dict[str, str], headers: dict[str, str]) -> list[str]:
    """What must never be written or printed: each ``--env`` value of 8 characters or more (a
    ``DEBUG=1`` is no secret, and hiding "1" everywhere would garble the suite) and each
    ``--header`` value, with its credentials after a scheme (``Bearer X``: X too)."""
    found = [value for value in env.values() if len(value) >= 8]
    for value in headers.values():
        found.append(value)
        scheme, _, credentials = value.partition(" ")
        if credentials.strip() and scheme.isalpha():
            found.append(credentials.strip())
    return sorted({v for v in found if v}, key=len, reverse=True)


def hide_secrets(value: Any, secrets: list[str]) -> Any:
    """``value`` (text, or JSON data) with each of ``secrets`` replaced by ``[hidden]``."""
    if not secrets:
        return value
    text = value if isinstance(value, str) else json.dumps(value, ensure_ascii=False)
    for secret in secrets:
        form = secret if isinstance(value, str) else json.dumps(secret, ensure_ascii=False)[1:-1]
        text = text.replace(form, "[hidden]")
    return text if isinstance(value, str) else json.loads(text)


def _our_error(exc: BaseException) -> SuiteError | None:
    """The first SuiteError (ours: a chain's, junk on stdout) among ``exc``'s leaves."""
    stack = [exc]
    while stack:
        one = stack.pop(0)
        if isinstance(one, SuiteError):
            return one
        if isinstance(one, BaseExceptionGroup):
            stack.extend(one.exceptions)
    return None


def _reason(exc: BaseException) -> str:
    """The first leaf error of ``exc`` (what the SDK's task groups wrap) as one line."""
    while isinstance(exc, BaseExceptionGroup) and exc.exceptions:
        exc = exc.exceptions[0]
    if isinstance(exc, TimeoutError):
        return "no answer in time"
    text = str(exc).strip().splitlines()
    return f"{type(exc).__name__}: {text[0][:300]}" if text else type(exc).__name__


def server_options(
    mcp: str | None, env: list[str], header: list[str]
) -> tuple[dict[str, str], dict[str, str]]:
    """``--env KEY=VALUE`` (a --mcp command's) and ``--header 'NAME: VALUE'`` (a --mcp URL's) as
    dicts; UsageError naming the option, never its value (it may be a secret)."""
    is_url = mcp is not None and mcp.startswith(("http://", "https://"))
    if env and (mcp is None or is_url):
        raise UsageError("--env: sets a variable for a --mcp command (a server it starts)")
    if header and not is_url:
        raise UsageError("--header: is sent to an --mcp http(s):// URL only")
    variables: dict[str, str] = {}
    for number, text in enumerate(env, 1):
        key, sep, value = text.partition("=")
        if not sep or not re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*", key):
            raise UsageError(
                f"--env number {number}: must be KEY=VALUE with KEY a variable name (not shown: "
                "it may hold a secret)"
            )
        variables[key] = value
    headers: dict[str, str] = {}
    for number, text in enumerate(header, 1):
        name, sep, value = text.partition(":")
        if not sep or not re.fullmatch(r"[!#$%&'*+.^_`|~0-9A-Za-z-]+", name) or not value.strip():
            raise UsageError(
                f"--header number {number}: must be 'NAME: VALUE' (not shown: it may hold a secret)"
            )
        headers[name] = value.strip()
    return variables, headers


def select_tools(listing: ToolList, include: list[str], exclude: list[str]) -> ToolList:
    """``listing`` with only the tools ``--include`` names (all when none) and none that
    ``--exclude`` names (each a name or a shell-style pattern: ``git_*``); UsageError naming a
    pattern that matches no listed tool. ``origin.tools`` keeps the chosen tools only."""
    names = [tool.name for tool in listing.tools]
    for option, patterns in (("--include", include), ("--exclude", exclude)):
        for pattern in patterns:
            if not any(fnmatch.fnmatchcase(n, pattern) for n in names):
                shown = ", ".join(repr(n) for n in names[:10]) + (
                    ", ..." if len(names) > 10 else ""
                )
                raise UsageError(f"{option} {pattern!r}: matches no listed tool ({shown})")
    if not include and not exclude:
        return listing

    def chosen(name: str) -> bool:
        wanted = not include or any(fnmatch.fnmatchcase(name, p) for p in include)
        return wanted and not any(fnmatch.fnmatchcase(name, p) for p in exclude)

    keep = [i for i, tool in enumerate(listing.tools) if chosen(tool.name)]
    if not keep:
        raise UsageError("--include/--exclude: no tool is left to draft from")
    tools = tuple(listing.tools[i] for i in keep)
    listed = tuple(listing.listed[i] for i in keep)
    origin = {**listing.origin, "tools": list(listed)}
    taken = tuple(t for t in listing.taken if chosen(t.tool))
    return ToolList(listed, tools, origin, taken)
