"""The stand-in's HTTP server: threaded, and stopped at once rather than at its loop's next poll.

``socketserver``'s ``serve_forever`` looks at ``shutdown()``'s flag only when its ``select``
returns, at a connection or after the poll interval, so every stop waited out the interval (50 ms;
the tests start and stop hundreds of gateways). ``stop()`` here sets the gateway's stop event,
connects to the listening socket to wake the loop, which closes that connection unanswered and
ends; without the wake-up it ends at the next poll, as before.
"""

from __future__ import annotations

import contextlib
import socket
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any


class _StopServing(Exception):
    """Raised in the serving loop once the server stops: ends ``serve_forever`` at once."""


class StoppableServer(ThreadingHTTPServer):
    """A ``ThreadingHTTPServer`` (daemon handler threads) that ends serving when ``stopping`` is
    set and its loop wakes; ``stop()`` sets it and wakes the loop."""

    daemon_threads = True

    def __init__(
        self,
        address: tuple[str, int],
        handler: type[BaseHTTPRequestHandler],
        stopping: threading.Event,
    ) -> None:
        self.stopping = stopping
        super().__init__(address, handler)

    def verify_request(self, request: Any, client_address: Any) -> bool:
        return not self.stopping.is_set()  # stop()'s own connection (any other then) is closed

    def service_actions(self) -> None:
        if self.stopping.is_set():
            raise _StopServing

    def serve_until_stopped(self, poll_interval: float = 0.05) -> None:
        """Serve until ``stop()`` (or ``shutdown()``)."""
        with contextlib.suppress(_StopServing):
            self.serve_forever(poll_interval)

    def stop(self) -> None:
        """Stop serving (waits for the loop to end) and close the listening socket."""
        self.stopping.set()
        with contextlib.suppress(OSError), socket.create_connection(self.server_address[:2], 5):
            pass  # wakes the loop's select now
        self.shutdown()
        self.server_close()
