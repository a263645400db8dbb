"""The files a CI step reads from ``diff runs``: --junit, --markdown and $GITHUB_STEP_SUMMARY, each
written whole (or, for the step summary, appended in one write), also when the runs cannot
be compared."""

from __future__ import annotations

import os
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

import typer

from scorer.errors import LobstackError

if TYPE_CHECKING:
    from replay.diff_runs import NotCompared


class CiOutputs:
    """The files a CI step reads (--junit, --markdown, $GITHUB_STEP_SUMMARY), also for runs that
    cannot be compared (METHOD decision 111): they say why, so the step that uploads them finds a
    file that shows it."""

    def __init__(self, junit: Path | None, markdown: Path | None, a: str, b: str) -> None:
        self.junit, self.markdown, self.a, self.b = junit, markdown, a, b

    def not_compared(self, problems: Sequence[NotCompared]) -> LobstackError:
        """Write the files for ``problems`` (NotCompared), print every error line but the last and
        return the last as the error to raise: the CLI's handler prints it with the exit code of
        one bad file (decision 93)."""
        from replay.diff_runs.markdown import not_compared_markdown
        from replay.junit import not_compared_junit
        from scorer.errors import ResultsError
        from scorer.safe_text import for_terminal

        if self.junit is not None:
            write_output(self.junit, not_compared_junit(problems))
        publish(self.markdown, lambda: not_compared_markdown(problems, self.a, self.b))
        for problem in problems[:-1]:
            typer.echo(f"error: {for_terminal(problem.message)}", err=True)
        return ResultsError(problems[-1].message)


def publish(markdown: Path | None, comment: Callable[[], str]) -> None:
    """The pull-request comment, made only when ``--markdown`` or ``$GITHUB_STEP_SUMMARY`` asks
    for it."""
    summary_file = os.environ.get("GITHUB_STEP_SUMMARY")
    if markdown is None and not summary_file:
        return
    text = comment()
    if markdown is not None:
        write_output(markdown, text.encode("utf-8"))
    if summary_file:
        _append(Path(summary_file), text)


def _append(path: Path, text: str) -> None:
    # GitHub's job summary collects what every step appends; a blank line keeps this one a block of
    # its own. The summary is a copy the runner offers, not an output the user asked for: a runner
    # that cannot take it gets a warning, and the verdict and exit code stay the comparison's
    # (--markdown, asked for, is an error). An append cannot be a temp file and a rename (that would
    # drop what earlier steps wrote), so it is the one file not written by write_bytes_atomic: one
    # os.write of the whole block on an O_APPEND descriptor, so a step appending beside this one
    # cannot land in the middle of it.
    data = (text + "\n").encode("utf-8")
    try:
        fd = os.open(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o666)
        try:
            written = os.write(fd, data)
        finally:
            os.close(fd)
        if written != len(data):
            raise OSError(f"wrote {written} of {len(data)} bytes")
    except OSError as exc:
        typer.echo(
            f"warning: {path} ($GITHUB_STEP_SUMMARY): cannot write: {exc.strerror or exc}", err=True
        )


def write_output(path: Path, data: bytes) -> None:
    """Write an output the user asked for whole or not at all: a failed write leaves the old file
    as it was."""
    from fileio.atomic import write_bytes_atomic

    try:
        write_bytes_atomic(path, data)
    except OSError as exc:
        raise LobstackError(f"{path}: cannot write: {exc.strerror or exc}") from exc
