"""``suite new``: a starting suite from a list of tools, every case a draft (docs/commands/suite-new.md#suite-new).

For each tool, a selection case (the request gives the required arguments; the reference call has them, each
checked ``eq``) and an arguments case (the request also gives every optional argument a value other than its
default, each checked ``eq``); then two no-call cases (small talk, a request no tool can do). The values come from
the schema: an enum's member, a number inside the bounds, a string of the allowed length that matches the
pattern, an array of at least ``minItems`` items, an object of its required fields; each value is written into the
request, so the audit's wrong values (another enum member, a number one off, a part dropped) each meet a check. A
value the schema does not let it make is named in the case's ``draft`` note and left for the author. Every case
carries ``draft``: the request is a template to rewrite in the user's words.
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from scorer.patterns import PatternError, pattern_search
from scorer.tool_schema_subset import subset_schema

SMALL_TALK = "Hi! Thanks for the help earlier, how is your day going?"
NO_TOOL_REQUEST = "Please book me a table for two at an Italian restaurant tonight at 8 pm."
_STRING_TRIES = (
    "example",
    "example-1",
    "main",
    "a1",
    "A1",
    "1",
    "#general",
    "user@example.com",
    "https://example.com/",
    "/tmp/example",
    "2026-10-21",
    "12:00",
    "abc",
    "x",
)
_CASE_ID = re.compile(r"[^A-Za-z0-9_.-]+")


@dataclass(frozen=True)
class ListedTool:
    """One tool as listed: name, description, input schema (as given)."""

    name: str
    description: str
    input_schema: Any


def catalogue_entry(tool: ListedTool) -> tuple[dict[str, Any], list[str]]:
    """The suite's OpenAI-style entry for ``tool`` (its schema within the subset) and the schema notes."""
    parameters, notes = subset_schema(tool.input_schema, f"{tool.name}.parameters")
    function: dict[str, Any] = {"name": tool.name, "description": tool.description or tool.name}
    function["parameters"] = parameters
    return {"type": "function", "function": function}, notes


def draft_suite(
    tools: Sequence[ListedTool],
    name: str,
    released: str,
    origin: dict[str, Any],
) -> dict[str, Any]:
    """The suite document for ``tools`` (in listed order); ``origin`` gets its ``schema_notes``."""
    catalogue: dict[str, Any] = {}
    notes: list[str] = []
    for tool in tools:
        entry, found = catalogue_entry(tool)
        catalogue[tool.name] = entry
        notes += found
    offered = [tool.name for tool in tools]
    cases: list[dict[str, Any]] = []
    for tool in tools:
        parameters = catalogue[tool.name]["function"]["parameters"]
        cases.append(_call_case("selection", tool, parameters, offered, optional=False))
        if _optional_names(parameters):
            cases.append(_call_case("arguments", tool, parameters, offered, optional=True))
    cases += [
        _no_call_case(
            "no-call-small-talk",
            SMALL_TALK,
            offered,
            "small talk: keep it, or write what your users say that needs no tool",
        ),
        _no_call_case(
            "no-call-cannot",
            NO_TOOL_REQUEST,
            offered,
            "make sure none of your tools can do this request; else write one they cannot do",
        ),
    ]
    server = (
        origin.get("server", {}).get("name") if isinstance(origin.get("server"), dict) else None
    )
    system_prompt = (
        f"You are an assistant that acts through the tools of {server or name}. "
        "Answer in text when no tool is needed, and make independent calls in the same response."
    )
    return {
        "name": name,
        "version": "0.1.0",
        "released": released,
        "system_prompt": system_prompt,
        "tools": catalogue,
        "cases": cases,
        "origin": {**origin, "schema_notes": notes},
    }


def case_id(prefix: str, tool: str) -> str:
    """A file-safe case id (``select-git_status``)."""
    return f"{prefix}-{_CASE_ID.sub('_', tool)}"[:100]


def _optional_names(parameters: dict[str, Any]) -> list[str]:
    props = parameters.get("properties") if isinstance(parameters.get("properties"), dict) else {}
    required = set(parameters.get("required") or [])
    return [name for name in props if name not in required]


