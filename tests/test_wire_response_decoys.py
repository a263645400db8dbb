"""A provider's body is free JSON: a field read under another spelling (``XXerrorXX``, ``ERROR``
beside ``error``) would be a wrong value, not always a KeyError. Each reader takes its field under
its own name only. Bodies and expected values by hand."""

from __future__ import annotations

from typing import Any

from scorer.wire.response import BodyError, body_error, content_text, readable_name


def _decoys(key: str, first: Any, second: Any) -> dict[str, Any]:
    return {f"XX{key}XX": first, key.upper(): second}


def test_a_top_level_error_is_the_error_field() -> None:
    body = {"error": {"code": 429, "message": "slow"}, **_decoys("error", {"code": 500}, "down")}
    assert body_error(body) == BodyError(429, None, "slow", in_choice=False)


def test_a_choice_error_is_the_error_field() -> None:
    choice = {"error": {"code": "502", "message": "up"}, **_decoys("error", {"code": 500}, "down")}
    assert body_error({"choices": [choice]}) == BodyError(502, None, "up", in_choice=True)


def test_a_text_part_is_its_text_field() -> None:
    parts = [{"type": "text", "text": "a", **_decoys("text", "x", "y")}]
    assert content_text(parts) == "a"


def test_a_name_is_the_name_field() -> None:
    assert readable_name({"name": "get", **_decoys("name", "x", "y")}) == "get"
