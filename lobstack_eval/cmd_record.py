"""``lobstack-eval record``: run the suite against the gateway and write cassettes (only what is missing)."""

from __future__ import annotations

import sys
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

import typer

from lobstack_eval.suite_option import SUITE_DEFAULT_HELP

if TYPE_CHECKING:
    from recorder.endpoint import Endpoint
    from recorder.run_stamp import RunStamp
    from replay.shard import Shard


def record(
    model: str = typer.Option(
        ..., "--model", help="Model name as the gateway knows it, e.g. openai/gpt-4o or auto."
    ),
    suite: Path = typer.Option(None, "--suite", help=f"Suite file {SUITE_DEFAULT_HELP}."),
    cassettes: Path = typer.Option(Path("cassettes"), "--cassettes", help="Cassette directory."),
    history: bool = typer.Option(
        False,
        "--history",
        help="Record a dated run of a history, into CASSETTES/history/<run-id>/<model-slug>/.",
    ),
    run_id: str = typer.Option(
        None,
        "--run-id",
        metavar="ID",
        help="The run's id (implies --history) [default: today's UTC date, YYYY-MM-DD].",
    ),
    base_url: str = typer.Option(
        None,
        "--base-url",
        help="API root ending before /chat/completions [env LOBSTACK_BASE_URL; default: Lobstack].",
    ),
    concurrency_text: str = typer.Option(
        "4", "--concurrency", metavar="N", help="Cases recorded at once (worker processes)."
    ),
    case: list[str] = typer.Option([], "--case", help="Only this case id (repeatable)."),
    rerecord: bool = typer.Option(
        False, "--rerecord", help="Record every selected case again, even if recorded."
    ),
    timeout: str = typer.Option(
        "120",
        "--timeout",
        metavar="S",
        help="Seconds one attempt may take, whole answer included, before it is retried.",
    ),
    cost_header: str = typer.Option(
        "x-lobstack-cost-usd",
        "--cost-header",
        help="Response header holding each call's price in USD (LiteLLM's proxy: x-litellm-response-cost).",
    ),
    shard: str = typer.Option(
        None, "--shard", help="Record only shard I/N of the cases (merge shard dirs after)."
    ),
    repeats_text: str = typer.Option(
        "1",
        "--repeats",
        metavar="K",
        help="Record K independent runs of every case (repeat 1 is the usual run).",
    ),
    max_answer_mb: str = typer.Option(
        "32",
        "--max-answer-mb",
        metavar="MB",
        help="Largest answer kept, in MiB once decoded (gzip included).",
    ),
) -> int:
    """Record the suite for one model into cassettes/<model-slug>/ (resumes: records only what is missing).

    With --history (or --run-id) the recording is one dated run of a history, kept beside the earlier runs in
    cassettes/history/<run-id>/<model-slug>/; rescore that run dir to score it.

    Ctrl-C once stops starting cases and finishes the running ones; twice (or SIGTERM) stops at once. Either way
    every finished case is kept (exit 130), and the same command records the rest. The plan comes first: with
    nothing to record it says so and exits 0 (no key needed)."""
    from fileio.safe_paths import inside
    from lobstack_eval.options import finite_number, whole_number
    from lobstack_eval.suite_option import chosen_suite
    from recorder.client import header_name
    from recorder.endpoint import locate_endpoint, require_key
    from recorder.files import read_suite
    from recorder.interrupts import RecordInterrupted, terminate_as_interrupt
    from recorder.lock import model_dir_lock
    from recorder.record import check_case_ids
    from recorder.repeats import MAX_REPEATS
    from recorder.slug import checked_model_slug
    from replay.shard import parse_shard
    from scorer.errors import LobstackError, UsageError

    concurrency = whole_number(concurrency_text, "--concurrency")
    repeats = whole_number(repeats_text, "--repeats", maximum=MAX_REPEATS)
    timeout_s = finite_number(timeout, "--timeout", "seconds", inclusive=False)
    answer_mb = finite_number(max_answer_mb, "--max-answer-mb", "MiB", inclusive=False)
    header = header_name(cost_header)
    if header is None:
        raise UsageError(f"--cost-header {cost_header!r}: not an HTTP header name")
    slug = checked_model_slug(model)
    run = None
    if history or run_id is not None:
        from recorder.run_stamp import (
            RunStamp,
            check_run_id,
            default_run_id,
            now_utc,
            recorded_at_text,
        )
        from recorder.run_stamp import run_dir as history_run_dir

        started = now_utc()  # the recorder's clock, read once: the run's date (docs/FORMATS.md)
        run = RunStamp(
            check_run_id(run_id) if run_id is not None else default_run_id(started),
            recorded_at_text(started),
        )
        cassettes = history_run_dir(cassettes, run.id)
    part = parse_shard(shard)
    suite = chosen_suite(suite)[0]
    # The key is asked for only once the plan holds something to record (METHOD decision 91).
    endpoint = locate_endpoint(base_url)
    say = _printer(endpoint.scrub)
    what = "case(s)" if repeats == 1 else "case-run(s)"
    try:
        with terminate_as_interrupt():
            loaded = read_suite(suite)
            check_case_ids(loaded, case)  # before planning, which replays every selected case
            if part is not None:
                case = part.select(slug, [c.id for c in loaded.cases], case)
                if not case:
                    say(
                        f"Nothing to record: shard {part} owns none of the selected cases of {model}."
                    )
                    return 0
            if not (cassettes / slug).is_dir():
                require_key(
                    endpoint
                )  # nothing recorded yet, so all is to record: fail before creating a folder
            # inside(): a model dir that links out of the cassettes dir is refused before its lock is created there
            with model_dir_lock(inside(cassettes, slug)):  # held from planning to the last case
                return _record_locked(
                    suite,
                    model,
                    cassettes,
                    endpoint,
                    case,
                    rerecord,
                    concurrency,
                    timeout_s,
                    header,
                    say,
                    part,
                    repeats,
                    answer_mb,
                    run,
                )
    except RecordInterrupted as stopped:
        say(
            f"Kept {stopped.kept} finished {what} of this run; run the same command again to record the rest."
        )
        raise
    except LobstackError as exc:  # every line this command prints goes through the scrubber
        exc.message = endpoint.scrub(exc.message)
        raise


