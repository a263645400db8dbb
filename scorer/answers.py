"""What identifies a case-run's model answers, so two runs can tell "same answers, other verdict" (a
scoring change) from "other answers" (the model, or noise).

An answer is what the model sent at one step: its text, the answering model's name and each call's
id, name and arguments exactly as sent (the scorer's own flags are left out: they change with the
scorer). Its digest is the sha256 of that as canonical JSON (sorted keys, no spaces, UTF-8).
Computed from the ``steps`` of a results file, so files written before the field existed (every K=1
file) give the same digests.
"""

from __future__ import annotations

import hashlib
import json
from typing import Any


def _answer(response: Any) -> Any:
    if not isinstance(response, dict):
        return None
    calls = response.get("tool_calls") if isinstance(response.get("tool_calls"), list) else []
    return {
        "content": response.get("content"),
        "model": response.get("model"),
        "tool_calls": [
            {k: c.get(k) for k in ("id", "name", "arguments")} if isinstance(c, dict) else None
            for c in calls
        ],
    }


def answer_digests(steps: Any) -> tuple[str, ...] | None:
    """One hex digest per reached step, in order; None when the steps do not carry the responses."""
    if not isinstance(steps, list) or not all(
        isinstance(s, dict) and "response" in s for s in steps
    ):
        return None
    texts = (
        json.dumps(
            _answer(s["response"]), sort_keys=True, separators=(",", ":"), ensure_ascii=False
        )
        for s in steps
    )
    return tuple(hashlib.sha256(t.encode("utf-8")).hexdigest() for t in texts)


def same_answers(a: tuple[str, ...] | None, b: tuple[str, ...] | None) -> bool:
    """Both runs got the same answer at every step they both reached (one's answers start
    the other's).

    A chain that stopped earlier on one side is still "the same answers": its last step got the same
    answer and a different verdict."""
    if not a or not b:
        return False
    shorter = min(len(a), len(b))
    return a[:shorter] == b[:shorter]
