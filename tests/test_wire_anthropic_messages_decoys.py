"""A Messages body is free JSON: a text block's ``text`` read under another spelling (``XXtextXX``,
``TEXT``) would be a wrong answer, not always a KeyError. Body and expected text by hand."""

from __future__ import annotations

from scorer.wire.anthropic_messages import parse_answer


def test_a_text_block_is_its_text_field() -> None:
    block = {"type": "text", "text": "Hi", "XXtextXX": "x", "TEXT": "y"}
    body = {"content": [block], "stop_reason": "end_turn"}
    assert parse_answer(body).content == "Hi"
