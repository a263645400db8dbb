"""``lobstack-eval suite check``: validate a suite file and list every problem."""

from __future__ import annotations

from pathlib import Path

import typer


def check(
    suite: Path = typer.Argument(Path("evals/suite.json"), help="Suite file to validate."),
) -> int:
    """Validate a suite file: every problem is listed with its case id and field; exit 1 on any."""
    from recorder.files import check_suite_file

    report = check_suite_file(suite)
    counts = ", ".join(f"{group} {count}" for group, count in report.group_counts.items())
    total = sum(report.group_counts.values())
    for problem in report.problems:
        typer.echo(f"{suite}: {problem}", err=True)
    if report.problems:
        typer.echo(f"error: {suite}: {len(report.problems)} problem(s); cases per group: {counts}", err=True)
        return 1
    assert report.suite is not None
    s = report.suite
    typer.echo(f"{suite}: {s.name} {s.version} ({s.released}) is valid: {total} cases, {len(s.tools)} tools")
    typer.echo(f"cases per group: {counts}")
    typer.echo(f"sha256 {s.sha256}")
    return 0
