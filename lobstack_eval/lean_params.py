"""Text and path options coerced without pydantic: typer (0.29) builds a pydantic TypeAdapter for every option
it coerces, and importing pydantic for that costs ~70 ms, a fifth of what a whole rescore of one model may take.

A str option's text is its value and a Path option's value is ``Path(text)``: typer's own coercion does exactly
this for options without path checks (``exists``, ``resolve_path``...), which no command here uses. Numbers keep
typer's coercion (or are read as text and parsed by ``options``), so nothing that can fail is checked here.
``tests/test_speed_paths.py`` compares these values with typer's own and checks that rescore imports no pydantic.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from typer.core import TyperCommand, TyperGroup

try:  # typer's private coercion API: if it moves, every option simply keeps typer's own coercion
    from typer._coercion import RuntimeParam, build_runtime_param
except ImportError:  # pragma: no cover
    RuntimeParam = None  # type: ignore[assignment,misc]

_TEXT_TYPES = (str, Path)


def _lean_kind(parameter: Any) -> str | None:
    """ "text" for a str or Path option (single or repeatable) without typer's path checks or a custom parser,
    "flag" for a bool option, else None (typer's own coercion)."""
    descriptor = getattr(parameter, "type_descriptor", None)
    if descriptor is None or descriptor.file_annotation is not None or descriptor.parameter_info.parser is not None:
        return None
    info = descriptor.parameter_info
    if any(getattr(info, flag, False) for flag in ("exists", "resolve_path", "allow_dash")):
        return None
    annotation = descriptor.annotation
    if parameter.multiple:
        return "text" if annotation == list[str] else None
    if annotation is bool:
        return "flag"
    return "text" if annotation in _TEXT_TYPES else None


if RuntimeParam is not None:

    @dataclass(frozen=True)
    class _Lean(RuntimeParam):
        """A flag's bool as it is; ``str(text)`` or ``Path(text)``, item by item (as a list) for a repeatable
        option. Any other value (an environment variable's text for a flag) goes to typer's own coercion."""

        kind: str = "text"

        def _coerce_value(self, value: Any, param: Any, ctx: Any) -> Any:
            if self.kind == "flag" and isinstance(value, bool):
                return value
            if self.kind == "text":
                convert = Path if self.annotation is Path else str
                if isinstance(value, list | tuple) and all(isinstance(item, str | Path) for item in value):
                    return [convert(item) for item in value]
                if isinstance(value, str | Path):
                    return value if isinstance(value, convert) else convert(value)
            return build_runtime_param(param.type_descriptor)._coerce_value(value, param=param, ctx=ctx)


def _leaned(parameters: list[Any]) -> list[Any]:
    if RuntimeParam is None:  # pragma: no cover
        return parameters
    for parameter in parameters:
        kind = _lean_kind(parameter)
        if kind and getattr(parameter, "_runtime_param", "absent") is None:
            descriptor = parameter.type_descriptor
            parameter._runtime_param = _Lean(
                parameter_info=descriptor.parameter_info, annotation=descriptor.annotation, kind=kind
            )
    return parameters


class LeanCommand(TyperCommand):
    """A typer command whose text, path and flag options are coerced without pydantic."""

    def get_params(self, ctx: Any) -> list[Any]:
        return _leaned(super().get_params(ctx))


class LeanGroup(TyperGroup):
    """A typer group (its ``--help`` and ``--version``) coerced like ``LeanCommand``."""

    def get_params(self, ctx: Any) -> list[Any]:
        return _leaned(super().get_params(ctx))
