"""The ``--suite`` default every command shares: ``evals/suite.json`` here, else the suite bundled
with lobstack-eval (``recorder.bundled_suite``), said once on stderr when it is the bundled one."""

from __future__ import annotations

from pathlib import Path

import typer

SUITE_DEFAULT_HELP = "[default: evals/suite.json, else the suite bundled with lobstack-eval]"


def chosen_suite(given: Path | None, say: bool = True) -> tuple[Path, str | None]:
    """The suite file to use for ``given`` (None: no ``--suite``) and the bundled-suite notice,
    printed on stderr unless ``say`` is False (the caller prints it once it knows the suite
    is used)."""
    from recorder.bundled_suite import choose_suite, notice

    choice = choose_suite(given)
    line = notice(choice) if choice.bundled else None
    if line is not None and say:
        typer.echo(line, err=True)
    return choice.path, line
