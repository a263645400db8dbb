"""The builder reads a suite's fields under their own names only, never under a look-alike key
(``XXnameXX``, ``NAME``) the document may hold too (check_suite reports such a key as unknown; the
builder's own problems and Suite do not change for it). Documents and expected values by hand."""

from __future__ import annotations

import copy
from typing import Any

from scorer.suite.build import SuiteBuilder
from tests.suitekit import TOOLS

READ = {"name": "read_file", "args": {"path": {"eq": "a"}}, "reference": {"path": "a"}}


def _decoys(key: str, first: Any, second: Any) -> dict[str, Any]:
    return {f"XX{key}XX": first, key.upper(): second}


def _suite(**top: Any) -> dict[str, Any]:
    step = {"expect": "call", "calls": [{**READ, **_decoys("name", "x", "y")}]}
    return {
        "name": "my-suite",
        "version": "1.2.3",
        "released": "2026-10-21",
        "system_prompt": "You help.",
        "tools": copy.deepcopy(TOOLS),
        "cases": [
            {
                "id": "c1",
                "group": "g",
                "tools": ["read_file"],
                "messages": [{"role": "user", "content": "hi"}],
                "steps": [{**step, **_decoys("expect", "none", "none")}],
            }
        ],
        **_decoys("name", "n1", "n2"),
        **_decoys("version", "9.9.9", "8.8.8"),
        **_decoys("released", "2020-01-01", "2020-01-02"),
        **_decoys("system_prompt", "p1", "p2"),
        **top,
    }


def test_the_suite_fields_are_read_under_their_own_names() -> None:
    builder = SuiteBuilder("s.json")
    suite = builder.suite(_suite(), "0" * 64)
    assert builder.problems == []
    assert suite is not None
    assert (suite.name, suite.version, suite.released, suite.system_prompt) == (
        "my-suite",
        "1.2.3",
        "2026-10-21",
        "You help.",
    )
    [step] = suite.cases[0].steps
    assert (step.expect, [call.name for call in step.calls]) == ("call", ["read_file"])


def test_a_refused_version_and_date_are_their_own_fields() -> None:
    builder = SuiteBuilder("s.json")
    assert builder.suite(_suite(version="1.2", released="2026-02-30"), "0" * 64) is None
    assert builder.problems == [
        "version: '1.2' is not MAJOR.MINOR.PATCH",
        "released: '2026-02-30' is not a YYYY-MM-DD date (a real day)",
    ]


def test_the_origin_is_its_own_field() -> None:
    origin = {
        "kind": "tools_file",
        "tools": [{"name": "read_file", "parameters": {"type": "object"}}],
    }
    builder = SuiteBuilder("s.json")
    suite = builder.suite(_suite(origin=origin, **_decoys("origin", "x", "y")), "0" * 64)
    assert builder.problems == []
    assert suite is not None
    assert list(suite.origin_tools) == ["read_file"]


def test_the_declared_arguments_are_the_tool_specs_own() -> None:
    tools = copy.deepcopy(TOOLS)
    spec = tools["read_file"]
    none_declared = {"parameters": {"type": "object", "properties": {}}}
    spec.update(_decoys("function", none_declared, none_declared))
    spec["function"].update(_decoys("parameters", {"properties": {}}, {"properties": {}}))
    builder = SuiteBuilder("s.json")
    assert builder.suite(_suite(tools=tools), "0" * 64) is not None
    assert builder.problems == []
