"""A suite's tool catalogue: each tool's name, shape and parameter schema checked."""

from __future__ import annotations

import json
import re
from functools import lru_cache
from typing import Any

from scorer.schema.full import full_schema_problems, make_full_validator
from scorer.schema.subset import make_validator, schema_problems
from scorer.suite.model import Tool

# What OpenAI-compatible gateways accept as a function name (OpenAI's rule): any other is refused
# with a 400 at record, for every case that offers it (decision
# docs/commands/suite-check.md#tool-names-gateways-accept).
TOOL_NAME_RE = re.compile(r"[a-zA-Z0-9_-]{1,64}")
TOOL_NAME_RULE = "1-64 characters of a-z, A-Z, 0-9, _ and - (^[a-zA-Z0-9_-]{1,64}$, OpenAI's rule)"


def build_tools(raw: Any, whole: bool = False) -> tuple[dict[str, Tool], list[str]]:
    """The tools of a suite's ``tools`` object and every problem as ``where: message`` (a name
    gateways refuse is one problem here, and one for each case that offers it). ``whole``: the
    schemas are whole Draft 2020-12, formats checked (a suite that is not Lobstack's); else the
    method page's subset."""
    problems: list[str] = []

    def problem(where: str, message: str) -> None:
        problems.append(f"{where}: {message}")

    if not isinstance(raw, dict) or not raw:
        problem("tools", "missing or not a non-empty object of tool name -> tool")
        return {}, problems
    tools: dict[str, Tool] = {}
    for name in sorted(raw):
        if not TOOL_NAME_RE.fullmatch(name):
            problem(
                f"tools[{shown_name(name)}]", f"not a tool name gateways accept: {TOOL_NAME_RULE}"
            )
            continue
        where = f"tools.{name}"
        spec = raw[name]
        function = spec.get("function") if isinstance(spec, dict) else None
        if (
            not isinstance(spec, dict)
            or spec.get("type") != "function"
            or not isinstance(function, dict)
        ):
            problem(where, 'must be {"type": "function", "function": {...}}')
            continue
        if function.get("name") != name:
            problem(
                f"{where}.function.name",
                f"{function.get('name')!r} differs from the key {name!r}",
            )
        parameters = function.get("parameters")
        if not isinstance(parameters, dict) or parameters.get("type") != "object":
            problem(f"{where}.function.parameters", 'must be a schema with "type": "object"')
            continue
        if "strict" in function and not isinstance(function["strict"], bool):
            problem(f"{where}.function.strict", "must be true or false")
            continue
        at = f"{where}.function.parameters"
        found = _full_problems(parameters, at) if whole else _subset_problems(parameters, at)
        problems.extend(found)
        if not found:
            check = make_full_validator if whole else make_validator
            tools[name] = Tool(name=name, spec=spec, validator=check(parameters))
    return tools, problems


def _full_problems(parameters: Any, at: str) -> list[str]:
    """``full_schema_problems`` of a tool's schema, found once per process per schema text."""
    return _problems(parameters, at, True)


def _subset_problems(parameters: Any, at: str) -> list[str]:
    """``schema_problems`` of a tool's schema, found once per process per schema text."""
    return _problems(parameters, at, False)


def _problems(parameters: Any, at: str, whole: bool) -> list[str]:
    """The problems of a tool's schema, from the cache when the same text was checked before: a
    suite is read again whole for one field changed (``suite new``'s drafts, ``diff suites``,
    the tests' suites), and the metaschema's check of the tools was most of a read (about 1.3
    ms a tool)."""
    return list(_cached(json.dumps(parameters), at, whole))


@lru_cache(maxsize=256)
def _cached(text: str, at: str, whole: bool) -> tuple[str, ...]:
    # The schema read back from its text is the same value, types and key order: a JSON
    # document's keys are strings, and json writes every float so that it reads back bit for
    # bit (NaN and the infinities as NaN, Infinity and -Infinity, which it reads back).
    return tuple(_checked(json.loads(text), at, whole))


def _checked(parameters: Any, at: str, whole: bool) -> list[str]:
    return full_schema_problems(parameters, at) if whole else schema_problems(parameters, at)


def shown_name(name: str) -> str:
    """A refused tool name as an error line shows it: quoted with its escapes, at most
    80 characters."""
    text = repr(name)
    return text if len(text) <= 80 else text[:76] + "...'"
