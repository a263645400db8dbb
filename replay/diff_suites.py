"""What changed between two suite versions, and which version bump that requires.

A case is classified by what a recording of it depends on. The requests of a case with n steps are
``request_k = (system prompt, messages, offered tool specs, scripted results of steps 0..k-1)`` for
k < n. A case is **request-changed** (needs recording) when NEW's requests are not a prefix of OLD's:
the system prompt, its messages, its offered tool list or any offered tool's spec changed, the scripted
``result`` of a step that is followed by another step changed (it is sent in the next request), or NEW
has more steps. Anything else that differs (``args``, ``expect``, ``reference``, expected call names, the
last step's ``result``, ``group``, fewer steps) is **check-changed**: re-scorable from the old cassettes.

Required bump, after the method page: major when a case was removed; minor when a case was added or a
check or request changed; patch when only something no case uses changed (an unoffered tool, the suite
name); none otherwise (``version`` and ``released`` are ignored). A change to the method page's rules
also needs a major bump, but the rules are not in the suite file, so this module cannot see it.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from replay.diff_runs import METRICS
from scorer.errors import CassetteError, LobstackError, SuiteError

BUMPS: tuple[str, ...] = ("lower", "none", "patch", "minor", "major")
_VERSION = re.compile(r"^(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)$")
_IGNORED = frozenset({"version", "released"})
_COMPARED = frozenset({"system_prompt", "tools", "cases"})


@dataclass(frozen=True)
class CaseChange:
    """One case id and how it changed; ``what`` names the fields that differ."""

    case_id: str
    kind: str  # added | removed | request_changed | check_changed | unchanged
    what: tuple[str, ...] = ()


@dataclass(frozen=True)
class SuiteDiff:
    """Everything that differs between OLD and NEW, and the bump it requires against the bump made."""

    name_old: str
    name_new: str
    version_old: str
    version_new: str
    system_prompt_changed: bool
    tools_added: tuple[str, ...]
    tools_removed: tuple[str, ...]
    tools_changed: tuple[str, ...]
    cases: tuple[CaseChange, ...]  # NEW's order, then the removed cases in OLD's order
    other_changes: tuple[str, ...]  # other top-level fields that differ
    required: str  # a member of BUMPS other than "lower"
    required_because: str
    actual: str  # a member of BUMPS

    def of_kind(self, kind: str) -> tuple[CaseChange, ...]:
        """The cases of one kind, in order."""
        return tuple(c for c in self.cases if c.kind == kind)

    @property
    def bump_ok(self) -> bool:
        """NEW's version is at least what the changes require."""
        return BUMPS.index(self.actual) >= BUMPS.index(self.required)


def read_suite_json(path: Path) -> tuple[bytes, dict[str, Any]]:
    """The raw bytes and the parsed object of a suite file; SuiteError naming the file when unusable."""
    try:
        raw = path.read_bytes()
    except OSError as exc:
        raise SuiteError(f"{path}: cannot read: {exc.strerror or exc}") from exc
    try:
        data = json.loads(raw)
    except (json.JSONDecodeError, UnicodeDecodeError) as exc:
        raise SuiteError(f"{path}: not valid JSON: {exc}") from exc
    problem = _shape_problem(data)
    if problem:
        raise SuiteError(f"{path}: {problem}")
    return raw, data


def _shape_problem(data: Any) -> str | None:
    """The first reason ``data`` cannot be diffed (the full validation is ``suite check``), or None."""
    if not isinstance(data, dict):
        return "not a JSON object"
    if not isinstance(data.get("version"), str) or not _VERSION.match(data["version"]):
        return f"version: expected MAJOR.MINOR.PATCH, got {data.get('version')!r}"
    if not isinstance(data.get("tools"), dict):
        return "tools: expected an object"
    if not isinstance(data.get("cases"), list):
        return "cases: expected a list"
    seen: set[str] = set()
    for i, case in enumerate(data["cases"]):
        if not isinstance(case, dict) or not isinstance(case.get("id"), str):
            return f"cases[{i}]: missing string field 'id'"
        if case["id"] in seen:
            return f"cases[{i}]: duplicate case id {case['id']!r}"
        seen.add(case["id"])
        if not isinstance(case.get("steps", []), list):
            return f"case {case['id']}: steps: expected a list"
        tools = case.get("tools", [])
        if not isinstance(tools, list) or not all(isinstance(t, str) for t in tools):
            return f"case {case['id']}: tools: expected a list of tool names"
    return None


def bump_between(old: str, new: str) -> str:
    """``major``, ``minor``, ``patch``, ``none`` (equal) or ``lower`` for two MAJOR.MINOR.PATCH versions."""
    a, b = _semver(old), _semver(new)
    if b < a:
        return "lower"
    if b == a:
        return "none"
    return "major" if b[0] > a[0] else "minor" if b[1] > a[1] else "patch"


