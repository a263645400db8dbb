"""pytest-timeout's thread method with one watchdog thread a process, not one thread a test
(docs/decisions/testing.md#watchdog).

pytest-timeout (pyproject: ``timeout_method = "thread"``) starts a ``threading.Timer`` for every
test and joins it after: about 0.3 ms of CPU a test, 1.7 s over the fast loop's 5,700 tests. Its
``pytest_timeout_set_timer`` and ``pytest_timeout_cancel_timer`` hooks are there to replace the
timer: here one daemon thread waits for the running test's deadline and, when it passes, calls
pytest-timeout's own ``timeout_timer``, which does what its thread method does (every thread's
stack and the captured output on the terminal, then ``os._exit(1)``; under xdist the worker is
replaced). The limit of each test (pyproject's ``timeout``, ``--timeout``, a ``timeout`` mark, the
conftest's longer ones) and the debugger detection are pytest-timeout's as before. A run that asks
for the signal method (``--timeout-method signal``) gets pytest-timeout's own timer.

While tests run there is a Python thread beside the main one, as there was (the timer):
``recorder/processes.py`` then starts its pools with ``forkserver``, as before.
"""

from __future__ import annotations

import os
import threading
import time
from typing import Any

import pytest


class Watchdog:
    """Fails the armed test when its deadline passes: one thread, started at the first test."""

    def __init__(self) -> None:
        self._cond = threading.Condition()
        self._armed: tuple[float, pytest.Item, Any] | None = None
        self._thread: threading.Thread | None = None
        self.sleeps_until: float | None = None  # the deadline the thread waits for (tests read it)

    def arm(self, item: pytest.Item, settings: Any) -> None:
        """``item`` fails when ``settings.timeout`` seconds have passed before ``disarm``."""
        deadline = time.monotonic() + settings.timeout
        with self._cond:
            earlier = self._armed is None or deadline < self._armed[0]
            self._armed = (deadline, item, settings)
            if self._thread is None:
                self._thread = threading.Thread(
                    target=self._watch, name="pytest_timeout watchdog", daemon=True
                )
                self._thread.start()
            elif earlier:  # else the thread wakes at a later deadline and reads this one
                self._cond.notify()

    @property
    def armed(self) -> pytest.Item | None:
        """The test being watched now (None between tests)."""
        with self._cond:
            return None if self._armed is None else self._armed[1]

    def disarm(self, item: pytest.Item) -> None:
        with self._cond:
            if self._armed is not None and self._armed[1] is item:
                self._armed = None

    def _watch(self) -> None:
        import pytest_timeout

        while True:
            with self._cond:
                while True:
                    if self._armed is None:
                        self._cond.wait()
                        continue
                    deadline, item, settings = self._armed
                    left = deadline - time.monotonic()
                    if left <= 0:
                        self._armed = None
                        break
                    self.sleeps_until = deadline
                    self._cond.wait(left)
            # pytest-timeout's thread method: the stacks, then os._exit(1); it returns only
            # when a debugger is on (the test then runs on, as with pytest-timeout's timer)
            pytest_timeout.timeout_timer(item, settings)


WATCHDOG = Watchdog()
# A forked child (mutmut's fork server forks a child per mutant) has no watchdog thread, whatever
# its parent had: it starts its own at its first test.
os.register_at_fork(after_in_child=WATCHDOG.__init__)


@pytest.hookimpl(tryfirst=True, optionalhook=True)
def pytest_timeout_set_timer(item: pytest.Item, settings: Any) -> bool | None:
    if settings.method != "thread":
        return None  # pytest-timeout's signal method
    WATCHDOG.arm(item, settings)
    return True


@pytest.hookimpl(tryfirst=True, optionalhook=True)
def pytest_timeout_cancel_timer(item: pytest.Item) -> bool | None:
    WATCHDOG.disarm(item)
    return None  # pytest-timeout's own cancels a signal timer it set (none otherwise)
