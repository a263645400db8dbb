"""How ``record`` schedules its case-runs: one after another here, or on a pool of worker processes.

vcrpy patches HTTP globally and is not thread-safe, so concurrency uses processes, one active
cassette each.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable

from recorder.interrupts import Interrupts
from recorder.record_case import CaseTask, record_case, suite_once
from recorder.repeats import CaseRun

POLL_S = 0.1  # how often the parent looks at Ctrl-C while its workers record


def record_here(
    tasks: list[CaseTask],
    done: Callable[[CaseRun], None],
    interrupts: Interrupts,
    sleep: Callable[[float], None],
) -> None:
    """Record ``tasks`` one after another in this process, stopping when asked to."""
    for task in tasks:
        if interrupts.stop_starting or interrupts.stop_now:
            return
        interrupts.interruptible = True
        try:
            run = record_case(task, sleep)
        finally:
            interrupts.interruptible = False
        done(run)


def _init_worker() -> None:
    """Worker initializer: skip vcrpy's per-cassette imports of HTTP clients that are
    not installed."""
    from recorder.cassettes import skip_absent_clients

    skip_absent_clients()


def record_in_processes(
    tasks: list[CaseTask],
    workers: int,
    done: Callable[[CaseRun], None],
    interrupts: Interrupts,
    notify: Callable[[str], None],
) -> None:
    """Record ``tasks`` on ``workers`` processes, handing each finished case-run to ``done``."""
    from recorder.processes import pool_context
    from recorder.workers import WorkerDied, WorkerPool

    # ctypes: each worker asks the kernel (prctl) to die with this process; imported here once, not
    # in each worker.
    context = pool_context(["recorder.record_case", "requests", "vcr", "ctypes"])
    if context.get_start_method() == "fork":
        suite_once(
            tasks[0].suite_path, tasks[0].suite_sha256
        )  # loaded once here, inherited by every worker
    pool = WorkerPool(context, workers, record_case, _init_worker)
    queue = deque(tasks)
    failure: BaseException | None = None
    try:
        # Each worker gets its first case as soon as it is forked, not once the last one is: forking
        # eight workers takes tens of milliseconds, and the first requests go out meanwhile.
        while pool.grow():
            if queue and not interrupts.stop_starting:
                pool.submit(queue.popleft())
        while not interrupts.stop_now:
            # While the first answers are being counted, only as many case-runs run as are still
            # needed to count: an unreachable gateway costs each extra one its whole retries.
            while (
                queue
                and pool.idle()
                and not interrupts.stop_starting
                and failure is None
                and (not interrupts.watching or pool.running < interrupts.awaiting)
            ):
                pool.submit(queue.popleft())
            if not pool.running:
                break
            interrupts.announce(pool.running)
            ended = pool.finished(POLL_S)
            if failure is None and not any(
                not ok and not isinstance(v, WorkerDied) for _t, ok, v in ended
            ):
                # Freed workers get their next case before the bookkeeping below (moving files,
                # rewriting run.json), once the first answers are counted (they may say the rest
                # is futile).
                while (
                    queue
                    and pool.idle()
                    and not (interrupts.watching or interrupts.stop_starting or interrupts.stop_now)
                ):
                    pool.submit(queue.popleft())
            for task, ok, value in ended:
                if ok:
                    done(value)
                elif isinstance(value, WorkerDied):
                    notify(
                        f"{CaseRun(task.case_id, task.repeat)}: not recorded, {value}; run record "
                        "again to record it"
                    )
                elif failure is None:
                    failure = (
                        value  # start no other case; raise once the running ones have finished
                    )
        if failure is not None:
            raise failure
    finally:
        if pool.running:
            pool.kill()  # stop now: the running cases are abandoned (nothing of theirs is kept)
        else:
            pool.close()
