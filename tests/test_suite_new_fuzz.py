"""A fuzz target for ``suite new``'s tool lists (issue 42, parts 3 and 7): random schemas built from
JSON Schema's keywords, run with a fixed seed and a bounded number of examples. Each is either
refused by the check (one line per problem) or drafted without an exception, and every reference
drafted validates against its own schema (formats checked): a wrong one is never written."""

from __future__ import annotations

from typing import Any

from hypothesis import HealthCheck, given, seed, settings
from hypothesis import strategies as st
from jsonschema import Draft202012Validator

from scorer.schema.budget import listing_problems
from scorer.schema.formats import draft_format_checker as format_checker
from scorer.suite.draft.new import ListedTool, draft_suite

NAMES = st.sampled_from(["id", "event_id", "title", "start", "email", "tags", "n", "mode", "x"])
SCALARS = st.one_of(st.none(), st.booleans(), st.integers(-5, 300), st.text(max_size=6))
TYPES = st.sampled_from(["string", "integer", "number", "boolean", "array", "object", "null"])


def _schema(children: st.SearchStrategy[Any]) -> st.SearchStrategy[dict[str, Any]]:
    keyword = st.one_of(
        st.tuples(st.just("type"), st.one_of(TYPES, st.lists(TYPES, min_size=1, max_size=2))),
        st.tuples(st.just("enum"), st.lists(SCALARS, min_size=1, max_size=3)),
        st.tuples(st.just("format"), st.sampled_from(["date", "date-time", "email", "uuid",
                                                      "ipv4", "uri", "time", "odd"])),
        st.tuples(st.just("pattern"), st.sampled_from(["^evt_[0-9a-f]{8}$", "^[A-Z]{1,5}$",
                                                       "a|b", "^(x)\\1$", "[", "\\d+"])),
        st.tuples(st.sampled_from(["minLength", "maxLength", "minItems", "maxItems"]),
                  st.one_of(st.integers(0, 12), st.just("3"), st.just(10**9))),
        st.tuples(st.sampled_from(["minimum", "maximum", "exclusiveMinimum", "multipleOf"]),
                  st.one_of(st.integers(-3, 20), st.floats(0.1, 5))),
        st.tuples(st.just("properties"), st.dictionaries(NAMES, children, max_size=3)),
        st.tuples(st.just("required"), st.one_of(st.lists(NAMES, max_size=3), st.just("id"))),
        st.tuples(st.sampled_from(["items", "additionalProperties"]), children),
        st.tuples(st.sampled_from(["anyOf", "oneOf", "allOf"]),
                  st.lists(children, min_size=1, max_size=2)),
        st.tuples(st.just("$ref"), st.sampled_from(["#/$defs/A", "#", "#/$defs/none", "x.json"])),
        st.tuples(st.just("uniqueItems"), st.booleans()),
        st.tuples(st.just("default"), SCALARS),
    )  # fmt: skip
    return st.lists(keyword, max_size=5).map(dict)


SCHEMAS = st.recursive(st.just({"type": "string"}), _schema, max_leaves=12)


@seed(20261205)
@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(props=st.dictionaries(NAMES, SCHEMAS, max_size=4), defs=SCHEMAS, required=st.lists(NAMES))
def test_any_schema_is_refused_in_lines_or_drafted_with_valid_references(
    props: dict[str, Any], defs: dict[str, Any], required: list[str]
) -> None:
    schema = {"type": "object", "properties": props, "required": sorted(set(required)),
              "$defs": {"A": defs}}  # fmt: skip
    problems = listing_problems([("tool_one", schema)])
    if problems:
        assert all("\n" not in line and line for line in problems)
        return
    document = draft_suite([ListedTool("tool_one", "", schema)], "fuzz", "2026-12-05", {})
    validator = Draft202012Validator(schema, format_checker=format_checker())
    for case in document["cases"]:
        for step in case["steps"]:
            for call in step.get("calls", []):
                errors = [e.message for e in validator.iter_errors(call["reference"])]
                missing = [e for e in errors if "is a required property" in e]
                # A reference may lack an argument left to decide (named in the draft note),
                # never hold a wrong value.
                assert errors == missing, (schema, call["reference"], errors)
                if missing:
                    assert "decide a value for" in case["draft"]
