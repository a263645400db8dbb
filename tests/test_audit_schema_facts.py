"""What ``suite audit`` reads from a tool's schema (scorer/audit/schema_facts.py): its parameters
with local ``$ref``s written out, properties, required names and the defaults an optional argument
states (a description's ``(default x)`` or a whole schema's ``default`` keyword), each expected
value written out by hand (docs/METHOD.md, suite-audit)."""

from __future__ import annotations

from typing import Any

from scorer.audit.schema_facts import defaults, parameters, properties, required
from scorer.suite.model import Suite, Tool


def _suite(**specs: dict[str, Any]) -> Suite:
    tools = {name: Tool(name, spec, None) for name, spec in specs.items()}
    return Suite("own", "1.0.0", "2026-01-01", "", tools, (), "", "test")


def _tool(parameters: Any) -> dict[str, Any]:
    return {"type": "function", "function": {"name": "t", "parameters": parameters}}


PLAIN = {
    "type": "object",
    # a boolean subschema first: no $ref is looked for in it
    "properties": {"any": True, "a": {"type": "string"}, "b": {"$id": "not a ref"}},
    "required": ["a"],
}


def test_parameters_of_a_tool_without_refs_are_its_schema() -> None:
    suite = _suite(
        plain=_tool(PLAIN),
        bare=_tool({"type": "object"}),
        listed=_tool("not a schema"),
        nameless={"type": "function"},
    )
    assert parameters(suite, "plain") == PLAIN
    assert parameters(suite, "bare") == {"type": "object"}
    assert parameters(suite, "listed") == {}
    assert parameters(suite, "nameless") == {}
    assert parameters(suite, "absent") == {}


def test_parameters_write_out_each_local_ref_keeping_its_own_keys() -> None:
    schema = {
        "type": "object",
        "$defs": {
            "unit": {"type": "string", "enum": ["c", "f"], "description": "from defs"},
            "alias": {"$ref": "#/$defs/unit", "title": "alias"},
            "loop": {"$ref": "#/$defs/loop"},
        },
        "properties": {
            "unit": {"$ref": "#/$defs/unit", "description": "own"},
            "chain": {"$ref": "#/$defs/alias"},
            "gone": {"$ref": "#/$defs/missing"},
            "far": {"$ref": "https://example.com/unit.json"},
            "listed": {"$ref": "#/$defs/unit/enum"},
            "odd": {"$ref": 5},
            "loop": {"$ref": "#/$defs/loop"},
            "n": {"type": "integer"},
        },
    }
    got = parameters(_suite(t=_tool(schema)), "t")
    assert {k: v for k, v in got.items() if k != "properties"} == {
        "type": "object",
        "$defs": schema["$defs"],
    }
    assert got["properties"] == {
        "unit": {"type": "string", "enum": ["c", "f"], "description": "own"},
        "chain": {
            "type": "string",
            "enum": ["c", "f"],
            "description": "from defs",
            "title": "alias",
        },
        "gone": {"$ref": "#/$defs/missing"},
        "far": {"$ref": "https://example.com/unit.json"},
        "listed": {"$ref": "#/$defs/unit/enum"},
        "odd": {"$ref": 5},
        "loop": {"$ref": "#/$defs/loop"},
        "n": {"type": "integer"},
    }


def test_a_ref_that_resolves_is_written_out() -> None:
    only_ref = {"properties": {"u": {"$ref": "#/$defs/u"}}, "$defs": {"u": {"type": "boolean"}}}
    assert parameters(_suite(t=_tool(only_ref)), "t")["properties"] == {"u": {"type": "boolean"}}


def test_properties_and_required_read_only_well_formed_values() -> None:
    assert properties({"properties": {"a": {}}}) == {"a": {}}
    assert properties({"properties": ["a"]}) == {}
    assert properties({}) == {}
    assert required({"required": ["a", 3, "b"]}) == {"a", "b"}
    assert required({"required": "ab"}) == set()
    assert required({}) == set()


