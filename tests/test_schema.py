"""The schema subset: the 14 keywords, nested, and validation by jsonschema Draft 2020-12."""

import pytest

from scorer.schema.subset import VALIDATION_KEYWORDS, make_validator, schema_errors, schema_problems


def test_exactly_the_fourteen_keywords_of_the_method_page() -> None:
    assert len(VALIDATION_KEYWORDS) == 14


@pytest.mark.parametrize(
    ("schema", "fragment"),
    [
        (
            {"type": "object", "properties": {"a": {"type": "string", "format": "date"}}},
            "properties.a: keyword 'format'",
        ),
        ({"type": "array", "items": {"oneOf": [{"type": "string"}]}}, "items: keyword 'oneOf'"),
        (
            {"type": "object", "additionalProperties": {"default": 1}},
            "additionalProperties: keyword 'default'",
        ),
        ({"type": "object", "$defs": {}}, "keyword '$defs'"),
        ({"type": "strnig"}, "is not valid"),
        ({"type": "string", "minLength": -1}, "minLength"),
        ({"type": "string", "pattern": "(["}, "pattern: '([' does not compile"),
        ({"type": ["string", "string"]}, "type"),
        ({"type": "object", "required": "a"}, "required"),
    ],
)
def test_unsupported_or_malformed(schema: dict, fragment: str) -> None:
    problems = schema_problems(schema, "p")
    assert any(fragment in p for p in problems), problems


def test_allowed_schema_has_no_problems_and_validates() -> None:
    schema = {
        "type": "object",
        "title": "t",
        "description": "d",
        "properties": {
            "n": {"type": "integer", "minimum": 1, "maximum": 5},
            "tags": {
                "type": "array",
                "items": {"type": "string", "pattern": "^[a-z]+$"},
                "maxItems": 2,
            },
            "kind": {"enum": ["a", "b"]},
            "v": {"const": 1},
        },
        "required": ["n"],
        "additionalProperties": False,
    }
    assert schema_problems(schema, "p") == []
    validator = make_validator(schema)
    assert schema_errors(validator, {"n": 3, "tags": ["ab"], "kind": "a", "v": 1}) == []
    errors = schema_errors(validator, {"n": 9, "tags": ["AB", "c", "d"], "extra": 1})
    assert len(errors) == 4
    assert schema_errors(validator, {"n": True}) != []


# Patterns run by RE2 (METHOD.md#patterns-run-by-re2): linear time, and a pattern only a
# backtracking engine can run is refused with the engine's reason.
@pytest.mark.parametrize("pattern", [r"^(a)\1$", r"^(?=a)a$", r"^(?!b)a$", r"a\Z"])
def test_a_pattern_re2_cannot_run_is_a_schema_problem(pattern: str) -> None:
    problems = schema_problems({"type": "string", "pattern": pattern}, "tools.t.properties.x")
    assert problems == [
        f"tools.t.properties.x.pattern: {pattern!r} does not compile: the linear-time engine (RE2) "
        "cannot run it: " + problems[0].split("cannot run it: ", 1)[1]
    ]


def test_the_suites_email_pattern_judges_a_hostile_address_as_a_mismatch() -> None:
    email = r"^[^@\s]+@[^@\s]+\.[^@\s]+$"
    validator = make_validator({"type": "array", "items": {"type": "string", "pattern": email}})
    hostile = "a@" + "." * 40000 + "@"
    (error,) = schema_errors(validator, [hostile, "ann@example.com"])
    assert error.startswith("0: 'a@....") and error.endswith(f"does not match {email!r}")


@pytest.mark.parametrize(
    ("value", "matches"),
    [
        ("abc", True),
        (
            "abc\n",
            False,
        ),  # `$` is the end of the text (as in ECMA-262), not "before a final newline" as in re
        ("a\udc80c", False),  # a lone surrogate is judged, never a crash
        ("\udc80", False),
    ],
    # ASCII ids: pytest escapes a surrogate in an id, and the escaped id is not found when given
    # back to select the test (mutmut does).
    ids=["letters", "final-newline", "surrogate-inside", "surrogate-alone"],
)
def test_pattern_semantics_of_the_end_and_of_lone_surrogates(value: str, matches: bool) -> None:
    validator = make_validator({"type": "string", "pattern": "^[a-z]+$"})
    assert (schema_errors(validator, value) == []) is matches


# Exact texts, so that a changed message or order fails by assertion (issue 43's mutation probe).
# The keyword list is the method page's 14 validation keywords, sorted, written out by hand.
ONLY = (
    "(only additionalProperties, const, enum, items, maxItems, maxLength, maximum, minItems, "
    "minLength, minimum, pattern, properties, required, type)"
)


