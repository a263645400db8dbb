"""Ctrl-C and SIGTERM while recording.

The first Ctrl-C stops starting cases at once and lets the running ones finish (their answers are
being paid for); a second Ctrl-C, or SIGTERM (a CI timeout, ``kill``), stops at once. Either way
every finished case is kept and ``record`` raises ``RecordInterrupted``, which the CLI turns into
exit 130.
"""

from __future__ import annotations

import signal
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from types import FrameType

# A second SIGINT this soon after the first is the same Ctrl-C delivered twice: with no terminal,
# `uv run` forwards the SIGINT that the process group already delivered to us, about 0.2 s later
# (measured with uv 0.13; astral-sh/uv#13925). A person's deliberate second press comes later
# than this.
SAME_PRESS_S = 0.5


class StopNow(KeyboardInterrupt):
    """Raised in the thread that runs a case itself (a one-worker run) to stop at once."""


class RecordInterrupted(KeyboardInterrupt):
    """The run stopped early on request; ``kept`` finished cases were kept."""

    def __init__(self, kept: int) -> None:
        super().__init__(f"interrupted; {kept} finished case(s) kept")
        self.kept = kept


def finishing_notice(running: int) -> str:
    """What the first Ctrl-C says."""
    return (
        f"finishing {running} running case{'' if running == 1 else 's'}; Ctrl-C again to stop now"
    )


class Interrupts:
    """The run's interrupt state, set by signal handlers and read by the recording loop.

    ``interruptible`` is true while this thread runs a case itself: only then do the handlers act at
    once (announce, or raise ``StopNow``); otherwise they only set flags, which the loop polls.
    """

    def __init__(
        self, notify: Callable[[str], None], clock: Callable[[], float] = time.monotonic
    ) -> None:
        self.notify = notify
        self.clock = clock
        self._first_at: float | None = None
        self.draining = False
        self.stop_now = False
        self.futile = (
            False  # the first answers say the rest would be refused too (``recorder.futile``)
        )
        self.watching = (
            True  # until the first answers are in, a freed worker waits for them to be counted
        )
        self.awaiting = 3  # how many first answers are still to be counted (``recorder.futile``)
        self.interruptible = False
        self._announced = False

    @property
    def stop_starting(self) -> bool:
        """Start no other case: Ctrl-C once, or the run is futile."""
        return self.draining or self.futile

    def announce(self, running: int) -> None:
        """Say once that running cases are being finished."""
        if self.draining and not self._announced:
            self._announced = True
            self.notify(finishing_notice(running))

    def _interrupt(self, signum: int, frame: FrameType | None) -> None:
        now = self.clock()
        if (
            signum == signal.SIGINT
            and self._first_at is not None
            and now - self._first_at < SAME_PRESS_S
        ):
            return  # the first Ctrl-C again, forwarded by a launcher
        if self.draining or signum != signal.SIGINT:
            self.stop_now = True
            if self.interruptible:
                raise StopNow
            return
        self.draining = True
        self._first_at = now
        if self.interruptible:
            self.announce(1)

    @contextmanager
    def installed(self) -> Iterator[Interrupts]:
        """Handle SIGINT and SIGTERM while the block runs (only possible in the main thread)."""
        if threading.current_thread() is not threading.main_thread():
            yield self
            return
        previous = {
            sig: signal.signal(sig, self._interrupt) for sig in (signal.SIGINT, signal.SIGTERM)
        }
        try:
            yield self
        finally:
            for sig, handler in previous.items():
                signal.signal(sig, handler)


def _raise_interrupt(signum: int, frame: FrameType | None) -> None:
    raise KeyboardInterrupt


@contextmanager
def terminate_as_interrupt() -> Iterator[None]:
    """SIGTERM ends the block like Ctrl-C (exit 130, nothing half-done) rather than killing
    the process."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    previous = signal.signal(signal.SIGTERM, _raise_interrupt)
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, previous)
