"""``lobstack-eval record``: run the suite against the gateway and write cassettes (only what
is missing)."""

from __future__ import annotations

import shlex
from pathlib import Path
from typing import TYPE_CHECKING, Any

import typer

from lobstack_eval.options import finite_number, whole_number
from lobstack_eval.suite_option import SUITE_DEFAULT_HELP
from scorer.wire.openai_chat import COST_HEADER

if TYPE_CHECKING:
    from lobstack_eval.record_session import RecordJob
    from recorder.run_stamp import RunStamp
    from recorder.settings import RecordSettings
    from scorer.wire.settings import Wire


_MODEL = typer.Option(
    ...,
    "--model",
    help="Model name as the gateway knows it, e.g. openai/gpt-4o or auto; repeat it to record "
    "several models at once (one process each).",
)
_SUITE = typer.Option(None, "--suite", help=f"Suite file {SUITE_DEFAULT_HELP}.")
_CASSETTES = typer.Option(Path("cassettes"), "--cassettes", help="Cassette directory.")
_HISTORY = typer.Option(
    False,
    "--history",
    help="Record a dated run of a history, into CASSETTES/history/<run-id>/<model-slug>/.",
)
_RUN_ID = typer.Option(
    None,
    "--run-id",
    metavar="ID",
    help="The run's id (implies --history) [default: today's UTC date, YYYY-MM-DD].",
)
_BASE_URL = typer.Option(
    None,
    "--base-url",
    help="API root ending before /chat/completions (or /responses, /messages) [env "
    "LOBSTACK_BASE_URL; default: Lobstack].",
)
_CONCURRENCY = typer.Option(
    "4",
    "--concurrency",
    metavar="N",
    parser=whole_number("--concurrency"),
    help="Cases recorded at once (worker processes).",
)
_CASE = typer.Option([], "--case", help="Only this case id (repeatable).")
_RERECORD = typer.Option(
    False, "--rerecord", help="Record every selected case again, even if recorded."
)
_TIMEOUT = typer.Option(
    "120",
    "--timeout",
    metavar="S",
    parser=finite_number("--timeout", "seconds", inclusive=False),
    help=(
        "Seconds one attempt may take, whole answer included (headers and body, however slowly "
        "sent), before it is retried."
    ),
)
_COST_HEADER = typer.Option(
    COST_HEADER,
    "--cost-header",
    help="Response header holding each call's price in USD (LiteLLM's proxy: "
    "x-litellm-response-cost).",
)
_DIALECT = typer.Option(
    "chat",
    "--dialect",
    help="API dialect: chat (/chat/completions), responses (/responses) or messages "
    "(Anthropic /messages).",
)
_STREAM = typer.Option(False, "--stream", help="Ask for streamed (SSE) answers; kept raw.")
_PARAM = typer.Option(
    [],
    "--param",
    metavar="NAME=VALUE",
    help="A request setting (repeatable): tool_choice, parallel_tool_calls, max_tokens, "
    "reasoning_effort, body.FIELD, header.NAME.",
)
_SHARD = typer.Option(
    None, "--shard", help="Record only shard I/N of the cases (merge shard dirs after)."
)


def _repeats(text: Any) -> int:
    from recorder.repeats import MAX_REPEATS  # here, not at start-up: it loads vcrpy

    return int(whole_number("--repeats", maximum=MAX_REPEATS)(text))


_REPEATS = typer.Option(
    "1",
    "--repeats",
    metavar="K",
    parser=_repeats,
    help="Record K independent runs of every case (repeat 1 is the usual run).",
)
_MAX_ANSWER_MB = typer.Option(
    "32",
    "--max-answer-mb",
    metavar="MB",
    parser=finite_number("--max-answer-mb", "MiB", inclusive=False),
    help=(
        "Largest answer kept, in MiB on the wire and once decoded (gzip included); a larger "
        "Content-Length is refused unread."
    ),
)


def record(
    model: list[str] = _MODEL,
    suite: Path = _SUITE,
    cassettes: Path = _CASSETTES,
    history: bool = _HISTORY,
    run_id: str = _RUN_ID,
    base_url: str = _BASE_URL,
    concurrency: int = _CONCURRENCY,
    case: list[str] = _CASE,
    rerecord: bool = _RERECORD,
    timeout: float = _TIMEOUT,
    cost_header: str = _COST_HEADER,
    shard: str = _SHARD,
    repeats: int = _REPEATS,
    max_answer_mb: float = _MAX_ANSWER_MB,
    dialect: str = _DIALECT,
    stream: bool = _STREAM,
    param: list[str] = _PARAM,
) -> int:
    """Record the suite for one model into cassettes/<model-slug>/ (resumes: records only what
    is missing).

    With --history (or --run-id) the recording is one dated run of a history, kept beside the
    earlier runs in cassettes/history/<run-id>/<model-slug>/; rescore that run dir to score it.

    Ctrl-C once stops starting cases and finishes the running ones; twice (or SIGTERM) stops at
    once. Either way every finished case is kept (exit 130), and the same command records the
    rest. The plan comes first: with nothing to record it says so and exits 0 (no key needed).
    Several --model: each model in its own process at once, then one summary."""
    from lobstack_eval.record_session import record_model

    wire = _wire(dialect, stream, param)
    settings = _settings(concurrency, timeout, max_answer_mb, cost_header, wire)
    run = _run_stamp(run_id) if history or run_id is not None else None
    if len(model) > 1:  # every option checked once, here; a history's run id fixed for all
        given = (suite, base_url, shard, run and run.id, cassettes, concurrency, timeout,
                 cost_header, repeats, max_answer_mb, dialect)  # fmt: skip
        flags = [*(["--stream"] * stream), *(t for p in param for t in ("--param", p))]
        return _several(model, given, case, [*flags, *(["--rerecord"] * rerecord)])
    parts = (model[0], cassettes, base_url, shard, suite, case, rerecord)
    return record_model(_job(parts, run, repeats, settings))


