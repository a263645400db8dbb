"""scorer/schema/full.py by exact value (issue 43's mutation benchmark): every text and bound
below is written by hand from the module's docstring and docs/FORMATS.md."""

from __future__ import annotations

from typing import Any

import pytest


@pytest.mark.parametrize(
    ("schema", "problems"),
    [
        ({"type": "object", "properties": {"x": {"type": "string"}}}, []),
        (True, []),  # a boolean schema: nothing to walk (it crashed before)
        (False, []),
        # Metaschema errors: every one, sorted by path, then by message at one path.
        (
            {"type": 3, "minItems": -1},
            [
                "p.minItems: -1 is less than the minimum of 0",
                "p.type: 3 is not valid under any of the given schemas",
            ],
        ),
        (
            {"properties": {"b": {"type": 1}, "a": {"minLength": "x"}}},
            [
                "p.properties.a.minLength: 'x' is not of type 'integer'",
                "p.properties.b.type: 1 is not valid under any of the given schemas",
            ],
        ),
        (
            {"maxLength": "y", "minLength": "x"},
            [
                "p.maxLength: 'y' is not of type 'integer'",
                "p.minLength: 'x' is not of type 'integer'",
            ],
        ),
        (3, ["p: 3 is not of type 'object', 'boolean'"]),
        # References: local pointers only, resolved, no cycle in place.
        ({"$ref": "#foo"}, ["p.$ref: '#foo' is not a local reference (#/...); nothing is fetched"]),
        (
            {"$ref": "#"},
            [
                "p.$ref.$ref: '#' refers back to itself without descending into the value (a "
                "cycle that never ends)"
            ],
        ),
        ({"items": {"$ref": "#"}}, []),
        ({"prefixItems": [{"$ref": "#"}]}, []),
        ({"patternProperties": {"a": {"$ref": "#"}}}, []),
        ({"additionalProperties": {"$ref": "#"}}, []),
        (
            {"anyOf": [{"$ref": "#"}]},
            [
                "p.anyOf[0].$ref.anyOf[0].$ref: '#' refers back to itself without descending "
                "into the value (a cycle that never ends)"
            ],
        ),
        (
            {"not": {"$ref": "#"}},
            [
                "p.not.$ref.not.$ref: '#' refers back to itself without descending into the "
                "value (a cycle that never ends)"
            ],
        ),
        (
            {"dependentSchemas": {"a": {"$ref": "#"}}},
            [
                "p.dependentSchemas.a.$ref.dependentSchemas.a.$ref: '#' refers back to itself "
                "without descending into the value (a cycle that never ends)"
            ],
        ),
        # Each of the $defs is read, unused or not, in name order, before the root.
        (
            {"$defs": {"b": {"$ref": "#/nope"}, "a": {"$ref": "#/nope2"}}},
            ["p.$defs.a.$ref: '#/nope2' points to nothing in the schema"],
        ),
        (
            {"definitions": {"a": {"$ref": "#/nope"}}},
            ["p.definitions.a.$ref: '#/nope' points to nothing in the schema"],
        ),
        # A $ref in one of the $defs is not followed from there (only checked to resolve).
        ({"$defs": {"a": {"$ref": "#/$defs/a"}}}, []),
        ({"$id": "https://example.com/t", "type": "object"}, []),
        (
            {"$id": "x", "properties": {"a": {"$id": "y"}}},
            ["p.properties.a.$id: a nested $id is not supported (one resource per tool)"],
        ),
        (
            {"properties": {"a": {"$dynamicRef": "#x"}}},
            ["p.properties.a.$dynamicRef: not supported (use $ref)"],
        ),
        (
            {"properties": {"a": {"$recursiveRef": "#"}}},
            ["p.properties.a.$recursiveRef: not supported (use $ref)"],
        ),
        (
            {"properties": {"x": {"pattern": "(["}}},
            [
                "p.properties.x.pattern: '([' does not compile: the linear-time engine (RE2) "
                "cannot run it: missing ]: ["
            ],
        ),
    ],
)
def test_full_schema_problems_exact(schema: Any, problems: list[str]) -> None:
    from scorer.schema.full import full_schema_problems

    assert full_schema_problems(schema, "p") == problems


