"""The time limit of every test: one watchdog thread a process (tests/timeout_watchdog.py) fails the
test whose deadline passes, through pytest-timeout's own thread-method handler."""

from __future__ import annotations

import os
import queue
import threading
from types import SimpleNamespace
from typing import Any

import pytest
import pytest_timeout

from tests.conftest import USER_ENVIRONMENT
from tests.record_helpers import wait_until
from tests.timeout_watchdog import WATCHDOG, Watchdog

WAIT_S = 60.0  # generous: the conditions hold in milliseconds on an idle machine


def fired(monkeypatch: pytest.MonkeyPatch) -> queue.Queue[tuple[Any, Any]]:
    """What the watchdog hands pytest-timeout's handler (which would dump the stacks and end the
    process), one (item, settings) per expired test."""
    calls: queue.Queue[tuple[Any, Any]] = queue.Queue()
    monkeypatch.setattr(pytest_timeout, "timeout_timer", lambda item, s: calls.put((item, s)))
    return calls


def test_a_test_past_its_deadline_goes_to_pytest_timeouts_handler(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    calls = fired(monkeypatch)
    item, settings = object(), SimpleNamespace(timeout=0.01)
    Watchdog().arm(item, settings)  # type: ignore[arg-type]
    assert calls.get(timeout=WAIT_S) == (item, settings)


def test_disarming_another_test_leaves_the_armed_one_watched(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A cancel for a test that is not the armed one (pytest-timeout cancels on entering pdb, for
    any node) does not stop the watch of the running test."""
    calls = fired(monkeypatch)
    watchdog = Watchdog()
    armed, other = object(), object()
    watchdog.arm(armed, SimpleNamespace(timeout=0.01))  # type: ignore[arg-type]
    watchdog.disarm(other)  # type: ignore[arg-type]
    assert calls.get(timeout=WAIT_S)[0] is armed


def test_a_shorter_limit_after_a_long_one_wakes_the_watchdog(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The thread sleeps until the deadline it knows: a test with a shorter limit than the one
    before (a ``timeout`` mark) must wake it, or it would fail only at the old deadline."""
    calls = fired(monkeypatch)
    watchdog = Watchdog()
    long, short = object(), object()
    watchdog.arm(long, SimpleNamespace(timeout=3600.0))  # type: ignore[arg-type]
    wait_until(lambda: watchdog.sleeps_until is not None, "the watchdog to sleep", WAIT_S)
    watchdog.disarm(long)  # type: ignore[arg-type]
    watchdog.arm(short, SimpleNamespace(timeout=0.01))  # type: ignore[arg-type]
    assert calls.get(timeout=WAIT_S)[0] is short


def test_this_run_times_tests_with_the_watchdog_not_a_timer_thread_a_test(
    request: pytest.FixtureRequest,
) -> None:
    assert WATCHDOG.armed is request.node  # this very test is watched by the process's watchdog
    names = [thread.name for thread in threading.enumerate()]
    assert not any(name.startswith("pytest_timeout tests/") for name in names)  # no Timer


def test_no_test_sees_the_developers_key_base_url_or_job_summary() -> None:
    assert not set(USER_ENVIRONMENT) & set(os.environ)
    assert set(USER_ENVIRONMENT) == {"LOBSTACK_API_KEY", "LOBSTACK_BASE_URL", "GITHUB_STEP_SUMMARY"}
