"""A drafted reference call (scorer/suite/draft/reference.py): the root object a ``$ref`` points
to, the arguments in order, values proven against the tool's schema (an argument that breaks it
left to decide, with the validator's reason) and the format checks; expected values written by
hand from docs/commands/suite-new.md#real-values and jsonschema's messages."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from scorer.schema.formats import draft_format_checker as format_checker
from scorer.suite.draft.reference import (
    Drafted,
    argument_names,
    draft_reference,
    root_object,
    schema_errors,
)

pytestmark = pytest.mark.timeout(10)

EMPTY = {"type": "object", "properties": {}}
DEFS = {"A": {"type": "object", "properties": {"x": {"type": "string"}}}, "B": True}


@pytest.mark.parametrize("schema", [True, None, [], "object"])
def test_root_object_of_a_schema_that_is_no_object(schema: Any) -> None:
    assert root_object(schema) == EMPTY


def test_root_object_follows_a_root_ref_once() -> None:
    schema = {"$ref": "#/$defs/A", "$defs": DEFS, "required": ["x"]}
    assert root_object(schema) == {
        "type": "object",
        "properties": {"x": {"type": "string"}},
        "$defs": DEFS,
        "required": ["x"],
    }
    # The schema's own keywords win over the target's.
    schema = {"$ref": "#/$defs/A", "$defs": DEFS, "type": "array"}
    assert root_object(schema)["type"] == "array"
    for kept in (
        {"$ref": "#/$defs/B", "$defs": DEFS},  # a boolean target
        {"$ref": "#/$defs/C", "$defs": DEFS},  # no target
        {"$ref": 3, "properties": {}},
        {"properties": {"y": {}}},
    ):
        assert root_object(kept) == kept


def test_argument_names() -> None:
    schema = {"properties": {"a": {}, "b": {}, "c": {}}, "required": ["c", "z", "a", 1]}
    # Required ones in listed order, then required ones not listed, then the optional ones.
    assert argument_names(schema, optional=False) == ["a", "c", "z"]
    assert argument_names(schema, optional=True) == ["a", "c", "z", "b"]
    assert argument_names({"properties": ["a"], "required": ["x"]}, True) == ["x"]
    assert argument_names({"properties": {"a": {}}, "required": None}, True) == ["a"]
    assert argument_names({"properties": {"a": {}}}, False) == []
    assert argument_names(True, True) == []
    ref = {"$ref": "#/$defs/A", "$defs": DEFS}
    assert argument_names(ref, True) == ["x"]


WEATHER = {
    "type": "object",
    "properties": {
        "city": {"type": "string"},
        "days": {"type": "integer", "default": 7},
        "units": {"enum": ["metric", "imperial", "kelvin"], "default": "imperial"},
    },
    "required": ["city"],
}


def test_draft_reference_required_then_every_optional_one_away_from_its_default() -> None:
    assert draft_reference(WEATHER, optional=False) == Drafted({"city": "Lisbon"}, ())
    # days' hint is 7, its default: the next candidate, 5; units' second member is its
    # default: the second of the others.
    assert draft_reference(WEATHER, optional=True) == Drafted(
        {"city": "Lisbon", "days": 5, "units": "kelvin"}, ()
    )


def test_draft_reference_follows_refs_into_the_whole_schema() -> None:
    schema = {
        "$ref": "#/$defs/Args",
        "$defs": {
            "Args": {"type": "object", "properties": {"event": {"$ref": "#/$defs/Id"}}},
            "Id": {"type": "string", "pattern": "^evt_[0-9]{3}$"},
        },
        "required": ["event"],
    }
    drafted = draft_reference(schema, optional=False)
    assert drafted.undecided == ()
    assert list(drafted.reference) == ["event"]
    assert len(drafted.reference["event"]) == 7
    assert drafted.reference["event"].startswith("evt_")


def test_draft_reference_leaves_out_what_breaks_the_schema() -> None:
    schema = {
        "type": "object",
        "properties": {"a": {"type": "string", "not": {"const": "a"}}, "b": {"type": "string"}},
        "required": ["a", "b"],
    }
    assert draft_reference(schema, optional=False) == Drafted(
        {"b": "b"}, ("a ('a' should not be valid under {'const': 'a'})",)
    )
    # \B is a pattern the generator does not read: only the name's value is tried.
    code = {
        "type": "object",
        "properties": {"code": {"type": "string", "pattern": "^a\\Bb$"}},
        "required": ["code"],
    }
    assert draft_reference(code, optional=False) == Drafted(
        {}, ("code (no string fits its pattern, format and length (code))",)
    )
    code["properties"]["code"]["pattern"] = "(?<=x)"  # not run by the validator's engine
    assert draft_reference(code, optional=False) == Drafted(
        {}, ("code (pattern '(?<=x)' cannot be run by the validator)",)
    )
    # An error of the call as a whole names no argument: nothing to leave out.
    schema = {"type": "object", "properties": {"a": {}}, "required": ["a"], "maxProperties": 0}
    assert draft_reference(schema, optional=False) == Drafted({"a": "a"}, ())


@pytest.mark.parametrize(
    ("value", "ok"),
    [
        ("2026-03-14T09:30:00Z", True),
        ("2026-03-14t09:30:00z", True),
        ("2026-03-14T09:30:00.5+01:00", True),
        ("2026-03-14T09:30+01:00", False),  # RFC 3339 wants the seconds
        ("2026-03-14T09:30Z", False),
        ("2026-03-14T09:30:00", False),  # no offset
        ("2026-03-14 09:30:00Z", False),
        ("2026-02-30T09:30:00Z", False),
        ("2026-03-14T24:00:00Z", False),
    ],
)
def test_a_drafted_date_time_is_checked_as_rfc_3339(value: str, ok: bool) -> None:
    schema = {
        "type": "object",
        "properties": {"at": {"type": "string", "format": "date-time", "const": value}},
        "required": ["at"],
    }
    expected = (
        Drafted({"at": value}, ()) if ok else Drafted({}, (f"at ({value!r} is not a 'date-time')",))
    )
    assert draft_reference(schema, optional=False) == expected
    assert format_checker().conforms(value, "date-time") is ok


@pytest.mark.parametrize(
    ("value", "fmt", "ok"),
    [
        ("09:30:00Z", "time", True),
        ("09:30:00+05:30", "time", True),
        ("09:30Z", "time", False),
        ("09:30:00", "time", False),
        ("https://example.com/reports/q3", "uri", True),
        ("mailto:ana@example.com", "uri", True),
        ("example.com", "uri", False),
        ("https://exa mple.com", "uri", False),
        ("2026-03-14", "date", True),
        ("2026-3-14", "date", False),
        ("ana.silva@example.com", "email", True),
        ("ana.silva", "email", False),
        ("192.0.2.10", "ipv4", True),
        ("192.0.2.300", "ipv4", False),
        ("whatever", "color", True),  # not a format jsonschema checks: an annotation
        (3, "date-time", True),  # a format says nothing of another type
        (3, "uri", True),
        (3, "time", True),
    ],
)
def test_format_checker(value: Any, fmt: str, ok: bool) -> None:
    assert format_checker().conforms(value, fmt) is ok


@pytest.mark.parametrize(
    ("schema", "arguments", "errors"),
    [
        ({"type": "object", "maxProperties": 0}, {"a": 1},
         [("", "{'a': 1} is expected to be empty")]),
        ({"properties": {"a": {"type": "array", "items": {"type": "integer"}}}}, {"a": [1, "x"]},
         [("a", "'x' is not of type 'integer'")]),
        ({"properties": {"a": {"type": "array", "items": {"type": "integer"}}}}, {"a": [1, 2]}, []),
        ({"type": "object"}, {}, []),
        (True, {"a": 1}, []),
        (None, {"a": 1}, []),
        # RE2 runs the pattern (Python's re raised "bad escape \\p"); one it cannot run is named.
        ({"properties": {"a": {"pattern": "^\\p{L}+$"}}}, {"a": "Ada"}, []),
        ({"properties": {"a": {"pattern": "^\\p{L}+$"}}}, {"a": "A1"},
         [("a", "'A1' does not match '^\\\\p{L}+$'")]),
        ({"properties": {"a": {"items": {"pattern": "(?<=x)"}}}}, {"a": ["x"]},
         [("a", "pattern '(?<=x)' cannot be run by the validator")]),
    ],
)  # fmt: skip
def test_schema_errors(schema: Any, arguments: dict[str, Any], errors: list[Any]) -> None:
    assert schema_errors(schema, arguments) == errors


def test_schema_errors_are_cut_at_200_characters() -> None:
    long = schema_errors({"properties": {"a": {"enum": ["x" * 300]}}}, {"a": "b"})
    assert long == [("a", "'b' is not one of ['" + "x" * 180)]
    assert len(long[0][1]) == 200


@pytest.mark.parametrize("schema", [True, {"properties": {}}, {"type": "object"}])
def test_draft_reference_of_no_arguments(schema: Any) -> None:
    assert draft_reference(schema, optional=True) == Drafted({}, ())


def test_draft_reference_of_a_required_argument_not_listed() -> None:
    # No schema for it: any value; the name's.
    schema = {"type": "object", "required": ["city"]}
    assert draft_reference(schema, optional=False) == Drafted({"city": "Lisbon"}, ())
    schema = {"type": "object", "properties": {"x": {}}, "required": ["city"]}
    assert draft_reference(schema, optional=False) == Drafted({"city": "Lisbon"}, ())


def test_draft_reference_fills_a_nested_objects_optional_properties() -> None:
    schema = {"type": "object", "required": ["opts"], "properties": {"opts": {
        "type": "object", "properties": {"limit": {"type": "integer"}}}}}  # fmt: skip
    assert draft_reference(schema, optional=False) == Drafted({"opts": {"limit": 5}}, ())


def _refuse(instance: object) -> bool:
    return False


@pytest.fixture
def uncached() -> Iterator[None]:
    """format_checker built afresh in the test, and its checker of patched checks not kept for
    the others (mutmut's copy drops the cache: then there is none to clear)."""
    clear = getattr(format_checker, "cache_clear", lambda: None)
    clear()
    yield
    clear()


@pytest.mark.usefixtures("uncached")
def test_the_draft_keeps_a_format_check_jsonschema_has(monkeypatch: pytest.MonkeyPatch) -> None:
    # As if rfc3987 were installed and jsonschema checked uri itself (here: refusing all): the
    # draft keeps it, and still checks time here, which jsonschema lacks.
    from jsonschema import Draft202012Validator

    checkers = Draft202012Validator.FORMAT_CHECKER.checkers
    monkeypatch.setitem(checkers, "uri", (_refuse, ()))
    before = dict(checkers)
    fresh = format_checker()
    assert not fresh.conforms("urn:x", "uri")
    assert fresh.conforms("09:30:00Z", "time") and not fresh.conforms("09:30Z", "time")
    assert fresh.conforms("2026-03-14", "date") and not fresh.conforms("2026-3-14", "date")
    assert checkers == before  # jsonschema's own checker left as it was (time not added to it)
