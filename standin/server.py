"""The HTTP side of the stand-in gateway: a ``ThreadingHTTPServer`` on 127.0.0.1 in a
background thread.

Each request gets its own daemon handler thread, so fixed latencies overlap across concurrent
clients. Every answer is sent with ``Connection: close`` (one request per connection): a stopped
server then has no idle keep-alive threads to wait for, and a dropped connection is always a fresh
one. Delays wait on a stop event, so ``stop()`` returns promptly even while a ``timeout`` fault is
stalling. The ``Date`` header is fixed to the answers' ``created`` time so recorded headers do not
depend on the wall clock (day N of a history when the gateway serves run N).
"""

from __future__ import annotations

import email.utils
import signal
import threading
from http.server import BaseHTTPRequestHandler
from pathlib import Path
from types import TracebackType
from typing import Any

from scorer.errors import GatewayError
from standin.catalog import model_names
from standin.config import GatewayConfig
from standin.dispatch import Answer, Dispatcher, Outcome
from standin.serving import StoppableServer
from standin.streamed import StreamEnd, write_streamed
from standin.suite_follow import SUITE_HEADER, SuiteFollower, suite_header, suite_line
from standin.wire import CREATED

HOST = "127.0.0.1"
DEFAULT_PORT = 8099
_FIXED_DATE = email.utils.formatdate(CREATED, usegmt=True)


class _Server(StoppableServer):
    def __init__(self, port: int, gateway: StandInGateway) -> None:
        self.gateway = gateway
        super().__init__((HOST, port), _Handler, gateway._stopping)


class _Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    server_version = "lobstack-stand-in/1"
    timeout = 30  # a client that connects and never sends cannot hold a thread forever
    server: _Server

    def do_GET(self) -> None:
        self._serve("GET")

    def do_POST(self) -> None:
        self._serve("POST")

    def do_PUT(self) -> None:
        self._serve("PUT")

    def do_DELETE(self) -> None:
        self._serve("DELETE")

    def do_PATCH(self) -> None:
        self._serve("PATCH")

    def _serve(self, method: str) -> None:
        self.close_connection = True
        try:
            length = int(self.headers.get("Content-Length") or 0)
        except ValueError:
            length = 0
        body = self.rfile.read(length) if length > 0 else b""
        self.server.gateway._handle(method, self.path, body, self, dict(self.headers.items()))

    def send(self, answer: Answer, *extra: tuple[str, str]) -> None:
        """Write a whole answer (a client that hangs up first, as one refusing ``bigheader``
        does, is no error); ``extra`` headers after the answer's own."""
        try:
            for informational in answer.informational:
                self.wfile.write(informational)
            self.send_response(answer.status)
            for name, value in (*answer.headers, *extra):
                self.send_header(name, value)
            self.send_header("Content-Length", str(len(answer.body)))
            self.send_header("Connection", "close")
            self.end_headers()
            self.wfile.write(answer.body)
        except (BrokenPipeError, ConnectionResetError):
            self.close_connection = True

    def version_string(self) -> str:
        # No Python version in the Server header. Behind a proxy (``upstream_prefix``) the proxy
        # answers, so the Server is its own (LiteLLM's proxy runs on uvicorn) and the stand-in's is
        # forwarded under the prefix (standin/dispatch.py).
        config = self.server.gateway.config
        return "uvicorn" if config.upstream_prefix else config.server

    def date_time_string(self, timestamp: float | None = None) -> str:
        run = self.server.gateway.config.run
        if run is None:
            return _FIXED_DATE
        return email.utils.formatdate(
            CREATED + (run - 1) * 86400, usegmt=True
        )  # day N of a history

    def log_message(self, format: str, *args: Any) -> None:
        pass  # quiet: tests and the CLI print what matters themselves


