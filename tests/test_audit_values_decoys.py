"""A tool's schema is free JSON: a nested object's ``properties`` are read under their own name
only, never under a look-alike key (``XXpropertiesXX``, ``PROPERTIES``). Expected values by hand."""

from __future__ import annotations

from scorer.audit.values import Sources, wrong_values


def test_nested_fields_follow_the_properties_keyword_only() -> None:
    schema = {
        "type": "object",
        "properties": {"n": {"type": "integer", "maximum": 1}},
        "XXpropertiesXX": {"n": {}},
        "PROPERTIES": {"n": {}},
    }
    # 1 + 1 is past the maximum: only 0 is a wrong value within the schema
    assert wrong_values({"n": 1}, schema, Sources("", "", ""), ("$.a",)) == [
        ("field_dropped", ("$.a", "n"), None),
        ("off_by_one", ("$.a", "n"), 0),
    ]
