"""``lobstack-eval drift RUN...``: has the model behind a name changed over its dated runs?"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

if TYPE_CHECKING:
    from scorer.drift_history import DriftReport, RunRecord


def drift(
    runs: Annotated[
        list[Path],
        typer.Argument(
            metavar="RUN",
            help="The model's runs: report dirs or results.json files (each with its 'run' date), "
            "a parent dir of run dirs (reports/history), a rows root of runs (rescore --rows), or "
            "a quoted glob.",
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
    verbose: Annotated[
        bool,
        typer.Option(
            "--verbose", "-v", help="Also print the last 30 runs: Overall, score and CUSUM."
        ),
    ] = False,
) -> None:
    """Test a model's dated runs for a drop (a CUSUM with a calibrated threshold): exit 0 no change,
    1 a change, 2 bad usage or a history that cannot be read.

    In GitHub Actions the markdown verdict is also appended to $GITHUB_STEP_SUMMARY."""
    from replay.drift_text import format_text
    from replay.out_dir import check_writable_file
    from scorer.drift_history import analyse

    if markdown is not None:
        check_writable_file(markdown, "--markdown")
    report = analyse(_history(runs, model))
    _publish(report, markdown)
    typer.echo(format_text(report, verbose), nl=False)
    if report.status == "changed":
        raise typer.Exit(1)


def _publish(report: DriftReport, markdown: Path | None) -> None:
    """--markdown, and the job summary appended (never replaced), as ``diff runs`` writes them."""
    from lobstack_eval.ci_outputs import publish
    from replay.drift_text import to_markdown

    publish(markdown, lambda: to_markdown(report))


def _history(runs: list[Path], model: str | None) -> list[RunRecord]:
    """The runs read; every unreadable file on its own ``error:`` line (the handler prints
    the last)."""
    from replay.drift_load import load_history
    from scorer.errors import HistoryError
    from scorer.safe_text import for_terminal

    try:
        return load_history(runs, model)
    except HistoryError as exc:
        for line in exc.earlier:
            typer.echo(f"error: {for_terminal(line)}", err=True)
        raise
