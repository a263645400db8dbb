"""An MCP server over stdio, owned whole by ``suite new`` (issue 42, part 5).

The server runs in a process group of its own (``start_new_session``): when the session ends, for
any reason, the whole group is signalled (stdin closed, then SIGTERM, then SIGKILL), so a child the
server started does not outlive ``suite new``. Its stderr is read as it comes and only the last
``TAIL_BYTES`` are kept (a server writing gigabytes there costs no memory). Each stdout line must be
one JSON-RPC message: anything else stops the session with ``ServerOutputError`` naming the line,
instead of the SDK's tracebacks. The streams it yields are the SDK's ``ClientSession`` streams
(``SessionMessage``), the same in its 1.x and 2.x majors.
"""

from __future__ import annotations

import contextlib
import os
import signal
from collections.abc import AsyncIterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import anyio

from scorer.errors import SuiteError

TAIL_BYTES = 8192  # what is kept of the server's stderr, to say why it failed
MAX_LINE_BYTES = 64 * 1024 * 1024  # one JSON-RPC message on stdout (a large tools/list fits)
GRACE_S = 2.0  # for the server to exit after stdin closes, then after SIGTERM


class ServerOutputError(SuiteError):
    """The server wrote something on stdout that is not a JSON-RPC message."""


@dataclass
class Tail:
    """The last ``TAIL_BYTES`` of a stream, however much was written."""

    kept: bytearray = field(default_factory=bytearray)

    def add(self, chunk: bytes) -> None:
        self.kept += chunk[-TAIL_BYTES:]
        del self.kept[:-TAIL_BYTES]

    def last_line(self) -> str:
        lines = [line for line in self.kept.decode("utf-8", "replace").splitlines() if line.strip()]
        return lines[-1][:300] if lines else ""


@dataclass
class Owned:
    """The running server: its process group id (its pid), and its stderr's tail."""

    pgid: int | None = None
    stderr: Tail = field(default_factory=Tail)


def kill_group(pgid: int | None, sig: int = signal.SIGKILL) -> None:
    """Signal the server's whole process group; nothing when it is gone."""
    if pgid is not None and hasattr(os, "killpg"):  # POSIX; elsewhere the SDK's own job objects
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(pgid, sig)


@contextlib.asynccontextmanager
async def owned_stdio(
    argv: Sequence[str], env: Mapping[str, str], owned: Owned
) -> AsyncIterator[tuple[Any, Any]]:
    """Start ``argv`` in its own process group with ``env``; yield the session's (read, write)
    streams; on the way out stop the whole group."""
    from mcp.shared.message import SessionMessage

    parse = _parser()
    process = await anyio.open_process(
        list(argv), env=dict(env), start_new_session=True, stdin=-1, stdout=-1, stderr=-1
    )
    owned.pgid = process.pid  # the group's id: start_new_session made it the leader
    read_in, read_out = anyio.create_memory_object_stream[Any](0)
    write_in, write_out = anyio.create_memory_object_stream[Any](0)

    async def stderr_reader() -> None:
        with contextlib.suppress(anyio.EndOfStream, anyio.ClosedResourceError):
            async for chunk in process.stderr:
                owned.stderr.add(chunk)

    async def stdout_reader() -> None:
        buffer = bytearray()
        async with read_in:
            with contextlib.suppress(anyio.ClosedResourceError, anyio.BrokenResourceError):
                async for chunk in process.stdout:
                    buffer += chunk
                    while (end := buffer.find(b"\n")) >= 0:
                        line = bytes(buffer[:end]).strip()
                        del buffer[: end + 1]
                        if line:
                            await read_in.send(SessionMessage(_message(parse, line)))
                    if len(buffer) > MAX_LINE_BYTES:
                        raise ServerOutputError(
                            f"a line on stdout longer than {MAX_LINE_BYTES} bytes"
                        )

    async def stdin_writer() -> None:
        async with write_out:
            with contextlib.suppress(anyio.ClosedResourceError, anyio.BrokenResourceError, OSError):
                async for message in write_out:
                    text = message.message.model_dump_json(by_alias=True, exclude_unset=True)
                    await process.stdin.send(text.encode("utf-8") + b"\n")

    try:
        async with anyio.create_task_group() as group:
            group.start_soon(stderr_reader)
            group.start_soon(stdout_reader)
            group.start_soon(stdin_writer)
            try:
                yield read_out, write_in
            finally:
                group.cancel_scope.cancel()
    finally:
        with anyio.CancelScope(shield=True):
            await _stop(process, owned.pgid)


async def _stop(process: Any, pgid: int | None) -> None:
    """Close stdin, give the server ``GRACE_S`` to exit, SIGTERM the group, then SIGKILL it: the
    group is killed even when the leader exited, for the children it left."""
    with contextlib.suppress(Exception), anyio.move_on_after(GRACE_S):
        await process.stdin.aclose()  # bounded: a server that reads nothing must not hold us
    with anyio.move_on_after(GRACE_S):
        await process.wait()
    kill_group(pgid, signal.SIGTERM)
    with anyio.move_on_after(GRACE_S):
        await process.wait()
    kill_group(pgid, signal.SIGKILL)
    with anyio.move_on_after(GRACE_S):
        await process.wait()
    with contextlib.suppress(Exception), anyio.move_on_after(GRACE_S):
        await process.aclose()  # its pipes and transport, closed inside the loop


def _parser() -> Any:
    """The SDK's JSON-RPC message parser: 2.x has ``jsonrpc_message_adapter``, 1.x a root model."""
    from mcp import types

    adapter = getattr(types, "jsonrpc_message_adapter", None)
    if adapter is not None:
        return lambda raw: adapter.validate_json(raw, by_name=False)
    return types.JSONRPCMessage.model_validate_json


def _message(parse: Any, line: bytes) -> Any:
    try:
        return parse(line)
    except ValueError:
        shown = line[:120].decode("utf-8", "replace")
        more = "..." if len(line) > 120 else ""
        raise ServerOutputError(
            f"the server wrote a line on stdout that is not a JSON-RPC message: {shown!r}{more} "
            "(an MCP server over stdio writes only protocol messages there; logs go to stderr)"
        ) from None
