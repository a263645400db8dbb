"""Values a tool schema accepts (scorer/suite/draft/samples.py), exact: every expected value
written by hand from docs/commands/suite-new.md#real-values and the module's rules (an enum's
second member, the first number of 5, 7, 2, 1, 0, 10, 3 inside the bounds, the name's value, an
array of ``minItems`` items made distinct, an object's required properties)."""

from __future__ import annotations

from typing import Any

import pytest

from scorer.schema.formats import draft_format_checker
from scorer.suite.draft.array_items import distinct_item
from scorer.suite.draft.pattern_sample import pattern_example
from scorer.suite.draft.samples import Undecided, _merge, _stated_default, sample

pytestmark = pytest.mark.timeout(10)

NONE = Undecided("the schema accepts no value")


@pytest.mark.parametrize(
    ("schema", "name", "expected"),
    [
        (True, "city", "Lisbon"),
        ({}, "city", "Lisbon"),
        (False, "x", NONE),
        (3, "x", NONE),
        ({"const": 5}, "x", 5),
        ({"const": None, "type": "string"}, "x", None),
        ({"enum": ["a", "b", "c"]}, "x", "b"),
        ({"enum": ["a"]}, "x", "a"),
        ({"enum": [], "type": "string"}, "city", "Lisbon"),
        ({"type": "null"}, "x", None),
        ({"type": ["null", "integer"]}, "x", 5),
        ({"type": ["null"]}, "x", None),
        ({"type": "boolean"}, "x", True),
        ({"type": "boolean", "default": True}, "x", False),
        ({"type": "boolean", "default": False}, "x", True),
        ({"type": "boolean", "description": "(default true)"}, "x", False),
        ({"type": "integer"}, "x", 5),
        ({"type": "integer"}, "year", 2026),
        ({"type": "integer", "minimum": 100}, "x", 101),
        ({"type": "integer", "maximum": -5}, "x", -6),
        ({"type": "integer", "exclusiveMinimum": 0.5, "maximum": 1.5}, "x", 1),
        ({"type": "number", "exclusiveMinimum": 0, "maximum": 0.5}, "x", 0.5),
        ({"type": "integer", "exclusiveMinimum": 5, "exclusiveMaximum": 8}, "x", 7),
        ({"type": "integer", "exclusiveMinimum": 100}, "x", 101),
        ({"type": "integer", "exclusiveMaximum": -100}, "x", -101),
        ({"type": "integer", "minimum": 1, "maximum": 1}, "year", 1),
        ({"type": "integer", "multipleOf": 4}, "x", 4),
        ({"type": "integer", "multipleOf": 4, "minimum": 9, "maximum": 15}, "x", 12),
        ({"type": "integer", "multipleOf": 0}, "x", 5),
        (
            {"type": "integer", "minimum": 1, "maximum": 0},
            "x",
            Undecided("no number fits its bounds"),
        ),
        ({"type": "string"}, "city", "Lisbon"),
        ({"type": "string", "description": "the city"}, "value", "Lisbon"),
        ({"type": "string", "format": "date"}, "x", "2026-03-14"),
        ({"type": "string", "format": "date"}, "end", "2026-03-15"),
        ({"type": "string", "format": "color"}, "city", "Lisbon"),
        ({"type": "string", "minLength": 8}, "city", "Lisbonxx"),
        ({"type": "string", "maxLength": 3}, "city", "Lis"),
        ({"type": "string", "minLength": 6, "maxLength": 6}, "city", "Lisbon"),
        (
            {"minLength": 10_001},
            "x",
            Undecided("minLength 10001 is more than the 10000 characters suite new writes"),
        ),
        (
            {"type": "string", "format": "date", "maxLength": 3},
            "city",
            Undecided("no string fits its pattern, format and length (city)"),
        ),
        (
            {"type": "string", "pattern": "^a\\Bb$"},
            "code",
            Undecided("no string fits its pattern, format and length (code)"),
        ),
        (
            {"type": "string", "pattern": "^a\\Bb$", "minLength": 9},
            "code",
            Undecided("no string fits its pattern, format and length (code)"),
        ),
        (
            {"type": "string", "pattern": "(?<=a)b"},
            "x",
            Undecided("pattern '(?<=a)b' cannot be run by the validator"),
        ),
        (
            {"type": "string", "pattern": "^abc$", "minLength": 5},
            "x",
            Undecided("no string fits its pattern, format and length (x)"),
        ),
        ({"pattern": "^abc$"}, "x", "abc"),
        (
            {"type": "string", "pattern": "^ab$", "maxLength": 1},
            "ab",
            Undecided("no string fits its pattern, format and length (ab)"),
        ),
        ({"minimum": 3}, "x", 5),  # the keywords tell the type
        ({"maximum": 1.5}, "x", 1),
        ({"exclusiveMinimum": 5}, "x", 7),
        ({"exclusiveMaximum": 2}, "x", 1),
        ({"multipleOf": 3}, "x", 3),
        ({"description": "x"}, "city", "Lisbon"),
        # Each keyword alone tells an object or an array.
        ({"properties": {"a": {}}}, "city", {}),
        ({"required": ["a"]}, "city", {"a": "a"}),
        ({"additionalProperties": False}, "city", {}),
        ({"minProperties": 0}, "city", {}),
        ({"items": {"type": "integer"}}, "city", [5]),
        ({"prefixItems": [{"const": 1}]}, "city", [1]),
        ({"minItems": 2}, "city", ["Lisbon", "Lisbon 2"]),
        ({"maxItems": 3}, "city", ["Lisbon"]),
        ({"uniqueItems": True}, "city", ["Lisbon"]),
        # Of several types, the first that is not null.
        ({"type": ["string", "integer"]}, "city", "Lisbon"),
        ({"type": ["null", "boolean", "integer"]}, "x", True),
        # A number the name tells: a port.
        ({"type": "number"}, "port", 8080),
        ({"type": "integer"}, "port", 8080),
        # A multipleOf that is not above 0 is not read (the metaschema refuses it).
        ({"type": "integer", "multipleOf": -2}, "x", 5),
        # An enum that is no list is not read.
        ({"enum": "abc", "type": "string"}, "city", "Lisbon"),
        # A default that is no boolean does not turn a boolean round.
        ({"type": "boolean", "default": "yes"}, "x", True),
        ({"type": "boolean", "description": "Verbose (default 1)"}, "x", True),
        # A length of 8.0 is JSON Schema's integer 8 (the metaschema takes it).
        ({"type": "string", "minLength": 8.0}, "city", "Lisbonxx"),
        ({"type": "string", "maxLength": 3.0}, "city", "Lis"),
        # A count that is no whole number (the metaschema refuses it) is not read.
        ({"type": "string", "minLength": 0.0, "maxLength": 2.5}, "city", "Lisbon"),
    ],
)
def test_sample(schema: Any, name: str, expected: Any) -> None:
    value = sample(schema, name)
    assert value == expected
    assert type(value) is type(expected)


