"""``lobstack-eval rescore``: recompute every metric from cassettes only (never the network) and write reports."""

from __future__ import annotations

import math
import sys
from pathlib import Path

import typer

from lobstack_eval.suite_option import SUITE_DEFAULT_HELP


def rescore(
    cassettes: Path = typer.Argument(
        Path("cassettes"), help="Cassette directory (one folder per model)."
    ),
    suite: Path = typer.Option(
        None, "--suite", help=f"Suite file to score with {SUITE_DEFAULT_HELP}."
    ),
    out: Path = typer.Option(
        None,
        "--out",
        help="Where results.json files and the leaderboard go [default: reports; for a run of a history, "
        "CASSETTES/../history/<run-id>: reports/history/<run-id>].",
    ),
    workers: str = typer.Option(
        None,
        "--workers",
        metavar="INTEGER",
        help="Processes to score models with [default: automatic].",
    ),
    quiet: bool = typer.Option(False, "--quiet", "-q", help="Do not print the leaderboard."),
    power: bool = typer.Option(
        False,
        "--power",
        help="Also print, per model, the smallest Overall drop a re-run comparison can detect.",
    ),
    html: bool = typer.Option(
        True, "--html/--no-html", help="Also write index.html (the slowest part: plots)."
    ),
    detect: str = typer.Option(
        "5",
        "--detect",
        metavar="PTS",
        help="With --power: the repeats that would detect a drop of PTS points.",
    ),
    shard: str = typer.Option(
        None, "--shard", help="Score only shard I/N of the (model dir, case) pairs."
    ),
    rows: Path = typer.Option(
        None, "--rows", help="Also write this run's partitions into a rows dataset dir."
    ),
) -> int:
    """Re-score cassettes with the current suite and scorer: results.json per model, cases/calls.parquet, the
    leaderboard (from those rows) and index.html; --rows also appends the run to a rows dataset."""
    from lobstack_eval.options import whole_number
    from lobstack_eval.suite_option import chosen_suite
    from replay.hints import needs_recording, nothing_scored_line, record_command
    from replay.out_dir import check_outside, check_writable_dir
    from replay.rescore import rescore as run_rescore
    from replay.shard import parse_shard
    from scorer.errors import UsageError
    from scorer.safe_text import for_terminal

    processes = whole_number(workers, "--workers") if workers is not None else None
    try:
        points = float(detect)  # read as text, like the float options (lobstack_eval/options.py)
    except ValueError:
        points = math.nan
    if not 0 < points <= 100:  # also refuses nan and inf
        raise UsageError(f"--detect {detect}: expected points between 0 and 100")
    if out is None:
        from replay.score_models import default_out

        out = default_out(cassettes)
    # Reports inside the cassettes would be read back as model dirs (merge refuses the same setup).
    check_outside(out, [cassettes], "--out")
    if rows is not None:
        check_outside(rows, [cassettes], "--rows")
    from replay.score_models import find_model_dirs

    # no cassettes (a missing dir, a run that failed to record): say so before --out is created
    find_model_dirs(cassettes)
    check_writable_dir(out, "--out")
    part = parse_shard(shard)
    suite = chosen_suite(suite)[0]
    from replay.out_lock import out_dir_lock, rows_lock

    # one writer per dir: two rescores would remove each other's results as stale, or interleave rows
    with out_dir_lock(out, "rescore"), rows_lock(rows, out, "rescore"):
        summary = run_rescore(cassettes, suite, out, processes, html=html, shard=part, rows=rows)
    documents = [r.results for r in summary.reports if not r.error]
    # A model that failed whole, and every case-run whose cassette could not be used (scored as unrecorded).
    errors = [
        line for r in summary.reports for line in [*(u.line() for u in r.unusable), r.error] if line
    ]
    if part is not None:
        scored = sum(len(doc["results"]) for doc in documents)
        typer.echo(
            f"Shard {part}: re-scored {scored} case(s) of {len(documents)} model dir(s) into {out}/. "
            f"When every shard is done: lobstack-eval merge SHARD_DIRS... --out reports",
            err=True,
        )
        for line in errors:
            typer.echo(f"error: {for_terminal(line)}", err=True)
        return 1 if errors else 0
    if not quiet:
        from replay.leaderboard import ordered, tier_lines
        from replay.leaderboard_text import terminal_lines, terminal_width

        full = [str(out / "leaderboard.md"), *([str(out / "index.html")] if html else [])]
        board = summary.summaries
        for line in terminal_lines(board, summary.suite, terminal_width(sys.stdout), full):
            typer.echo(line)
        for line in tier_lines(board):
            typer.echo(line)
        if power:  # the same table is in index.html
            from replay.power_text import power_lines

            for line in power_lines(ordered(board), points):
                typer.echo(line)
    typed = {s.model_slug: s for s in summary.summaries}
    for report in summary.reports:
        if report.error:
            continue
        model = typed[report.slug]
        missing = model.case_runs.unrecorded
        command = (
            record_command(model, cassettes / report.slug, suite)
            if needs_recording(report.results)
            else None
        )
        if model.nothing_scored:  # written, but a run that scored none of its cases must not pass
            errors.append(nothing_scored_line(model, cassettes / report.slug, command))
        elif missing:
            what = "case-run(s)" if model.repeats > 1 else "case(s)"
            typer.echo(f"{missing} {what} of {model.model} need recording: {command}", err=True)
    for path in summary.removed:
        typer.echo(
            f"removed {path}: that model was not scored from {cassettes} this time", err=True
        )
    where = f" (open {out / 'index.html'} in a browser)" if html else ""
    typer.echo(f"Wrote {len(summary.files)} files to {out}/{where}", err=True)
    if rows is not None:
        typer.echo(
            f"Appended {len(documents)} partition(s) to {rows}/ (lobstack-eval leaderboard {rows})",
            err=True,
        )
    for line in errors:  # after the good news: every other case and model is scored and written
        typer.echo(f"error: {for_terminal(line)}", err=True)
    return 1 if errors else 0
