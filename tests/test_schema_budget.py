"""scorer/schema/budget.py by exact value (issue 43's mutation benchmark): budgets are small here,
so every limit is met at its edge cheaply; figures and texts written by hand from the module's
docstring (64 levels, 100,000 + 16 a node, 10,000 tools, five lines shown)."""

from __future__ import annotations

from typing import Any

import pytest

from scorer.schema.budget import listing_problems


def test_node_count_and_the_budget_it_gives() -> None:
    from scorer.schema.budget import Budget, budget_for, node_count

    assert node_count({"a": [1, 2, {"b": None}]}) == 6  # 2 objects, 1 array, 3 scalars
    assert (node_count(5), node_count([]), node_count({})) == (1, 1, 1)
    assert budget_for([{"a": 1}, None]) == Budget(100_000 + 16 * 3)
    assert budget_for([]) == Budget(100_000, [])


@pytest.mark.parametrize(
    ("ref", "found"),
    [
        ("#", (True, "the root")),
        ("#/n", (True, None)),  # found, and null: apart from not found
        ("#/m", (False, None)),
        ("#/l/0", (True, 1)),
        ("#/l/1/a~1b", (True, 2)),
        ("#/l/1/c~0d", (True, 3)),
        ("#/l/2", (False, None)),
        ("#/l/x", (False, None)),
        ("#/n/x", (False, None)),
        ("x", (False, None)),
        ("#n", (False, None)),  # not a pointer, though "" is a key
        ("#/", (True, "empty")),  # the key ""
        ("#/s/0", (False, None)),  # a string is not indexed
        ("#/s/x", (False, None)),
    ],
)
def test_resolve_pointer_exact(ref: str, found: tuple[bool, Any]) -> None:
    from scorer.schema.budget import resolve_pointer

    root = {"n": None, "l": [1, {"a/b": 2, "c~d": 3}], "": "empty", "s": "abc"}
    assert resolve_pointer(root, ref) == ((True, root) if ref == "#" else found)


def test_the_walk_budget_at_its_edge() -> None:
    from scorer.schema.budget import Budget, schema_problems

    schema = {"type": "object", "properties": {"a": {"type": "string"}}}  # 3 objects walked
    enough = Budget(3)
    assert schema_problems(schema, enough) == [] and enough.remaining == 0
    short = Budget(2)
    assert schema_problems(schema, short) == [
        (
            "properties.a",
            "expands to more nodes than suite new walks with each $ref followed (a $ref graph "
            "that multiplies)",
        )
    ]
    # A $ref followed is walked again: 2 objects, 1 followed, and the $defs (2 objects).
    refs = {"items": {"$ref": "#/$defs/A"}, "$defs": {"A": {}}}
    assert schema_problems(refs, Budget(5)) == []
    assert schema_problems(refs, Budget(4)) == [
        (
            "$defs.A",
            "expands to more nodes than suite new walks with each $ref followed (a $ref graph "
            "that multiplies)",
        )
    ]


def test_the_walk_depth_at_its_edge() -> None:
    from scorer.schema.budget import Budget, schema_problems

    nested: dict[str, Any] = {}
    for _ in range(64):
        nested = {"items": nested}
    assert schema_problems(nested, Budget(1000)) == []  # 64 levels: the limit itself
    assert schema_problems({"items": nested}, Budget(1000)) == [
        (".".join(["items"] * 65), "nests deeper than 64 levels with each $ref followed")
    ]
    in_array: dict[str, Any] = {"prefixItems": [{}]}  # an array and its item: 2 levels
    for _ in range(31):
        in_array = {"prefixItems": [in_array]}
    assert schema_problems(in_array, Budget(1000)) == []
    # The first list past 64: the 33rd prefixItems, at depth 65.
    assert schema_problems({"prefixItems": [in_array]}, Budget(1000)) == [
        (
            "prefixItems" + "[0].prefixItems" * 32,
            "nests deeper than 64 levels with each $ref followed",
        )
    ]


