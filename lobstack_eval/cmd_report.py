"""``lobstack-eval report``: write the self-contained HTML report of a reports directory."""

from __future__ import annotations

import contextlib
from pathlib import Path

import typer

from lobstack_eval.suite_option import SUITE_DEFAULT_HELP

_REPORTS = typer.Argument(
    Path("reports"),
    metavar="REPORTS",
    help="Reports directory (one <model-slug>/results.json each).",
)


def report(
    reports: Path = _REPORTS,
    suite: Path = typer.Option(
        None,
        "--suite",
        help=f"Suite file the cases' requests and checks are read from {SUITE_DEFAULT_HELP}.",
    ),
    history: Path = typer.Option(
        None,
        "--history",
        help="Report dirs of a history's runs (<run-id>/<model-slug>/results.json): adds each "
        "model's timeline.",
    ),
) -> int:
    """Write REPORTS/index.html: leaderboard, plots and every case, one file that opens offline.

    Folders without a results.json are not models and are ignored. A corrupt results.json is one
    error line (exit 1); the page still shows every other model."""
    from lobstack_eval.suite_option import chosen_suite
    from replay.html import write_report
    from replay.out.folder import check_writable_file
    from replay.out.lock import out_dir_lock
    from scorer.errors import LobstackError
    from scorer.safe_text import for_terminal

    # a missing dir is the reader's error below; an unwritable one is bad usage, said first
    if reports.is_dir():
        check_writable_file(reports / "index.html", "REPORTS")
    suite = chosen_suite(suite)[0]
    errors: list[str] = []

    try:
        with out_dir_lock(reports, "report") if reports.is_dir() else contextlib.nullcontext():
            out = write_report(
                reports,
                suite,
                on_error=lambda exc: errors.append(exc.message),
                history=history,
                warn=lambda line: typer.echo(for_terminal(line), err=True),
            )
    except LobstackError:  # no page: each unreadable file's own line first, then why
        for message in errors:
            typer.echo(f"error: {for_terminal(message)}", err=True)
        raise
    typer.echo(
        f"wrote {out}" + (f" without {len(errors)} unreadable results file(s)" if errors else "")
    )
    for message in errors:
        typer.echo(f"error: {for_terminal(message)}", err=True)
    return 1 if errors else 0
