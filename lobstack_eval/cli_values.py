"""Option and argument values read without pydantic: text, paths, lists of them, and numbers.

typer 0.29 coerces every value through a pydantic ``TypeAdapter``, so any command given an option
imported pydantic (~0.1 s of CPU before the command starts, about a quarter of the import floor F).
The CLI's parameters are all ``str``, ``Path``, ``bool``, ``X | None`` or ``list[X]`` of those,
whose coercion is ``str(value)`` or ``Path(value)``, or numbers read by a typer ``parser``
(``lobstack_eval/options.py``); a value not given (None) is passed through. Each parameter's
``process_value`` (click's documented hook: convert, check required, call the callback) does that
itself, calling the parser as typer would. Everything else goes to typer's own: another annotation
or value (a flag's bool needs no pydantic there either), a required value that is missing, a path
that exists but cannot be read (typer's error lines). Only public names are used: click's
``Parameter`` interface (``process_value``, ``required``, ``multiple``, ``nargs``, ``callback``,
``name``), the command's ``callback`` and the ``parser`` of its ``typer.Option``.
tests/test_cli_values.py checks every parameter of every command against typer's coercion.
"""

from __future__ import annotations

import functools
import inspect
import os
import types
import typing
from collections.abc import Callable
from pathlib import Path
from typing import Any

Convert = Callable[[Any], Any]
_TEXT: dict[Any, Convert] = {str: str, Path: Path}


def converter(annotation: Any) -> Convert | None:
    """``str``/``Path`` (or ``X | None``) -> their constructor; ``list[X]`` -> a list of them;
    else None."""
    origin, args = typing.get_origin(annotation), typing.get_args(annotation)
    if origin in (typing.Union, types.UnionType):
        kept = [a for a in args if a is not type(None)]
        return converter(kept[0]) if len(kept) == 1 else None
    if origin is list and len(args) == 1 and args[0] in _TEXT:
        item = _TEXT[args[0]]
        return lambda values: [item(v) for v in values]
    return _TEXT.get(annotation)


# A command's annotations and parsers never change: worked out once per function (cached), not at
# every get_params, which click calls twice or more a command line (parsing, help): typing's
# get_type_hints was about a twentieth of a process that calls main() hundreds of times (the tests).
@functools.cache
def annotations(callback: Callable[..., Any] | None) -> dict[str, Any]:
    """The command function's parameter annotations, evaluated (``{}`` when they cannot be);
    one dict per function, read only."""
    if callback is None:
        return {}
    try:
        return typing.get_type_hints(callback)
    except (NameError, TypeError):
        return {}


@functools.cache
def parsers(callback: Callable[..., Any] | None) -> dict[str, Convert]:
    """The ``parser=`` of each parameter of the command function that has one, by name, whether
    its ``typer.Option`` is the default or in an ``Annotated`` (cached as ``annotations``)."""
    if callback is None:
        return {}
    try:
        hints = typing.get_type_hints(callback, include_extras=True)
    except (NameError, TypeError):
        hints = {}
    found = {}
    for name, parameter in inspect.signature(callback).parameters.items():
        infos = [parameter.default, *getattr(hints.get(name), "__metadata__", ())]
        parser = next((p for i in infos if (p := getattr(i, "parser", None)) is not None), None)
        if parser is not None:
            found[name] = parser
    return found


def read_without_pydantic(parameter: Any, annotation: Any, parser: Convert | None = None) -> Any:
    """``parameter`` with a ``process_value`` that does typer's work itself where it needs
    no pydantic (``parser``: the value's typer parser, called here as typer calls it)."""
    if "process_value" in vars(parameter):  # get_params runs for help and parsing alike: wrap once
        return parameter
    convert = parser or converter(annotation)
    by_typer = parameter.process_value
    many = parameter.multiple or parameter.nargs == -1
    is_path = Path in (annotation, *typing.get_args(annotation))

    def process_value(ctx: Any, value: Any) -> Any:
        if value is None:
            # typer's coercion passes None through (() for many values) but imports pydantic to
            # build itself first: even the --help option, whose value is None when it is not given,
            # did that
            if parameter.required:
                return by_typer(ctx, value)  # typer's "Missing argument" line
            value = () if many else None
        elif convert is None or (is_path and not _readable_or_absent(value)):
            return by_typer(ctx, value)  # another type, or typer's "is not readable" line
        else:
            value = convert(value)
            if parameter.required and many and not value:
                return by_typer(ctx, ())
        if parameter.callback is not None:
            value = parameter.callback(ctx, parameter, value)
        return value

    parameter.process_value = process_value
    return parameter


def _readable_or_absent(value: Any) -> bool:
    paths = value if isinstance(value, list | tuple) else [value]
    return all(not os.path.exists(p) or os.access(p, os.R_OK) for p in paths)
