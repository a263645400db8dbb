"""Reading a suite file for diffing (the I/O edge): its bytes and its parsed object, or one
clear error."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from scorer import strict_json
from scorer.errors import SuiteError
from scorer.suite_file import VERSION_RE, decode_suite, is_yaml, located, suite_error
from scorer.suite_keys import unknown_key_problems


def read_suite_json(path: Path) -> tuple[bytes, dict[str, Any]]:
    """The raw bytes and the parsed object of a suite file; SuiteError naming the file
    when unusable."""
    try:
        raw = path.read_bytes()
    except OSError as exc:
        raise SuiteError(f"{path}: cannot read: {exc.strerror or exc}") from exc
    data, lines = decode_suite(raw, str(path)) if is_yaml(str(path)) else (_json(raw, path), None)
    problem = _shape_problem(data)
    if problem:
        raise SuiteError(f"{path}: {problem}")
    unknown = unknown_key_problems(
        data
    )  # a misspelt key would hide a change (or a check) from the diff
    if unknown:
        raise suite_error(str(path), located(unknown, data, lines))
    return raw, data


def _json(raw: bytes, path: Path) -> Any:
    try:
        return strict_json.loads_file(raw)
    except (
        ValueError,
        UnicodeDecodeError,
    ) as exc:  # JSONDecodeError and NotStrictJSON are ValueErrors
        raise SuiteError(f"{path}: not valid JSON: {exc}") from None


def _shape_problem(data: Any) -> str | None:
    """The first reason ``data`` cannot be diffed (the full validation is ``suite check``),
    or None."""
    if not isinstance(data, dict):
        return "not a JSON object"
    if not isinstance(data.get("version"), str) or not VERSION_RE.fullmatch(data["version"]):
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
