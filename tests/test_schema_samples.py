"""Reference values made from a schema (issue 40, part 3): formats, patterns, enums, bounds, nested
objects, names; each checked here by an independent reader (the standard library, Python's ``re``),
not by the code that made it."""

from __future__ import annotations

import datetime
import ipaddress
import re
import uuid
import zoneinfo
from typing import Any
from urllib.parse import urlsplit

import pytest
from jsonschema import Draft202012Validator

from scorer.suite.draft.pattern_sample import pattern_example
from scorer.suite.draft.reference import draft_reference
from scorer.suite.draft.samples import Undecided, sample

pytestmark = pytest.mark.timeout(30)


def _date_time(value: str) -> bool:
    return bool(
        re.fullmatch(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?(Z|[+-]\d\d:\d\d)", value)
    ) and (datetime.datetime.fromisoformat(value.replace("Z", "+00:00")) is not None)


READERS = {
    "date": lambda v: datetime.date.fromisoformat(v).isoformat() == v,
    "date-time": _date_time,
    "time": lambda v: re.fullmatch(r"\d\d:\d\d:\d\d(Z|[+-]\d\d:\d\d)", v) is not None,
    "email": lambda v: re.fullmatch(r"[^@\s]+@[^@\s]+\.[a-z]{2,}", v) is not None,
    "uri": lambda v: urlsplit(v).scheme in ("http", "https") and bool(urlsplit(v).netloc),
    "uuid": lambda v: str(uuid.UUID(v)) == v,
    "ipv4": lambda v: str(ipaddress.IPv4Address(v)) == v,
}


@pytest.mark.parametrize("fmt", sorted(READERS))
def test_each_format_gives_a_real_value(fmt: str) -> None:
    schema = {"type": "string", "format": fmt}
    value = sample(schema, "value")
    assert isinstance(value, str) and READERS[fmt](value), value
    assert Draft202012Validator(
        schema, format_checker=Draft202012Validator.FORMAT_CHECKER
    ).is_valid(value)


@pytest.mark.parametrize(
    "pattern",
    [
        r"^evt_[0-9a-f]{8}$",
        r"^[A-Z]{1,5}$",
        r"^[A-Z]{3}-\d{4}$",
        r"^(?:foo|bar)+baz$",
        r"^\+?[1-9]\d{1,14}$",
        r"^#[0-9a-fA-F]{6}$",
        r"^v\d+\.\d+\.\d+$",
        r"^[\w.-]+@[\w-]+\.[a-z]{2,}$",
        r"^(?P<y>\d{4})-(?P<m>0[1-9]|1[0-2])$",
        r"[^/]+/[^/]+",
        r"^\S{3,8}$",
        r"^[a-z0-9-]{1,63}$",
    ],
)
def test_a_pattern_is_filled_from_the_pattern(pattern: str) -> None:
    value = sample({"type": "string", "pattern": pattern}, "id")
    assert isinstance(value, str) and re.search(pattern, value), value
    assert sample({"type": "string", "pattern": pattern}, "id") == value  # deterministic


def test_a_pattern_beyond_the_generator_is_left_to_decide() -> None:
    assert pattern_example(r"^(a)\1$") is None  # a back-reference
    assert pattern_example(r"^(?=x)x$") is None  # lookahead
    value = sample({"type": "string", "pattern": r"^(a)\1$"}, "code")
    assert isinstance(value, Undecided)


@pytest.mark.parametrize(
    ("name", "schema", "check"),
    [
        ("timezone", {"type": "string"}, lambda v: v in zoneinfo.available_timezones()),
        ("country", {"type": "string", "maxLength": 2}, lambda v: re.fullmatch("[A-Z]{2}", v)),
        ("currency", {"type": "string"}, lambda v: re.fullmatch("[A-Z]{3}", v)),
        ("contact_email", {"type": "string"}, READERS["email"]),
        ("website_url", {"type": "string"}, READERS["uri"]),
        ("startDate", {"type": "string"}, READERS["date"]),
        ("created_at", {"type": "string"}, READERS["date-time"]),
        ("year", {"type": "integer"}, lambda v: v == 2026),
    ],
)
def test_names_guide_values_where_the_schema_says_little(
    name: str, schema: Any, check: Any
) -> None:
    value = sample(schema, name)
    assert check(value), value
    assert "example-" not in str(value)


def test_bounds_enums_and_nested_objects() -> None:
    schema = {
        "type": "object",
        "$defs": {
            "Who": {
                "type": "object",
                "properties": {
                    "email": {"type": "string", "format": "email"},
                    "role": {"enum": ["a", "b", "c"]},
                },
                "required": ["email"],
            }
        },
        "properties": {
            "n": {
                "type": "integer",
                "exclusiveMinimum": 10,
                "exclusiveMaximum": 13,
                "multipleOf": 2,
            },
            "x": {"type": "number", "minimum": 0.5, "maximum": 0.75},
            "who": {"anyOf": [{"$ref": "#/$defs/Who"}, {"type": "null"}], "default": None},
            "tags": {
                "type": "array",
                "items": {"type": "string"},
                "minItems": 3,
                "uniqueItems": True,
            },
            "both": {
                "allOf": [
                    {"type": "object", "properties": {"a": {"type": "integer"}}, "required": ["a"]},
                    {"properties": {"b": {"const": 1}}, "required": ["b"]},
                ]
            },
            "mode": {"type": "string", "enum": ["fast", "slow"], "default": "slow"},
        },
        "required": ["n", "x", "who", "tags", "both", "mode"],
    }
    drafted = draft_reference(schema, optional=True)
    assert drafted.undecided == ()
    ref = drafted.reference
    assert ref["n"] == 12 and 0.5 <= ref["x"] <= 0.75
    assert ref["who"]["email"] == "ana.silva@example.com" and ref["who"]["role"] in "abc"
    assert len(set(ref["tags"])) == 3
    assert ref["both"] == {"a": ref["both"]["a"], "b": 1} and ref["mode"] == "fast"
    assert Draft202012Validator(
        schema, format_checker=Draft202012Validator.FORMAT_CHECKER
    ).is_valid(ref)


def test_a_value_that_cannot_be_made_says_why() -> None:
    loop = {"type": "object", "properties": {"next": {"$ref": "#"}}, "required": ["next"]}
    drafted = draft_reference({"type": "object", "properties": {"a": loop["properties"]["next"]},
                               "required": ["a"], **{"$defs": {}}}, optional=False)  # fmt: skip
    assert drafted.reference == {} and drafted.undecided[0].startswith("a (a recursive schema")
    none = draft_reference(
        {
            "type": "object",
            "properties": {"n": {"type": "integer", "minimum": 3, "maximum": 2}},
            "required": ["n"],
        },
        optional=False,
    )
    assert none.undecided == ("n (no number fits its bounds)",)
