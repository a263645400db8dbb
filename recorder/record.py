"""``record``: run cases against the gateway and capture every exchange, one vcrpy cassette
per case-run.

vcrpy patches HTTP globally and is not thread-safe, so concurrency uses processes: each worker
process has one active cassette at a time. A worker records a case into ``.partial/`` (see
``recorder.partial``); the parent, which holds the model dir's lock for the whole run, moves it into
place and rewrites ``run.json`` (atomically) after every finished case-run, so a killed recorder
leaves only whole case-runs, and a re-run records only what is missing and adopts what a killed run
finished. With ``--repeats K`` each (case, repeat) is one case-run with its own cassette
(``recorder.repeats``); a case id alone means its repeat 1.
"""

from __future__ import annotations

import contextlib
import math
import shutil
import time
import uuid
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

from fileio.safe_paths import inside
from recorder.discard import discard_new_dir
from recorder.endpoint import Endpoint, resolve_endpoint
from recorder.files import read_suite
from recorder.futile import FutileWatch, unpriced
from recorder.interrupts import Interrupts, RecordInterrupted, StopNow
from recorder.lock import model_dir_lock
from recorder.manifest import RecordedCase
from recorder.model_dir import open_manifest, prepare_model_dir
from recorder.partial import (
    ENTRY_SUFFIX,
    entry_path,
    pending_cassette,
    read_run,
    run_dir,
    take,
)
from recorder.record_case import CaseTask
from recorder.record_loop import record_here, record_in_processes
from recorder.repeats import CaseRun, as_run, run_cassette_target
from recorder.run_stamp import RunStamp
from recorder.settings import DEFAULTS, RecordSettings
from recorder.slug import checked_model_slug
from recorder.suite_served import StaleSuite
from scorer.errors import CassetteError, GatewayError, UsageError
from scorer.suite.model import Suite


def check_timeout(timeout_s: float) -> None:
    """UsageError unless ``timeout_s`` is a finite positive number of seconds."""
    if not (math.isfinite(timeout_s) and timeout_s > 0):
        raise UsageError(f"--timeout {timeout_s}: must be a finite number of seconds above 0")


def check_case_ids(suite: Suite, case_ids: Sequence[str]) -> None:
    """UsageError naming the first id that is not a case of ``suite``."""
    known = {case.id for case in suite.cases}
    unknown = [c for c in case_ids if c not in known]
    if unknown:
        raise UsageError(f"--case {unknown[0]!r}: no such case in {suite.source}")


@dataclass(frozen=True)
class RecordSummary:
    """What a record run did, by case-run (``str(CaseRun)``: the case id for repeat 1); ``adopted``
    are case-runs a killed earlier run had finished."""

    model_dir: Path
    recorded: tuple[str, ...]
    statuses: dict[str, str]
    seconds: float
    adopted: tuple[str, ...] = ()
    unpriced: str | None = None  # the warning when no 2xx answer of the run carried a price