def test_full_schema_walk_bounds_at_their_edge(monkeypatch: pytest.MonkeyPatch) -> None:
    """At most EXPANDED_MAX schemas and DEPTH_MAX levels: the limit itself passes (bounds set
    small here, so the edge is cheap to reach)."""
    from scorer.schema import full

    monkeypatch.setattr(full, "EXPANDED_MAX", 3)
    assert full.full_schema_problems({"properties": {"a": {}, "b": {}}}, "p") == []
    assert full.full_schema_problems({"properties": {"a": {}, "b": {}, "c": {}}}, "p") == [
        "p: with its $refs written out it has more than 3 schemas"
    ]
    monkeypatch.setattr(full, "EXPANDED_MAX", 10_000)
    monkeypatch.setattr(full, "DEPTH_MAX", 2)
    assert full.full_schema_problems({"items": {"items": {}}}, "p") == []
    assert full.full_schema_problems({"$defs": {"a": {"items": {}}}}, "p") == []
    too_deep = "p: with its $refs written out it nests more than 2 levels deep"
    assert full.full_schema_problems({"items": {"items": {"items": {}}}}, "p") == [too_deep]
    assert full.full_schema_problems({"$defs": {"a": {"items": {"items": {}}}}}, "p") == [too_deep]
    # Each $ref followed is one level.
    assert (
        full.full_schema_problems({"items": {"$ref": "#/$defs/a"}, "$defs": {"a": {}}}, "p") == []
    )
    refs = {"items": {"items": {"$ref": "#/$defs/a"}}, "$defs": {"a": {}}}
    assert full.full_schema_problems(refs, "p") == [too_deep]


def test_full_schema_too_deep_for_the_metaschema_is_one_line() -> None:
    from scorer.schema.full import full_schema_problems

    deep: dict[str, Any] = {}
    for _ in range(2000):
        deep = {"items": deep}
    assert full_schema_problems(deep, "p") == ["p: nests too deeply to check"]


@pytest.mark.parametrize(
    ("ref", "found"),
    [
        ("#", "root"),
        ("#/a", {"b/c": {"d~e": 1}}),
        ("#/a/b~1c", {"d~e": 1}),
        ("#/a/b~1c/d~0e", 1),
        ("#/l/1", 20),
        ("#/l/0", 10),
        ("#/%25", 5),
        ("#/", 7),
        ("#/l/2", None),
        ("#/l/x", None),
        ("#/zz", None),
        ("#/a/b~1c/d~0e/q", None),
        ("x", None),
        ("#a", None),
        ("#/s/0", None),  # a string is not indexed
        ("#/s/x", None),
    ],
)
def test_resolve_local_json_pointers(ref: str, found: Any) -> None:
    from scorer.schema.full import resolve_local

    root = {"a": {"b/c": {"d~e": 1}}, "l": [10, 20], "%": 5, "": 7, "s": "abc"}
    assert resolve_local(root, ref) == (root if found == "root" else found)


def test_full_validator_checks_formats_and_runs_patterns_by_re2() -> None:
    from scorer.schema.full import make_full_validator

    by_pattern = make_full_validator({"pattern": "^a"})
    assert list(by_pattern.iter_errors("ab")) == []  # a string that matches
    assert [e.message for e in by_pattern.iter_errors("ba")] == ["'ba' does not match '^a'"]
    assert list(by_pattern.iter_errors(5)) == []  # a pattern applies to strings only
    validator = make_full_validator(
        {
            "type": "object",
            "properties": {
                "d": {"format": "date"},
                "t": {"format": "time"},
                "u": {"format": "made-up"},
            },
        }
    )
    bad = {"d": "2026-02-30", "t": "25:00:00Z", "u": "x"}
    assert [e.message for e in validator.iter_errors(bad)] == [
        "'2026-02-30' is not a 'date'",
        "'25:00:00Z' is not a 'time'",
    ]
    assert list(validator.iter_errors({"d": "2026-02-28", "t": "23:00:00Z"})) == []


