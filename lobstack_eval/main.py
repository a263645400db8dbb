"""The ``lobstack-eval`` command line: the command groups, each command registered from its own
module (one module per verb), ``--version`` and ``--debug``, the one handler that turns every
error into one ``error: ...`` line and its exit code, and the console script's quick exit."""

from __future__ import annotations

import contextlib
import functools
import os
import sys
from collections.abc import Callable, Sequence
from typing import Any

import typer

from lobstack_eval.cli_help import HelpCommand, HelpGroup
from scorer.errors import LobstackError

# Only typer's public API (issue 26): a group called without a command prints its help and exits 2
# from its own callback (typer's no_args_is_help would raise an exception class typer does
# not export).
app = typer.Typer(
    cls=HelpGroup,
    name="lobstack-eval",
    help="Record tool-calling evals through the Lobstack gateway once; score, diff and gate them "
    "offline.",
    add_completion=False,
    invoke_without_command=True,
    pretty_exceptions_enable=False,
    rich_markup_mode=None,
)
suite_app = typer.Typer(
    cls=HelpGroup, help="Work with suite files.", invoke_without_command=True, rich_markup_mode=None
)
diff_app = typer.Typer(
    cls=HelpGroup,
    help="Compare suite versions or runs.",
    invoke_without_command=True,
    rich_markup_mode=None,
)
app.add_typer(suite_app, name="suite")
app.add_typer(diff_app, name="diff")


def _help_without_command(ctx: typer.Context) -> None:
    """No command given: the group's help on stdout, exit 2 (a usage error, as before)."""
    if ctx.invoked_subcommand is None:
        typer.echo(ctx.get_help())
        raise typer.Exit(2)


suite_app.callback()(_help_without_command)
diff_app.callback()(_help_without_command)


def _print_version(value: bool) -> None:
    if value:
        # From the installed metadata: importing the packages (polars, vcrpy) would cost more than
        # the answer.
        from importlib.metadata import version

        typer.echo(f"lobstack-eval {version('lobstack-eval')}")
        raise typer.Exit()


@app.callback()
def _options(
    ctx: typer.Context,
    version: bool = typer.Option(
        False,
        "--version",
        callback=_print_version,
        is_eager=True,
        help="Print the version and exit.",
    ),
    debug: bool = typer.Option(
        False,
        "--debug",
        help="Show the traceback behind internal errors (also: env LOBSTACK_DEBUG=1).",
    ),
) -> None:
    if debug:  # the environment, so that pool workers see it too (replay/debug.py)
        os.environ["LOBSTACK_DEBUG"] = "1"
    _help_without_command(ctx)


def _command(target: typer.Typer, name: str, module: str, func: str) -> None:
    """Register ``module.func`` as command ``name``. The module is imported here, at registration
    (every ``cmd_*`` module is loaded with this one): each keeps its heavy imports inside its
    function, which is what keeps start-up quick."""
    import importlib

    impl: Callable[..., Any] = getattr(importlib.import_module(f"lobstack_eval.{module}"), func)
    target.command(name, cls=HelpCommand)(impl)


_command(suite_app, "check", "cmd_suite", "check")
_command(suite_app, "export", "cmd_suite", "export")
_command(suite_app, "audit", "cmd_suite", "audit")
_command(suite_app, "new", "cmd_suite_new", "new")
_command(app, "record", "cmd_record", "record")
_command(app, "rescore", "cmd_rescore", "rescore")
_command(diff_app, "suites", "cmd_diff_suites", "diff_suites")
_command(diff_app, "runs", "cmd_diff_runs", "diff_runs")
_command(diff_app, "dialects", "cmd_diff_dialects", "diff_dialects")
_command(app, "gateway", "cmd_gateway", "gateway")
_command(app, "report", "cmd_report", "report")
_command(app, "merge", "cmd_merge", "merge")
_command(app, "leaderboard", "cmd_leaderboard", "leaderboard")
_command(app, "drift", "cmd_drift", "drift")
_command(app, "pick", "cmd_pick", "pick")


INTERRUPTED = "error: interrupted (everything finished before the interrupt is kept)"


@functools.cache
def _cli() -> Any:
    """The click command typer builds from ``app``, built once per process: ``app(...)`` builds it
    again on every call (~7 ms), which a process calling ``main`` many times (the tests) pays
    each time. Calling it is what ``app(...)`` does but for typer's pretty tracebacks, which
    ``pretty_exceptions_enable=False`` turns off."""
    return typer.main.get_command(app)


def main(argv: Sequence[str] | None = None) -> int:
    """Run the CLI and return its exit code; user errors become one ``error: ...`` line, never
    a traceback."""
    try:
        result = _cli()(args=list(argv) if argv is not None else None, standalone_mode=False)
    except LobstackError as exc:
        from scorer.safe_text import for_terminal

        print(
            f"error: {for_terminal(exc.message)}", file=sys.stderr
        )  # it may quote a gateway or a file
        return exc.exit_code
    except (
        typer.TyperException
    ) as exc:  # typer's usage errors (exit 2) and other CLI errors, all public from 0.27.2
        print(f"error: {exc.format_message()}", file=sys.stderr)
        return exc.exit_code
    except typer.Abort:
        print("error: aborted", file=sys.stderr)
        return 130
    except KeyboardInterrupt:
        print(INTERRUPTED, file=sys.stderr)
        return 130
    except (
        OSError
    ) as exc:  # the disk, not the code: a full disk or a folder gone mid-run is one line too
        from replay.debug import with_traceback

        where = f"{exc.filename}: " if exc.filename else ""
        print(with_traceback(f"error: {where}{exc.strerror or exc}", exc), file=sys.stderr)
        return 1
    code = result if isinstance(result, int) else 0
    if code == 130:  # typer turns Ctrl-C into exit 130; say what was kept
        print(INTERRUPTED, file=sys.stderr)
    return code


def run() -> None:
    """Console-script entry point. Every command has finished its work, closed its files and stopped
    its processes when ``main`` returns, so the process ends at once: tearing down the
    interpreter object by object (100 models' results, polars, matplotlib) would only add time
    after the last line is printed."""
    code = main()
    for stream in (sys.stdout, sys.stderr):
        with contextlib.suppress(
            OSError, ValueError
        ):  # a closed pipe (`| head`): nothing more can be said
            stream.flush()
    os._exit(code)
