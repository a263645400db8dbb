"""``suite new``: a starting suite from a list of tools, every case a draft
(docs/commands/suite-new.md#suite-new).

For each tool, a selection case (the request gives the required arguments; the reference call has
them, each checked ``eq``) and an arguments case (the request also gives every optional argument a
value other than its default, each checked ``eq``); then two no-call cases (small talk, a request no
tool can do). The values come from the schema: an enum's member, a number inside the bounds, a
string of the allowed length that matches the pattern, an array of at least ``minItems`` items, an
object of its required fields; each value is written into the request, so the audit's wrong values
(another enum member, a number one off, a part dropped) each meet a check. A value the schema does
not let it make is named in the case's ``draft`` note and left for the author. Every case carries
``draft``: the request is a template to rewrite in the user's words.
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from scorer.draft_reference import argument_names, draft_reference
from scorer.schema_budget import GATEWAY_TOOL_LIMIT
from scorer.suite_tools import build_tools
from scorer.tool_schema_subset import subset_schema

SMALL_TALK = "Hi! Thanks for the help earlier, how is your day going?"
NO_TOOL_REQUEST = "Please book me a table for two at an Italian restaurant tonight at 8 pm."
_CASE_ID = re.compile(r"[^A-Za-z0-9_.-]+")


@dataclass(frozen=True)
class ListedTool:
    """One tool as listed: name, description, input schema (as given)."""

    name: str
    description: str
    input_schema: Any


def catalogue_entry(tool: ListedTool) -> tuple[dict[str, Any], list[str]]:
    """The suite's OpenAI-style entry for ``tool`` (its schema within the subset) and the
    schema notes."""
    parameters, notes = subset_schema(tool.input_schema, f"{tool.name}.parameters")
    function: dict[str, Any] = {"name": tool.name, "description": tool.description or tool.name}
    function["parameters"] = parameters
    return {"type": "function", "function": function}, notes


@dataclass(frozen=True)
class TakenResult:
    """A tool called once on the live server when the suite was built: its arguments and the
    result's text."""

    tool: str
    arguments: dict[str, Any]
    result: str


def draft_suite(
    tools: Sequence[ListedTool],
    name: str,
    released: str,
    origin: dict[str, Any],
    taken: Sequence[TakenResult] = (),
) -> dict[str, Any]:
    """The suite document for ``tools`` (in listed order), with a two-step chain per ``taken``
    result; ``origin`` gets its ``schema_notes``."""
    catalogue: dict[str, Any] = {}
    notes: list[str] = []
    for tool in tools:
        entry, found = catalogue_entry(tool)
        catalogue[tool.name] = entry
        notes += found
    names = [tool.name for tool in tools]
    offered = offered_near(names, 0)
    cases: list[dict[str, Any]] = []
    for index, tool in enumerate(tools):
        parameters = catalogue[tool.name]["function"]["parameters"]
        near = offered_near(names, index)
        cases.append(_call_case("selection", tool, parameters, near, optional=False))
        if len(argument_names(tool.input_schema, True)) > len(
            argument_names(tool.input_schema, False)
        ):
            cases.append(_call_case("arguments", tool, parameters, near, optional=True))
    by_name = {tool.name: tool for tool in tools}
    for one in taken:
        parameters = catalogue[one.tool]["function"]["parameters"]
        near = offered_near(names, names.index(one.tool))
        cases.append(_chain_case(by_name[one.tool], parameters, near, one))
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
    # A tools file's name is a file stem ("tools"), not a product: only a server's own name is
    # worth saying ("the tools of tools" read badly).
    tools_of = f"the tools of {server}" if server else "the tools you are offered"
    system_prompt = (
        f"You are an assistant that acts through {tools_of}. "
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


def offered_near(names: list[str], index: int) -> list[str]:
    """The tools a case about ``names[index]`` offers: all of them up to a gateway's limit per
    request (``GATEWAY_TOOL_LIMIT``), else the limit's worth listed nearest it, in listed order (so
    the suite grows linearly with the tools, not as their square)."""
    if len(names) <= GATEWAY_TOOL_LIMIT:
        return names
    start = min(max(0, index - GATEWAY_TOOL_LIMIT // 2), len(names) - GATEWAY_TOOL_LIMIT)
    return names[start : start + GATEWAY_TOOL_LIMIT]


def catalogue_problems(catalogue: dict[str, Any]) -> list[str]:
    """Each problem of the drafted catalogue's schemas, as ``tool 'NAME': parameters...: message``
    (the caller names the tools file or server they came from)."""
    problems = []
    for line in build_tools(catalogue)[1]:
        where, _, message = line.partition(": ")
        head, _, field = where.partition(".function.")
        name = head.removeprefix("tools.")
        problems.append(f"tool {name!r}: {field or 'schema'}: {message}")
    return problems


def required_reference(tool: ListedTool) -> dict[str, Any]:
    """The selection case's reference for ``tool``: its required arguments, values made from its
    schema (one that cannot be made is left out, and the suite check names it)."""
    parameters = catalogue_entry(tool)[0]["function"]["parameters"]
    return _call_case("selection", tool, parameters, [], optional=False)["steps"][0]["calls"][0][
        "reference"
    ]


def case_id(prefix: str, tool: str) -> str:
    """A file-safe case id (``select-git_status``)."""
    return f"{prefix}-{_CASE_ID.sub('_', tool)}"[:100]


def _chain_case(
    tool: ListedTool, parameters: dict[str, Any], offered: list[str], taken: TakenResult
) -> dict[str, Any]:
    """Two steps: the call, whose scripted result is the server's own answer, then a text answer."""
    case = _call_case("chains", tool, parameters, offered, optional=False, given=taken.arguments)
    case["id"] = case_id("chain", tool.name)
    case["messages"][0]["content"] += " Then tell me what it says."
    case["draft"] = (
        "the result was taken from the server once, when this suite was built (no later command "
        "calls it); " + case["draft"]
    )
    case["steps"][0]["calls"][0]["result"] = taken.result
    case["steps"].append({"expect": "none"})
    return case


def _call_case(
    group: str,
    tool: ListedTool,
    parameters: dict[str, Any],
    offered: list[str],
    optional: bool,
    given: dict[str, Any] | None = None,
) -> dict[str, Any]:
    reference: dict[str, Any] = dict(given or {})
    undecided: list[str] = []
    if given is None:
        drafted = draft_reference(tool.input_schema, optional)
        reference, undecided = drafted.reference, list(drafted.undecided)
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
        draft += "; decide a value for " + ", ".join(undecided)
    prefix = {"selection": "select", "arguments": "args"}.get(group, group)
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