def test_defaults_read_from_descriptions_and_default_keywords() -> None:
    # Every argument skipped comes before one that is read, so a skip that stopped the walk shows.
    props: dict[str, Any] = {
        "req": {"type": "boolean", "description": "(default true)"},
        "notdict": True,
        "kw": {"type": "string", "default": "x"},
        "kw_null": {"type": "string", "default": None},
        "kw_null_ok": {"type": ["string", "null"], "default": None},
        "nodesc": {"type": "string"},
        "flag": {"type": "boolean", "description": "Follow links (default false)."},
        "flag_odd": {"type": "boolean", "description": "(default yes)"},
        "flag_true": {"type": "boolean", "description": "Recurse (default true)"},
        "big": {"type": "integer", "description": "(default 1234567890123456789)"},
        "count": {"type": "integer", "description": "Lines (default 20)"},
        "sup": {"type": "integer", "description": "(default ²)"},
        "most": {"type": "integer", "description": "(default 123456789012345678)"},
        "mode_bad": {"type": "string", "enum": ["fast"], "description": "(default slow)"},
        "mode": {"type": "string", "enum": ["fast", "slow"], "description": "Mode (default slow)"},
        "num": {"type": "number", "description": "(default 1.5)"},
        "text": {"type": "string", "description": "Greeting (default  hello there , friend)"},
    }
    assert defaults({"properties": props, "required": ["req"]}) == {
        "kw": "x",
        "kw_null_ok": None,
        "flag": False,
        "flag_true": True,
        "count": 20,
        "most": 123456789012345678,
        "mode": "slow",
        "text": "hello there",
    }
    assert defaults({"properties": {"x": {"description": "(default 3)"}}}) == {}
    assert defaults({"required": ["a"]}) == {}


def test_a_null_default_is_read_only_where_the_schema_allows_null() -> None:
    props: dict[str, Any] = {
        "string": {"type": "string", "default": None},
        "null": {"type": "null", "default": None},
        "strings": {"type": ["string"], "default": None},
        "union": {"type": ["integer", "null"], "default": None},
        "no_null_option": {"anyOf": [{"type": "string"}], "oneOf": [True], "default": None},
        "any_of": {"anyOf": [{"type": "string"}, {"type": "null"}], "default": None},
        "nullish": {"type": "nullable", "default": None},
        "one_of": {"oneOf": [{"type": "null"}], "default": None},
    }
    assert defaults({"properties": props}) == {
        "null": None,
        "union": None,
        "any_of": None,
        "one_of": None,
    }


def test_a_string_default_stays_text_whatever_it_looks_like() -> None:
    props = {
        "digits": {"type": "string", "description": "(default 42)"},
        "word": {"type": "string", "description": "(default true)"},
    }
    assert defaults({"properties": props}) == {"digits": "42", "word": "true"}


def test_no_properties_no_defaults() -> None:
    assert defaults({}) == {}


def test_a_required_argument_has_no_default_to_leave_out() -> None:
    props = {"req": {"type": "boolean", "description": "(default true)"}, "kw": {"default": 1}}
    assert defaults({"properties": props, "required": ["req", "kw"]}) == {}


def test_an_enum_default_is_read_when_the_enum_lists_it() -> None:
    props = {"mode": {"type": "string", "enum": ["fast", "slow"], "description": "(default slow)"}}
    assert defaults({"properties": props}) == {"mode": "slow"}


def test_a_string_default_of_digits_stays_text() -> None:
    props = {"digits": {"type": "string", "description": "(default 42)"}}
    assert defaults({"properties": props}) == {"digits": "42"}


def test_a_null_default_allowed_by_any_of() -> None:
    props = {"x": {"anyOf": [{"type": "null"}], "default": None}}
    assert defaults({"properties": props}) == {"x": None}


def test_a_null_default_allowed_by_one_of() -> None:
    props = {"x": {"oneOf": [{"type": "null"}], "default": None}}
    assert defaults({"properties": props}) == {"x": None}


def test_a_null_default_of_a_typed_argument_needs_null_in_its_type() -> None:
    props = {
        "nullish": {"type": "nullable", "default": None},
        "strings": {"type": ["string"], "default": None},
        "union": {"type": ["string", "null"], "default": None},
    }
    assert defaults({"properties": props}) == {"union": None}
