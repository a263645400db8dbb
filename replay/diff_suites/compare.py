"""What changed between two suite versions, and which version bump that requires.

A case is classified by what a recording of it depends on. The requests of a case with n steps are
``request_k = (system prompt, messages, offered tool specs, scripted results of steps 0..k-1)`` for
k < n. A case is **request-changed** (needs recording) when NEW's requests are not a prefix of
OLD's: the system prompt, its messages, its offered tool list or any offered tool's spec changed,
the scripted ``result`` of a step that is followed by another step changed (it is sent in the next
request), or NEW has more steps. Anything else that differs (``args``, ``expect``, ``reference``,
expected call names, the last step's ``result``, ``group``, fewer steps) is **check-changed**:
re-scorable from the old cassettes.

Required bump, after the method page: major when a case was removed; minor when a case was added or
a check or request changed; patch when only something no case uses changed (an unoffered tool, the
suite name); none otherwise (``version`` and ``released`` are ignored). A change to the method
page's rules also needs a major bump, but the rules are not in the suite file, so this module cannot
see it.
"""

from __future__ import annotations

import json
from typing import Any

from replay.diff_suites.model import KIND_TEXT, CaseChange, SuiteDiff
from replay.results.typed import SuiteData
from scorer.errors import SuiteError
from scorer.suite.file import VERSION_RE

_IGNORED = frozenset({"version", "released"})
_COMPARED = frozenset({"system_prompt", "tools", "cases"})


def bump_between(old: str, new: str) -> str:
    """``major``, ``minor``, ``patch``, ``none`` (equal) or ``lower`` for two
    MAJOR.MINOR.PATCH versions."""
    a, b = _semver(old), _semver(new)
    if b < a:
        return "lower"
    if b == a:
        return "none"
    return "major" if b[0] > a[0] else "minor" if b[1] > a[1] else "patch"


Number = tuple[int, str]


def _semver(version: str) -> tuple[Number, Number, Number]:
    """Each part as (digit count, digits), which orders as the number (no leading zeros) at any
    length: ``int()`` refuses more than 4,300 digits, and a suite file may hold that many."""
    match = VERSION_RE.fullmatch(version)
    if not match:
        raise SuiteError(f"version {version!r} is not MAJOR.MINOR.PATCH")
    return (len(match[1]), match[1]), (len(match[2]), match[2]), (len(match[3]), match[3])


def diff_suites(old: SuiteData, new: SuiteData) -> SuiteDiff:
    """Compare two suite objects (as from ``read_suite_json``) case by case."""
    old_cases = {c["id"]: c for c in old["cases"]}
    new_cases = {c["id"]: c for c in new["cases"]}
    changes = [
        _classify(old, new, old_cases[c["id"]], c)
        if c["id"] in old_cases
        else CaseChange(c["id"], "added")
        for c in new["cases"]
    ]
    changes += [CaseChange(c["id"], "removed") for c in old["cases"] if c["id"] not in new_cases]
    tools_old, tools_new = old["tools"], new["tools"]
    changed_tools = tuple(
        sorted(
            t
            for t in set(tools_old) & set(tools_new)
            if _canon(tools_old[t]) != _canon(tools_new[t])
        )
    )
    other = tuple(
        sorted(
            k
            for k in (set(old) | set(new)) - _IGNORED - _COMPARED
            if _canon(old.get(k)) != _canon(new.get(k))
        )
    )
    diff_tools = (set(tools_old) ^ set(tools_new)) | set(changed_tools)
    prompt_changed = _canon(old.get("system_prompt")) != _canon(new.get("system_prompt"))
    required, because = _required(changes, bool(other or diff_tools or prompt_changed))
    return SuiteDiff(
        name_old=str(old.get("name")),
        name_new=str(new.get("name")),
        version_old=old["version"],
        version_new=new["version"],
        system_prompt_changed=prompt_changed,
        tools_added=tuple(sorted(set(tools_new) - set(tools_old))),
        tools_removed=tuple(sorted(set(tools_old) - set(tools_new))),
        tools_changed=changed_tools,
        cases=tuple(changes),
        other_changes=other,
        required=required,
        required_because=because,
        actual=bump_between(old["version"], new["version"]),
    )