def test_a_drafted_integer_is_an_int() -> None:
    value = sample({"type": "integer", "minimum": 20.0, "maximum": 20.0}, "x")
    assert value == 20 and type(value) is int
    value = sample({"type": "number", "minimum": 20.5, "maximum": 20.5}, "x")
    assert value == 20.5


@pytest.mark.parametrize(
    ("schema", "avoid", "expected"),
    [
        ({"enum": ["a", "b", "c"], "default": "b"}, True, "c"),
        ({"enum": ["a", "b", "c"], "default": "b"}, False, "b"),
        ({"enum": ["a", "b"], "default": "b"}, True, "a"),
        ({"enum": ["a"], "default": "a"}, True, "a"),  # nothing else: the default
        ({"enum": ["x", "y", "z"], "description": "Units (default y)"}, True, "z"),
        ({"type": "integer", "default": 5}, True, 7),
        ({"type": "integer", "default": 5}, False, 5),
        ({"type": "integer", "description": "how many (default 5)"}, True, 7),
        # The name's value is the default: nothing else to try.
        (
            {"type": "string", "default": "Lisbon"},
            True,
            Undecided("no string fits its pattern, format and length (city)"),
        ),
        ({"type": "string", "default": "Lisbon"}, False, "Lisbon"),
        ({"type": "string", "format": "date", "default": "2026-03-14"}, True, "Lisbon"),
    ],
)
def test_an_optional_argument_avoids_its_default(schema: Any, avoid: bool, expected: Any) -> None:
    assert sample(schema, "city" if schema.get("type") == "string" else "x", avoid) == expected


