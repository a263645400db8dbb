"""The keys a suite file may hold, object by object; any other key is a problem (METHOD.md,
decision 98).

A misspelt key is not an extra note: ``"argz"`` instead of ``"args"`` drops every check of the call,
so the suite would still load and score more leniently. Each unknown key is one line worded like the
builder's (``case <id>.steps[0].calls[0]: unknown key "argz" (did you mean "args"?)``). The walk
reads the raw document and skips whatever is not an object or list where one is expected: the
builder reports those shapes.
"""

from __future__ import annotations

import difflib
import json
from collections.abc import Iterable
from typing import Any

TOP = ("name", "version", "released", "system_prompt", "tools", "cases", "origin")
# ``origin.tools`` is the server's list as listed: its objects are the server's, not the suite's,
# to shape.
ORIGIN = ("kind", "server", "tools", "schema_notes")
SERVER = ("name", "version")
TOOL = ("type", "function")
FUNCTION = ("name", "description", "parameters", "strict")
CASE = ("id", "group", "tools", "messages", "steps", "draft")
# Messages go to the gateway as written, so they may carry the chat-completions message fields.
MESSAGE = ("role", "content", "name", "tool_calls", "tool_call_id")
STEP = ("expect", "calls")
CALL = ("name", "args", "reference", "result", "audit_accept")
AUDIT_ACCEPT = ("arg", "kind", "value", "reason")


def unknown_key_problems(data: Any) -> list[str]:
    """One line per key of the suite document that its object does not define, in file order."""
    if not isinstance(data, dict):
        return []
    found = _unknown(data, TOP, "(top level)")
    origin = data.get("origin")
    if isinstance(origin, dict):
        found += _unknown(origin, ORIGIN, "origin")
        if isinstance(origin.get("server"), dict):
            found += _unknown(origin["server"], SERVER, "origin.server")
    tools = data.get("tools")
    if isinstance(tools, dict):
        for name, spec in tools.items():
            if isinstance(spec, dict):
                found += _unknown(spec, TOOL, f"tools.{name}")
                if isinstance(spec.get("function"), dict):
                    found += _unknown(spec["function"], FUNCTION, f"tools.{name}.function")
    cases = data.get("cases")
    for index, case in enumerate(cases if isinstance(cases, list) else []):
        if isinstance(case, dict):
            found += _case(case, index)
    return found


def _case(case: dict[str, Any], index: int) -> list[str]:
    case_id = case.get("id")
    where = f"case {case_id}" if isinstance(case_id, str) and case_id else f"cases[{index}]"
    found = _unknown(case, CASE, where)
    for m_index, message in _objects(case.get("messages")):
        found += _unknown(message, MESSAGE, f"{where}.messages[{m_index}]")
    for s_index, step in _objects(case.get("steps")):
        at = f"{where}.steps[{s_index}]"
        found += _unknown(step, STEP, at)
        for c_index, call in _objects(step.get("calls")):
            found += _unknown(call, CALL, f"{at}.calls[{c_index}]")
            for a_index, accept in _objects(call.get("audit_accept")):
                found += _unknown(
                    accept, AUDIT_ACCEPT, f"{at}.calls[{c_index}].audit_accept[{a_index}]"
                )
    return found


def _objects(items: Any) -> Iterable[tuple[int, dict[str, Any]]]:
    """The objects of a list with their index (nothing when ``items`` is not a list)."""
    return (
        (i, item)
        for i, item in enumerate(items if isinstance(items, list) else [])
        if isinstance(item, dict)
    )


def _unknown(obj: dict[str, Any], known: tuple[str, ...], where: str) -> list[str]:
    return [
        f"{where}: unknown key {_quote(key)} ({hint(key, known)})"
        for key in obj
        if key not in known
    ]


def hint(key: str, known: Iterable[str]) -> str:
    """``did you mean "args"?`` for the closest known key (difflib), else the list of known keys."""
    choices = sorted(known)
    # 0.7 rather than difflib's 0.6: at 0.6 "notes" would be offered "steps".
    close = difflib.get_close_matches(key, choices, n=1, cutoff=0.7) or difflib.get_close_matches(
        key.lower(), [c.lower() for c in choices], n=1, cutoff=0.7
    )
    if close:
        match = next(c for c in choices if c.lower() == close[0].lower())
        return f"did you mean {_quote(match)}?"
    return "known keys: " + ", ".join(_quote(c) for c in choices)


def _quote(key: str) -> str:
    return json.dumps(key, ensure_ascii=False)
