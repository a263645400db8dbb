"""``lobstack-eval suite new``: write a starting suite from the user's own tools (a tools file or a
live MCP server), every case a draft, then check it as ``suite check`` would."""

from __future__ import annotations

import datetime
import json
import re
from pathlib import Path
from typing import Any

import typer

DEFAULT_OUT = Path("evals/suite.json")  # recorder.bundled_suite.DEFAULT_SUITE
_OUT = typer.Argument(
    None,
    metavar="OUT",
    help="Where to write the suite: JSON, or YAML when the name ends in .yaml or .yml; its folder "
    "must exist [default: evals/suite.json, evals/ made when missing].",
    show_default=False,
)
_TOOLS = typer.Option(
    None,
    "--tools",
    metavar="FILE",
    help="An OpenAI-style tools JSON file (a list of function tools).",
)
_MCP = typer.Option(
    None,
    "--mcp",
    metavar="SERVER",
    help="A live MCP server: a command line to start it over stdio "
    "(e.g. 'uvx mcp-server-git'), or an http(s):// URL (streamable HTTP).",
)
_NAME = typer.Option(
    None, "--name", help="The suite's name [default: the MCP server's name, else the file's]."
)
_RELEASED = typer.Option(
    None,
    "--released",
    metavar="DATE",
    help="The suite's release date, YYYY-MM-DD [default: today, UTC].",
)
_TIMEOUT = typer.Option(
    30.0,
    "--timeout",
    metavar="S",
    min=1.0,
    help="Seconds to wait for the MCP server's tool list.",
)
_CHAIN = typer.Option(
    [],
    "--chain",
    metavar="TOOL=JSON",
    help="With --mcp: call TOOL once now with these JSON arguments (TOOL alone: values made from "
    "its schema) and write a two-step chain case whose scripted result is the server's answer "
    "(repeatable).",
)
_FORCE = typer.Option(False, "--force", help="Overwrite a file already at OUT.")
_ENV = typer.Option(
    [],
    "--env",
    metavar="KEY=VALUE",
    help="With a --mcp command: set this variable for the server, on top of your whole "
    "environment, which it gets too (repeatable). Never written or printed.",
)
_HEADER = typer.Option(
    [],
    "--header",
    metavar="'NAME: VALUE'",
    help="With an --mcp URL: send this HTTP header on each request, e.g. 'Authorization: Bearer "
    "...' (repeatable). Never written or printed.",
)
_INCLUDE = typer.Option(
    [],
    "--include",
    metavar="TOOL",
    help="Draft from this tool only (a name, or a pattern such as 'git_*'; repeatable) "
    "[default: every listed tool].",
)
_EXCLUDE = typer.Option(
    [],
    "--exclude",
    metavar="TOOL",
    help="Leave this tool out (a name or a pattern; repeatable).",
)
_KEEP_ERRORS = typer.Option(
    False,
    "--keep-chain-errors",
    help="Keep a --chain call's error answer as its scripted result (by default an error answer "
    "stops suite new, with nothing written).",
)


def new(
    out: Path | None = _OUT,
    tools: Path = _TOOLS,
    mcp: str = _MCP,
    name: str = _NAME,
    released: str = _RELEASED,
    timeout: float = _TIMEOUT,
    chain: list[str] = _CHAIN,
    force: bool = _FORCE,
    env: list[str] = _ENV,
    header: list[str] = _HEADER,
    keep_chain_errors: bool = _KEEP_ERRORS,
    include: list[str] = _INCLUDE,
    exclude: list[str] = _EXCLUDE,
) -> int:
    """Write a starting suite from your tools: for each tool a selection case and, when it has
    optional arguments, an arguments case (a reference call valid against the tool's schema, eq
    checks on the values the request gives); near misses for tools that look alike, a parallel
    pair, two-step chains where one tool's output feeds another's id, and no-call cases. Every
    case is a draft to rewrite in your users' words. A live MCP server is asked for its tool
    list once, now; its name, version and list are stored in the suite."""
    from recorder.tool_lists import list_mcp_tools, read_tools_file, select_tools, server_options
    from scorer.safe_text import for_terminal
    from scorer.suite.draft.new import draft_suite

    when, chains = _checked(out, tools, mcp, released, chain, force)
    variables, headers = server_options(mcp, env, header)
    out = out or DEFAULT_OUT
    if mcp is not None:  # starting a server can take seconds: say what is happening
        shown = for_terminal(mcp, one_line=True)
        typer.echo(f"asking {shown} for its tools (at most {timeout:g} s)...", err=True)
    listing = select_tools(
        list_mcp_tools(mcp, timeout, chains, variables, headers, keep_chain_errors)
        if mcp is not None
        else read_tools_file(tools),
        include,
        exclude,
    )
    default = listing.origin.get("server", {}).get("name") if mcp is not None else tools.stem
    suite_name = _suite_name(name, str(default))
    source = str(tools if tools is not None else mcp)
    _check_listing(listing.tools, source)
    document = draft_suite(listing.tools, suite_name, when, listing.origin, listing.taken)
    _check_catalogue(document, source)
    _write(out, document)
    _say_written(out, suite_name, len(listing.tools), document)
    _check_written(out)
    return 0


def _suite_name(given: str | None, default: str) -> str:
    """``--name``, else a slug of the server's or file's name; UsageError for a Lobstack name."""
    from scorer.errors import UsageError
    from scorer.suite.kind import is_lobstack

    suite_name = given or _slug(default)
    if is_lobstack(suite_name):
        raise UsageError(
            f"--name {suite_name!r}: a name starting with 'lobstack-' is a Lobstack suite"
        )
    return suite_name