# A schema object holding every keyword with subschemas, each one true (walked, and nothing in it):
# the root is the only object, so each kind of keyword is shown walked by one bad subschema.
EVERY_KEYWORD: dict[str, Any] = {
    **{k: True for k in ("not", "if", "then", "else", "additionalProperties", "items")},
    **{k: True for k in ("contains", "propertyNames", "unevaluatedItems")},
    **{k: True for k in ("unevaluatedProperties", "contentSchema")},
    **{k: [True] for k in ("allOf", "anyOf", "oneOf", "prefixItems")},
    **{k: {"a": True} for k in ("dependentSchemas", "properties", "patternProperties")},
}


@pytest.mark.parametrize(
    ("key", "step"),
    [
        ("not", "not"),
        ("contentSchema", "contentSchema"),
        ("allOf", "allOf[0]"),
        ("prefixItems", "prefixItems[0]"),
        ("dependentSchemas", "dependentSchemas.a"),
        ("patternProperties", "patternProperties.a"),
    ],
)
def test_every_keyword_with_subschemas_is_walked(key: str, step: str) -> None:
    from scorer.schema.full import full_schema_problems

    assert full_schema_problems(EVERY_KEYWORD, "p") == []
    schema = {**EVERY_KEYWORD, key: {"a": {"$id": "x"}} if step.endswith(".a") else {"$id": "x"}}
    if step.endswith("[0]"):
        schema[key] = [{"$id": "x"}]
    assert full_schema_problems(schema, "p") == [
        f"p.{step}.$id: a nested $id is not supported (one resource per tool)"
    ]


@pytest.mark.parametrize(
    ("schema", "problem"),
    [
        ({"$ref": "#a"}, "p.$ref: '#a' is not a local reference (#/...); nothing is fetched"),
        # Both $defs and definitions are read, used or not.
        (
            {"$defs": {"a": {}}, "definitions": {"b": {"$id": "x"}}},
            "p.definitions.b.$id: a nested $id is not supported (one resource per tool)",
        ),
        (
            {"$defs": {"a": {"$id": "x"}}, "definitions": {"b": {}}},
            "p.$defs.a.$id: a nested $id is not supported (one resource per tool)",
        ),
        # A boolean subschema walked first does not end the walk.
        (
            {"properties": {"a": {"$id": "x"}, "b": True}},
            "p.properties.a.$id: a nested $id is not supported (one resource per tool)",
        ),
        # A $ref met in a schema reached through a $ref is followed too.
        (
            {
                "$ref": "#/$defs/a",
                "$defs": {"a": {"$ref": "#/$defs/b"}, "b": {"$ref": "#/$defs/a"}},
            },
            "p.$ref.$ref.$ref: '#/$defs/a' refers back to itself without descending into the "
            "value (a cycle that never ends)",
        ),
    ],
)
def test_full_schema_walk_exact(schema: dict[str, Any], problem: str) -> None:
    from scorer.schema.full import full_schema_problems

    assert full_schema_problems(schema, "p") == [problem]


def test_full_validator_anchors_like_re2_not_like_python_re() -> None:
    from scorer.schema.full import make_full_validator

    # RE2's $ is the end of the text; Python's re would also match before a final newline.
    anchored = make_full_validator({"pattern": "^a$"})
    assert [e.message for e in anchored.iter_errors("a\n")] == ["'a\\n' does not match '^a$'"]
    assert list(anchored.iter_errors("a")) == []


def test_full_validator_runs_what_only_re2_reads_and_names_what_re2_cannot_run() -> None:
    from scorer.schema.full import make_full_validator

    # \p{L} is a Unicode class RE2 reads and Python's re refuses ("bad escape \p").
    letters = make_full_validator({"pattern": "^\\p{L}+$"})
    assert list(letters.iter_errors("Åda")) == []
    no_letter = "'Ada1' does not match '^\\\\p{L}+$'"
    assert [e.message for e in letters.iter_errors("Ada1")] == [no_letter]
    # A lookbehind RE2 cannot run is an error of the value, not an exception.
    behind = make_full_validator({"properties": {"a": {"pattern": "(?<=x)"}}})
    assert [(list(e.absolute_path), e.message) for e in behind.iter_errors({"a": "x"})] == [
        (["a"], "pattern '(?<=x)' cannot be run by the validator")
    ]
    assert list(behind.iter_errors({"a": 5})) == []  # a pattern applies to strings only
