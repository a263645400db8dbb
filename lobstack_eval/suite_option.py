"""The ``--suite`` default every command shares (the rule is ``recorder.bundled_suite``'s): the one
of ``evals/suite.json``, ``.yaml`` or ``.yml`` here, else the suite bundled with lobstack-eval, said
once on stderr when it is the bundled one."""

from __future__ import annotations

from pathlib import Path

import typer

from recorder.bundled_suite import DEFAULT_NAMES

SUITE_DEFAULT_HELP = (
    f"[default: {DEFAULT_NAMES} (the one that exists), else the suite bundled with lobstack-eval]"
)


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