@pytest.mark.parametrize(
    ("schema", "name", "avoid", "expected"),
    [
        # null last; the keywords beside anyOf kept; a failing option skipped.
        ({"anyOf": [{"type": "null"}, {"type": "integer"}]}, "x", False, 5),
        ({"anyOf": [{"type": "integer"}], "minimum": 11}, "x", False, 12),
        ({"oneOf": [{"type": "string", "pattern": "(?<=a)"}, {"type": "integer"}]}, "x", False, 5),
        ({"anyOf": [{"type": "null"}]}, "x", False, None),
        ({"anyOf": [True]}, "city", False, "Lisbon"),
        ({"anyOf": [False]}, "x", False, NONE),
        (
            {"anyOf": [False, {"type": "integer", "minimum": 1, "maximum": 0}]},
            "x",
            False,
            Undecided("no number fits its bounds"),
        ),
        ({"anyOf": [False], "oneOf": [{"type": "integer"}]}, "x", False, NONE),
        ({"anyOf": [], "oneOf": [{"type": "integer"}]}, "x", False, 5),
        # A default beside anyOf is avoided as one inside it is (it was dropped before the options).
        ({"anyOf": [{"enum": ["a", "b", "c"]}], "default": "b"}, "x", True, "c"),
        ({"anyOf": [{"type": "boolean"}, {"type": "null"}], "default": True}, "x", True, False),
        # An option's own default wins over the one beside it.
        ({"anyOf": [{"enum": ["a", "b", "c"], "default": "c"}], "default": "b"}, "x", True, "b"),
    ],
)
def test_options(schema: dict[str, Any], name: str, avoid: bool, expected: Any) -> None:
    value = sample(schema, name, avoid)
    assert value == expected and type(value) is type(expected)


def test_a_default_is_kept_unless_asked() -> None:
    # avoid_default is False unless given: a required argument may well be its default.
    assert sample({"enum": ["a", "b", "c"], "default": "b"}, "x") == "b"
    assert sample({"type": "integer", "default": 5}, "x") == 5


def test_options_with_every_argument_given() -> None:
    assert sample({"anyOf": [{"type": "integer"}]}, "x", False, None, False) == 5


_STRINGS = {"type": "array", "items": {"type": "string"}}
_INTS = {"type": "array", "minItems": 3, "items": {"type": "integer"}}
_BOOLS = {"type": "array", "minItems": 2, "items": {"type": "boolean"}}


@pytest.mark.parametrize(
    ("schema", "name", "expected"),
    [
        (_STRINGS, "tags", ["finance"]),  # a tags item is a tag
        ({**_STRINGS, "minItems": 3}, "tags", ["finance", "finance 2", "finance 3"]),
        # A const item is repeated: "v12" would break it (a valid array beats an undecided one).
        ({"type": "array", "minItems": 2, "items": {"const": "v1"}}, "x", ["v1", "v1"]),
        (_INTS, "ids", [5, 6, 7]),
        # The other boolean is the distinct item; a third repeats the first.
        (_BOOLS, "x", [True, False]),
        ({**_BOOLS, "uniqueItems": True}, "x", [True, False]),
        ({**_BOOLS, "minItems": 3}, "x", [True, False, True]),
        (
            {**_BOOLS, "minItems": 3, "uniqueItems": True},
            "x",
            Undecided("uniqueItems: distinct items could not be made"),
        ),
        ({**_INTS, "uniqueItems": True}, "x", [5, 6, 7]),
        ({"type": "array", "maxItems": 0}, "x", []),
        ({"type": "array", "maxItems": 0, "uniqueItems": True}, "x", []),
        (
            {"type": "array", "minItems": 2, "maxItems": 1},
            "x",
            Undecided("maxItems is below minItems"),
        ),
        (
            {"type": "array", "minItems": 3, "maxItems": 5, "items": {"type": "integer"}},
            "x",
            [5, 6, 7],
        ),
        (
            {"type": "array", "minItems": 2, "maxItems": 2, "items": {"type": "integer"}},
            "x",
            [5, 6],
        ),
        (
            {"type": "array", "minItems": 101},
            "x",
            Undecided("minItems 101 is more than the 100 items suite new writes"),
        ),
        (
            {
                "type": "array",
                "prefixItems": [{"type": "integer"}, {"type": "string"}],
                "minItems": 3,
                "items": {"type": "boolean"},
            },
            "pair",
            [5, "pair 2", True],
        ),
        ({"type": "array", "prefixItems": "no", "items": {"type": "integer"}}, "x", [5]),
        ({"type": "array"}, "city", ["Lisbon"]),
        ({"type": "array", "minItems": 2, "items": {}}, "v2", ["v2", "v22"]),
        # An item keeps its default: only the optional argument itself avoids its own.
        ({"type": "array", "items": {"type": "integer", "default": 5}}, "x", [5]),
        # A count of 2.0 is JSON Schema's integer 2 (the metaschema takes it).
        ({"type": "array", "minItems": 2.0, "items": {"type": "integer"}}, "x", [5, 6]),
        ({"type": "array", "maxItems": 0.0}, "x", []),
        (
            {"type": "array", "minItems": 3, "maxItems": 2.0},
            "x",
            Undecided("maxItems is below minItems"),
        ),
    ],
)
def test_arrays(schema: dict[str, Any], name: str, expected: Any) -> None:
    assert sample(schema, name) == expected


