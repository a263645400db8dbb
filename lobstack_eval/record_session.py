"""One ``record`` session on the terminal: plan, adopt an interrupted run's cases, record with
progress, say what was recorded and what to run next. ``lobstack_eval/cmd_record.py`` parses the
options into a ``RecordJob``."""

from __future__ import annotations

import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

import typer

if TYPE_CHECKING:
    from lobstack_eval.progress import CaseProgress
    from recorder.endpoint import Endpoint
    from recorder.record import RecordSummary
    from recorder.repeats import CaseRun
    from recorder.run_stamp import RunStamp
    from recorder.settings import RecordSettings
    from replay.shard import Shard
    from scorer.suite.model import Suite


@dataclass(frozen=True)
class RecordJob:
    """What ``record`` was asked to do, its options parsed and checked."""

    suite: Path
    model: str
    slug: str
    cassettes: Path
    endpoint: Endpoint
    case: list[str]
    rerecord: bool
    part: Shard | None
    run: RunStamp | None
    repeats: int  # --repeats: each case recorded this many times
    settings: RecordSettings  # --concurrency, --timeout, --max-answer-mb, --cost-header, the wire
    # `` --suite FILE`` when record was given one: rescore reads the default suite unless told
    suite_flag: str = ""
    # the --cassettes the user gave (``cassettes`` is its history/<run-id>/ for a run of a
    # history): no level below it may be a symbolic link; None: ``cassettes`` itself
    root: Path | None = None


def record_model(job: RecordJob) -> int:
    """Record what is missing of ``job``'s model, under its model dir's lock; the exit code. Every
    line said goes through the endpoint's scrubber, so no key is ever printed."""
    from fileio.safe_paths import inside
    from recorder.discard import first_missing
    from recorder.endpoint import require_key
    from recorder.files import read_suite
    from recorder.interrupts import RecordInterrupted, terminate_as_interrupt
    from recorder.lock import model_dir_lock
    from recorder.record import check_case_ids
    from scorer.errors import LobstackError

    say = _printer(job.endpoint.scrub)
    what = "case(s)" if job.repeats == 1 else "case-run(s)"
    case, part = job.case, job.part
    try:
        with terminate_as_interrupt():
            loaded = read_suite(job.suite)
            check_case_ids(loaded, case)  # before planning, which replays every selected case
            if part is not None:
                case = part.select(job.slug, [c.id for c in loaded.cases], case)
                if not case:
                    say(
                        f"Nothing to record: shard {part} owns none of the selected cases of "
                        f"{job.model}."
                    )
                    return 0
            if not (job.cassettes / job.slug).is_dir():
                # nothing recorded yet, so all is to record: fail before creating a folder
                require_key(job.endpoint)
            # inside(): a model dir, or history/ or history/<run-id>/ above it, that is a link
            # is refused before the lock is created there
            root = job.root or job.cassettes
            model_dir = inside(root, *(job.cassettes / job.slug).relative_to(root).parts)
            made = first_missing(model_dir)  # a futile run removes what it made
            with model_dir_lock(model_dir):  # held from planning to the last case
                return _record_locked(job, loaded, case, say, made)
    except RecordInterrupted as stopped:
        say(
            f"Kept {stopped.kept} finished {what} of this run; run the same command again to "
            "record the rest."
        )
        raise
    except LobstackError as exc:  # every line this command prints goes through the scrubber
        exc.message = job.endpoint.scrub(exc.message)
        raise


