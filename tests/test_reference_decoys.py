"""A tool's schema is free JSON: the arguments come from the ``properties`` keyword only, never
from a look-alike key (``XXpropertiesXX``, ``PROPERTIES``). Schemas and expected drafts by hand."""

from __future__ import annotations

from scorer.suite.draft.reference import Drafted, argument_names, draft_reference

SCHEMA = {
    "type": "object",
    "properties": {"a": {"const": 5}},
    "XXpropertiesXX": {"b": {"const": 6}},
    "PROPERTIES": {"c": {"const": 7}},
    "required": ["a"],
}


def test_argument_names_come_from_properties() -> None:
    assert argument_names(SCHEMA, optional=True) == ["a"]


def test_the_reference_follows_properties() -> None:
    same = {**SCHEMA, "XXpropertiesXX": {"a": {"const": 6}}, "PROPERTIES": {"a": {"const": 7}}}
    assert draft_reference(same, optional=True) == Drafted({"a": 5}, ())