def _semver(version: str) -> tuple[int, int, int]:
    match = _VERSION.match(version)
    if not match:
        raise SuiteError(f"version {version!r} is not MAJOR.MINOR.PATCH")
    return int(match[1]), int(match[2]), int(match[3])


def diff_suites(old: dict[str, Any], new: dict[str, Any]) -> SuiteDiff:
    """Compare two suite objects (as from ``read_suite_json``) case by case."""
    old_cases = {c["id"]: c for c in old["cases"]}
    new_cases = {c["id"]: c for c in new["cases"]}
    changes = [
        _classify(old, new, old_cases[c["id"]], c) if c["id"] in old_cases else CaseChange(c["id"], "added")
        for c in new["cases"]
    ]
    changes += [CaseChange(c["id"], "removed") for c in old["cases"] if c["id"] not in new_cases]
    tools_old, tools_new = old["tools"], new["tools"]
    changed_tools = tuple(
        sorted(t for t in set(tools_old) & set(tools_new) if _canon(tools_old[t]) != _canon(tools_new[t]))
    )
    other = tuple(
        sorted(k for k in (set(old) | set(new)) - _IGNORED - _COMPARED if _canon(old.get(k)) != _canon(new.get(k)))
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
    counts = {kind: sum(1 for c in changes if c.kind == kind) for kind in _KIND_TEXT}
    removed = counts.pop("removed")
    if removed:
        return "major", _count(removed, "removed")
    reasons = [_count(n, _KIND_TEXT[kind]) for kind, n in counts.items() if n and kind != "unchanged"]
    if reasons:
        return "minor", ", ".join(reasons)
    if anything_else:
        return "patch", "no case changed; other suite content did"
    return "none", "nothing changed"


_KIND_TEXT = {
    "added": "added",
    "removed": "removed",
    "request_changed": "request-changed",
    "check_changed": "check-changed",
    "unchanged": "unchanged",
}


def _count(n: int, what: str) -> str:
    return f"{n} {'case' if n == 1 else 'cases'} {what}"


def _classify(old: dict[str, Any], new: dict[str, Any], oc: dict[str, Any], nc: dict[str, Any]) -> CaseChange:
    req_old, req_new = _requests(old, oc), _requests(new, nc)
    if req_new != req_old[: len(req_new)]:
        return CaseChange(nc["id"], "request_changed", _request_what(old, new, oc, nc))
    paths = _diff_paths(oc, nc, "")
    return CaseChange(nc["id"], "check_changed", tuple(paths)) if paths else CaseChange(nc["id"], "unchanged")


def _requests(suite: dict[str, Any], case: dict[str, Any]) -> list[str]:
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


def _request_what(old: dict[str, Any], new: dict[str, Any], oc: dict[str, Any], nc: dict[str, Any]) -> tuple[str, ...]:
    what: list[str] = []
    if _canon(old.get("system_prompt")) != _canon(new.get("system_prompt")):
        what.append("system prompt")
    if _canon(oc.get("messages")) != _canon(nc.get("messages")):
        what.append("messages")
    if _canon(oc.get("tools")) != _canon(nc.get("tools")):
        what.append("offered tools")
    for name in nc.get("tools", []):
        if name in oc.get("tools", []) and _canon(old["tools"].get(name)) != _canon(new["tools"].get(name)):
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
            return [path]  # one check swapped for another ({"eq": 20} -> {"range": ...}): name the argument
        out: list[str] = []
        for key in sorted(set(a) | set(b)):
            sub = f"{path}.{key}" if path else key
            out += _diff_paths(a.get(key), b.get(key), sub) if key in a and key in b else [sub]
        return out
    if isinstance(a, list) and isinstance(b, list) and len(a) == len(b):
        return [p for i, (x, y) in enumerate(zip(a, b, strict=True)) for p in _diff_paths(x, y, f"{path}[{i}]")]
    return [] if _canon(a) == _canon(b) else [path]


def _canon(value: Any) -> str:
    # sort_keys so key order never counts as a change; 1 and 1.0 stay distinct on purpose (a suite edit).
    return json.dumps(value, sort_keys=True, ensure_ascii=False)


def format_text(diff: SuiteDiff) -> str:
    """The change listing (without the bump verdict, which ``verdict_lines`` gives)."""
    if diff.name_old == diff.name_new:
        lines = [f"suite {diff.name_new}: {diff.version_old} -> {diff.version_new}"]
    else:
        lines = [f"suite {diff.name_old} {diff.version_old} -> {diff.name_new} {diff.version_new}"]
    lines.append(f"system prompt: {'changed' if diff.system_prompt_changed else 'unchanged'}")
    for title, names in (
        ("tools added", diff.tools_added),
        ("tools removed", diff.tools_removed),
        ("tools changed", diff.tools_changed),
    ):
        lines.append(f"{title}: {', '.join(names) if names else '-'}")
    if diff.other_changes:
        lines.append(f"other fields changed: {', '.join(diff.other_changes)}")
    counts = ", ".join(f"{len(diff.of_kind(k))} {text}" for k, text in _KIND_TEXT.items())
    lines.append(f"cases: {counts}")
    for kind, title in (
        ("added", "added (needs recording)"),
        ("removed", "removed"),
        ("request_changed", "request-changed (needs recording)"),
        ("check_changed", "check-changed (re-scorable offline)"),
    ):
        rows = diff.of_kind(kind)
        if rows:
            lines.append(f"  {title}:")
            lines.extend(f"    {c.case_id}" + (f": {_short(c.what)}" if c.what else "") for c in rows)
    return "\n".join(lines) + "\n"


def _short(what: tuple[str, ...], limit: int = 4) -> str:
    shown = ", ".join(what[:limit])
    return shown + (f", +{len(what) - limit} more" if len(what) > limit else "")


def verdict_lines(diff: SuiteDiff) -> list[str]:
    """The required bump, the bump made and, last, whether it is enough."""
    lines = [
        f"required bump: {diff.required} ({diff.required_because})",
        f"actual bump: {diff.actual} ({diff.version_old} -> {diff.version_new})",
    ]
    if diff.bump_ok:
        lines.append("version bump ok")
    elif diff.actual == "lower":
        lines.append(f"version bump wrong: NEW {diff.version_new} is lower than OLD {diff.version_old}")
    elif diff.actual == "none":
        lines.append(f"version bump missing: something changed but NEW is still {diff.version_new}")
    else:
        lines.append(f"version bump too small: {diff.required} required, {diff.actual} made")
    return lines


# --- metrics under both versions, from the same cassettes (--cassettes) ------------------------------


@dataclass(frozen=True)
class ModelRescore:
    """One model's seven rates rescored under OLD and under NEW, and what NEW still needs recorded."""

    model: str
    rates_old: tuple[float | None, ...]  # in METRICS order
    rates_new: tuple[float | None, ...]
    needs_recording: tuple[str, ...]  # case ids unrecorded under NEW


def rescore_both(cassettes: Path, old: tuple[bytes, str], new: tuple[bytes, str]) -> tuple[ModelRescore, ...]:
    """Rescore every model dir of ``cassettes`` under OLD and NEW (each given as raw bytes and source name).

    Reads cassettes only (no network): ``replay.rescore.rescore_model`` does the scoring.
    """
    from scorer import parse_suite

    try:
        from replay.rescore import rescore_model  # the lead's module; it may not have landed yet
    except ImportError as exc:
        if exc.name != "replay.rescore":
            raise  # a broken import inside replay.rescore is a bug, not a missing module
        raise LobstackError("--cassettes is not available yet (replay.rescore is missing)") from exc
    if not cassettes.is_dir():
        raise CassetteError(f"{cassettes}: not a directory")
    model_dirs = sorted(d for d in cassettes.iterdir() if d.is_dir() and (d / "run.json").is_file())
    if not model_dirs:
        raise CassetteError(f"{cassettes}: no model directories with a run.json")
    suite_old, suite_new = parse_suite(old[0], old[1]), parse_suite(new[0], new[1])
    rows = []
    for model_dir in model_dirs:
        ro, rn = rescore_model(model_dir, suite_old), rescore_model(model_dir, suite_new)
        rows.append(
            ModelRescore(
                model=str(rn.get("model", model_dir.name)),
                rates_old=tuple(ro["metrics"][m]["rate"] for m in METRICS),
                rates_new=tuple(rn["metrics"][m]["rate"] for m in METRICS),
                needs_recording=tuple(r["id"] for r in rn["results"] if r["status"] == "unrecorded"),
            )
        )
    return tuple(rows)


def format_rescores(rows: tuple[ModelRescore, ...], version_old: str, version_new: str) -> str:
    """Each model's seven rates under OLD and NEW side by side, then the cases NEW needs recorded."""
    lines: list[str] = []
    for row in rows:
        lines.append(f"model {row.model}")
        lines.append(f"  {'metric':<17} {version_old:>10} {version_new:>10} {'change':>10}")
        for name, a, b in zip(METRICS, row.rates_old, row.rates_new, strict=True):
            change = "-" if a is None or b is None else f"{b - a:+.2f}"
            lines.append(f"  {name:<17} {_pct(a):>10} {_pct(b):>10} {change:>10}")
        needs = row.needs_recording
        lines.append(f"  needs recording under {version_new} ({len(needs)}): {', '.join(needs) if needs else '-'}")
    return "\n".join(lines) + "\n" if lines else ""


def _pct(rate: float | None) -> str:
    return "-" if rate is None else f"{rate:.2f}"
