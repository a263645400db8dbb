"""``lobstack-eval diff suites OLD NEW``: what changed, whether the version bump is enough,
metrics under both."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

if TYPE_CHECKING:
    from replay.diff_suites import SuiteDiff


_CASSETTES = typer.Option(
    "--cassettes",
    metavar="DIR",
    help="Rescore every model dir of DIR under OLD and NEW (no API call) and show both side by "
    "side.",
)
_QUIET = typer.Option(
    "--quiet",
    "-q",
    help="Print the verdict, the case counts and (with --cassettes) one line per model only.",
)


def diff_suites(
    old: Annotated[Path, typer.Argument(metavar="OLD", help="The older suite file.")],
    new: Annotated[Path, typer.Argument(metavar="NEW", help="The newer suite file.")],
    cassettes: Annotated[Path | None, _CASSETTES] = None,
    quiet: Annotated[bool, _QUIET] = False,
    verbose: Annotated[
        bool,
        typer.Option("--verbose", "-v", help="Also name every model's cases that need recording."),
    ] = False,
) -> None:
    """List cases added, removed, request-changed (need recording) and check-changed (re-scorable).

    Exits 1 when NEW's version is lower than the changes require (major: a case removed; minor: a
    case added or a check or request changed), when OLD and NEW are different suites (another name),
    or when a model dir of --cassettes could not be rescored. A change to the method page's rules
    also needs a major bump; that is not visible in the suite files, so it is not checked here.
    """
    from replay.diff_suites import diff_suites as compare_suites
    from replay.diff_suites import format_text, read_suite_json, verdict_lines
    from scorer.errors import UsageError

    if quiet and verbose:
        raise UsageError("--quiet and --verbose cannot be combined")
    detail = "quiet" if quiet else "verbose" if verbose else "normal"
    raw_old, data_old = read_suite_json(old)
    raw_new, data_new = read_suite_json(new)
    diff = compare_suites(data_old, data_new)
    # The verdict first (the bump's, then what it rests on), then the changes, each case once, then
    # the models.
    verdict = verdict_lines(diff)
    out = "\n".join([verdict[-1], *verdict[:-1]]) + "\n" + format_text(diff, detail)
    errors: tuple[str, ...] = ()
    if cassettes is not None and not diff.same_suite:
        out += f"metrics not rescored from {cassettes}: OLD and NEW are different suites\n"
    elif cassettes is not None:
        rescored, errors = _rescored(
            diff, cassettes, (raw_old, str(old)), (raw_new, str(new)), detail
        )
        out += rescored
    typer.echo(out, nl=False)
    for error in errors:  # one line per model dir that could not be rescored; the others are above
        typer.echo(f"error: {error}", err=True)
    if not diff.bump_ok or errors:
        raise typer.Exit(1)


def _rescored(
    diff: SuiteDiff, cassettes: Path, old: tuple[bytes, str], new: tuple[bytes, str], detail: str
) -> tuple[str, tuple[str, ...]]:
    """Every model dir of --cassettes rescored under OLD and NEW: the side-by-side text and
    the errors."""
    from replay.diff_suites import format_rescores, rescore_both

    listed = frozenset(c.case_id for c in diff.cases if c.kind in ("added", "request_changed"))
    rows, errors = rescore_both(cassettes, old, new)
    rescored = format_rescores(rows, diff.version_old, diff.version_new, detail, listed)
    return f"metrics rescored from {cassettes}:\n" + rescored, errors