def _required(changes: list[CaseChange], anything_else: bool) -> tuple[str, str]:
    counts = {kind: sum(1 for c in changes if c.kind == kind) for kind in KIND_TEXT}
    removed = counts.pop("removed")
    if removed:
        return "major", _count(removed, "removed")
    reasons = [
        _count(n, KIND_TEXT[kind]) for kind, n in counts.items() if n and kind != "unchanged"
    ]
    if reasons:
        return "minor", ", ".join(reasons)
    if anything_else:
        return "patch", "no case changed; other suite content did"
    return "none", "nothing changed"


def _count(n: int, what: str) -> str:
    return f"{n} {'case' if n == 1 else 'cases'} {what}"


def _classify(
    old: SuiteData,
    new: SuiteData,
    oc: dict[str, Any],
    nc: dict[str, Any],  # oc, nc: cases, free JSON
) -> CaseChange:
    req_old, req_new = _requests(old, oc), _requests(new, nc)
    if req_new != req_old[: len(req_new)]:
        return CaseChange(nc["id"], "request_changed", _request_what(old, new, oc, nc))
    paths = _diff_paths(oc, nc, "")
    return (
        CaseChange(nc["id"], "check_changed", tuple(paths))
        if paths
        else CaseChange(nc["id"], "unchanged")
    )


def _requests(suite: SuiteData, case: dict[str, Any]) -> list[str]:  # free JSON: a case
    """One canonical string per request the case makes when every step passes."""
    base = {
        "system_prompt": suite.get("system_prompt"),
        "messages": case.get("messages"),
        "tools": [[name, suite["tools"].get(name)] for name in case.get("tools", [])],
    }
    results = [_step_results(step) for step in case.get("steps", [])]
    return [_canon({**base, "results": results[:k]}) for k in range(len(results))]


def _step_results(step: Any) -> list[Any]:
    calls = step.get("calls", []) if isinstance(step, dict) else []
    return [call.get("result") if isinstance(call, dict) else None for call in calls or []]


def _request_what(
    old: SuiteData,
    new: SuiteData,
    oc: dict[str, Any],
    nc: dict[str, Any],  # oc, nc: cases, free JSON
) -> tuple[str, ...]:
    what: list[str] = []
    if _canon(old.get("system_prompt")) != _canon(new.get("system_prompt")):
        what.append("system prompt")
    if _canon(oc.get("messages")) != _canon(nc.get("messages")):
        what.append("messages")
    if _canon(oc.get("tools")) != _canon(nc.get("tools")):
        what.append("offered tools")
    for name in nc.get("tools", []):
        if name in oc.get("tools", []) and _canon(old["tools"].get(name)) != _canon(
            new["tools"].get(name)
        ):
            what.append(f"tool {name}")
    steps_old, steps_new = oc.get("steps", []), nc.get("steps", [])
    for k in range(min(len(steps_old), len(steps_new)) - 1):
        if _canon(_step_results(steps_old[k])) != _canon(_step_results(steps_new[k])):
            what.append(f"steps[{k}] result")
    if len(steps_new) > len(steps_old):
        what.append(f"steps: {len(steps_old)} -> {len(steps_new)}")
    return tuple(what)


def _diff_paths(a: Any, b: Any, path: str) -> list[str]:
    """The paths where two JSON values differ, descending into objects and same-length lists."""
    if isinstance(a, dict) and isinstance(b, dict):
        if len(a) == len(b) == 1 and set(a) != set(b):
            return [
                path
            ]  # one check swapped for another ({"eq": 20} -> {"range": ...}): name the argument
        out: list[str] = []
        for key in sorted(set(a) | set(b)):
            sub = f"{path}.{key}" if path else key
            out += _diff_paths(a.get(key), b.get(key), sub) if key in a and key in b else [sub]
        return out
    if isinstance(a, list) and isinstance(b, list) and len(a) == len(b):
        return [
            p
            for i, (x, y) in enumerate(zip(a, b, strict=True))
            for p in _diff_paths(x, y, f"{path}[{i}]")
        ]
    return [] if _canon(a) == _canon(b) else [path]


def _canon(value: Any) -> str:
    # sort_keys so key order never counts as a change; 1 and 1.0 stay distinct on purpose (a
    # suite edit).
    return json.dumps(value, sort_keys=True, ensure_ascii=False)
