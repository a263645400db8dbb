"""The stand-in gateway's view of a suite: just enough to tell which case and step a request is at.

It reads the suite file (docs/FORMATS.md, "Suite file"; JSON, or YAML by its name) directly (the
full validation is ``suite check``'s job) and keeps each case's offered tools, opening messages and
steps. A request is at case C, step S when its first message is the system message with the suite's
``system_prompt``, the messages after it start with C's ``messages`` (compared by role and content),
and S assistant messages follow them. When several cases match, the one whose tools equal the
request's offered tool names wins, then the longest opening, then suite order.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from scorer.errors import SuiteError
from scorer.suite.file import decode_suite, is_yaml


@dataclass(frozen=True)
class ExpectedCall:
    """One expected call of a step: the tool name, its reference arguments and the checked names."""

    name: str
    reference: dict[str, Any]
    checked_args: tuple[str, ...]


@dataclass(frozen=True)
class Step:
    """``expect`` is ``"call"`` or ``"none"``; ``calls`` is empty for ``none``."""

    expect: str
    calls: tuple[ExpectedCall, ...]


@dataclass(frozen=True)
class Case:
    """The parts of a suite case the reference models use."""

    id: str
    tools: tuple[str, ...]
    messages: tuple[tuple[str, str], ...]
    steps: tuple[Step, ...]


@dataclass(frozen=True)
class Position:
    """Where a request is: its case and the 0-based step index (may be past the last step)."""

    case: Case
    step_index: int

    @property
    def step(self) -> Step | None:
        """The step being asked for, ``None`` past the end of the case."""
        return self.case.steps[self.step_index] if self.step_index < len(self.case.steps) else None


@dataclass(frozen=True)
class SuiteIndex:
    """System prompt, tool schemas by name, and cases in suite order; the suite's name, version
    and the sha256 of the file's bytes name the suite served (``standin.suite_follow``)."""

    system_prompt: str
    tool_schemas: dict[str, dict[str, Any]]
    cases: tuple[Case, ...]
    name: str = ""
    version: str = ""
    sha256: str = ""

    def locate(self, messages: list[Any], offered: tuple[str, ...]) -> Position | None:
        """The case and step of a conversation, or ``None`` when it is not one of the suite's."""
        if not messages or _role_content(messages[0]) != _role_content(
            {"role": "system", "content": self.system_prompt}
        ):
            return None
        rest = [_role_content(m) for m in messages[1:]]
        best: tuple[tuple[bool, int, int], Case] | None = None
        for order, case in enumerate(self.cases):
            n = len(case.messages)
            if tuple(rest[:n]) != case.messages:
                continue
            rank = (case.tools == offered, n, -order)
            if best is None or rank > best[0]:
                best = (rank, case)
        if best is None:
            return None
        case = best[1]
        assistants = sum(1 for role, _ in rest[len(case.messages) :] if role == "assistant")
        return Position(case, assistants)


def _role_content(message: Any) -> tuple[str, str]:
    if not isinstance(message, dict):
        return ("", "")
    return (
        str(message.get("role", "")),
        json.dumps(message.get("content"), sort_keys=True, ensure_ascii=False),
    )


def load_suite_index(path: Path) -> SuiteIndex:
    """Read a suite file (JSON, or YAML by its name); raises ``SuiteError`` naming the file and the
    first thing missing."""
    try:
        raw = path.read_bytes()
    except FileNotFoundError:
        raise SuiteError(f"{path}: suite file not found") from None
    except OSError as exc:
        raise SuiteError(f"{path}: cannot read suite file: {exc}") from None
    return index_of_bytes(raw, path)


def index_of_bytes(raw: bytes, path: Path) -> SuiteIndex:
    """The index of a suite file's bytes ``raw`` (read from ``path``, which names it in errors)."""
    try:
        if is_yaml(str(path)):
            data = decode_suite(raw, str(path))[0]
        else:
            data = json.loads(raw.decode("utf-8"))
    except UnicodeDecodeError as exc:
        raise SuiteError(f"{path}: cannot read suite file: {exc}") from None
    except json.JSONDecodeError as exc:
        raise SuiteError(
            f"{path}: not valid JSON: line {exc.lineno} column {exc.colno}: {exc.msg}"
        ) from None
    except RecursionError:
        raise SuiteError(f"{path}: not valid JSON: nested too deep") from None
    # The index reads only what answering needs; suite check names the case, field (and YAML line).
    check = f"; `lobstack-eval suite check {path}` names each problem with its case and field"
    try:
        index = _index(data)
    except RecursionError:
        raise SuiteError(
            f"{path}: not a suite file the gateway can use: nested too deep{check}"
        ) from None
    except (KeyError, TypeError, AttributeError, ValueError) as exc:
        raise SuiteError(
            f"{path}: not a suite file the gateway can use: {_describe(exc)}{check}"
        ) from None
    name, version = data.get("name"), data.get("version")
    return replace(
        index,
        name=name if isinstance(name, str) else "",
        version=version if isinstance(version, str) else "",
        sha256=hashlib.sha256(raw).hexdigest(),
    )


def _describe(exc: Exception) -> str:
    return f"missing key {exc.args[0]!r}" if isinstance(exc, KeyError) else str(exc)


def _index(data: Any) -> SuiteIndex:
    if not isinstance(data, dict):
        raise ValueError("the top level is not an object")
    system_prompt = data["system_prompt"]
    if not isinstance(system_prompt, str):
        raise ValueError("system_prompt is not a string")
    schemas = {
        name: entry["function"].get("parameters", {}) for name, entry in dict(data["tools"]).items()
    }
    cases = tuple(_case(raw) for raw in data["cases"])
    return SuiteIndex(system_prompt, schemas, cases)


def _case(raw: dict[str, Any]) -> Case:
    messages = tuple(_role_content(m) for m in raw["messages"])
    steps = tuple(_step(s) for s in raw["steps"])
    return Case(str(raw["id"]), tuple(str(t) for t in raw["tools"]), messages, steps)


def _step(raw: dict[str, Any]) -> Step:
    expect = raw["expect"]
    if expect not in ("call", "none"):
        raise ValueError(f"step expect {expect!r} is neither 'call' nor 'none'")
    if expect == "none":
        return Step("none", ())
    calls = tuple(
        ExpectedCall(str(c["name"]), dict(c.get("reference", {})), tuple(dict(c.get("args", {}))))
        for c in raw["calls"]
    )
    return Step("call", calls)