def _job(
    parts: tuple[Any, ...], run: RunStamp | None, repeats: int, settings: RecordSettings
) -> RecordJob:
    """One model's record job from its options (``parts``: the model, --cassettes, --base-url,
    --shard, --suite, the --case ids and --rerecord), checked."""
    from lobstack_eval.record_session import RecordJob
    from lobstack_eval.suite_option import chosen_suite
    from recorder.endpoint import locate_endpoint
    from recorder.slug import checked_model_slug
    from replay.shard import parse_shard

    model, cassettes, base_url, shard, suite, case, rerecord = parts
    slug = checked_model_slug(model)
    root, cassettes = cassettes, _history_dir(cassettes, run)  # no link below root is followed
    part = parse_shard(shard)
    # rescore reads the default suite unless told: the hints name the file this record was given
    suite_flag = "" if suite is None else f" --suite {shlex.quote(str(suite))}"
    suite = chosen_suite(suite)[0]
    # The key is asked for only once the plan holds something to record (METHOD decision 91).
    endpoint = locate_endpoint(base_url)
    return RecordJob(
        suite, model, slug, cassettes, endpoint, case, rerecord, part, run, repeats, settings,
        suite_flag, root,
    )  # fmt: skip


# The options a model's own record process is given, in the order ``record`` passes them.
_SEVERAL = ("--suite", "--base-url", "--shard", "--run-id", "--cassettes", "--concurrency",
            "--timeout", "--cost-header", "--repeats", "--max-answer-mb", "--dialect")  # fmt: skip


def _several(
    models: list[str], given: tuple[object, ...], case: list[str], flags: list[str]
) -> int:
    """Record ``models`` at once, each with the ``given`` options (``_SEVERAL``'s; None: not
    given), the ``--case`` ids and the ``flags`` given as they are (``--stream``, each
    ``--param``, ``--rerecord``); the highest exit code of theirs."""
    from lobstack_eval.record_models import record_models
    from replay.shard import parse_shard

    parse_shard(given[2])  # type: ignore[arg-type]  # a bad one: one usage error, here
    pairs = [*zip(_SEVERAL, given, strict=True), *(("--case", c) for c in case)]
    arguments = [text for flag, value in pairs if value is not None for text in (flag, str(value))]
    return record_models(models, arguments + flags)


def _settings(
    concurrency: int, timeout_s: float, max_answer_mb: float, cost_header: str, wire: Wire
) -> RecordSettings:
    """How to record, as one value: the parsed numbers, --cost-header checked (a bad one is a
    usage error naming it) and the wire."""
    from recorder.client import header_name
    from recorder.settings import RecordSettings
    from scorer.errors import UsageError

    header = header_name(cost_header)
    if header is None:
        raise UsageError(f"--cost-header {cost_header!r}: not an HTTP header name")
    return RecordSettings(concurrency, timeout_s, 1.0, max_answer_mb, header, wire)


def _wire(dialect: str, stream: bool, params: list[str]) -> Wire:
    """--dialect, --stream and --param, checked: a bad one is a usage error naming it."""
    from scorer.wire.dialect import checked_wire

    return checked_wire(dialect, stream, params)


def _history_dir(cassettes: Path, run: RunStamp | None) -> Path:
    """Where the model dirs go: the cassettes dir, or for a run of a history its run dir."""
    if run is None:
        return cassettes
    from recorder.run_stamp import run_dir

    return run_dir(cassettes, run.id)


def _run_stamp(run_id: str | None) -> RunStamp:
    """The run of a history being recorded: its id (given, or today's UTC date) and its date."""
    from recorder.run_stamp import RunStamp, check_run_id, default_run_id, now_utc, recorded_at_text

    started = now_utc()  # the recorder's clock, read once: the run's date (docs/FORMATS.md)
    return RunStamp(
        check_run_id(run_id) if run_id is not None else default_run_id(started),
        recorded_at_text(started),
    )