_COLOR = {"type": "string", "enum": ["red", "green", "blue"]}
_ID = {"type": "string", "pattern": "^[a-z]+$"}


def _of(item: Any, count: int, **more: Any) -> dict[str, Any]:
    return {"type": "array", "items": item, "minItems": count, **more}


# Item i >= 1 is the first the item's schema takes and no item before it is: numbered ("green 2",
# 1 + 1), the tail replaced by the number ("fin2"), the number below, then above (a float), the
# other boolean, the enum's members in order, the pattern's example seeded with name + number;
# else the item repeated (undecided under uniqueItems). Each value written by hand.
@pytest.mark.parametrize(
    ("schema", "name", "expected"),
    [
        (_of(_COLOR, 2), "colors", ["green", "red"]),
        (_of(_COLOR, 3), "colors", ["green", "red", "blue"]),
        (_of(_COLOR, 4), "colors", ["green", "red", "blue", "green"]),
        (
            _of(_COLOR, 4, uniqueItems=True),
            "colors",
            Undecided("uniqueItems: distinct items could not be made"),
        ),
        (_of(_ID, 2), "ids", ["sek", "vkb"]),  # the examples of seeds "id", "id2", "id3"
        (_of(_ID, 3, uniqueItems=True), "ids", ["sek", "vkb", "rvj"]),
        (_of({"type": "integer", "maximum": 1}, 3), "n", [1, 0, -1]),
        (_of({"type": "integer", "minimum": 1, "maximum": 1}, 2), "n", [1, 1]),
        (
            _of({"type": "integer", "minimum": 1, "maximum": 1}, 2, uniqueItems=True),
            "n",
            Undecided("uniqueItems: distinct items could not be made"),
        ),
        (_of({"type": "number", "minimum": 20.5, "maximum": 30}, 3), "x", [21.5, 20.5, 23.5]),
        (_of({"type": "string", "maxLength": 4}, 3), "tags", ["fina", "fin2", "fin3"]),
        (_of({"type": "string", "maxLength": 1}, 2), "x", ["x", "2"]),
        (_of({"type": "string", "maxLength": 0}, 2), "x", ["", ""]),
        # A date's day: the format is checked ("2026-03-14 2" is a string, but no date).
        (_of({"type": "string", "format": "date"}, 2), "x", ["2026-03-14", "2026-03-12"]),
        # Distinct from every item before, not only the first.
        (_of({"enum": ["a", "a 2", "b"]}, 3), "x", ["a 2", "a", "b"]),
        # Each prefix item is checked against its own schema.
        ({"prefixItems": [{"const": 1}, {"const": 1}], "minItems": 2}, "x", [1, 1]),
        ({"prefixItems": [{"const": 1}, {"type": "integer"}], "minItems": 2}, "x", [1, 6]),
        # Where the numbered item fits, it is kept.
        (_of({"type": "integer", "maximum": 10}, 2), "x", [5, 6]),
        (_of({"type": "string", "maxLength": 9}, 2), "city", ["Lisbon", "Lisbon 2"]),
        # Objects are not varied: repeated, as before.
        (_of({"required": ["a"]}, 2), "x", [{"a": "a"}, {"a": "a"}]),
        # An object equal to an item before it in another key order is no distinct item (JSON's
        # equality, as uniqueItems reads it).
        (
            _of({"enum": [{"a": 1, "b": 2}, {"b": 2, "a": 1}, {"c": 3}]}, 2),
            "x",
            [{"b": 2, "a": 1}, {"c": 3}],
        ),
        # true and 1 are equal in Python, not in JSON: distinct items.
        (_of({"enum": [True, 1, "x"]}, 2), "x", [1, True]),
        # An enum that is no list is not read for items either (its letters are no members).
        (_of({"type": "string", "enum": "Lisbon"}, 2), "city", ["Lisbon", "Lisbon"]),
        # An item schema of true takes anything: the numbered item.
        (_of(True, 2), "city", ["Lisbon", "Lisbon 2"]),
        # A pattern only RE2 reads (Python's re raised "bad escape \\p"): an enum gives its
        # second member first; "Bob 2", "Bo2" are no members, "Ada" fits.
        (
            _of({"type": "string", "pattern": "^\\p{L}+$", "enum": ["Ada", "Bob"]}, 2),
            "x",
            ["Bob", "Ada"],
        ),
    ],
)
def test_items_after_the_first_fit_their_schema(schema: Any, name: str, expected: Any) -> None:
    value = sample(schema, name)
    assert value == expected
    if isinstance(expected, list):  # 20.5, not 20 (a float item stays a float)
        assert [type(v) for v in value] == [type(v) for v in expected]