def _scoring(cassettes: Path, part: Shard | None) -> str:
    """What to run for the scores: rescore the cassettes, or for one shard, merge every shard's dir first (a
    shard's dir alone holds a part of the cases, the rest of which rescore would list as unrecorded)."""
    if part is None:
        return f"lobstack-eval rescore {cassettes}"
    return (
        f"once all {part.count} shards are recorded, lobstack-eval merge SHARD_DIRS... --out merged/ then "
        f"lobstack-eval rescore merged/ (shards recorded into one dir: lobstack-eval rescore {cassettes})"
    )


def _record_locked(
    suite: Path,
    model: str,
    cassettes: Path,
    endpoint: Endpoint,
    case: list[str],
    rerecord: bool,
    concurrency: int,
    timeout: float,
    cost_header: str,
    say: Callable[[str], None],
    part: Shard | None,
    repeats: int,
    max_answer_mb: float = 32.0,
    run: RunStamp | None = None,
) -> int:
    from lobstack_eval.progress import CaseProgress
    from recorder.endpoint import require_key
    from recorder.files import read_suite
    from recorder.record import prepare_model_dir, record
    from replay.plan import runs_to_record
    from scorer.errors import GatewayError

    loaded = read_suite(suite)
    model_dir, adopted = prepare_model_dir(cassettes, model, loaded, endpoint, cost_header)
    what = "case(s)" if repeats == 1 and all(run.repeat == 1 for run in adopted) else "case-run(s)"
    if adopted:
        say(
            f"Adopted {len(adopted)} {what} that an interrupted run had finished (not paid for again)."
        )
    todo = runs_to_record(cassettes, model, loaded, case, rerecord, repeats)
    what = "case(s)" if repeats == 1 else "case-run(s)"
    if not todo:
        say(
            _nothing_to_record(
                model, model_dir, len(dict.fromkeys(case)) or len(loaded.cases), bool(case), repeats
            )
        )
        say(f"Next: {_scoring(cassettes, part)}")
        return 0
    require_key(endpoint)
    per_case = "" if repeats == 1 else f" ({repeats} repeats per case)"
    which = f"{len(todo)} {what}{per_case}" + (f" (shard {part})" if part else "")
    say(f"Recording {which} of {loaded.name} {loaded.version} for {model} via {endpoint.url}")
    with CaseProgress(len(todo), sys.stderr, endpoint.scrub) as progress:
        summary = record(
            suite,
            model,
            cassettes,
            endpoint,
            todo,
            concurrency=concurrency,
            timeout_s=timeout,
            on_case=progress.update,
            notify=progress.note,
            cost_header=cost_header,
            max_answer_mb=max_answer_mb,
            run=run,
        )
    statuses = list(summary.statuses.values())
    counts = {s: statuses.count(s) for s in ("passed", "failed", "errored", "unrecorded")}
    transport = sum(1 for c in todo if progress.transport_errors.get(c))
    missing = len(todo) - len(statuses)
    say(
        f"Recorded {len(statuses)} {what} of {model} in {summary.seconds:.1f} s into {model_dir}: "
        f"{counts['passed']} passed, {counts['failed']} failed, {counts['errored']} errored"
        + (
            f" ({transport} by transport errors: run the same command again to retry them)"
            if transport
            else ""
        )
        + (f"; {missing} not recorded (run the same command again)" if missing else "")
        + f". These are the recorder's own verdicts; the scores come from: {_scoring(cassettes, part)}"
    )
    if summary.unpriced:
        say(summary.unpriced)
    if progress.refused:
        first = sorted(progress.refused.items(), key=lambda item: str(item[0]))[0]
        raise GatewayError(
            f"the gateway refused {len(progress.refused)} {what} before any model answered (first: {first[0]}: "
            f"{first[1]}); check the key and --model, then run the same command again: it records them again"
        )
    return 0


def _nothing_to_record(
    model: str, model_dir: Path, cases: int, selected: bool, repeats: int
) -> str:
    which = f"all {cases} {'selected ' if selected else ''}case(s) of {model}"
    times = "" if repeats == 1 else f", each {repeats} times"
    return f"Nothing to record: {which} are recorded in {model_dir}{times}; --rerecord records them again."


def _printer(scrub: Callable[[str], str]) -> Callable[[str], None]:
    def say(text: str) -> None:
        typer.echo(scrub(text), err=True)

    return say
