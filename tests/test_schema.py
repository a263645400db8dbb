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
        ({"type": "object", "additionalProperties": {"default": 1}}, "additionalProperties: keyword 'default'"),
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
            "tags": {"type": "array", "items": {"type": "string", "pattern": "^[a-z]+$"}, "maxItems": 2},
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
