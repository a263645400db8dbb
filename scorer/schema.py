"""The JSON Schema subset the method page allows, and validation with ``jsonschema`` (Draft 2020-12)."""

from __future__ import annotations

from typing import Any

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
    """Every problem of ``schema`` (nested schemas too): unsupported keywords and malformed schemas."""
    if isinstance(schema, bool):
        return []
    if not isinstance(schema, dict):
        return [f"{path}: a schema must be an object or a boolean"]
    problems = [
        f"{path}: keyword {key!r} is not supported (only {', '.join(sorted(VALIDATION_KEYWORDS))})"
        for key in sorted(schema)
        if key not in ALLOWED_KEYWORDS
    ]
    properties = schema.get("properties")
    if isinstance(properties, dict):
        for name in sorted(properties):
            problems += schema_problems(properties[name], f"{path}.properties.{name}")
    elif properties is not None:
        problems.append(f"{path}.properties: must be an object")
    for key in ("items", "additionalProperties"):
        if key in schema:
            problems += schema_problems(schema[key], f"{path}.{key}")
    if not problems:
        problems += _metaschema_problems(schema, path)
    return problems


def _metaschema_problems(schema: dict[str, Any], path: str) -> list[str]:
    from jsonschema import Draft202012Validator

    validator = Draft202012Validator(Draft202012Validator.META_SCHEMA)
    return [
        f"{path}{''.join(f'.{p}' for p in error.absolute_path)}: {error.message}"
        for error in sorted(validator.iter_errors(schema), key=lambda e: list(map(str, e.absolute_path)))
    ]


def make_validator(schema: dict[str, Any]) -> Any:
    """A Draft 2020-12 validator for a schema already checked by ``schema_problems``."""
    from jsonschema import Draft202012Validator

    return Draft202012Validator(schema)


def schema_errors(validator: Any, value: Any) -> list[str]:
    """Validation messages of ``value`` (empty when valid), in a stable order."""
    errors = sorted(validator.iter_errors(value), key=lambda e: (list(map(str, e.absolute_path)), e.message))
    return [f"{'.'.join(map(str, error.absolute_path)) or '(root)'}: {error.message}" for error in errors]
