"""The schema subset: the 14 keywords, nested, and validation by jsonschema Draft 2020-12."""

import pytest

from scorer.schema import VALIDATION_KEYWORDS, make_validator, schema_errors, schema_problems


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
)
def test_pattern_semantics_of_the_end_and_of_lone_surrogates(value: str, matches: bool) -> None:
    validator = make_validator({"type": "string", "pattern": "^[a-z]+$"})
    assert (schema_errors(validator, value) == []) is matches