class StandInGateway:
    """A running (after ``start()`` or ``with``) stand-in gateway; ``url`` is the API root ending
    in ``/v1``."""

    def __init__(self, config: GatewayConfig, port: int = 0, on_change: Any = None) -> None:
        self.config = config
        # Read again when the file changes; on_change is told each new suite (the CLI prints it).
        self.suite = SuiteFollower(Path(config.suite_path), on_change)
        self._dispatcher = Dispatcher(config, self.suite)
        self._port = port
        self._server: _Server | None = None
        self._thread: threading.Thread | None = None
        self._stopping = threading.Event()
        self._served = threading.Event()  # set when the serving thread's loop returns
        self._seen: list[bytes] = []
        self._stream_ends: list[StreamEnd] = []
        self._lock = threading.Lock()
        self._open = threading.Event()  # cleared by hold(): requests then wait inside the gateway
        self._open.set()
        self._held = 0

    @property
    def url(self) -> str:
        """``http://127.0.0.1:<port>/v1`` (the bound port once started)."""
        port = self._server.server_address[1] if self._server else self._port
        return f"http://{HOST}:{port}/v1"

    @property
    def requests_seen(self) -> list[bytes]:
        """The raw body of every request received so far, in arrival order (``b""`` for a GET)."""
        with self._lock:
            return list(self._seen)

    @property
    def stream_ends(self) -> list[StreamEnd]:
        """How each streamed answer (``standin.streamed``) ended so far, in the order they ended."""
        with self._lock:
            return list(self._stream_ends)

    def hold(self) -> None:
        """Keep every request from now on waiting, unanswered, until ``release()`` (or ``stop()``,
        which hangs up): a test freezes a client in the middle of a request, instead of hoping it
        is still there."""
        self._open.clear()

    def release(self) -> None:
        """Answer the held requests, and every later one, as usual."""
        self._open.set()

    @property
    def held(self) -> int:
        """How many requests are waiting for ``release()``."""
        with self._lock:
            return self._held

    def start(self) -> StandInGateway:
        """Bind 127.0.0.1 and serve in a background thread; raises ``GatewayError`` if the port
        is taken."""
        if self._server is not None:
            return self
        try:
            self._server = _Server(self._port, self)
        except OSError as exc:
            raise GatewayError(
                f"cannot listen on {HOST}:{self._port}: {exc.strerror or exc}"
            ) from None
        self._stopping.clear()
        self._served.clear()
        self._thread = threading.Thread(
            target=self._serve_until_shutdown,
            args=(self._server,),
            name="stand-in-gateway",
            daemon=True,
        )
        self._thread.start()
        return self

    def stop(self) -> None:
        """Stop serving, wake stalled handlers, close the socket and wait for the threads."""
        server, thread = self._server, self._thread
        if server is None:
            return
        server.stop()  # sets self._stopping: stalled handlers wake
        if thread is not None:
            thread.join()
        self._server, self._thread = None, None

    def _serve_until_shutdown(self, server: _Server) -> None:
        try:
            server.serve_until_stopped(poll_interval=0.05)
        finally:
            self._served.set()

    def wait(self) -> None:
        """Block until the server stops (for the CLI; Ctrl-C or SIGTERM interrupts it).

        A wait with a timeout, in a loop: a signal's Python handler runs at the latest when the
        timeout ends, even where the signal does not interrupt the wait itself. An event, not
        ``Thread.join``: Python 3.11's join, interrupted by KeyboardInterrupt, marks a running
        thread as stopped.
        """
        while self._thread is not None and not self._served.wait(0.5):
            pass

    def __enter__(self) -> StandInGateway:
        return self.start()

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.stop()

    def _handle(
        self,
        method: str,
        path: str,
        body: bytes,
        handler: _Handler,
        headers: dict[str, str] | None = None,
    ) -> None:
        with self._lock:
            self._seen.append(body)
        if not self._open.is_set() and not self._wait_for_release():
            return  # shutting down: hang up instead of answering
        served = self.suite.current()  # the suite this answer is made from, and named by
        outcome: Outcome = self._dispatcher.handle(method, path, body, headers, served)
        if outcome.delay_s > 0 and self._stopping.wait(outcome.delay_s):
            return  # shutting down: hang up instead of answering
        # Named as a proxy in front would pass it on (prefixed), like the answer's own headers.
        named = (self.config.upstream_prefix + SUITE_HEADER, suite_header(served))
        if isinstance(outcome, Answer) and outcome.stream is not None:
            timings = (self.config.drip_ms / 1000.0, self.config.timeout_sleep_s)
            end = write_streamed(
                outcome.stream, outcome.status, (*outcome.headers, named), outcome.body, handler,
                self._stopping, timings,
            )  # fmt: skip
            with self._lock:
                self._stream_ends.append(end)
        elif isinstance(outcome, Answer):
            handler.send(outcome, named)
        # a Hangup writes nothing; the server closes the connection when the handler returns

    def _wait_for_release(self) -> bool:
        """Wait while held; False when the gateway stops first."""
        with self._lock:
            self._held += 1
        try:
            while not self._open.wait(0.05):
                if self._stopping.is_set():
                    return False
            return True
        finally:
            with self._lock:
                self._held -= 1


def _interrupt(signum: int, frame: object) -> None:
    raise KeyboardInterrupt


def serve_forever(config: GatewayConfig, port: int = DEFAULT_PORT, announce: Any = print) -> None:
    """Serve on 127.0.0.1:``port`` until Ctrl-C (or SIGTERM), after announcing the URL and
    models; returns cleanly."""
    gateway = StandInGateway(config, port, on_change=announce).start()
    # SIGTERM (docker stop, kill) ends the server like Ctrl-C; signals can only be set from the
    # main thread
    in_main = threading.current_thread() is threading.main_thread()
    previous = signal.signal(signal.SIGTERM, _interrupt) if in_main else None
    try:
        announce(f"Stand-in gateway on {gateway.url} (models: {', '.join(model_names())})")
        announce(
            f"serving suite {suite_line(gateway.suite.current())} from {config.suite_path}; "
            "read again when the file changes"
        )
        gateway.wait()
    except KeyboardInterrupt:
        pass
    finally:
        gateway.stop()
        if in_main:
            signal.signal(signal.SIGTERM, previous)
