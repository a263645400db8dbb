"""The wire format is read through one registry: ``openai-chat`` is its one dialect."""

from __future__ import annotations

import pytest

from scorer.dialect import DEFAULT, DIALECTS, dialect
from scorer.errors import UsageError


def test_openai_chat_is_the_one_registered_dialect_and_the_default() -> None:
    assert sorted(DIALECTS) == ["openai-chat"]
    assert dialect("openai-chat") is DEFAULT


def test_an_unknown_dialect_is_a_usage_error_naming_the_known_ones() -> None:
    with pytest.raises(UsageError, match=r"unknown API dialect 'messages'; known: openai-chat"):
        dialect("messages")


def test_the_request_body_is_the_methods() -> None:
    tool = {"type": "function", "function": {"name": "f", "parameters": {"type": "object"}}}
    body = DEFAULT.request_body("m/x", "Be brief.", [{"role": "user", "content": "hi"}], [tool])
    assert body == {
        "model": "m/x",
        "messages": [
            {"role": "system", "content": "Be brief."},
            {"role": "user", "content": "hi"},
        ],
        "tools": [tool],
        "temperature": 0,
    }


def test_a_call_is_answered_by_a_tool_message_or_the_legacy_way() -> None:
    assert DEFAULT.tool_result("c1", "f", "ok", False) == {
        "role": "tool",
        "tool_call_id": "c1",
        "content": "ok",
    }
    assert DEFAULT.tool_result("c1", "f", "ok", True) == {
        "role": "function",
        "name": "f",
        "content": "ok",
    }


def test_the_headers_read() -> None:
    assert (DEFAULT.path, DEFAULT.cost_header, DEFAULT.dropped_header) == (
        "/chat/completions",
        "x-lobstack-cost-usd",
        "x-lobstack-dropped-params",
    )
    assert "x-lobstack-model" in DEFAULT.routing_headers
