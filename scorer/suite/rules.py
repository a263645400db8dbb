"""The rules a suite's cases follow: the Lobstack suite's group rules (each group's shape,
``<group>-NN`` case ids, the method page's group counts) and, for every suite, case ids that are
file names and message contents.

Every metric is defined by the shape of a case's steps (one call, no call, two or more calls, two or
more steps: ``scorer.case_shape``), never by a group's name, so a suite of one's own names its own
groups and ids. A Lobstack suite, one whose ``name`` starts with ``lobstack-``
(docs/commands/suite-check.md#own-suites), also keeps the method page's six groups, each of its
shape, so its group names still say what its metrics cover. Each rule returns one line per break,
worded like the builder's (``case <id>.<field>: <what is wrong>``), so ``suite check`` lists them
with the rest. The id and message rules read a case's raw fields, so the builder runs them on every
case, built or not (one run lists every problem); the shape rule reads built steps.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import TYPE_CHECKING

from scorer.suite.kind import SHAPE

if TYPE_CHECKING:
    from scorer.suite.model import Case, Step, Suite

ONE_CALL_GROUPS = ("selection", "arguments", "near_misses")
PUBLISHED_NAME = "lobstack-tool-calling"
PUBLISHED_COUNTS = {(PUBLISHED_NAME, "1.0.0"): SHAPE, (PUBLISHED_NAME, "1.1.0"): SHAPE}
_NUMBER = "(0[1-9]|[1-9][0-9])"
# A case id names its cassette file (``<model>/<id>.json``) in every suite.
_FILE_ID = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.-]{0,99}")
GROUP_MAX = 64


def file_id_problems(case_id: str) -> list[str]:
    """Every suite's id rule: a case id is a file name (letters, digits, ``_.-``, at most 100,
    not a dot first)."""
    # A dot first is refused by the pattern itself, "." and ".." with it.
    if _FILE_ID.fullmatch(case_id):
        return []
    return [
        f"case {case_id}.id: must be 1 to 100 letters, digits, '_', '.' or '-', starting with a "
        "letter or digit"
    ]


def problems(suite: Suite) -> list[str]:
    """Every Lobstack group rule the suite breaks, case by case in suite order (the group counts:
    ``count_problems``); the builder runs them only on the Lobstack suite."""
    found: list[str] = []
    for case in suite.cases:
        found += (
            id_problems(case.id, case.group)
            + message_problems(case.id, case.messages)
            + shape_problems(case)
        )
    return found


def count_problems(name: object, version: object, counts: dict[str, int]) -> list[str]:
    """For a published suite (name and version), each group whose case count differs from the method
    page's table. Counted from the file's raw cases, so the problem shows even when a case fails
    to build."""
    want = (
        PUBLISHED_COUNTS.get((name, version))
        if isinstance(name, str) and isinstance(version, str)
        else None
    )
    return [
        f"cases: group {group!r} has {counts.get(group, 0)} cases; the method page's table for "
        f"{name} {version} says {count}"
        for group, count in (want or {}).items()
        if counts.get(group, 0) != count
    ]


def id_problems(case_id: str, group: str) -> list[str]:
    """The id rule: ``<group>-NN`` with NN from 01 to 99."""
    if re.fullmatch(f"{re.escape(group)}-{_NUMBER}", case_id):
        return []
    return [
        f"case {case_id}.id: must be <group>-NN with NN from 01 to 99, here {group}-01 to "
        f"{group}-99"
    ]


def message_problems(case_id: str, messages: Sequence[object]) -> list[str]:
    """Each message whose content is not a string (a message that is not an object is the
    builder's problem)."""
    return [
        f"case {case_id}.messages[{index}].content: must be a string, got "
        f"{_json_type(message.get('content'))}"
        for index, message in enumerate(messages)
        if isinstance(message, dict) and not isinstance(message.get("content"), str)
    ]


def shape_problems(case: Case) -> list[str]:
    """The group's shape: steps and calls per step, on a built case."""
    steps, where = case.steps, f"case {case.id}.steps"
    shape = _describe(steps)
    if case.group in ONE_CALL_GROUPS:
        if len(steps) != 1 or steps[0].expect != "call" or len(steps[0].calls) != 1:
            return [
                f"{where}: a {case.group} case has one step expecting one call; this one has "
                f"{shape}"
            ]
    elif case.group == "parallel":
        if len(steps) != 1 or steps[0].expect != "call" or not 2 <= len(steps[0].calls) <= 3:
            return [
                f"{where}: a parallel case has one step expecting two or three calls; this one has "
                f"{shape}"
            ]
    elif case.group == "chains":
        if not 2 <= len(steps) <= 4 or any(
            step.expect == "call" and len(step.calls) != 1 for step in steps
        ):
            return [
                f"{where}: a chain has 2 to 4 steps, each call step expecting one call; this one "
                f"has {shape}"
            ]
    elif case.group == "no_call" and steps[0].expect != "none":
        return [f"{where}[0].expect: a no_call case expects no call first; this one has {shape}"]
    return []


def _describe(steps: tuple[Step, ...]) -> str:
    """``1 step (2 calls)``, ``3 steps (1 call, 1 call, none)``."""
    parts = [
        "none" if step.expect == "none" else _plural(len(step.calls), "call") for step in steps
    ]
    return f"{_plural(len(steps), 'step')} ({', '.join(parts)})"


def _plural(n: int, word: str) -> str:
    return f"{n} {word}{'' if n == 1 else 's'}"


def _json_type(value: object) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "a boolean"
    if isinstance(value, int | float):
        return "a number"
    if isinstance(value, list):
        return "an array"
    if isinstance(value, dict):
        return "an object"
    return type(value).__name__
