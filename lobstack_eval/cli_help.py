"""How ``--help`` reads: a command's one-line description is its first sentence, never cut mid-word,
and a value is named like the option (``--suite SUITE``, ``rescore [CASSETTES]``) instead of a
Python type (``<list[str]>``).

Only public click/typer API: the command classes' documented hooks (``get_short_help_str``,
``collect_usage_pieces``, ``format_options``) and the parameters' ``metavar``, ``name``, ``nargs``,
``required``.
"""

from __future__ import annotations

import re
from typing import Any

from typer.core import TyperCommand, TyperGroup

from lobstack_eval.cli_values import annotations, parsers, read_without_pydantic

# A clause that adds details after the description: cut there (outside parentheses), keep what
# comes before.
_DETAIL = re.compile(r"[:;] ")


def first_sentence(text: str | None) -> str:
    """The description's first sentence, up to its first ':' or ';' outside parentheses; it ends
    with a period."""
    paragraph = " ".join((text or "").strip().split("\n\n", 1)[0].split())
    depth, end = 0, len(paragraph)
    for i, char in enumerate(paragraph):
        depth += {"(": 1, ")": -1}.get(char, 0)
        if depth == 0 and (paragraph.startswith(". ", i) or _DETAIL.match(paragraph, i)):
            end = i
            break
    sentence = paragraph[:end].rstrip(".")
    return f"{sentence}." if sentence else ""


def _named(parameter: Any) -> Any:
    """An option that takes a value and has no metavar of its own gets its name in capitals
    (``--out OUT``)."""
    if (
        parameter.param_type_name == "option"
        and parameter.metavar is None
        and not getattr(parameter, "is_flag", 0)
    ):
        parameter.metavar = (parameter.name or "value").upper()
    return parameter


def _argument(parameter: Any) -> str:
    """An argument as the usage line and the Arguments list show it: NAME, [NAME] when optional,
    NAME... repeated."""
    name = (parameter.metavar or parameter.name or "arg").upper()
    if parameter.nargs != 1:
        name += "..."
    return name if parameter.required else f"[{name}]"


class _NamedValues:
    """What commands and groups share: their values named and read without pydantic, and a short
    help that is a whole sentence (mixed in before the typer class it extends)."""

    callback: Any
    short_help: str | None
    help: str | None

    def get_params(self, ctx: Any) -> list[Any]:
        # values read without pydantic: lobstack_eval/cli_values.py
        hints, parses = annotations(self.callback), parsers(self.callback)
        return [
            read_without_pydantic(
                _named(parameter), hints.get(parameter.name), parses.get(parameter.name)
            )
            for parameter in super().get_params(ctx)  # type: ignore[misc]
        ]

    def get_short_help_str(self, limit: int = 45) -> str:
        return self.short_help or first_sentence(self.help)


class HelpCommand(_NamedValues, TyperCommand):
    """A typer command whose help names values and whose short help is a whole sentence."""

    def collect_usage_pieces(self, ctx: Any) -> list[str]:
        arguments = [_argument(p) for p in self.get_params(ctx) if p.param_type_name == "argument"]
        return ([self.options_metavar] if self.options_metavar else []) + arguments

    def format_options(self, ctx: Any, formatter: Any) -> None:
        arguments, options = [], []
        for parameter in self.get_params(ctx):
            record = parameter.get_help_record(ctx)
            if record is None:
                continue
            if parameter.param_type_name == "argument":
                arguments.append((_argument(parameter).strip("[]"), record[1]))
            else:
                options.append(record)
        for title, rows in (("Arguments", arguments), ("Options", options)):
            if rows:
                with formatter.section(title):
                    formatter.write_dl(rows)


class HelpGroup(_NamedValues, TyperGroup):
    """A typer group whose commands' short help are whole sentences (``HelpCommand``'s, and
    its own)."""