def test_items_behind_a_ref_are_checked_against_the_whole_schema() -> None:
    root = {"$defs": {"c": _COLOR}, "type": "array", "items": {"$ref": "#/$defs/c"}, "minItems": 2}
    assert sample(root, "colors") == ["green", "red"]
    merged = {"allOf": [{"type": "string"}, {"enum": ["x", "y"]}]}
    assert sample(_of(merged, 2), "v") == ["y", "x"]


def test_array_items_keep_a_format_check_jsonschema_has(monkeypatch: pytest.MonkeyPatch) -> None:
    # As if rfc3987 were installed and jsonschema checked uri itself (here: refusing all): the
    # draft's checker, which the items are proven with, keeps it.
    from jsonschema import Draft202012Validator

    monkeypatch.setitem(Draft202012Validator.FORMAT_CHECKER.checkers, "uri", (lambda _: False, ()))
    clear = getattr(draft_format_checker, "cache_clear", lambda: None)  # mutmut's copy has no cache
    clear()
    try:
        assert not draft_format_checker().conforms("https://example.com/", "uri")
        assert draft_format_checker().conforms("09:30:00Z", "time")
    finally:
        clear()


def test_an_item_whose_pattern_re2_cannot_run_is_repeated_not_raised() -> None:
    # Python's re finds (?<=a) in "a 2"; RE2 cannot run it, so no variant is proven: the item
    # is repeated as made and the reference's check names the argument (reference.py).
    part = {"type": "string", "pattern": "(?<=a)"}
    assert distinct_item(part, part, part, "a", 1, "x", ["a"]) == "a"


def test_an_array_of_a_hundred() -> None:
    value = sample({"type": "array", "minItems": 100, "items": {"type": "integer"}}, "x")
    assert value == list(range(5, 105))


_TWO = {
    "type": "object",
    "required": ["b", 3],
    "properties": {"a": {"type": "integer"}, "b": {"type": "string"}},
}
_MANY = {"type": "object", "properties": {f"p{i:02}": {"const": i} for i in range(14)}}


@pytest.mark.parametrize(
    ("schema", "full", "expected"),
    [
        (_TWO, False, {"b": "b"}),
        (_TWO, True, {"b": "b", "a": 5}),
        (_MANY, True, {f"p{i:02}": i for i in range(12)}),
        ({"properties": {"a": {}, "b": {}}, "minProperties": 1}, False, {"a": "a"}),
        ({"properties": {"a": {}}, "required": ["a"], "minProperties": 1}, False, {"a": "a"}),
        ({"required": ["n"], "additionalProperties": {"type": "integer"}}, False, {"n": 5}),
        ({"required": ["city"], "additionalProperties": True}, False, {"city": "Lisbon"}),
        ({"required": ["n"], "properties": {"n": True}}, False, {"n": "n"}),
        (
            {"required": ["n"], "additionalProperties": False},
            False,
            Undecided("required 'n' is not allowed"),
        ),
        # A listed property is allowed whatever additionalProperties says.
        (
            {
                "required": ["n"],
                "properties": {"n": {"type": "integer"}},
                "additionalProperties": False,
            },
            False,
            {"n": 5},
        ),
        ({"type": "object", "properties": [1]}, False, {}),
        ({"type": "object", "properties": {"a": {"type": "integer"}}}, False, {}),
        ({"type": "object"}, False, {}),
        (
            {"type": "object", "properties": {"a": {}, "b": {}}, "minProperties": 1.0},
            False,
            {"a": "a"},
        ),
    ],
)
def test_objects(schema: dict[str, Any], full: bool, expected: Any) -> None:
    assert sample(schema, "x", full=full) == expected


