"""``ref/text-calls``: a self-hosted server with its tool parser off. At a call step it sends the
reference calls as text and no ``tool_calls``: a Hermes
``<tool_call>{"name": ..., "arguments": {...}}</tool_call>`` tag per call, or, for about half the
cases (a seeded hash of the case id), the bare JSON object. Text steps answer as the oracle.
"""

from __future__ import annotations

import json

from standin.hashing import pick
from standin.models import UNKNOWN_TEXT, oracle, reference_calls
from standin.reply import Ask, Reply


def text_calls(ask: Ask) -> Reply:
    """The oracle's calls written in the text, as a server that does not parse them sends them."""
    if ask.position is None:
        return Reply(UNKNOWN_TEXT)
    calls = reference_calls(ask)
    if not calls:
        return oracle(ask)
    objects = [
        json.dumps({"name": c.name, "arguments": json.loads(c.arguments)}, ensure_ascii=False)
        for c in calls
    ]
    if pick(2, "text-calls", ask.position.case.id) == 0:
        return Reply("\n".join(f"<tool_call>\n{o}\n</tool_call>" for o in objects))
    return Reply("\n".join(objects))
