"""``lobstack-eval diff dialects RUN...``: one model recorded several ways, compared."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer


def diff_dialects(
    runs: Annotated[
        list[Path],
        typer.Argument(
            metavar="RUN",
            help="Report dirs (rescore --out) or results.json files, one per way the models were "
            "recorded (--dialect, --stream, --param); the first is the baseline.",
        ),
    ],
) -> None:
    """Compare each model across dialects, streaming and settings: each way's Overall and
    transport anomalies, and each way against the first with the gate's paired test (exact
    McNemar): the cases lost and gained and the p. Exit 0; 2 on a run that cannot be read."""
    from replay.drift.load import results_files
    from replay.results.read import read_results
    from replay.wire_matrix_text import format_matrix
    from scorer.errors import ResultsError
    from scorer.wire.matrix import matrix

    problems: list[str] = []
    loaded = []
    for path in runs:
        for file in results_files([path], problems.append):
            loaded.append((str(file), read_results(file).document))
    if problems:
        raise ResultsError(problems[0])
    typer.echo(format_matrix(matrix(loaded)), nl=False)