_ROOT = {
    "$defs": {
        "A": {"type": "integer"},
        "F": False,
        "T": True,
        "N": {
            "type": "object",
            "properties": {"next": {"$ref": "#/$defs/N"}},
            "required": ["next"],
        },
        "L": {"$ref": "#/$defs/A", "minimum": 100},
        "R": {"type": "array", "items": {"$ref": "#/$defs/R"}},
        "five": 5,
    }
}


@pytest.mark.parametrize(
    ("schema", "name", "expected"),
    [
        ({"$ref": "#/$defs/A"}, "x", 5),
        ({"$ref": "#/$defs/A", "minimum": 11}, "x", 12),
        ({"$ref": "#/$defs/L"}, "x", 101),
        ({"$ref": "#/$defs/T"}, "city", "Lisbon"),
        ({"$ref": "#/$defs/F"}, "x", NONE),
        ({"$ref": "#/$defs/Z"}, "x", Undecided("$ref '#/$defs/Z' does not resolve")),
        # A pointer to a value that is no schema (neither an object nor a boolean).
        ({"$ref": "#/$defs/five"}, "x", Undecided("$ref '#/$defs/five' does not resolve")),
        ({"$ref": "#/$defs/N"}, "x", Undecided("a recursive schema (#/$defs/N inside itself)")),
        # Refs below an array's items: followed, and a recursive one is seen there too.
        ({"type": "array", "items": {"$ref": "#/$defs/A"}}, "ids", [5]),
        ({"$ref": "#/$defs/R"}, "x", Undecided("a recursive schema (#/$defs/R inside itself)")),
        ({"allOf": [{"$ref": "#/$defs/A"}], "maximum": 3}, "x", 2),
    ],
)
def test_refs(schema: dict[str, Any], name: str, expected: Any) -> None:
    assert sample(schema, name, root=_ROOT) == expected


@pytest.mark.parametrize(
    ("schema", "expected"),
    [
        # Without a root, the schema is its own document.
        ({"$ref": "#/$defs/A", "$defs": {"A": {"const": 1}}}, 1),
        (
            {
                "allOf": [
                    {"type": "object", "properties": {"a": {"type": "integer"}}, "required": ["a"]},
                    {"properties": {"b": {"type": "string"}}, "required": ["b", "a"]},
                    True,
                ]
            },
            {"a": 5, "b": "b"},
        ),
        ({"allOf": [], "type": "integer"}, 5),
    ],
)
def test_all_of(schema: dict[str, Any], expected: Any) -> None:
    assert sample(schema, "x") == expected


def _chain(links: int, last: dict[str, Any]) -> dict[str, Any]:
    defs = {f"d{i}": {"$ref": f"#/$defs/d{i + 1}"} for i in range(links)}
    return {"$defs": {**defs, f"d{links}": last}}


@pytest.mark.parametrize(
    ("links", "last", "expected"),
    [
        (63, {"const": 1}, 1),
        (64, {"const": 1}, Undecided("$ref nests too deep")),
        # An allOf that is no list is not read: it costs no step of the 64.
        (63, {"const": 1, "allOf": "no"}, 1),
    ],
)
def test_refs_nest_at_most_64_deep(links: int, last: dict[str, Any], expected: Any) -> None:
    assert sample({"$ref": "#/$defs/d1"}, "x", root=_chain(links, last)) == expected


def test_values_are_bounded() -> None:
    big = {"type": "array", "minItems": 100, "items": {"type": "array", "minItems": 100}}
    assert sample(big, "x") == Undecided("a value of more than 10000 parts or 64 levels")


def test_values_of_10000_parts_are_made() -> None:
    fits = {"type": "array", "minItems": 99, "items": {"type": "array", "minItems": 100}}
    value = sample(fits, "x")  # 1 + 99 * 101 = 10,000 parts
    assert isinstance(value, list) and len(value) == 99


def test_values_of_64_levels_are_made() -> None:
    deep: Any = {"const": 1}
    for _ in range(64):
        deep = {"type": "array", "items": deep}
    expected: Any = 1
    for _ in range(64):
        expected = [expected]
    assert sample(deep, "x") == expected  # 64 levels below the argument
    assert sample({"type": "array", "items": deep}, "x") == Undecided(
        "a value of more than 10000 parts or 64 levels"
    )


