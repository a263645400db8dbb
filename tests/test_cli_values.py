"""Option values read without pydantic (lobstack_eval/cli_values.py) are exactly what typer's own
coercion gives, for every parameter of every command; and a command run imports no pydantic."""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import typer
import typer.main

from lobstack_eval.cli_values import annotations, converter, parsers
from lobstack_eval.main import app
from tests.conftest import ROOT


def _commands(command: Any, path: str = "") -> Iterator[tuple[str, Any]]:
    yield path or "lobstack-eval", command
    for name, sub in sorted(getattr(command, "commands", {}).items()):
        yield from _commands(sub, f"{path} {name}".strip())


COMMANDS = list(_commands(typer.main.get_command(app)))


def _outcome(process: Any, ctx: Any, value: Any) -> tuple[str, Any]:
    try:
        return "value", process(ctx, value)
    except Exception as exc:  # typer's usage errors: the same class and line either way
        return type(exc).__name__, exc.format_message() if hasattr(exc, "format_message") else str(
            exc
        )


def _values(annotation: Any, tmp: Path) -> list[Any]:
    """What the parser can hand a parameter: not given, text, paths that exist or not, lists
    of them."""
    unreadable = tmp / "unreadable"
    unreadable.write_text("x")
    unreadable.chmod(0)
    one = [None, "text", "", "-", str(tmp), str(tmp / "absent"), str(unreadable), "é ✓", "0"]
    if converter(annotation) is None:
        return [None]  # flags: their bool values go to typer, which needs no pydantic for them
    if "list" in str(annotation):
        return [None, (), ("a", "b"), (str(tmp), str(unreadable))]
    return one


@pytest.mark.parametrize(("name", "command"), COMMANDS, ids=[name for name, _ in COMMANDS])
def test_every_parameter_reads_as_typer_reads_it(name: str, command: Any, tmp_path: Path) -> None:
    ctx = typer.Context(command)
    hints, parses = annotations(command.callback), parsers(command.callback)
    checked = 0
    for parameter in command.get_params(ctx):
        ours = parameter.process_value
        assert "process_value" in vars(parameter), f"{name} {parameter.name}: not wrapped"
        by_typer = type(parameter).process_value.__get__(parameter)  # the class's: typer's own
        # a number option: its parser, called by us as typer calls it (good, bad and odd text)
        numbers = [None, "4", " 7 ", "0", "-1", "x", "nan", "1e309", "0.5", "100", "101"]
        values = (
            numbers if parameter.name in parses else _values(hints.get(parameter.name), tmp_path)
        )
        for value in values:
            expected = _outcome(by_typer, ctx, value)
            got = _outcome(ours, ctx, value)
            assert got == expected, (name, parameter.name, value)
            assert type(got[1]) is type(expected[1]), (name, parameter.name, value)
            checked += 1
    assert checked >= 1  # --help at least (the groups have nothing else)


def test_a_command_with_options_imports_no_pydantic() -> None:
    """typer builds a pydantic TypeAdapter for every value it coerces, even --help's None: ~0.1 s a
    run. Any command shows it (every one reads its values the same way); ``suite check FILE`` is
    the quickest."""
    script = (
        "import sys\n"
        "from lobstack_eval.main import main\n"
        f"code = main(['suite', 'check', {str(ROOT / 'evals' / 'suite.json')!r}])\n"
        "print(code, 'pydantic' in sys.modules, 'typer._adapters' in sys.modules)\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, cwd=ROOT, timeout=120
    )
    assert done.stdout.splitlines()[-1].split() == ["0", "False", "False"], done.stderr