def _call_case(
    group: str, tool: ListedTool, parameters: dict[str, Any], offered: list[str], optional: bool
) -> dict[str, Any]:
    props = parameters.get("properties") if isinstance(parameters.get("properties"), dict) else {}
    required = [n for n in parameters.get("required") or [] if isinstance(n, str)]
    names = [n for n in props if n in required or optional] + [
        n for n in required if n not in props
    ]
    reference: dict[str, Any] = {}
    undecided: list[str] = []
    for arg in names:
        value = sample(props.get(arg, {}), arg, avoid_default=optional)
        if value is _UNDECIDED:
            undecided.append(arg)
            continue
        reference[arg] = value
    args = {arg: {"eq": value} for arg, value in reference.items()}
    said = "; ".join(
        f"{arg} {json.dumps(value, ensure_ascii=False)}" for arg, value in reference.items()
    )
    ask = (tool.description or tool.name).strip().rstrip(".")
    text = f"{ask}." + (f" Use {said}." if said else "")
    draft = (
        "rewrite the request in your users' words; keep each value it gives or change it in the "
        "reference and its check too"
    )
    if undecided:
        draft += (
            "; decide a value for "
            + ", ".join(undecided)
            + " (the schema does not let one be made)"
        )
    prefix = "select" if group == "selection" else "args"
    return {
        "id": case_id(prefix, tool.name),
        "group": group,
        "draft": draft,
        "tools": offered,
        "messages": [{"role": "user", "content": text}],
        "steps": [
            {"expect": "call", "calls": [{"name": tool.name, "args": args, "reference": reference}]}
        ],
    }


def _no_call_case(cid: str, text: str, offered: list[str], draft: str) -> dict[str, Any]:
    return {
        "id": cid,
        "group": "no_call",
        "draft": draft,
        "tools": offered,
        "messages": [{"role": "user", "content": text}],
        "steps": [{"expect": "none"}],
    }


class _Undecided:
    def __repr__(self) -> str:
        return "UNDECIDED"


_UNDECIDED: Any = _Undecided()


def sample(schema: Any, name: str, avoid_default: bool = False) -> Any:
    """A value ``schema`` accepts, for argument ``name``; ``_UNDECIDED`` when none can be made."""
    if not isinstance(schema, dict):
        return f"example-{name}"
    default = _stated_default(schema)
    enum = schema.get("enum")
    if isinstance(enum, list) and enum:
        # The second member when there is one: both neighbours exist, and it is not the usual default.
        choices = [v for v in enum if not (avoid_default and v == default)] or enum
        return choices[1] if len(choices) > 1 else choices[0]
    if "const" in schema:
        return schema["const"]
    kind = schema.get("type")
    kinds = kind if isinstance(kind, list) else [kind]
    kinds = [k for k in kinds if k != "null"] or kinds
    kind = kinds[0] if kinds else "string"
    if kind == "boolean":
        return not default if isinstance(default, bool) else True
    if kind in ("integer", "number"):
        return _number(schema, default if avoid_default else None)
    if kind == "array":
        item = sample(schema.get("items", {}), name)
        if item is _UNDECIDED:
            return _UNDECIDED
        count = max(1, int(schema.get("minItems") or 1))
        if isinstance(schema.get("maxItems"), int) and schema["maxItems"] < count:
            return _UNDECIDED
        items = [item] + [_numbered(item, i) for i in range(2, count + 1)]
        return items
    if kind == "object":
        props = schema.get("properties") if isinstance(schema.get("properties"), dict) else {}
        out = {}
        for key in schema.get("required") or []:
            value = sample(props.get(key, {}), key)
            if value is _UNDECIDED:
                return _UNDECIDED
            out[key] = value
        return out
    return _string(schema, name, default if avoid_default else None)


def _numbered(item: Any, i: int) -> Any:
    if isinstance(item, str):
        return f"{item}-{i}"
    if isinstance(item, int) and not isinstance(item, bool):
        return item + i - 1
    return item


def _stated_default(schema: dict[str, Any]) -> Any:
    match = re.search(r"\(default ([^):;,]+)\)", str(schema.get("description", "")))
    if not match:
        return None
    text = match.group(1).strip()
    try:
        return json.loads(text)
    except ValueError:
        return text


def _number(schema: dict[str, Any], default: Any) -> Any:
    low, high = schema.get("minimum"), schema.get("maximum")
    candidates = [5, 7, 2, 1, 0]
    if isinstance(low, int | float):
        candidates = [low + 1, low, *candidates]
    if isinstance(high, int | float):
        candidates = [*candidates, high - 1, high]
    for value in candidates:
        if schema.get("type") == "integer" and not float(value).is_integer():
            continue
        if (
            (not isinstance(low, int | float) or value >= low)
            and (not isinstance(high, int | float) or value <= high)
            and value != default
        ):
            return int(value) if schema.get("type") == "integer" else value
    return _UNDECIDED


def _string(schema: dict[str, Any], name: str, default: Any) -> Any:
    pattern = schema.get("pattern")
    low = schema.get("minLength") if isinstance(schema.get("minLength"), int) else 0
    high = schema.get("maxLength") if isinstance(schema.get("maxLength"), int) else None
    own = f"example-{name}".replace("_", "-")
    for value in (own, *_STRING_TRIES):
        if value == default or len(value) < low or (high is not None and len(value) > high):
            continue
        if isinstance(pattern, str):
            try:
                if not pattern_search(pattern, value):
                    continue
            except PatternError:
                return _UNDECIDED
        return value
    if not isinstance(pattern, str) and (high is None or high >= max(low, 1)):
        return "x" * max(low, 1)
    return _UNDECIDED