@pytest.mark.parametrize(
    ("base", "extra", "expected"),
    [
        (
            {"type": "object", "properties": {"a": 1, "b": 2}, "required": ["a", "b"], "x": 1},
            {"properties": {"b": 3, "c": 4}, "required": ["c", "a"], "x": 2},
            {
                "type": "object",
                "properties": {"a": 1, "b": 3, "c": 4},
                "required": ["a", "b", "c"],
                "x": 2,
            },
        ),
        ({"properties": {"a": 1}}, {"properties": None}, {"properties": None}),
        ({"required": ["a"]}, {"required": "b"}, {"required": "b"}),
        ({"properties": [1]}, {"properties": {"a": 1}}, {"properties": {"a": 1}}),
        ({"required": None}, {"required": ["a"]}, {"required": ["a"]}),
    ],
)
def test_merge(base: dict[str, Any], extra: dict[str, Any], expected: dict[str, Any]) -> None:
    assert _merge(base, extra) == expected


def _spelt_otherwise(keyword: str, value: Any) -> dict[str, Any]:
    """``value`` under keys that read like ``keyword`` but are not it: JSON Schema's keywords are
    case-sensitive, so ``PROPERTIES`` or ``prefixitems`` is an unknown keyword, ignored."""
    keys = (keyword.lower(), keyword.upper(), f"XX{keyword}XX")
    return {key: value for key in keys if key != keyword}


def test_merge_reads_its_keywords_as_spelt() -> None:
    others = {**_spelt_otherwise("properties", {"z": 0}), **_spelt_otherwise("required", ["z"])}
    base = {"properties": {"a": 1}, "required": ["a"], **others}
    extra = {"properties": {"b": 2}, "required": ["b"], **others}
    assert _merge(base, extra) == {"properties": {"a": 1, "b": 2}, "required": ["a", "b"], **others}


@pytest.mark.parametrize(
    ("schema", "avoid", "expected"),
    [
        ({"const": 5, **_spelt_otherwise("const", 6)}, False, 5),
        ({"type": "integer", "default": 5, **_spelt_otherwise("default", 7)}, True, 7),
        (
            {
                "type": "array",
                "prefixItems": [{"const": 1}],
                **_spelt_otherwise("prefixItems", [2]),
            },
            False,
            [1],
        ),
        (
            {
                "type": "object",
                "required": ["a"],
                "properties": {"a": {"const": 1}},
                **_spelt_otherwise("properties", {"a": {"const": 2}}),
            },
            False,
            {"a": 1},
        ),
    ],
)
def test_keywords_are_read_as_spelt(schema: dict[str, Any], avoid: bool, expected: Any) -> None:
    assert sample(schema, "x", avoid) == expected


@pytest.mark.parametrize(
    ("description", "expected"),
    [
        ("How many (default 7)", 7),
        ("Units (default metric).", "metric"),
        ("(default true)", True),
        ("(default  null )", None),
        ("(default NaN)", "NaN"),
        ("(default 1,2)", None),
        ("(default: 3)", None),
        ("default 3", None),
        ("", None),
    ],
)
def test_stated_default(description: str, expected: Any) -> None:
    assert _stated_default({"description": description}) == expected


def test_stated_default_of_a_description_that_is_no_text() -> None:
    assert _stated_default({"description": ["(default 4)"]}) == 4
    assert _stated_default({}) is None


@pytest.mark.parametrize(
    ("schema", "avoid", "expected"),
    [
        # Only 0 of the fixed candidates (5, 7, 2, 1, 0, 10, 3) fits.
        ({"type": "integer", "maximum": 0}, False, 0),
        # Only 3 fits: every bound's own candidates (2.5, 3.5, 4.5, 1.5) fall outside.
        ({"type": "number", "exclusiveMinimum": 2.5, "exclusiveMaximum": 3.5}, False, 3),
        # 101 is the default and 100 is excluded: the bound's second step, 102 (an int as given).
        ({"type": "number", "exclusiveMinimum": 100, "default": 101}, True, 102),
        # 3.3, 2.3 and 4.3 rounded down to a multiple of 0.5 do not fit; 2.9 gives 2.5.
        ({"type": "number", "multipleOf": 0.5, "minimum": 2.3, "maximum": 2.9}, False, 2.5),
        # Every candidate rounds down to 0 or 7: the step's double, 14.
        ({"type": "integer", "multipleOf": 7, "exclusiveMinimum": 7}, False, 14),
        # An integer skips 11.5, 10.5 and 12.5 and takes the upper bound's 12.
        ({"type": "integer", "minimum": 10.5, "maximum": 13}, False, 12),
    ],
)
def test_number_candidates_in_order(schema: dict[str, Any], avoid: bool, expected: Any) -> None:
    value = sample(schema, "x", avoid)
    assert value == expected and type(value) is type(expected)


