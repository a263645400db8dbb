"""``suite new``: a starting suite from a list of tools, every case a draft
(docs/commands/suite-new.md#suite-new, #drafts-worth-keeping).

For each tool, a selection case (its required arguments) and, when it has optional ones, an
arguments case (every argument, optional ones away from their default); a near-miss case for each
tool with a look-alike; one parallel case (two independent calls in one response); a two-step chain
wherever one tool's output (a thing it makes, lists or finds) feeds another's id argument; and
no-call cases: small talk, a request no tool can do, and two near the tools' domain. Requests come
from templates (scorer/suite/draft/user_requests.py) that ask for the outcome without naming the
tool or
copying its description; every value of a reference is said in the request and checked ``eq``, so
the audit's wrong values each meet a check. Every case carries ``draft``: what the author still has
to do. Nothing is random and no model is asked: the same tools give the same suite.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from scorer.schema.budget import GATEWAY_TOOL_LIMIT
from scorer.schema.sent import sent_parameters
from scorer.suite.draft.cases import (
    call_case,
    case_id,
    chain_case,
    near_miss_case,
    no_call_case,
    parallel_case,
    required_reference,
    taken_chain_case,
)
from scorer.suite.draft.listed import ListedTool, TakenResult
from scorer.suite.draft.reference import argument_names, draft_reference
from scorer.suite.draft.shapes import chain_pairs, domain_thing, look_alikes, parallel_pair
from scorer.suite.draft.user_requests import do_not, verb_and_thing
from scorer.suite.tools import build_tools

SMALL_TALK = "Hi! Thanks for the help earlier, how is your day going?"
NO_TOOL_REQUEST = "Please book me a table for two at an Italian restaurant tonight at 8 pm."
__all__ = ["ListedTool", "TakenResult", "case_id", "draft_suite", "required_reference"]


def catalogue_entry(tool: ListedTool) -> tuple[dict[str, Any], list[str]]:
    """The suite's OpenAI-style entry for ``tool`` (its schema whole, ``strict`` kept) and the
    schema notes (one per difference from the origin)."""
    parameters, notes = sent_parameters(tool.input_schema, f"{tool.name}.parameters")
    function: dict[str, Any] = {"name": tool.name, "description": tool.description or tool.name}
    function["parameters"] = parameters
    if tool.strict is not None:
        function["strict"] = tool.strict
    return {"type": "function", "function": function}, notes


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
    cases = _cases(tools, names, taken)
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
    for line in build_tools(catalogue, whole=True)[1]:
        where, _, message = line.partition(": ")
        head, _, field = where.partition(".function.")
        name = head.removeprefix("tools.")
        problems.append(f"tool {name!r}: {field or 'schema'}: {message}")
    return problems


def _cases(
    tools: Sequence[ListedTool], names: list[str], taken: Sequence[TakenResult]
) -> list[dict[str, Any]]:
    """Every drafted case, in a stable order: per tool its call cases, then near misses, the
    parallel pair, the chains and the no-call cases."""
    by_name = {tool.name: tool for tool in tools}
    index = {name: i for i, name in enumerate(names)}
    required = {tool.name: draft_reference(tool.input_schema, False) for tool in tools}
    cases: list[dict[str, Any]] = []
    for tool in tools:
        near = offered_near(names, index[tool.name])
        cases.append(call_case("selection", tool, near, required[tool.name]))
        if len(argument_names(tool.input_schema, True)) > len(required[tool.name].reference) + len(
            required[tool.name].undecided
        ):
            cases.append(
                call_case("arguments", tool, near, draft_reference(tool.input_schema, True))
            )
    for name, other in look_alikes(names).items():
        offered = _with(offered_near(names, index[name]), other, name)
        cases.append(near_miss_case(by_name[name], other, offered, required[name]))
    pair = parallel_pair([n for n in names if not required[n].undecided])
    if pair is not None:
        both = ((by_name[pair[0]], required[pair[0]]), (by_name[pair[1]], required[pair[1]]))
        cases.append(
            parallel_case(both, _with(offered_near(names, index[pair[0]]), pair[1], pair[0]))
        )
    needs = {n: argument_names(by_name[n].input_schema, False) for n in names}
    for first, then, argument in chain_pairs(names, needs):
        offered = _with(offered_near(names, index[then]), first, then)
        made = chain_case((by_name[first], required[first]), (by_name[then], required[then]),
                          argument, offered)  # fmt: skip
        if made is not None:
            cases.append(made)
    for one in taken:
        cases.append(taken_chain_case(by_name[one.tool], offered_near(names, index[one.tool]), one))
    return cases + _no_call_cases(names)


def _with(offered: list[str], name: str, own: str) -> list[str]:
    """``offered`` (which holds ``own``) with ``name`` in it too, in place of another tool when
    at a gateway's limit."""
    if name in offered:
        return offered
    if len(offered) < GATEWAY_TOOL_LIMIT:
        return [*offered, name]
    dropped = next(n for n in reversed(offered) if n != own)
    return [n for n in offered if n != dropped] + [name]


def _no_call_cases(names: list[str]) -> list[dict[str, Any]]:
    """Small talk, a request no tool can do, and two near the tools' domain: one that asks not to
    act yet, one that asks about the domain in general."""
    offered = offered_near(names, 0)
    thing = domain_thing(names)
    article = "an" if thing[:1] in "aeiou" else "a"
    acting = next(
        (n for n in names if verb_and_thing(n)[0] not in ("read", "list", "find")), names[0]
    )
    hold = (
        f"I may need your help with {article} {thing} later today. Don't {do_not(acting)} yet; "
        "just tell me what you would need from me."
    )
    general = f"In general terms, what makes a good {thing}? No need to look anything up."
    return [
        no_call_case(
            "no-call-small-talk",
            SMALL_TALK,
            offered,
            "small talk: keep it, or write what your users say that needs no tool",
        ),
        no_call_case(
            "no-call-cannot",
            NO_TOOL_REQUEST,
            offered,
            "make sure none of your tools can do this request; else write one they cannot do",
        ),
        no_call_case(
            "no-call-hold",
            hold,
            offered,
            "near the tools' domain, but asks not to act yet: keep a request like it",
        ),
        no_call_case(
            "no-call-general",
            general,
            offered,
            "near the tools' domain, answered from general knowledge: rewrite it in "
            "your users' words",
        ),
    ]
