"""A wall-clock limit on one HTTP attempt: connecting, sending, the headers and the whole body.

``requests``' timeout bounds each socket read, so a server that trickles its answer a byte at a time
would hold an attempt (and the run) forever. The limit is a ``SIGALRM`` timer, which interrupts any
blocking call of the main thread, where record runs its cases (its own thread in a single-case run,
each worker's main thread otherwise). Called from another thread, connecting and sending have only
``requests``' per-operation timeout, but the headers and the body still stop at the deadline: every
read of the answer waits at most until then (``recorder.bounded_read``).
"""

from __future__ import annotations

import signal
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from types import FrameType


class DeadlineExpired(BaseException):
    """The attempt's time is up (a BaseException, so no library's ``except Exception``
    swallows it)."""


def _expire(signum: int, frame: FrameType | None) -> None:
    raise DeadlineExpired


@contextmanager
def wall_clock_limit(seconds: float) -> Iterator[None]:
    """Raise ``DeadlineExpired`` in the body once ``seconds`` have passed."""
    if (
        not hasattr(signal, "setitimer")
        or threading.current_thread() is not threading.main_thread()
    ):
        yield
        return
    previous = signal.signal(signal.SIGALRM, _expire)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)
