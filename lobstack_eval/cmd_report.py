"""``lobstack-eval report``: write the self-contained HTML report of a reports directory."""

from __future__ import annotations

from pathlib import Path

import typer


def report(
    reports: Path = typer.Argument(Path("reports"), help="Reports directory (one <model-slug>/results.json each)."),
    suite: Path = typer.Option(
        Path("evals/suite.json"), "--suite", help="Suite file the cases' requests and checks are read from."
    ),
) -> int:
    """Write REPORTS/index.html: leaderboard, plots and every case, one file that opens offline."""
    from replay.html import write_report

    out = write_report(reports, suite)
    typer.echo(f"wrote {out}")
    return 0
