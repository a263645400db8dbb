"""``lobstack-eval rescore``: recompute every metric from cassettes only (never the network) and
write reports."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import TYPE_CHECKING

import typer

from lobstack_eval.options import DETECT, whole_number
from lobstack_eval.suite_option import SUITE_DEFAULT_HELP

if TYPE_CHECKING:
    from replay.rescore import RescoreSummary
    from scorer.suite.model import Suite
    from scorer.summary import ModelSummary


_CASSETTES = typer.Argument(
    Path("cassettes"), metavar="CASSETTES", help="Cassette directory (one folder per model)."
)
_SUITE = typer.Option(None, "--suite", help=f"Suite file to score with {SUITE_DEFAULT_HELP}.")
_OUT = typer.Option(
    None,
    "--out",
    help="Where results.json files and the leaderboard go [default: reports; for a run of a "
    "history, CASSETTES/../history/<run-id>: reports/history/<run-id>].",
)
_WORKERS = typer.Option(
    None,
    "--workers",
    metavar="INTEGER",
    parser=whole_number("--workers"),
    help="Processes to score models with [default: automatic].",
)
_QUIET = typer.Option(False, "--quiet", "-q", help="Do not print the leaderboard.")
_POWER = typer.Option(
    False,
    "--power",
    help="Also print, per model, the smallest Overall drop a re-run comparison can detect.",
)
_HTML = typer.Option(
    True, "--html/--no-html", help="Also write index.html (the slowest part: plots)."
)
_DETECT = typer.Option(
    5,
    "--detect",
    metavar="PTS",
    parser=DETECT,
    help="With --power: the repeats that would detect a drop of PTS points.",
)
_SHARD = typer.Option(None, "--shard", help="Score only shard I/N of the (model dir, case) pairs.")
_ROWS = typer.Option(
    None, "--rows", help="Also write this run's partitions into a rows dataset dir."
)


def rescore(
    cassettes: Path = _CASSETTES,
    suite: Path = _SUITE,
    out: Path = _OUT,
    workers: int | None = _WORKERS,
    quiet: bool = _QUIET,
    power: bool = _POWER,
    html: bool = _HTML,
    detect: float = _DETECT,
    shard: str = _SHARD,
    rows: Path = _ROWS,
) -> int:
    """Re-score cassettes with the current suite and scorer: results.json per model,
    cases/calls.parquet, the leaderboard (from those rows) and index.html; --rows also appends
    the run to a rows dataset."""
    from lobstack_eval.suite_option import chosen_suite
    from replay.out.lock import out_dir_lock, rows_lock
    from replay.rescore import rescore as run_rescore
    from replay.shard import parse_shard

    if shard is None and _is_history(cassettes):  # a history of recordings: one process
        return _history(cassettes, chosen_suite(suite)[0], out, rows, workers, html)
    out = _checked_dirs(cassettes, out, rows)
    part = parse_shard(shard)
    suite = chosen_suite(suite)[0]
    # one writer per dir: two rescores would remove each other's results, or interleave rows
    with out_dir_lock(out, "rescore"), rows_lock(rows, out, "rescore"):
        summary = run_rescore(cassettes, suite, out, workers, html=html, shard=part, rows=rows)
    documents = [r.results for r in summary.reports if not r.error]
    # A model that failed whole, and every case-run whose cassette could not be used (scored
    # as unrecorded).
    errors = [
        line for r in summary.reports for line in [*(u.line() for u in r.unusable), r.error] if line
    ]
    if part is not None:
        scored = sum(len(doc["results"]) for doc in documents)
        typer.echo(
            f"Shard {part}: re-scored {scored} case(s) of {len(documents)} model dir(s) into "
            f"{out}/. When every shard is done: lobstack-eval merge SHARD_DIRS... --out reports",
            err=True,
        )
        return _errors(errors)
    if not quiet:
        _leaderboard(summary.summaries, summary.suite, out, html, detect if power else None)
    errors += _unrecorded(summary, cassettes, suite)
    _wrote(summary, cassettes, html, rows, len(documents))
    return _errors(errors)


def _is_history(cassettes: Path) -> bool:
    """A history of recordings (run dirs of model dirs): ``rescore`` scores every run."""
    from replay.history_runs import run_dirs

    return bool(run_dirs(cassettes))


def _history(
    history: Path, suite: Path, out: Path | None, rows: Path | None, workers: int | None, html: bool
) -> int:
    """``rescore cassettes/history``: every run scored in this process (its workers) into
    ``OUT/<run-id>/`` (OUT: reports/history), each appended to ``rows`` when given; one line a run
    on stderr, every error line after them. Exit 1 on any error, as for one run."""
    from replay.history_runs import run_dirs
    from replay.out.lock import out_dir_lock, rows_lock
    from replay.rescore import rescore as run_rescore

    root = Path("reports") / "history" if out is None else out
    errors: list[str] = []
    for run in run_dirs(history):
        target = _checked_dirs(run, root / run.name, rows)
        with out_dir_lock(target, "rescore"), rows_lock(rows, target, "rescore"):
            summary = run_rescore(run, suite, target, workers, html=html, rows=rows)
        errors += [
            line for r in summary.reports for line in [*(u.line() for u in r.unusable), r.error]
            if line
        ]  # fmt: skip
        errors += _unrecorded(summary, run, suite)
        models = sum(1 for r in summary.reports if not r.error)
        typer.echo(f"run {run.name}: {models} model(s) -> {target}/", err=True)
    where = f" and appended each to {rows}/" if rows is not None else ""
    typer.echo(f"scored {len(run_dirs(history))} run(s) of {history} into {root}/{where}", err=True)
    return _errors(errors)


def _wrote(
    summary: RescoreSummary, cassettes: Path, html: bool, rows: Path | None, partitions: int
) -> None:
    """What rescore removed and wrote, on stderr."""
    out = summary.out
    for path in summary.removed:
        typer.echo(
            f"removed {path}: that model was not scored from {cassettes} this time", err=True
        )
    where = f" (open {out / 'index.html'} in a browser)" if html else ""
    typer.echo(f"wrote {len(summary.files)} files to {out}/{where}", err=True)
    if rows is not None:
        typer.echo(
            f"Appended {partitions} partition(s) to {rows}/ (lobstack-eval leaderboard {rows})",
            err=True,
        )


def _checked_dirs(cassettes: Path, out: Path | None, rows: Path | None) -> Path:
    """--out (its default when not given), checked with --rows against the cassettes."""
    from replay.out.folder import check_outside, check_writable_dir

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
    return out


def _leaderboard(
    board: list[ModelSummary], suite: Suite, out: Path, html: bool, points: float | None
) -> None:
    """The terminal leaderboard, its tiers and (with --power) the power table."""
    from replay.leaderboard.tables import ordered, tier_lines
    from replay.leaderboard.text import terminal_lines, terminal_width

    full = [str(out / "leaderboard.md"), *([str(out / "index.html")] if html else [])]
    for line in terminal_lines(board, suite, terminal_width(sys.stdout), full):
        typer.echo(line)
    for line in tier_lines(board):
        typer.echo(line)
    if points is not None:  # the same table is in index.html
        from replay.power_text import power_lines

        for line in power_lines(ordered(board), points):
            typer.echo(line)


def _unrecorded(summary: RescoreSummary, cassettes: Path, suite: Path) -> list[str]:
    """Say which models need recording; the error line of each model that scored nothing at all."""
    from replay.hints import needs_recording, nothing_scored_line, only_refused, record_command

    errors = []
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
            refused = only_refused(report.results)  # the dir of a typo: deleting it is a fix
            errors.append(nothing_scored_line(model, cassettes / report.slug, command, refused))
        elif missing:
            what = "case-run(s)" if model.repeats > 1 else "case(s)"
            typer.echo(f"{missing} {what} of {model.model} need recording: {command}", err=True)
    return errors


def _errors(errors: list[str]) -> int:
    """Each error line, after the good news (every other case and model is scored and written);
    the exit code."""
    from scorer.safe_text import for_terminal

    for line in errors:
        typer.echo(f"error: {for_terminal(line)}", err=True)
    return 1 if errors else 0