def _say_written(out: Path, suite_name: str, count: int, document: dict[str, Any]) -> None:
    """What was written, a warning above a gateway's tool limit, and each schema note."""
    from scorer.safe_text import for_terminal
    from scorer.schema.budget import GATEWAY_TOOL_LIMIT

    typer.echo(
        f"wrote {out}: {suite_name} 0.1.0, {count} tools, {len(document['cases'])} "
        "cases, every case a draft"
    )
    if count > GATEWAY_TOOL_LIMIT:
        typer.echo(
            f"warning: {count} tools: more than the {GATEWAY_TOOL_LIMIT} a gateway "
            f"takes in one request; each case offers its own tool and the ones listed nearest "
            f"it, {GATEWAY_TOOL_LIMIT} in all",
            err=True,
        )
    for note in document["origin"]["schema_notes"]:
        typer.echo(f"schema note: {for_terminal(note, one_line=True)}")


def _check_catalogue(document: dict[str, Any], source: str) -> None:
    """SuiteError naming ``source`` when the drafted catalogue's schemas have problems (the
    tools' own fault): nothing is written."""
    from scorer.errors import SuiteError
    from scorer.suite.draft.new import catalogue_problems

    problems = catalogue_problems(document["tools"])
    if problems:
        raise SuiteError(f"{source}: " + "; ".join(problems))


def _check_listing(tools: Any, source: str) -> None:
    """SuiteError naming ``source`` when the listed tools may not be drafted from: too many, or a
    schema that is invalid or breaks a walk's limits (scorer/schema/budget.py); checked before
    anything walks them."""
    from scorer.errors import SuiteError
    from scorer.schema.budget import listing_problems

    problems = listing_problems([(tool.name, tool.input_schema) for tool in tools])
    if problems:
        raise SuiteError(f"{source}: " + "; ".join(problems))


def _checked(
    out: Path | None,
    tools: Path | None,
    mcp: str | None,
    released: str | None,
    chain: list[str],
    force: bool,
) -> tuple[str, tuple[tuple[str, dict[str, Any] | None], ...]]:
    """The options checked together: the release date (today, UTC, by default) and the
    --chain calls. A given OUT's folder must exist (a typo is refused, as report's is); the
    default's ``evals/`` is made when missing."""
    from recorder.bundled_suite import check_no_second_default
    from replay.out.folder import check_writable_file
    from scorer.errors import UsageError
    from scorer.iso_date import is_iso_date

    if (tools is None) == (mcp is None):
        raise UsageError("suite new: give exactly one of --tools FILE or --mcp SERVER")
    check_no_second_default(out or DEFAULT_OUT)
    if (out or DEFAULT_OUT).exists() and not force:
        raise UsageError(f"{out or DEFAULT_OUT}: already exists; pass --force to overwrite it")
    if out is not None:
        check_writable_file(out, "OUT")
    if released is not None and not is_iso_date(released):
        raise UsageError(f"--released {released!r}: must be a YYYY-MM-DD date (a real day)")
    when = released or datetime.datetime.now(datetime.UTC).date().isoformat()
    if chain and mcp is None:
        raise UsageError("--chain: needs --mcp (the result is taken from the live server)")
    chains = tuple(_chain(text) for text in chain)
    if mcp is not None:  # a program not found is said before "asking ... for its tools"
        from recorder.tool_lists import check_server_command

        check_server_command(mcp)
    return when, chains


def _write(out: Path, document: dict[str, Any]) -> None:
    """The suite as YAML (by its name) or JSON, written whole or not at all."""
    from fileio.atomic import write_atomic
    from scorer.suite.file import is_yaml
    from scorer.suite.yaml_file import dumps_yaml

    text = (
        dumps_yaml(document)
        if is_yaml(str(out))
        else json.dumps(document, indent=2, ensure_ascii=False) + "\n"
    )
    write_atomic(out, text)  # creates the default's evals/; a given OUT's folder was checked


def _check_written(out: Path) -> None:
    """Check the written suite as ``suite check`` would: each thing to decide, then what to
    do next."""
    from recorder.files import check_suite_file
    from scorer.errors import SuiteError

    report = check_suite_file(out)
    from scorer.safe_text import for_terminal

    for problem in report.problems:
        typer.echo(f"to decide: {out}: {for_terminal(problem, one_line=True)}", err=True)
    if report.problems:
        raise SuiteError(
            f"{out}: {len(report.problems)} thing(s) to decide before it loads (listed above)"
        )
    typer.echo(
        f"next: rewrite the drafts' requests, then `lobstack-eval suite check {out}` and "
        f"`lobstack-eval suite audit {out}`"
    )


def _chain(text: str) -> tuple[str, dict[str, Any] | None]:
    """``TOOL`` or ``TOOL={"arg": ...}`` -> the tool and its arguments (None: made from
    its schema)."""
    from scorer import strict_json
    from scorer.errors import UsageError

    name, _, raw = text.partition("=")
    if not name:
        raise UsageError(f"--chain {text!r}: name a tool")
    if not raw:
        return name, None
    try:
        arguments = strict_json.loads_file(raw)  # bounded: no NaN, no RecursionError
    except ValueError as exc:
        raise UsageError(f"--chain {text!r}: the arguments are not JSON ({exc})") from None
    if not isinstance(arguments, dict):
        raise UsageError(f"--chain {text!r}: the arguments must be a JSON object")
    return name, arguments


def _slug(text: str) -> str:
    """A suite name from a server or file name: lower case, ``[a-z0-9._-]``."""
    slug = re.sub(r"[^a-z0-9._-]+", "-", text.lower()).strip("-.")
    return slug or "my-tools"
