"""``lobstack-eval drift RUN...``: has the model behind a name changed over its dated runs?"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

if TYPE_CHECKING:
    from scorer.drift.history import DriftReport, RunRecord


_Verbose = Annotated[
    bool,
    typer.Option("--verbose", "-v", help="Also print the last 30 runs: Overall, score and CUSUM."),
]
_Since = Annotated[
    str | None,
    typer.Option(
        "--since",
        metavar="RUN_ID",
        help="Test only the runs from run RUN_ID on (a new history after a confirmed change).",
    ),
]
_Suite = Annotated[
    Path | None,
    typer.Option(
        "--suite",
        help="Suite file to score a history of recordings with (cassettes/history) "
        "[default: evals/suite.json, else the bundled suite].",
    ),
]


def drift(
    runs: Annotated[
        list[Path],
        typer.Argument(
            metavar="RUN",
            help="The model's runs: report dirs or results.json files (each with its 'run' date), "
            "a parent dir of run dirs (reports/history), a rows root of runs (rescore --rows), a "
            "history of recordings (cassettes/history: scored in memory), or a quoted glob.",
        ),
    ],
    model: Annotated[
        str | None,
        typer.Option(
            "--model",
            metavar="M",
            help="Test only model M's runs, by name or slug (the dirs hold several).",
        ),
    ] = None,
    markdown: Annotated[
        Path | None,
        typer.Option(
            "--markdown",
            metavar="FILE",
            help="Also write the verdict as markdown for an issue or a pull-request comment.",
        ),
    ] = None,
    verbose: _Verbose = False,
    since: _Since = None,
    suite: _Suite = None,
) -> None:
    """Test a model's dated runs for a drop (a CUSUM with a calibrated threshold): exit 0 no change,
    1 a change, 2 bad usage or a history that cannot be read.

    In GitHub Actions the markdown verdict is also appended to $GITHUB_STEP_SUMMARY."""
    from replay.drift.text import format_text
    from replay.out.folder import check_writable_file
    from scorer.drift.history import analyse

    if markdown is not None:
        check_writable_file(markdown, "--markdown")
    report = analyse(_since(_history(runs, model, suite), since))
    command = " ".join(
        ["lobstack-eval drift", *map(str, runs), *(["--model", model] * bool(model))]
    )
    _publish(report, markdown, command)
    typer.echo(format_text(report, verbose, command), nl=False)
    if report.status == "changed":
        raise typer.Exit(1)


def _publish(report: DriftReport, markdown: Path | None, command: str) -> None:
    """--markdown, and the job summary appended (never replaced), as ``diff runs`` writes them."""
    from lobstack_eval.ci_outputs import publish
    from replay.drift.text import to_markdown

    publish(markdown, lambda: to_markdown(report, command))


def _since(runs: list[RunRecord], since: str | None) -> list[RunRecord]:
    """The runs from run ``since`` on, in drift's order; a HistoryError when no run has that id."""
    from scorer.drift.history import run_order
    from scorer.errors import HistoryError

    if since is None:
        return runs
    start = next((r for r in runs if r.run_id == since), None)
    if start is None:
        raise HistoryError(f"--since {since}: no run with that id in the history")
    first = run_order(start.date, start.run_id)
    return [r for r in runs if run_order(r.date, r.run_id) >= first]


def _history(runs: list[Path], model: str | None, suite: Path | None) -> list[RunRecord]:
    """The runs read (a history of recordings scored in memory, ``replay.drift.recordings``);
    every unreadable file on its own ``error:`` line (the handler prints the last)."""
    from replay.drift.load import load_history
    from replay.drift.recordings import is_recordings
    from scorer.errors import HistoryError
    from scorer.safe_text import for_terminal

    recordings = [p for p in runs if is_recordings(p)]
    rest = [p for p in runs if p not in recordings]
    try:
        found = _recorded(recordings, model, suite) if recordings else []
        return found + (load_history(rest, model) if rest or not found else [])
    except HistoryError as exc:
        for line in exc.earlier:
            typer.echo(f"error: {for_terminal(line)}", err=True)
        raise


def _recorded(paths: list[Path], model: str | None, suite: Path | None) -> list[RunRecord]:
    """Every run of the histories of recordings ``paths``, scored in memory with the suite; a
    HistoryError naming every model dir that could not be scored, or no run of ``model``."""
    from lobstack_eval.suite_option import chosen_suite
    from recorder.files import read_suite
    from replay.drift.recordings import recorded_runs
    from scorer.errors import HistoryError
    from scorer.safe_text import for_terminal

    scored_with = read_suite(chosen_suite(suite)[0])
    problems: list[str] = []
    others: set[str] = set()
    found: list[RunRecord] = []
    for path in paths:
        found += recorded_runs(
            path, model, scored_with, problems.append,
            lambda line: typer.echo(f"warning: {for_terminal(line)}", err=True), others,
        )  # fmt: skip
    if problems:
        raise HistoryError(problems[-1], tuple(problems[:-1]))
    if not found:
        where = " ".join(str(p) for p in paths)
        there = f"; models there: {', '.join(sorted(others))}" if others else ""
        raise HistoryError(f"no run of model {model!r} in {where}{there}")
    return found
