"""``lobstack-eval record``: run the suite against the gateway and write cassettes (only what is missing)."""

from __future__ import annotations

import sys
from pathlib import Path

import typer


def record(
    model: str = typer.Option(..., "--model", help="Model name as the gateway knows it, e.g. openai/gpt-4o or auto."),
    suite: Path = typer.Option(Path("evals/suite.json"), "--suite", help="Suite file."),
    cassettes: Path = typer.Option(Path("cassettes"), "--cassettes", help="Cassette directory."),
    base_url: str = typer.Option(
        None, "--base-url", help="API root ending before /chat/completions [env LOBSTACK_BASE_URL; default: Lobstack]."
    ),
    concurrency: int = typer.Option(4, "--concurrency", help="Cases recorded at once (worker processes)."),
    case: list[str] = typer.Option([], "--case", help="Only this case id (repeatable)."),
    rerecord: bool = typer.Option(False, "--rerecord", help="Record every selected case again, even if recorded."),
    timeout: float = typer.Option(120.0, "--timeout", help="Seconds without an answer before a request is retried."),
    cost_header: str = typer.Option(
        "x-lobstack-cost-usd",
        "--cost-header",
        help="Response header holding each call's price in USD (LiteLLM's proxy: x-litellm-response-cost).",
    ),
    shard: str = typer.Option(None, "--shard", help="Record only shard I/N of the cases (merge shard dirs after)."),
) -> int:
    """Record the suite for one model into cassettes/<model-slug>/ (resumes: records only what is missing)."""
    from lobstack_eval.progress import CaseProgress
    from recorder.client import header_name
    from recorder.files import read_suite
    from recorder.record import api_key_for, check_case_ids, record, resolve_base_url
    from recorder.slug import model_slug
    from replay.plan import cases_to_record
    from replay.shard import parse_shard
    from scorer.errors import UsageError

    if concurrency < 1:
        raise UsageError(f"--concurrency {concurrency}: must be at least 1")
    if timeout <= 0:
        raise UsageError(f"--timeout {timeout}: must be positive")
    header = header_name(cost_header)
    if header is None:
        raise UsageError(f"--cost-header {cost_header!r}: not an HTTP header name")
    url = resolve_base_url(base_url)
    api_key_for(url)  # fail before any work when the key is missing
    loaded = read_suite(suite)
    check_case_ids(loaded, case)  # before planning, which replays every selected case
    part = parse_shard(shard)
    if part is not None:
        case = part.select(model_slug(model), [c.id for c in loaded.cases], case)
        if not case:
            typer.echo(f"Nothing to record: shard {part} owns none of the selected cases of {model}.", err=True)
            return 0
    todo = cases_to_record(cassettes, model, loaded, case, rerecord)
    model_dir = cassettes / model_slug(model)
    if not todo:
        typer.echo(f"Nothing to record: every selected case of {model} is in {model_dir}.", err=True)
        typer.echo(f"Next: lobstack-eval rescore {cassettes}", err=True)
        return 0
    what = f"{len(todo)} case(s)" + (f" (shard {part})" if part else "")
    typer.echo(f"Recording {what} of {loaded.name} {loaded.version} for {model} via {url}", err=True)
    with CaseProgress(len(todo), sys.stderr) as progress:
        summary = record(
            suite,
            model,
            cassettes,
            url,
            todo,
            concurrency=concurrency,
            timeout_s=timeout,
            on_case=progress.update,
            cost_header=header,
        )
    counts = {s: list(summary.statuses.values()).count(s) for s in ("passed", "failed", "errored", "unrecorded")}
    transport = sum(1 for c in todo if progress.transport_errors.get(c))
    text = (
        f"Recorded {len(todo)} case(s) of {model} in {summary.seconds:.1f} s into {model_dir}: "
        f"{counts['passed']} passed, {counts['failed']} failed, {counts['errored']} errored"
        + (f" ({transport} by transport errors: run the same command again to retry them)" if transport else "")
        + f". These are the recorder's own verdicts; the scores come from: lobstack-eval rescore {cassettes}"
    )
    typer.echo(text, err=True)
    return 0