@pytest.mark.parametrize(
    ("schema", "problems"),
    [
        (3, [("", "not a JSON Schema object")]),
        (None, [("", "not a JSON Schema object")]),
        ({"properties": {"a": {"minItems": "3"}}},
         [("properties.a.minItems", "'3' is not of type 'integer'")]),
        ({"type": "x" * 400}, [("type", "'" + "x" * 299 + "...")]),
        # 300 characters are kept whole; 301 are cut to 300 and "...".
        ({"type": "x" * 254},
         [("type", "'" + "x" * 254 + "' is not valid under any of the given schemas")]),
        ({"type": "x" * 255},
         [("type", "'" + "x" * 255 + "' is not valid under any of the given schema...")]),
        # $ref inside a value (enum, const, default, examples) is data, never followed.
        ({"default": {"$ref": "http://x"}, "enum": [{"$ref": "x"}], "examples": [{"$ref": "q"}],
          "const": {"$ref": "z"}}, []),
        ({"const": {"properties": {"a": {"$ref": "z"}}}}, []),
        ({"prefixItems": [{}, {"$ref": "#/x" + "y" * 250}]},
         [("prefixItems[1].$ref", repr("#/x" + "y" * 197) + " is not a local reference that "
           "resolves (only #/... pointers into the schema are followed; nothing is fetched)")]),
        ({"$defs": {"A": {"$ref": "#/$defs/A"}}},
         [("$defs.A.$ref.$ref", "'#/$defs/A' loops back to itself without reaching a part of "
           "the value (a validator would recurse forever)")]),
        ({"$ref": "#"}, [("$ref.$ref", "'#' loops back to itself without reaching a part of the "
          "value (a validator would recurse forever)")]),
        # A loop through allOf never reaches a part of the value either.
        ({"$defs": {"A": {"allOf": [{"$ref": "#/$defs/A"}]}}, "$ref": "#/$defs/A"},
         [("$defs.A.allOf[0].$ref.allOf[0].$ref", "'#/$defs/A' loops back to itself without "
           "reaching a part of the value (a validator would recurse forever)")]),
        ({"$defs": {"A" * 250: {"$ref": "#/$defs/" + "A" * 250}}},
         [("$defs." + "A" * 250 + ".$ref.$ref", repr("#/$defs/" + "A" * 192) + " loops back to "
           "itself without reaching a part of the value (a validator would recurse forever)")]),
        # A scalar in an array (required's names) does not end the walk.
        ({"required": ["x"], "properties": {"a": {"$ref": "#/nope"}}},
         [("properties.a.$ref", "'#/nope' is not a local reference that resolves (only #/... "
           "pointers into the schema are followed; nothing is fetched)")]),
        # Through a part of the value, a loop is a recursive type: walked once, fine.
        ({"properties": {"a": {"$ref": "#"}}}, []),
        ({"items": {"$ref": "#"}}, []),
        ({"additionalProperties": {"$ref": "#"}}, []),
        ({"$defs": {"A": {"properties": {"x": {"$ref": "#/$defs/A"}}}}, "$ref": "#/$defs/A"}, []),
        ({"allOf": [{"$ref": "#/$defs/A"}], "$defs": {"A": {"properties": {"x": {"$ref": "#"}}}}},
         []),
    ],
)  # fmt: skip
def test_schema_problems_exact(schema: Any, problems: list[tuple[str, str]]) -> None:
    from scorer.schema.budget import Budget, schema_problems

    assert schema_problems(schema, Budget(1000)) == problems


def test_listing_problems_name_each_tool_and_stop_after_five() -> None:
    bad = {"type": "x"}
    line = "parameters.type: 'x' is not valid under any of the given schemas"
    assert listing_problems([(f"t{i}", bad) for i in range(7)]) == [
        *[f"tool 't{i}': {line}" for i in range(5)],
        "and 1 more",  # the walk stops at the sixth
    ]
    assert listing_problems([(f"t{i}", bad) for i in range(5)]) == [
        f"tool 't{i}': {line}" for i in range(5)
    ]
    assert listing_problems([("a", None), ("b", bad)]) == [f"tool 'b': {line}"]
    assert listing_problems([("\x1bq", 3)]) == [
        "tool '\\x1bq': parameters: not a JSON Schema object"
    ]
    assert listing_problems([(f"t{i}", None) for i in range(10_000)]) == []


def test_listing_problems_stop_when_the_budget_is_spent(monkeypatch: pytest.MonkeyPatch) -> None:
    from scorer.schema import budget

    monkeypatch.setattr(budget, "BUDGET_BASE", 0)
    monkeypatch.setattr(budget, "BUDGET_PER_NODE", 1)  # the budget: the listing's own nodes
    doubled = {"properties": {"a": {"$ref": "#/$defs/A"}, "b": {"$ref": "#/$defs/A"}},
               "$defs": {"A": {"properties": {"c": {}}}}}  # fmt: skip
    spent = (
        "expands to more nodes than suite new walks with each $ref followed (a $ref graph that "
        "multiplies)"
    )
    # 12 nodes in all (10 and 2); the walk of a visits root, properties, a, A, A.properties, c, b,
    # A, A.properties, c, $defs, $defs.A: the 13th, $defs.A.properties, is one too many, and b's
    # own problem is never looked for.
    assert budget.listing_problems([("a", doubled), ("b", {"type": "x"})]) == [
        f"tool 'a': parameters.$defs.A.properties: {spent}"
    ]


def test_listing_problems_bound_the_tools_and_show_each_line_on_one_line() -> None:
    assert listing_problems([(f"t{i}", None) for i in range(10_001)]) == [
        "10001 tools: more than the 10000 suite new drafts from (choose some with --include TOOL)"
    ]
    assert listing_problems([("t", {"properties": {"a\tb\nc": {"type": "x"}}})]) == [
        "tool 't': parameters.properties.a\\x09b\\x0ac.type: 'x' is not valid under any of the "
        "given schemas"
    ]


def test_listing_problems_go_on_while_the_budget_is_not_overdrawn(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from scorer.schema import budget

    monkeypatch.setattr(budget, "BUDGET_BASE", 1)
    monkeypatch.setattr(budget, "BUDGET_PER_NODE", 0)  # one object to walk in all
    # a's walk spends it to 0, exactly: b is still walked, and overdraws it.
    assert budget.listing_problems([("a", {"type": "object"}), ("b", {"type": "x"})]) == [
        "tool 'b': parameters: expands to more nodes than suite new walks with each $ref "
        "followed (a $ref graph that multiplies)"
    ]


def test_each_ref_followed_is_one_level(monkeypatch: pytest.MonkeyPatch) -> None:
    from scorer.schema import budget

    # The root (0), its items (1), the root again through "#" (2), its items (3); no further:
    # "#" is on the path.
    recursive = {"items": {"$ref": "#"}}
    monkeypatch.setattr(budget, "MAX_DEPTH", 3)
    assert budget.schema_problems(recursive, budget.Budget(1000)) == []
    monkeypatch.setattr(budget, "MAX_DEPTH", 2)
    assert budget.schema_problems(recursive, budget.Budget(1000)) == [
        ("items.$ref.items", "nests deeper than 2 levels with each $ref followed")
    ]
