"""Worker processes for ``record``: each runs one case at a time, handed to it by the parent, and
dies with it.

Not ``concurrent.futures``: its pool queues cases ahead of free workers (a first Ctrl-C would still
start them) and, before Python 3.14, cannot kill its workers (a second Ctrl-C could only wait). Here
the parent hands a case to an idle worker only, so stopping is simply not handing out more, and
stopping now is killing the workers.
"""

from __future__ import annotations

import contextlib
import os
import signal
import sys
import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from multiprocessing.connection import Connection, wait
from multiprocessing.context import BaseContext
from multiprocessing.process import BaseProcess
from typing import Any

PR_SET_PDEATHSIG = 1  # <linux/prctl.h>
JOIN_TIMEOUT_S = 10.0


class WorkerDied(Exception):
    """A worker process ended while it ran a case."""


def die_with_parent(use_prctl: bool = True) -> None:
    """End this process when its parent dies, however the parent dies.

    Linux: the kernel sends SIGKILL on the parent's death (``prctl(PR_SET_PDEATHSIG)``). Everywhere,
    as well: a thread waits on the parent's sentinel, a pipe that closes when the parent ends, and
    exits the process then.
    """
    import multiprocessing

    parent_pid = os.getppid()
    if use_prctl and sys.platform.startswith("linux"):
        import ctypes

        with contextlib.suppress(
            OSError, AttributeError
        ):  # no prctl in this libc: the thread below notices
            ctypes.CDLL(None, use_errno=True).prctl(PR_SET_PDEATHSIG, int(signal.SIGKILL), 0, 0, 0)
    parent = multiprocessing.parent_process()
    sentinel = parent.sentinel if parent is not None else None
    if os.getppid() != parent_pid or (sentinel is not None and wait([sentinel], 0)):
        os._exit(1)  # the parent died before the kernel was told
    if sentinel is not None:
        threading.Thread(
            target=_exit_when_ready, args=(sentinel,), name="parent-watch", daemon=True
        ).start()


def _exit_when_ready(sentinel: int) -> None:
    wait([sentinel])
    os._exit(1)


def _serve(
    conn: Connection, function: Callable[[Any], Any], initializer: Callable[[], None] | None
) -> None:
    """A worker's life: take a task, send back ``(True, result)`` or ``(False, exception)``,
    until told to stop."""
    from recorder.lock import forget_inherited_locks

    die_with_parent()
    forget_inherited_locks()
    signal.signal(
        signal.SIGINT, signal.SIG_IGN
    )  # Ctrl-C reaches the whole group: the parent decides
    signal.signal(
        signal.SIGTERM, signal.SIG_DFL
    )  # a forked worker must not inherit the parent's handlers
    if initializer is not None:
        initializer()
    while True:
        try:
            task = conn.recv()
        except (EOFError, OSError):
            return
        if task is None:
            return
        try:
            reply: tuple[bool, Any] = (True, function(task))
        except Exception as exc:
            reply = (False, exc)
        try:
            conn.send(reply)
        except (TypeError, AttributeError, ValueError):  # an exception that does not pickle
            conn.send((False, RuntimeError(f"{type(reply[1]).__name__}: {reply[1]}")))


@dataclass
class _Worker:
    process: BaseProcess
    conn: Connection
    task: Any = None
    busy: bool = False


@dataclass
class WorkerPool:
    """``size`` worker processes running ``function`` on one task at a time each."""

    context: BaseContext
    size: int
    function: Callable[[Any], Any]
    initializer: Callable[[], None] | None = None
    _workers: list[_Worker] = field(default_factory=list)

    def start(self) -> WorkerPool:
        """Start every worker."""
        while self.grow():
            pass
        return self

    def grow(self) -> bool:
        """Start one more worker, unless all ``size`` run; True when one was started."""
        if len(self._workers) >= self.size:
            return False
        self._workers.append(self._new_worker())
        return True

    def _new_worker(self) -> _Worker:
        parent_end, child_end = self.context.Pipe()
        process = self.context.Process(
            target=_serve,
            args=(child_end, self.function, self.initializer),
            name="record-worker",
            daemon=True,
        )
        process.start()
        child_end.close()
        return _Worker(process, parent_end)

    @property
    def running(self) -> int:
        """How many workers are running a task."""
        return sum(w.busy for w in self._workers)

    def idle(self) -> int:
        """How many workers wait for a task."""
        return len(self._workers) - self.running

    def submit(self, task: Any) -> None:
        """Hand ``task`` to an idle worker."""
        worker = next(w for w in self._workers if not w.busy)
        worker.conn.send(task)
        worker.task, worker.busy = task, True

    def finished(self, timeout: float) -> list[tuple[Any, bool, Any]]:
        """``(task, ok, result or exception)`` for every task that ended within ``timeout`` seconds.
        A worker that died is replaced, and its task ends with ``WorkerDied``."""
        busy = [w for w in self._workers if w.busy]
        ready = set(wait([w.conn for w in busy] + [w.process.sentinel for w in busy], timeout))
        ended = []
        for worker in busy:
            if worker.conn in ready:
                try:
                    ok, value = worker.conn.recv()
                except (EOFError, OSError):
                    pass  # the worker died before it answered
                else:
                    ended.append((worker.task, ok, value))
                    worker.task, worker.busy = None, False
                    continue
            elif worker.process.sentinel not in ready:
                continue
            task, exit_code = worker.task, self._replace(worker)
            ended.append(
                (task, False, WorkerDied(f"its worker process ended (exit code {exit_code})"))
            )
        return ended

    def _replace(self, worker: _Worker) -> int | None:
        worker.conn.close()
        worker.process.join(JOIN_TIMEOUT_S)
        self._workers[self._workers.index(worker)] = self._new_worker()
        return worker.process.exitcode

    def close(self) -> None:
        """Ask idle workers to stop, and wait for them (call when none is running)."""
        for worker in self._workers:
            with contextlib.suppress(OSError):
                worker.conn.send(None)
        for worker in self._workers:
            worker.process.join(JOIN_TIMEOUT_S)
        self.kill()

    def kill(self) -> None:
        """Stop every worker at once (SIGKILL) and wait until they are gone."""
        for worker in self._workers:
            if worker.process.is_alive():
                worker.process.kill()
        for worker in self._workers:
            worker.process.join(JOIN_TIMEOUT_S)
            worker.conn.close()
        self._workers.clear()
