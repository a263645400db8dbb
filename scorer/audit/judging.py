"""Judge a generated answer with the real judge: the answer is made into a chat-completion body,
read by the dialect's ``parse_answer`` (``parse_completion``) and judged by ``judge_step``, the
same two calls a recorded answer goes through in rescore."""

from __future__ import annotations

import json
from typing import Any

from scorer.audit.model import Answer
from scorer.judge import StepVerdict, judge_step
from scorer.schema.subset import schema_errors
from scorer.suite.model import Case, Suite
from scorer.wire.dialect import DEFAULT as DIALECT


def completion_body(answer: Answer) -> dict[str, Any]:
    """The answer as an OpenAI-style chat-completion body, arguments as JSON text in the
    order given."""
    message: dict[str, Any] = {"role": "assistant", "content": answer.content}
    if answer.calls:
        message["tool_calls"] = [
            {
                "id": f"call_audit_{index}",
                "type": "function",
                "function": {"name": name, "arguments": json.dumps(arguments, ensure_ascii=False)},
            }
            for index, (name, arguments) in enumerate(answer.calls)
        ]
    finish = "tool_calls" if answer.calls else "stop"
    return {
        "model": "suite-audit",
        "choices": [{"index": 0, "message": message, "finish_reason": finish}],
    }


def judge_answer(answer: Answer, case: Case, suite: Suite) -> StepVerdict:
    """The judge's verdict on ``answer`` for its step of ``case``."""
    return judge_step(
        case.steps[answer.step], DIALECT.parse_answer(completion_body(answer)), case, suite
    )


def origin_rejects(answer: Answer, suite: Suite, looser_only: bool = False) -> str | None:
    """Why the origin's schema rejects a call of ``answer`` (``TOOL: error``), or None: each call
    to a tool the suite's ``origin`` lists is validated against the tool as listed. ``looser_only``:
    only a call the suite's own schema of the tool accepts (the suite is looser there)."""
    for name, arguments in answer.calls:
        validator = suite.origin_tools.get(name)
        errors = schema_errors(validator, arguments) if validator is not None else []
        own = suite.tools.get(name)
        if errors and not (looser_only and own is not None and own.errors(arguments)):
            return f"{name}: {errors[0]}"
    return None
