"""Helpers for recording under faults: the CLI as a real process in its own group, polling,
loopback servers."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import threading
import time
from collections import Counter
from collections.abc import Callable, Iterator
from contextlib import contextmanager, suppress
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

from tests.conftest import MINI_SUITE, ROOT

DEADLINE_S = (
    60.0  # generous: a loaded 2-core machine; the conditions usually hold in well under a second
)


def wait_until(condition: Callable[[], Any], what: str, timeout: float = DEADLINE_S) -> Any:
    """Poll ``condition`` until it is truthy (returned); AssertionError naming ``what``
    after ``timeout``."""
    deadline = time.monotonic() + timeout
    while True:
        value = condition()
        if value:
            return value
        if time.monotonic() > deadline:
            raise AssertionError(f"gave up waiting for {what}")
        time.sleep(0.02)


def live_members(pgid: int) -> list[int]:
    """Pids of the processes of group ``pgid`` that are still alive (zombies awaiting a reaper do
    not count)."""
    alive = []
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except (OSError, IndexError):
            continue
        if int(fields[2]) == pgid and fields[0] not in ("Z", "X"):
            alive.append(int(stat.parent.name))
    return alive


class Cli:
    """``lobstack-eval record`` running as its own process group, stderr in a file."""

    def __init__(self, args: list[str], log: Path, env: dict[str, str] | None = None) -> None:
        self.log = log
        self._log_handle = log.open("wb")
        self.process = subprocess.Popen(
            [sys.executable, "-m", "lobstack_eval", "record", *args],
            cwd=ROOT,
            stdout=self._log_handle,
            stderr=subprocess.STDOUT,
            start_new_session=True,
            env={**os.environ, **(env or {})},
        )
        self.pgid = self.process.pid

    def output(self) -> str:
        return self.log.read_text(encoding="utf-8", errors="replace")

    def wait(self, timeout: float = DEADLINE_S) -> int:
        """The exit code; fails (after killing the group) if the run does not end
        within ``timeout``."""
        try:
            return self.process.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            self.kill_group()
            raise AssertionError(
                f"record did not exit within {timeout} s:\n{self.output()}"
            ) from None
        finally:
            self._log_handle.close()

    def kill_group(self) -> None:
        with suppress(ProcessLookupError):
            os.killpg(self.pgid, 9)
        self.process.wait(timeout=DEADLINE_S)

    def assert_group_gone(self) -> None:
        """No process of the run is left (polled: the kernel needs a moment to deliver
        parent-death signals)."""
        wait_until(
            lambda: not live_members(self.pgid), f"every process of group {self.pgid} to end"
        )


@contextmanager
def cli(args: list[str], log: Path, env: dict[str, str] | None = None) -> Iterator[Cli]:
    """A ``Cli`` whose group is always killed at the end (a failing test leaves nothing running)."""
    run = Cli(args, log, env)
    try:
        yield run
    finally:
        if run.process.poll() is None or live_members(run.pgid):
            run.kill_group()


def record_args(
    model: str, cassettes: Path, url: str, *extra: str, suite: Path = MINI_SUITE
) -> list[str]:
    return [
        "--model",
        model,
        "--suite",
        str(suite),
        "--cassettes",
        str(cassettes),
        "--base-url",
        url,
        *extra,
    ]


def manifest_cases(model_dir: Path) -> dict[str, Any]:
    """run.json's cases as they are now ({} before it exists)."""
    try:
        return json.loads((model_dir / "run.json").read_text(encoding="utf-8"))["cases"]
    except (OSError, ValueError, KeyError):
        return {}


def case_of(body: bytes, suite: Any) -> str:
    """Which case of ``suite`` a request body belongs to (by its first user message)."""
    messages = json.loads(body)["messages"]
    for case in suite.cases:
        if messages[1 : 1 + len(case.messages)] == list(case.messages):
            return str(case.id)
    raise AssertionError(f"no case sends {messages[1:2]}")


def requests_per_case(bodies: list[bytes], suite: Any) -> Counter[str]:
    return Counter(case_of(body, suite) for body in bodies)


class _QuietHandler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    server: LoopbackServer

    def log_message(self, format: str, *args: Any) -> None:
        pass

    def do_POST(self) -> None:
        body = self.rfile.read(int(self.headers.get("Content-Length") or 0))
        with self.server.arrived:
            self.server.seen.append((dict(self.headers), body))
            self.server.arrived.notify_all()
        self.server.answer(self, len(self.server.seen), body)


class LoopbackServer(ThreadingHTTPServer):
    """A test server on 127.0.0.1:0; ``answer(handler, request_number, body)`` writes
    each answer."""

    daemon_threads = True

    def __init__(self, answer: Callable[[BaseHTTPRequestHandler, int, bytes], None]) -> None:
        super().__init__(("127.0.0.1", 0), _QuietHandler)
        self.answer = answer
        self.seen: list[tuple[dict[str, str], bytes]] = []
        self.arrived = threading.Condition()  # notified at each request seen
        self.stopping = threading.Event()
        self._thread = threading.Thread(
            target=self.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True
        )

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.server_address[1]}/v1"

    def wait_seen(self, count: int, timeout: float = 10.0) -> int:
        """How many requests arrived, once ``count`` have or ``timeout`` has passed: a request the
        client sent and gave up on may reach a handler after the client has returned (a loaded
        machine schedules the server's threads late)."""
        with self.arrived:
            self.arrived.wait_for(lambda: len(self.seen) >= count, timeout)
            return len(self.seen)

    def __enter__(self) -> LoopbackServer:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.stopping.set()
        self.shutdown()
        self.server_close()
        self._thread.join()


def trickle(handler: BaseHTTPRequestHandler, stop: threading.Event, head: bool = False) -> None:
    """Answer one byte every 20 ms until the client gives up or the server stops: the headers too
    when ``head``."""
    text = (
        b"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 100000\r\n\r\n"
        + b" " * 100000
    )
    start = 0 if head else text.index(b"\r\n\r\n") + 4
    try:
        handler.wfile.write(text[:start])
        handler.wfile.flush()
        for i in range(start, len(text)):
            if stop.wait(0.02):
                return
            handler.wfile.write(text[i : i + 1])
            handler.wfile.flush()
    except OSError:
        return  # the client hung up: what a timeout does


def stop_group(process: subprocess.Popen[Any]) -> None:
    """Stop a process a test started and its children (the group it leads): SIGTERM, then SIGKILL
    after 20 s."""
    with suppress(ProcessLookupError):  # it may have ended by itself
        os.killpg(process.pid, signal.SIGTERM)
    try:
        process.wait(timeout=20)
    except subprocess.TimeoutExpired:
        with suppress(ProcessLookupError):
            os.killpg(process.pid, signal.SIGKILL)
        process.wait(timeout=20)
