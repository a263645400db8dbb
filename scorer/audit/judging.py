"""Judge a generated answer with the real judge: the answer is made into a chat-completion body,
read by the dialect's ``parse_answer`` (``parse_completion``) and judged by ``judge_step``, the
same two calls a recorded answer goes through in rescore."""

from __future__ import annotations

import json
from typing import Any

from scorer.audit.model import Answer
from scorer.dialect import DEFAULT as DIALECT
from scorer.judge import StepVerdict, judge_step
from scorer.suite_model import Case, Suite


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
