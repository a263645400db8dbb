"""The cases ``suite new`` drafts (docs/commands/suite-new.md#drafts-worth-keeping): each a request
from scorer/suite/draft/user_requests.py, reference calls from scorer/suite/draft/reference.py
checked ``eq`` value by value, and a ``draft`` note saying what the author still has to do."""

from __future__ import annotations

import json
import re
from typing import Any

from scorer.suite.draft.listed import ListedTool, TakenResult
from scorer.suite.draft.reference import Drafted, draft_reference
from scorer.suite.draft.user_requests import ask, do_not, verb_and_thing

_CASE_ID = re.compile(r"[^A-Za-z0-9_.-]+")
REWRITE = (
    "rewrite the request in your users' words; keep each value it gives or change it in the "
    "reference and its check too"
)


def case_id(prefix: str, tool: str) -> str:
    """A file-safe case id (``select-git_status``)."""
    return f"{prefix}-{_CASE_ID.sub('_', tool)}"[:100]


def _call(name: str, reference: dict[str, Any], result: str | None = None) -> dict[str, Any]:
    call: dict[str, Any] = {
        "name": name,
        "args": {arg: {"eq": value} for arg, value in reference.items()},
        "reference": reference,
    }
    if result is not None:
        call["result"] = result
    return call


def _case(cid: str, group: str, draft: str, offered: list[str], text: str) -> dict[str, Any]:
    return {
        "id": cid,
        "group": group,
        "draft": draft,
        "tools": offered,
        "messages": [{"role": "user", "content": text}],
        "steps": [],
    }


def _draft_note(drafted: Drafted, head: str = REWRITE) -> str:
    return head + (
        "; decide a value for " + ", ".join(drafted.undecided) if drafted.undecided else ""
    )


def call_case(group: str, tool: ListedTool, offered: list[str], drafted: Drafted) -> dict[str, Any]:
    """One call of ``tool`` with the ``drafted`` reference (a selection or an arguments case)."""
    prefix = {"selection": "select", "arguments": "args"}.get(group, group)
    text = ask(tool.name, drafted.reference)
    case = _case(case_id(prefix, tool.name), group, _draft_note(drafted), offered, text)
    case["steps"] = [{"expect": "call", "calls": [_call(tool.name, drafted.reference)]}]
    return case


def near_miss_case(
    tool: ListedTool, other: str, offered: list[str], drafted: Drafted
) -> dict[str, Any]:
    """``tool``'s call asked so that ``other``, which looks alike, is the wrong choice."""
    text = ask(tool.name, drafted.reference)
    contrast = do_not(other)
    if contrast != do_not(tool.name) and verb_and_thing(other)[0]:
        text += f" Don't {contrast}."
    elif verb_and_thing(other)[1] != verb_and_thing(tool.name)[1]:
        text += f" Not the {verb_and_thing(other)[1]}."
    head = (
        f"near miss: {other} looks alike; make sure the request can only mean {tool.name}, then "
        + REWRITE
    )
    case = _case(
        case_id("near", tool.name), "near_misses", _draft_note(drafted, head), offered, text
    )
    case["steps"] = [{"expect": "call", "calls": [_call(tool.name, drafted.reference)]}]
    return case


def parallel_case(
    pair: tuple[tuple[ListedTool, Drafted], tuple[ListedTool, Drafted]], offered: list[str]
) -> dict[str, Any]:
    """Two independent calls asked in one request: both expected in the same response."""
    (first, one), (second, two) = pair
    text = f"Two things at once, please. {ask(first.name, one.reference)} And: " + ask(
        second.name, two.reference
    )
    head = "parallel: both calls are independent and expected in one response; " + REWRITE
    cid = case_id("parallel", f"{first.name}-{second.name}")
    case = _case(cid, "parallel", _draft_note(one, head), offered, text)
    calls = [_call(first.name, one.reference), _call(second.name, two.reference)]
    case["steps"] = [{"expect": "call", "calls": calls}]
    return case


def chain_case(
    first: tuple[ListedTool, Drafted],
    then: tuple[ListedTool, Drafted],
    argument: str,
    offered: list[str],
) -> dict[str, Any] | None:
    """``first``'s output feeds ``then``'s ``argument``: its scripted result holds the id the second
    call must pass on (the request never says it). None when a reference is incomplete."""
    (tool, made), (second, needs) = first, then
    if made.undecided or needs.undecided or argument not in needs.reference:
        return None
    handed = needs.reference[argument]
    shown = {k: v for k, v in made.reference.items() if isinstance(v, str | int | float)}
    output: Any = {"id": handed, **shown}
    if not made.reference or tool.name.split("_")[0] in ("list", "search", "find"):
        output = [output]
    result = json.dumps(output, ensure_ascii=False)
    text = f"{ask(tool.name, made.reference)} Then: " + ask(
        second.name, needs.reference, given=(argument,)
    )
    head = (
        f"chain: {second.name}'s {argument} comes from {tool.name}'s result (scripted here, shaped "
        "as the draft guessed: paste a real answer of your server); " + REWRITE
    )
    cid = case_id("chain", f"{tool.name}-{second.name}")
    case = _case(cid, "chains", head, offered, text)
    case["steps"] = [
        {"expect": "call", "calls": [_call(tool.name, made.reference, result)]},
        {"expect": "call", "calls": [_call(second.name, needs.reference, '{"ok": true}')]},
        {"expect": "none"},
    ]
    return case


def taken_chain_case(tool: ListedTool, offered: list[str], taken: TakenResult) -> dict[str, Any]:
    """``--chain``: the call, whose scripted result is the server's own answer, then a text
    answer."""
    drafted = Drafted(dict(taken.arguments), ())
    text = ask(tool.name, drafted.reference) + " Then tell me what it says."
    head = (
        "the result was taken from the server once, when this suite was built (no later command "
        "calls it); " + REWRITE
    )
    case = _case(case_id("chain", tool.name), "chains", head, offered, text)
    case["steps"] = [
        {"expect": "call", "calls": [_call(tool.name, drafted.reference, taken.result)]},
        {"expect": "none"},
    ]
    return case


def no_call_case(cid: str, text: str, offered: list[str], draft: str) -> dict[str, Any]:
    """A request that needs no tool: the answer is text."""
    case = _case(cid, "no_call", draft, offered, text)
    case["steps"] = [{"expect": "none"}]
    return case


def required_reference(tool: ListedTool) -> dict[str, Any]:
    """The selection case's reference for ``tool``: its required arguments (one that cannot be
    made is left out, and the suite check names it)."""
    return draft_reference(tool.input_schema, optional=False).reference