def record(
    suite_path: Path,
    model: str,
    cassettes: Path,
    base_url: str | Endpoint,
    case_ids: Sequence[str | CaseRun],
    settings: RecordSettings = DEFAULTS,
    *,
    on_case: Callable[[CaseRun, RecordedCase], None] | None = None,
    sleep: Callable[[float], None] = time.sleep,
    notify: Callable[[str], None] = lambda _text: None,
    run: RunStamp | None = None,
    adopted: Sequence[CaseRun] | None = None,
    made: Path | None = None,
) -> RecordSummary:
    """Record ``case_ids`` (case-runs; a case id is its repeat 1) for ``model`` as ``settings``
    say (processes, limits, price header, wire; ``RecordSettings``); ``concurrency`` 1 records in
    this process.

    Ctrl-C once stops starting cases, twice (or SIGTERM) stops at once; either way the finished
    cases are kept and ``RecordInterrupted`` is raised. ``notify`` gets the lines worth telling
    the user (already scrubbed). ``run`` stamps the recording as a run of a history
    (``cassettes`` is then that run's dir); ``adopted``, what the caller's own
    ``prepare_model_dir`` adopted (the caller holds the model dir's lock from then on), else None:
    the dir is prepared here; ``made``, the outermost folder the caller made for this run on the
    way to the model dir (``recorder.discard.first_missing`` before taking the lock), else None:
    a run stopped as futile then removes the dir when it holds no answer."""
    concurrency = settings.concurrency
    if concurrency < 1:
        raise UsageError(f"--concurrency {concurrency}: must be at least 1")
    check_timeout(settings.timeout_s)
    endpoint = base_url if isinstance(base_url, Endpoint) else resolve_endpoint(base_url)
    suite = read_suite(suite_path)
    runs = [as_run(item) for item in case_ids]
    check_case_ids(suite, [run.case_id for run in runs])
    started = time.perf_counter()
    model_dir = inside(cassettes, checked_model_slug(model))
    with model_dir_lock(model_dir):
        if adopted is None:
            model_dir, adopted = prepare_model_dir(cassettes, model, suite, endpoint, settings)
        manifest = open_manifest(model_dir, model, suite, endpoint.stored, settings, run)
        manifest.repeats = max([manifest.repeats, *(run.repeat for run in runs)])
        manifest.write(model_dir)
        for run in runs:  # a cassette that is a link is refused before any request is paid for
            run_cassette_target(model_dir, run.case_id, run.repeat)
        folder = run_dir(model_dir, uuid.uuid4().hex[:12])
        tasks = [
            CaseTask(
                str(suite_path),
                suite.sha256,
                run.case_id,
                model,
                endpoint,
                str(pending_cassette(folder, run)),
                settings,
                run.repeat,
            )
            for run in runs
        ]
        kept: list[CaseRun] = []
        watch = FutileWatch(model, endpoint.url)

        def done(run: CaseRun) -> None:
            # Only this process moves cassettes into place, then updates run.json.
            entry = entry_path(pending_cassette(folder, run))
            taken = take(entry, model_dir, manifest)
            if taken is None or taken.run != run:
                raise CassetteError(
                    f"{folder}: the recording of {run} is not whole; run record again"
                )
            manifest.write(model_dir)
            # last: a run killed before this point leaves the entry for the next run to adopt
            entry.unlink()
            kept.append(run)
            watch.observe(manifest.entry(run.case_id, run.repeat), taken.unreachable)  # type: ignore[arg-type]
            interrupts.futile, interrupts.watching = watch.verdict is not None, not watch.settled
            interrupts.awaiting = watch.awaiting
            if on_case:
                on_case(run, manifest.entry(run.case_id, run.repeat))  # type: ignore[arg-type]

        interrupts = Interrupts(lambda text: notify(endpoint.scrub(text)))
        interrupts.awaiting = watch.awaiting
        stale: StaleSuite | None = None
        with interrupts.installed():
            try:
                if concurrency == 1 or len(tasks) <= 1:
                    record_here(tasks, done, interrupts, sleep)
                else:
                    # Longest cases first within each repeat (a chain makes up to 4 requests in a
                    # row), so no chain starts last and holds the run open alone, and a stopped run
                    # leaves whole repeats behind; run.json is written sorted, so the order changes
                    # nothing on disk.
                    steps = {case.id: len(case.steps) for case in suite.cases}
                    longest_first = sorted(
                        tasks, key=lambda task: (task.repeat, -steps[task.case_id])
                    )
                    record_in_processes(
                        longest_first, min(concurrency, len(tasks)), done, interrupts, notify
                    )
            except StopNow:
                pass
            except StaleSuite as exc:  # nothing of the gateway's other suite is kept
                stale = exc
            finally:
                interrupts.interruptible = False
                _keep_finished(folder, kept, done)
        if stale is not None:
            if made is not None:
                discard_new_dir(model_dir, manifest, made)
            raise stale
        if interrupts.draining or interrupts.stop_now:
            raise RecordInterrupted(len(kept))
        if watch.verdict is not None:
            gone = made is not None and discard_new_dir(model_dir, manifest, made)
            raise GatewayError(watch.stop_line(model_dir if gone else None))
    statuses = {
        str(run): manifest.entry(run.case_id, run.repeat).status for run in runs if run in kept
    }  # type: ignore[union-attr]
    recorded = tuple(str(run) for run in runs)
    seconds = time.perf_counter() - started
    warning = unpriced(model_dir, kept, settings.cost_header)
    return RecordSummary(model_dir, recorded, statuses, seconds, tuple(map(str, adopted)), warning)


def _keep_finished(folder: Path, kept: list[CaseRun], done: Callable[[CaseRun], None]) -> None:
    """Take every case-run of this run that finished but was not taken (a stop, an error), then
    clean up."""
    for entry in sorted(folder.rglob(f"*{ENTRY_SUFFIX}")):
        run = read_run(entry)
        if run is not None and run not in kept:
            with contextlib.suppress(CassetteError):
                done(run)
    shutil.rmtree(folder, ignore_errors=True)
    with contextlib.suppress(OSError):
        folder.parent.rmdir()  # .partial/, when no other leftovers are in it
