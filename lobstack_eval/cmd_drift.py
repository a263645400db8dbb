"""``lobstack-eval drift RUN...``: has the model behind a name changed over its dated runs?"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

if TYPE_CHECKING:
    from scorer.drift_history import RunRecord


def drift(
    runs: Annotated[
        list[Path],
        typer.Argument(
            metavar="RUN",
            help="The model's runs: report dirs or results.json files (each with its 'run' date), a "
            "parent dir of run dirs, or a quoted glob.",
        ),
    ],
    model: Annotated[
        str | None,
        typer.Option(
            "--model", metavar="M", help="Test only model M's runs (the dirs hold several)."
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
    """Test a model's dated runs for a drop (a CUSUM with a calibrated threshold): exit 0 no change, 1 a
    change, 2 bad usage or a history that cannot be read."""
    from replay.drift_text import format_text, to_markdown
    from replay.out_dir import check_writable_file
    from scorer.drift_history import analyse

    if markdown is not None:
        check_writable_file(markdown, "--markdown")
    report = analyse(_history(runs, model))
    if markdown is not None:
        _write_markdown(markdown, to_markdown(report))
    typer.echo(format_text(report, verbose), nl=False)
    if report.status == "changed":
        raise typer.Exit(1)


def _history(runs: list[Path], model: str | None) -> list[RunRecord]:
    """The runs read; every unreadable file on its own ``error:`` line (the handler prints the last)."""
    from replay.drift_load import load_history
    from scorer.errors import HistoryError
    from scorer.safe_text import for_terminal

    try:
        return load_history(runs, model)
    except HistoryError as exc:
        for line in exc.earlier:
            typer.echo(f"error: {for_terminal(line)}", err=True)
        raise


def _write_markdown(markdown: Path, text: str) -> None:
    """--markdown's file, written whole or not at all; a failed write is one ``error:`` line."""
    from fileio.atomic import write_bytes_atomic
    from scorer.errors import LobstackError

    try:
        write_bytes_atomic(markdown, text.encode("utf-8"))
    except OSError as exc:
        raise LobstackError(f"{markdown}: cannot write: {exc.strerror or exc}") from exc