def _record_locked(
    job: RecordJob, loaded: Suite, case: list[str], say: Callable[[str], None], made: Path | None
) -> int:
    """Adopt, plan and record ``job``'s cases of ``loaded`` (the suite ``record_model`` read);
    ``made``, the outermost folder this run made for the model dir (None: it was there)."""
    from lobstack_eval.progress import CaseProgress
    from recorder.endpoint import require_key
    from recorder.model_dir import prepare_model_dir
    from recorder.record import record
    from replay.plan import runs_to_record

    model, cassettes, repeats = job.model, job.cassettes, job.repeats
    model_dir, adopted = prepare_model_dir(cassettes, model, loaded, job.endpoint, job.settings)
    what = "case(s)" if repeats == 1 and all(run.repeat == 1 for run in adopted) else "case-run(s)"
    if adopted:
        say(
            f"Adopted {len(adopted)} {what} that an interrupted run had finished (not paid for "
            "again)."
        )
    todo = runs_to_record(cassettes, model, loaded, case, job.rerecord, repeats)
    if not todo:
        cases = len(dict.fromkeys(case)) or len(loaded.cases)
        say(_nothing_to_record(model, model_dir, cases, bool(case), repeats))
        say(f"next: {_scoring(cassettes, job.part, job.suite_flag)}")
        return 0
    require_key(job.endpoint)
    what = "case(s)" if repeats == 1 else "case-run(s)"
    per_case = "" if repeats == 1 else f" ({repeats} repeats per case)"
    which = f"{len(todo)} {what}{per_case}" + (f" (shard {job.part})" if job.part else "")
    say(f"Recording {which} of {loaded.name} {loaded.version} for {model} via {job.endpoint.url}")
    with CaseProgress(len(todo), sys.stderr, job.endpoint.scrub) as progress:
        summary = record(
            job.suite,
            model,
            cassettes,
            job.endpoint,
            todo,
            job.settings,
            on_case=progress.update,
            notify=progress.note,
            run=job.run,
            adopted=adopted,
            made=made,
        )
    _say_recorded(job, summary, todo, progress, model_dir, say)
    return 0


def _say_recorded(
    job: RecordJob,
    summary: RecordSummary,
    todo: list[CaseRun],
    progress: CaseProgress,
    model_dir: Path,
    say: Callable[[str], None],
) -> None:
    """The line of what was recorded and what to run next; the refused calls as a GatewayError."""
    from scorer.errors import GatewayError
    from scorer.status import STATUSES

    what = "case(s)" if job.repeats == 1 else "case-run(s)"
    statuses = list(summary.statuses.values())
    counts = {s: statuses.count(s) for s in STATUSES}
    transport = sum(1 for c in todo if progress.transport_errors.get(c))
    missing = len(todo) - len(statuses)
    say(
        f"Recorded {len(statuses)} {what} of {job.model} in {summary.seconds:.1f} s into "
        f"{model_dir}: {counts['passed']} passed, {counts['failed']} failed, {counts['errored']} "
        "errored"
        + (
            f" ({transport} by transport errors: run the same command again to retry them)"
            if transport
            else ""
        )
        + (f"; {missing} not recorded (run the same command again)" if missing else "")
        + ". These are the recorder's own verdicts; the scores come from: "
        + _scoring(job.cassettes, job.part, job.suite_flag)
    )
    if summary.unpriced:
        say(summary.unpriced)
    if progress.refused:
        first = sorted(progress.refused.items(), key=lambda item: str(item[0]))[0]
        raise GatewayError(
            f"the gateway refused {len(progress.refused)} {what} before any model answered (first: "
            f"{first[0]}: {first[1]}); check the key and --model, then run the same command again: "
            "it records them again"
        )
    if statuses and transport == len(statuses):
        # Nothing of this run can be scored: a success exit would let a CI job go on with
        # nothing new (decision recording.md#a-run-with-only-transport-errors-fails).
        raise GatewayError(
            f"nothing of this run can be scored: all {len(statuses)} {what} errored by transport "
            f"errors at {job.endpoint.url} (no answer in time, no connection, or 429/502/503/504 "
            "after every retry); run the same command again to retry them"
        )


def _scoring(cassettes: Path, part: Shard | None, suite_flag: str = "") -> str:
    """What to run for the scores: rescore the cassettes, or for one shard, merge every shard's dir
    first (a shard's dir alone holds a part of the cases, the rest of which rescore would list
    as unrecorded). ``suite_flag`` is `` --suite FILE`` when record was given one."""
    if part is None:
        return f"lobstack-eval rescore {cassettes}{suite_flag}"
    return (
        f"once all {part.count} shards are recorded, lobstack-eval merge SHARD_DIRS... --out "
        f"merged/ then lobstack-eval rescore merged/{suite_flag} (shards recorded into one dir: "
        f"lobstack-eval rescore {cassettes}{suite_flag})"
    )


def _nothing_to_record(
    model: str, model_dir: Path, cases: int, selected: bool, repeats: int
) -> str:
    which = f"all {cases} {'selected ' if selected else ''}case(s) of {model}"
    times = "" if repeats == 1 else f", each {repeats} times"
    return (
        f"Nothing to record: {which} are recorded in {model_dir}{times}; --rerecord records "
        "them again."
    )


def _printer(scrub: Callable[[str], str]) -> Callable[[str], None]:
    def say(text: str) -> None:
        typer.echo(scrub(text), err=True)

    return say
