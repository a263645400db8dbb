"""A tool's schema is free JSON (unknown keywords are allowed): a ``pattern`` is read under its own
name only, never under a look-alike key (``XXpatternXX``, ``PATTERN``) the schema may hold too."""

from __future__ import annotations

from scorer.schema.full import full_schema_problems


def test_only_the_pattern_keyword_is_compiled() -> None:
    schema = {
        "type": "object",
        "properties": {
            "a": {"type": "string", "pattern": "^a+$", "XXpatternXX": "(", "PATTERN": "("}
        },
    }
    assert full_schema_problems(schema, "tools.t") == []


def test_a_refused_pattern_is_named_by_its_own_text() -> None:
    schema = {
        "type": "object",
        "properties": {"a": {"type": "string", "pattern": "(", "XXpatternXX": "x", "PATTERN": "y"}},
    }
    [problem] = full_schema_problems(schema, "tools.t")
    assert problem.startswith("tools.t.properties.a.pattern: '(' does not compile: ")