def test_string_tries_in_order() -> None:
    # maxLength 0 cuts the name's value to nothing: "" fits (minLength is 0 unless given).
    assert sample({"type": "string", "maxLength": 0}, "city") == ""
    # The limit itself is drafted; one more is not.
    assert sample({"type": "string", "minLength": 10_000}, "x") == "x" * 10_000
    # The format's value comes first when the pattern takes it.
    assert sample({"type": "string", "format": "date", "pattern": "^2"}, "x") == "2026-03-14"
    # Then the pattern's examples, seeded by the name, then the name and "2" when it is the default.
    pattern = "^[a-z]{8}$"
    assert sample({"type": "string", "pattern": pattern}, "x") == pattern_example(pattern, "x")
    first = {"type": "string", "pattern": pattern, "default": pattern_example(pattern, "x")}
    assert sample(first, "x", True) == pattern_example(pattern, "x2")
    # A date is never cut to fit (it would be no date): the name's value is.
    assert sample({"type": "string", "format": "date", "maxLength": 6}, "city") == "Lisbon"
    # The date fails the pattern: the pattern's own example is tried next.
    capital = {"type": "string", "format": "date", "pattern": "^[A-Z]"}
    assert sample(capital, "city") == pattern_example("^[A-Z]", "city") == "F"
    # A pattern's example is not padded to minLength (padding could break the pattern).
    assert sample({"type": "string", "pattern": "^a", "minLength": 3}, "x") == Undecided(
        "no string fits its pattern, format and length (x)"
    )


def test_string_third_seed() -> None:
    # "tag" and "tag2" give "b", the default; "tag3" gives "a": the third example is taken.
    assert [pattern_example("^[ab]$", "tag" + seed) for seed in ("", "2", "3")] == ["b", "b", "a"]
    schema = {"type": "string", "pattern": "^[ab]$", "default": "b"}
    assert sample(schema, "tag", True) == "a"


def _nested(levels: int) -> dict[str, Any]:
    schema: dict[str, Any] = {"type": "integer"}
    for _ in range(levels):
        schema = {"type": "object", "properties": {"a": schema}, "required": ["a"]}
    return schema


def test_object_properties() -> None:
    # minProperties 2 with one required: the required one and the first optional one, no more.
    three = {"properties": {"a": {}, "b": {}, "c": {}}, "required": ["a"], "minProperties": 2}
    assert sample({"type": "object", **three}, "x") == {"a": "a", "b": "b"}
    # A required name with no schema of its own is any value: the name's.
    assert sample({"type": "object", "required": ["city"]}, "x") == {"city": "Lisbon"}
    # A property's default is kept: only the optional argument itself avoids its default.
    number = {"properties": {"n": {"type": "integer", "default": 5}}, "required": ["n"]}
    assert sample({"type": "object", **number}, "x", True) == {"n": 5}
    # Each object is one level: 64 nested objects (and the integer in them) fit, 65 do not.
    deepest = sample(_nested(64), "x")
    for _ in range(64):
        assert isinstance(deepest, dict)
        deepest = deepest["a"]
    assert deepest == 5
    assert sample(_nested(65), "x") == Undecided("a value of more than 10000 parts or 64 levels")


def test_options_pass_on_what_they_were_given() -> None:
    # An option's own default is avoided (the optional argument's avoid goes into the option).
    assert sample({"anyOf": [{"enum": ["a", "b", "c"], "default": "b"}]}, "x", True) == "c"
    # A $ref inside an option is followed (the path of refs goes into the option).
    defs = {"$defs": {"n": {"type": "integer", "minimum": 20}}}
    assert sample({"anyOf": [{"$ref": "#/$defs/n"}], **defs}, "x") == 21
    # Each option is one level: 64 nested anyOf fit, 65 do not.
    schema: Any = {"type": "integer"}
    for _ in range(64):
        schema = {"anyOf": [schema]}
    assert sample(schema, "x") == 5
    too_deep = sample({"anyOf": [schema]}, "x")
    assert too_deep == Undecided("a value of more than 10000 parts or 64 levels")
