"""Build small valid suites in tests, through the real suite parser."""

from __future__ import annotations

import json
from typing import Any

from scorer import Suite, parse_suite

TOOLS: dict[str, Any] = {
    "read_file": {
        "type": "function",
        "function": {
            "name": "read_file",
            "description": "Read lines of a file in the repository.",
            "parameters": {
                "type": "object",
                "properties": {
                    "path": {"type": "string", "minLength": 1},
                    "start_line": {"type": "integer", "minimum": 1},
                    "end_line": {"type": "integer", "minimum": 1},
                },
                "required": ["path"],
                "additionalProperties": False,
            },
        },
    },
    "send_email": {
        "type": "function",
        "function": {
            "name": "send_email",
            "description": "Send an email.",
            "parameters": {
                "type": "object",
                "properties": {
                    "to": {"type": "array", "items": {"type": "string"}, "minItems": 1},
                    "subject": {"type": "string"},
                    "body": {"type": "string"},
                },
                "required": ["to", "subject", "body"],
                "additionalProperties": False,
            },
        },
    },
    "send_slack": {
        "type": "function",
        "function": {
            "name": "send_slack",
            "description": "Post a Slack message.",
            "parameters": {
                "type": "object",
                "properties": {
                    "channel": {"type": "string", "pattern": "^#"},
                    "text": {"type": "string"},
                },
                "required": ["channel", "text"],
                "additionalProperties": False,
            },
        },
    },
    "get_weather": {
        "type": "function",
        "function": {
            "name": "get_weather",
            "description": "Weather for a city.",
            "parameters": {
                "type": "object",
                "properties": {
                    "city": {"type": "string"},
                    "unit": {"type": "string", "enum": ["c", "f"]},
                },
                "required": ["city"],
                "additionalProperties": False,
            },
        },
    },
}


def suite_dict(cases: list[dict[str, Any]], tools: dict[str, Any] | None = None) -> dict[str, Any]:
    """A suite document around ``cases``: a Lobstack suite (its name starts with ``lobstack-``, so
    the group rules apply) that is not the published one (so the group counts do not)."""
    return {
        "name": "lobstack-test-suite",
        "version": "0.1.0",
        "released": "2026-10-21",
        "system_prompt": "You are a test assistant. Today is 2026-10-21 (UTC).",
        "tools": tools if tools is not None else TOOLS,
        "cases": cases,
    }


def make_suite(cases: list[dict[str, Any]], tools: dict[str, Any] | None = None) -> Suite:
    """Parse a suite made of ``cases`` with the real parser (raises SuiteError when invalid)."""
    return parse_suite(json.dumps(suite_dict(cases, tools)).encode(), "test-suite.json")


def case(
    case_id: str,
    steps: list[dict[str, Any]],
    group: str = "selection",
    tools: list[str] | None = None,
) -> dict:
    """A case offering every test tool (or ``tools``)."""
    return {
        "id": case_id,
        "group": group,
        "tools": tools if tools is not None else list(TOOLS),
        "messages": [{"role": "user", "content": f"request for {case_id}"}],
        "steps": steps,
    }


def single_step_case(step: dict[str, Any], tools: list[str] | None = None) -> dict:
    """A case around one step, in the group whose shape that step has (a no-call step is No call
    needed, a step of two or three calls Parallel, any other Selection), so the suite's group
    rules hold."""
    calls = len(step.get("calls", []))
    group = (
        "no_call"
        if step.get("expect") == "none"
        else "parallel"
        if 2 <= calls <= 3
        else "selection"
    )
    return case(f"{group}-01", [step], group=group, tools=tools)