@pytest.mark.parametrize(
    ("schema", "problems"),
    [
        (3, ["p: a schema must be an object or a boolean"]),
        ("string", ["p: a schema must be an object or a boolean"]),
        (None, ["p: a schema must be an object or a boolean"]),
        (True, []),
        (False, []),
        ({"items": True, "additionalProperties": False}, []),
        ({"items": 3}, ["p.items: a schema must be an object or a boolean"]),
        (
            {"additionalProperties": []},
            ["p.additionalProperties: a schema must be an object or a boolean"],
        ),
        ({"properties": {"a": 1}}, ["p.properties.a: a schema must be an object or a boolean"]),
        # Both nested keys are walked, and their problems added to the ones before.
        (
            {"additionalProperties": {"format": 1}, "items": 3},
            [
                "p.items: a schema must be an object or a boolean",
                f"p.additionalProperties: keyword 'format' is not supported {ONLY}",
            ],
        ),
        ({"format": 1, "items": {}}, [f"p: keyword 'format' is not supported {ONLY}"]),
        ({"properties": [1]}, ["p.properties: must be an object"]),
        ({"properties": "a"}, ["p.properties: must be an object"]),
        ({"format": "date"}, [f"p: keyword 'format' is not supported {ONLY}"]),
        (
            {"properties": {"b": {"format": 1}, "a": {"x": 1}}},
            [
                f"p.properties.a: keyword 'x' is not supported {ONLY}",
                f"p.properties.b: keyword 'format' is not supported {ONLY}",
            ],
        ),
        (
            {"z": 1, "a": 1, "pattern": "(["},
            [
                f"p: keyword 'a' is not supported {ONLY}",
                f"p: keyword 'z' is not supported {ONLY}",
                "p.pattern: '([' does not compile: the linear-time engine (RE2) cannot run it: "
                "missing ]: [",
            ],
        ),
        ({"pattern": 5}, ["p.pattern: 5 is not of type 'string'"]),
        ({"title": "t", "description": "d"}, []),
        ({"title": 1}, ["p.title: 1 is not of type 'string'"]),
        # The metaschema's bounds: counts are integers >= 0, bounds are numbers.
        ({"minLength": -1}, ["p.minLength: -1 is less than the minimum of 0"]),
        ({"maxLength": -1}, ["p.maxLength: -1 is less than the minimum of 0"]),
        ({"minItems": -1}, ["p.minItems: -1 is less than the minimum of 0"]),
        ({"maxItems": 1.5}, ["p.maxItems: 1.5 is not of type 'integer'"]),
        ({"minLength": 0, "maxItems": 0}, []),
        ({"minimum": "1"}, ["p.minimum: '1' is not of type 'number'"]),
        ({"maximum": -2.5, "minimum": -3}, []),
        # "type": an allowed name, or a non-empty array of distinct allowed names.
        ({"type": []}, ["p.type: [] is not valid under any of the given schemas"]),
        ({"items": {"type": []}}, ["p.items.type: [] is not valid under any of the given schemas"]),
        ({"type": ["string", "null"]}, []),
        ({"type": "strnig"}, ["p.type: 'strnig' is not valid under any of the given schemas"]),
        # "required": an array of distinct strings.
        ({"required": ["a", "a"]}, ["p.required: ['a', 'a'] has non-unique elements"]),
        ({"required": [1]}, ["p.required.0: 1 is not of type 'string'"]),
        ({"required": []}, []),
        ({"enum": "a"}, ["p.enum: 'a' is not of type 'array'"]),
        # Sorted by path, nested paths joined with dots.
        (
            {"properties": {"b": {"minItems": -1}, "a": {"type": "x"}}},
            [
                "p.properties.a.type: 'x' is not valid under any of the given schemas",
                "p.properties.b.minItems: -1 is less than the minimum of 0",
            ],
        ),
    ],
)
def test_schema_problems_exact(schema: object, problems: list[str]) -> None:
    assert schema_problems(schema, "p") == problems


def test_a_keyword_problem_stops_the_metaschema() -> None:
    """An unsupported keyword is reported alone: the metaschema does not run on a bad schema."""
    assert schema_problems({"format": 1, "minLength": -1}, "p") == [
        f"p: keyword 'format' is not supported {ONLY}"
    ]


def test_schema_errors_exact_paths_messages_and_order() -> None:
    schema = {
        "type": "object",
        "properties": {
            "a": {"type": "array", "items": {"type": "string", "pattern": "^[a-z]+$"}},
            "b": {"maximum": 3},
        },
    }
    validator = make_validator(schema)
    assert schema_errors(validator, {"b": 4, "a": ["AB", 5]}) == [
        "a.0: 'AB' does not match '^[a-z]+$'",
        "a.1: 5 is not of type 'string'",
        "b: 4 is greater than the maximum of 3",
    ]
    assert schema_errors(validator, 3) == ["(root): 3 is not of type 'object'"]
    assert schema_errors(validator, {"a": ["ab"], "b": 3}) == []


def test_schema_errors_same_path_sorted_by_message() -> None:
    validator = make_validator({"type": "string", "minLength": 3, "pattern": "^b"})
    assert schema_errors(validator, "a") == [
        "(root): 'a' does not match '^b'",
        "(root): 'a' is too short",
    ]


def test_pattern_applies_to_strings_only() -> None:
    assert schema_errors(make_validator({"pattern": "^a"}), 5) == []
    assert schema_errors(make_validator({"pattern": "^a"}), "ba") == [
        "(root): 'ba' does not match '^a'"
    ]
    assert schema_errors(make_validator({"pattern": "a"}), "ba") == []
