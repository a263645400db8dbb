"""A tool's schema is free JSON (unknown keywords are allowed): ``default`` and ``$ref`` are read
under their own names only, never under a look-alike key (``XXdefaultXX``, ``DEFAULT``,
``$REF``). Schemas and expected values by hand."""

from __future__ import annotations

from scorer.audit.schema_facts import _written_out, defaults


def test_defaults_reads_the_default_keyword_only() -> None:
    schema = {
        "type": "object",
        "properties": {
            "a": {"type": "integer", "default": 3, "XXdefaultXX": None, "DEFAULT": None},
            # null is no default of a string: not stated
            "b": {"type": "string", "default": None, "XXdefaultXX": "x", "DEFAULT": "y"},
        },
    }
    assert defaults(schema) == {"a": 3}


def test_a_ref_is_read_under_its_own_name() -> None:
    root = {"$defs": {"A": {"type": "string"}, "B": {"type": "integer"}}}
    prop = {"$ref": "#/$defs/A", "XX$refXX": "#/$defs/B", "$REF": "#/$defs/B"}
    assert _written_out(root, prop) == {
        "type": "string",
        "XX$refXX": "#/$defs/B",
        "$REF": "#/$defs/B",
    }
