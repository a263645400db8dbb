"""The JSON Schema subset the method page allows, and validation with ``jsonschema``
(Draft 2020-12)."""

from __future__ import annotations

from collections.abc import Iterator
from functools import lru_cache
from typing import Any

from scorer.patterns import PatternError, compile_pattern, pattern_search

# The 14 validation keywords of the method page; annotations never affect validation.
VALIDATION_KEYWORDS = frozenset(
    {
        "type",
        "enum",
        "const",
        "properties",
        "required",
        "additionalProperties",
        "items",
        "minItems",
        "maxItems",
        "minimum",
        "maximum",
        "minLength",
        "maxLength",
        "pattern",
    }
)
ANNOTATION_KEYWORDS = frozenset({"description", "title"})
ALLOWED_KEYWORDS = VALIDATION_KEYWORDS | ANNOTATION_KEYWORDS


def schema_problems(schema: Any, path: str) -> list[str]:
    """Every problem of ``schema`` (nested schemas too): unsupported keywords and
    malformed schemas."""
    problems = _keyword_problems(schema, path)
    if not problems and isinstance(schema, dict):
        # Once, at the root: the metaschema walks every nested schema itself.
        problems = _metaschema_problems(schema, path)
    return problems


def _keyword_problems(schema: Any, path: str) -> list[str]:
    if isinstance(schema, bool):
        return []
    if not isinstance(schema, dict):
        return [f"{path}: a schema must be an object or a boolean"]
    problems = [
        f"{path}: keyword {key!r} is not supported (only {', '.join(sorted(VALIDATION_KEYWORDS))})"
        for key in sorted(schema)
        if key not in ALLOWED_KEYWORDS
    ]
    pattern = schema.get("pattern")
    if isinstance(pattern, str):
        try:
            compile_pattern(pattern)
        except PatternError as exc:
            problems.append(f"{path}.pattern: {pattern!r} does not compile: {exc}")
    properties = schema.get("properties")
    if isinstance(properties, dict):
        for name in sorted(properties):
            problems += _keyword_problems(properties[name], f"{path}.properties.{name}")
    elif properties is not None:
        problems.append(f"{path}.properties: must be an object")
    for key in ("items", "additionalProperties"):
        if key in schema:
            problems += _keyword_problems(schema[key], f"{path}.{key}")
    return problems


_COUNT = {"type": "integer", "minimum": 0}
_JSON_TYPES = ["array", "boolean", "integer", "null", "number", "object", "string"]
# The Draft 2020-12 rules for just the allowed keywords. Checking against this instead of the full
# 2020-12 metaschema gives the same verdicts for these keywords at a fraction of the cost (no
# $dynamicRef to resolve).
SUBSET_METASCHEMA: dict[str, Any] = {
    "type": ["object", "boolean"],
    "properties": {
        "type": {
            "anyOf": [
                {"enum": _JSON_TYPES},
                {
                    "type": "array",
                    "items": {"enum": _JSON_TYPES},
                    "minItems": 1,
                    "uniqueItems": True,
                },
            ]
        },
        "enum": {"type": "array"},
        "properties": {"type": "object", "additionalProperties": {"$ref": "#"}},
        "required": {"type": "array", "items": {"type": "string"}, "uniqueItems": True},
        "additionalProperties": {"$ref": "#"},
        "items": {"$ref": "#"},
        "minItems": _COUNT,
        "maxItems": _COUNT,
        "minLength": _COUNT,
        "maxLength": _COUNT,
        "minimum": {"type": "number"},
        "maximum": {"type": "number"},
        "pattern": {"type": "string"},
        "description": {"type": "string"},
        "title": {"type": "string"},
    },
}


@lru_cache(maxsize=1)
def _metaschema_validator() -> Any:
    from jsonschema import Draft202012Validator

    return Draft202012Validator(SUBSET_METASCHEMA)


def _metaschema_problems(schema: dict[str, Any], path: str) -> list[str]:
    validator = _metaschema_validator()
    return [
        f"{path}{''.join(f'.{p}' for p in error.absolute_path)}: {error.message}"
        for error in sorted(
            validator.iter_errors(schema), key=lambda e: list(map(str, e.absolute_path))
        )
    ]


def _pattern(validator: Any, pattern: str, instance: Any, schema: dict[str, Any]) -> Iterator[Any]:
    """jsonschema's ``pattern`` keyword with the same message, run by RE2 (scorer/patterns.py):
    linear time."""
    from jsonschema.exceptions import ValidationError

    if validator.is_type(instance, "string") and not pattern_search(pattern, instance):
        yield ValidationError(f"{instance!r} does not match {pattern!r}")


@lru_cache(maxsize=1)
def _validator_class() -> Any:
    from jsonschema import Draft202012Validator
    from jsonschema.validators import extend

    return extend(Draft202012Validator, {"pattern": _pattern})


def make_validator(schema: dict[str, Any]) -> Any:
    """A Draft 2020-12 validator for a schema already checked by ``schema_problems``; ``pattern``
    runs by RE2."""
    return _validator_class()(schema)


def schema_errors(validator: Any, value: Any) -> list[str]:
    """Validation messages of ``value`` (empty when valid), in a stable order."""
    errors = sorted(
        validator.iter_errors(value), key=lambda e: (list(map(str, e.absolute_path)), e.message)
    )
    return [
        f"{'.'.join(map(str, error.absolute_path)) or '(root)'}: {error.message}"
        for error in errors
    ]
