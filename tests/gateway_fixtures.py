"""Helpers for the stand-in gateway tests: build requests the way the runner does, send them,
judge answers."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import requests

from scorer import ModelResponse, StepVerdict, Suite, judge_step, parse_completion, parse_suite
from standin import StandInGateway

FIXTURES = Path(__file__).parent / "fixtures"
MINI_SUITE = FIXTURES / "mini_suite.json"
SUITE_JSON: dict[str, Any] = json.loads(MINI_SUITE.read_text(encoding="utf-8"))
SUITE: Suite = parse_suite(MINI_SUITE.read_bytes(), str(MINI_SUITE))
CASES: dict[str, dict[str, Any]] = {c["id"]: c for c in SUITE_JSON["cases"]}
CLIENT_TIMEOUT_S = 10.0


def chat_body(
    case_id: str, model: str, history: list[dict[str, Any]] | None = None, **extra: Any
) -> dict[str, Any]:
    """The runner's request for a case: system prompt, the case's messages, then ``history``;
    temperature 0."""
    case = CASES[case_id]
    messages = [
        {"role": "system", "content": SUITE_JSON["system_prompt"]},
        *case["messages"],
        *(history or []),
    ]
    body = {
        "model": model,
        "messages": messages,
        "tools": [SUITE_JSON["tools"][name] for name in case["tools"]],
        "temperature": 0,
    }
    body.update(extra)
    return body


def reference_history(case_id: str, steps: int) -> list[dict[str, Any]]:
    """The messages a runner appends after ``steps`` steps answered with the references."""
    history: list[dict[str, Any]] = []
    for s, step in enumerate(CASES[case_id]["steps"][:steps]):
        calls = [
            {"id": f"call_{s}_{i}", "type": "function",
             "function": {"name": c["name"], "arguments": json.dumps(c["reference"])}}
            for i, c in enumerate(step["calls"])
        ]  # fmt: skip
        history.append({"role": "assistant", "content": None, "tool_calls": calls})
        history += [{"role": "tool", "tool_call_id": call["id"], "content": c["result"]}
                    for call, c in zip(calls, step["calls"], strict=True)]  # fmt: skip
    return history


def post(
    gateway: StandInGateway, body: Any, timeout: float = CLIENT_TIMEOUT_S, **kwargs: Any
) -> requests.Response:
    """POST ``body`` (JSON, or raw bytes) to the gateway's chat completions."""
    url = gateway.url + "/chat/completions"
    if isinstance(body, bytes):
        headers = {"Content-Type": "application/json"}
        return requests.post(url, data=body, headers=headers, timeout=timeout, **kwargs)
    return requests.post(url, json=body, timeout=timeout, **kwargs)


def verdict(case_id: str, step_index: int, response: requests.Response) -> StepVerdict:
    """The project's judge on one answer."""
    case = SUITE.case(case_id)
    return judge_step(case.steps[step_index], parse_completion(response.json()), case, SUITE)


def step_passes(case_id: str, step_index: int, response: requests.Response) -> bool:
    """Whether the judge passes one answer."""
    return verdict(case_id, step_index, response).passed


def answer(response: requests.Response) -> ModelResponse:
    """The parsed assistant message."""
    return parse_completion(response.json())


def every_step() -> list[tuple[str, int]]:
    """(case id, step index) for every step of the mini suite."""
    return [(c["id"], s) for c in SUITE_JSON["cases"] for s in range(len(c["steps"]))]
