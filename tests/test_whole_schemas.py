"""An own suite's tools are sent whole and validated with whole Draft 2020-12, formats checked;
a Lobstack suite keeps the method page's subset; an untrusted schema is checked before use; the
suite is checked against the tools its origin lists (issue 40, parts 1 and 2)."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest

from lobstack_eval.main import main
from recorder.runner import request_body
from scorer import parse_suite
from scorer.audit.run import audit_suite
from scorer.schema.formats import is_date_time, is_time, is_uri
from scorer.suite.file import check_suite
from tests.conftest import ROOT

FIXTURE = ROOT / "tests" / "fixtures" / "pydantic_mcp"
LISTED = json.loads((FIXTURE / "tools_list.json").read_text(encoding="utf-8"))["tools"]


def suite_document() -> dict[str, Any]:
    return json.loads((FIXTURE / "suite.json").read_text(encoding="utf-8"))


def problems_of(document: dict[str, Any]) -> tuple[str, ...]:
    return check_suite(json.dumps(document).encode(), "s.json").problems


def test_a_pydantic_servers_tools_are_the_suites_whole_and_check_clean() -> None:
    suite = parse_suite((FIXTURE / "suite.json").read_bytes(), "suite.json")
    for tool in LISTED:  # what the model is sent is exactly what the server lists
        assert suite.tools[tool["name"]].spec["function"]["parameters"] == tool["inputSchema"]
    for case in suite.cases:
        for step in case.steps:
            for call in step.calls:
                assert suite.tools[call.name].errors(call.reference) == []
    create = suite.tools["create_event"]
    good = {"title": "x", "start": "2026-10-21T10:00:00Z", "end": "2026-10-21T11:00:00+02:00"}
    assert create.errors(good) == []
    # The fields of nested models behind anyOf + $ref, and every format, are validated.
    assert create.errors({**good, "attendees": "example-attendees"})
    assert create.errors({**good, "attendees": [{"email": "not-an-address"}]})
    assert create.errors({**good, "attendees": [{"name": "no email"}]})
    assert create.errors({**good, "location": {"building": "north"}})
    assert create.errors({**good, "start": "2026-10-21 10:00"})
    assert create.errors({**good, "visibility": "secret"})
    assert create.errors({**good, "location": None, "attendees": None}) == []
    assert suite.tools["list_events"].errors({"day": "2026-02-30"})
    assert suite.tools["list_events"].errors({"day": "2026-10-21", "limit": 0})
    assert suite.tools["cancel_event"].errors({"event_id": "evt_123"})
    assert suite.tools["stock_quote"].errors({"symbol": "acme"})
    assert suite.tools["find_free_slot"].errors(
        {"day": "2026-10-21", "minutes": 30, "after": "2pm"}
    )
    audit = audit_suite(suite)
    assert not audit.failed
    assert audit.total("rights_accepted") == audit.total("rights_tried") > 0


def test_strict_is_kept_and_sent() -> None:
    document = suite_document()
    document["tools"]["list_events"]["function"]["strict"] = True
    suite = parse_suite(json.dumps(document).encode(), "s.json")
    case = suite.case("whats-on")
    sent = request_body(suite, case, "m", [])["tools"]
    assert [
        t["function"].get("strict") for t in sent if t["function"]["name"] == "list_events"
    ] == [True]
    document["tools"]["list_events"]["function"]["strict"] = "yes"
    assert problems_of(document)[0] == "tools.list_events.function.strict: must be true or false"


def test_a_lobstack_suite_keeps_the_method_pages_subset() -> None:
    document = suite_document()
    document["name"] = "lobstack-calendar"
    found = problems_of(document)
    assert any(
        p.startswith("tools.create_event.function.parameters.properties.location: keyword 'anyOf'")
        for p in found
    ), found


@pytest.mark.parametrize(
    ("schema", "said"),
    [
        (
            {
                "type": "object",
                "allOf": [{"$ref": "#/$defs/a"}],
                "$defs": {"a": {"$ref": "#/$defs/b"}, "b": {"anyOf": [{"$ref": "#/$defs/a"}]}},
            },
            "refers back to itself without descending into the value",
        ),
        (
            {"type": "object", "properties": {"x": {"$ref": "#/properties/x"}}},
            "refers back to itself without descending into the value",
        ),
        (
            {"type": "object", "properties": {"x": {"$ref": "https://example.com/s.json"}}},
            "is not a local reference",
        ),
        ({"type": "object", "properties": {"x": {"$ref": "#/$defs/nope"}}}, "points to nothing"),
        ({"type": "object", "properties": {"x": {"type": "strnig"}}}, "is not valid under any"),
        ({"type": "object", "properties": {"x": {"pattern": "(a)\\1"}}}, "does not compile"),
    ],
)
def test_an_untrusted_schema_is_one_problem_line(schema: dict[str, Any], said: str) -> None:
    document = suite_document()
    document["tools"]["list_events"]["function"]["parameters"] = schema
    found = [p for p in problems_of(document) if p.startswith("tools.list_events")]
    assert len(found) == 1 and said in found[0], found


def test_an_exponential_schema_is_refused_not_expanded() -> None:
    # Each level refers twice to the one below: 2**40 schemas written out, from a small file.
    defs = {f"d{i}": {"allOf": [{"$ref": f"#/$defs/d{i + 1}"}] * 2} for i in range(40)}
    defs["d40"] = {"type": "string"}
    schema = {"type": "object", "properties": {"x": {"$ref": "#/$defs/d0"}}, "$defs": defs}
    document = suite_document()
    document["tools"]["list_events"]["function"]["parameters"] = schema
    found = [p for p in problems_of(document) if p.startswith("tools.list_events")]
    assert found == [
        "tools.list_events.function.parameters: with its $refs written out it has more than "
        "10000 schemas"
    ]


def test_a_recursive_type_is_allowed_and_a_long_ref_chain_is_no_traceback() -> None:
    tree = {
        "type": "object",
        "properties": {"children": {"type": "array", "items": {"$ref": "#"}}},
    }
    document = suite_document()
    del document["origin"]  # the origin's list_events needs a day
    document["tools"]["list_events"]["function"]["parameters"] = tree
    document["cases"][1]["steps"][0]["calls"][0]["reference"] = {"children": [{"children": []}]}
    document["cases"][1]["steps"][0]["calls"][0]["args"] = {}
    assert problems_of(document) == ()
    # A chain of $refs: 5,000 of them ran the validator out of Python's stack.
    chain = {f"d{i}": {"$ref": f"#/$defs/d{i + 1}"} for i in range(300)}
    chain["d300"] = {"type": "string"}
    document["tools"]["list_events"]["function"]["parameters"] = {
        "type": "object",
        "properties": {"x": {"$ref": "#/$defs/d0"}},
        "$defs": chain,
    }
    found = [p for p in problems_of(document) if p.startswith("tools.list_events")]
    assert found == [
        "tools.list_events.function.parameters: with its $refs written out it nests more than "
        "100 levels deep"
    ]


def test_the_formats_written_here() -> None:
    assert is_date_time("2026-10-21T10:00:00Z") and is_date_time("2026-10-21t10:00:00.5+02:00")
    assert not is_date_time("2026-10-21T10:00Z") and not is_date_time("2026-02-30T10:00:00Z")
    assert not is_date_time("2026-10-21 10:00:00Z")
    assert is_time("23:59:60Z") and not is_time("24:00:00Z") and not is_time("12:00")
    assert is_uri("https://example.com/a?b=1#c") and is_uri("urn:isbn:0451450523")
    assert not is_uri("example.com") and not is_uri("https://exa mple.com") and not is_uri("a:%zz")


def looser_suite() -> dict[str, Any]:
    """The fixture suite with a catalogue written in the subset (the old ``suite new``): the
    formats and the nested models of create_event dropped."""
    document = suite_document()
    parameters = document["tools"]["create_event"]["function"]["parameters"]
    loose = copy.deepcopy(parameters)
    del loose["$defs"]
    loose["properties"]["start"] = {"type": "string"}
    loose["properties"]["location"] = {}
    loose["properties"]["attendees"] = {"title": "Attendees"}
    document["tools"]["create_event"]["function"]["parameters"] = loose
    return document


def test_suite_check_validates_references_against_the_origin() -> None:
    document = looser_suite()
    call = document["cases"][0]["steps"][0]["calls"][0]
    call["reference"]["attendees"] = "example-attendees"
    call["args"].pop("attendees")
    assert problems_of(document) == (
        "case plan-review.steps[0].calls[0].reference: does not validate against create_event's "
        "schema in the origin: attendees: 'example-attendees' is not valid under any of the "
        "given schemas",
    )


def test_the_audit_names_what_only_a_looser_schema_lets_through(tmp_path: Path) -> None:
    document = looser_suite()
    call = document["cases"][0]["steps"][0]["calls"][0]
    call["args"]["location"] = {"present": True}  # looser than the origin's Location model
    path = tmp_path / "loose.json"
    path.write_text(json.dumps(document), encoding="utf-8")
    audit = audit_suite(parse_suite(path.read_bytes(), str(path)))
    found = [f.check for case in audit.cases for f in case.survivors]
    assert any(
        check.startswith(
            "the suite's schema is looser than the origin's, which refuses create_event: location:"
        )
        for check in found
    ), found
    assert main(["suite", "audit", str(path)]) == 1


def test_suite_new_writes_each_listed_schema_as_it_is(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A saved ``tools/list`` answer (``inputSchema``) as a tools file: every schema in the suite
    is the listed one, key for key, and no schema note says otherwise. (Whether every drafted
    value is decided is suite new's drafting, not checked here.)"""
    out = tmp_path / "suite.json"
    main(["suite", "new", str(out), "--tools", str(FIXTURE / "tools_list.json")])
    said = capsys.readouterr()
    document = json.loads(out.read_text(encoding="utf-8"))
    for tool in LISTED:
        parameters = document["tools"][tool["name"]]["function"]["parameters"]
        assert json.dumps(parameters) == json.dumps(tool["inputSchema"])  # order too
    assert document["origin"]["schema_notes"] == [] and "schema note" not in said.out


# scorer/schema/full.py by exact value (issue 43's mutation benchmark): every text and bound
# below is written by hand from the module's docstring and docs/FORMATS.md.
FULL = "scorer.schema.full"


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
    ],
)
def test_resolve_local_json_pointers(ref: str, found: Any) -> None:
    from scorer.schema.full import resolve_local

    root = {"a": {"b/c": {"d~e": 1}}, "l": [10, 20], "%": 5, "": 7}
    assert resolve_local(root, ref) == (root if found == "root" else found)


def test_full_validator_checks_formats_and_runs_patterns_by_re2() -> None:
    from scorer.schema.full import make_full_validator

    validator = make_full_validator(
        {
            "type": "object",
            "properties": {
                "d": {"format": "date"},
                "s": {"pattern": "^a"},
                "t": {"format": "time"},
                "u": {"format": "made-up"},
            },
        }
    )
    bad = {"d": "2026-02-30", "s": "ba", "t": "25:00:00Z", "u": "x"}
    assert sorted(e.message for e in validator.iter_errors(bad)) == [
        "'2026-02-30' is not a 'date'",
        "'25:00:00Z' is not a 'time'",
        "'ba' does not match '^a'",
    ]
    assert list(validator.iter_errors({"d": "2026-02-28", "s": 5, "t": "23:00:00Z"})) == []
    assert list(validator.iter_errors({"s": "ab"})) == []


def test_the_formats_written_here_on_their_edges() -> None:
    # A value that is not a string is not the format's to judge.
    assert is_date_time(5) and is_time(None) and is_uri(["x"])
    assert is_date_time("2024-02-29T10:00:00Z")  # a leap day: the year read as the year
    assert not is_date_time("2023-02-29T10:00:00Z")
    assert is_date_time("2026-12-31T23:59:60-05:30") and is_time("00:00:00.123+14:00")
    assert not is_date_time("2026-13-01T10:00:00Z") and not is_date_time("2026-10-21T10:00:00")


@pytest.mark.parametrize(
    ("fmt", "good", "bad"),
    [
        ("date", "2026-10-21", "x"),
        ("date-time", "2026-10-21T10:00:00Z", "x"),
        ("email", "a@b", "x"),
        ("idn-email", "a@b", "x"),
        ("ipv4", "1.2.3.4", "1.2.3"),
        ("ipv6", "::1", "x"),
        ("regex", "a+", "("),
        ("time", "10:00:00Z", "x"),
        ("uri", "urn:x", "x"),
        ("uuid", "12345678-1234-5678-1234-567812345678", "x"),
        # Not listed: an annotation, though jsonschema could check it (idna is installed).
        ("idn-hostname", "-a-" * 30, "-a-" * 30),
        ("hostname", "-", "-"),
    ],
)
def test_format_checker_checks_exactly_the_listed_formats(fmt: str, good: str, bad: str) -> None:
    from scorer.schema.formats import format_checker

    checker = format_checker()
    assert checker.conforms(good, fmt)
    assert checker.conforms(bad, fmt) is (fmt in ("idn-hostname", "hostname"))


SENT = "what the model sees differs from the origin"


@pytest.mark.parametrize(
    ("schema", "sent", "notes"),
    [
        (
            None,
            {"type": "object", "properties": {}},
            [f"w: {SENT}: no schema is listed; sent as an object with no properties"],
        ),
        (
            3,
            {"type": "object", "properties": {}},
            [f"w: {SENT}: not a schema object; sent as an object with no properties"],
        ),
        (
            {"properties": {}},
            {"type": "object", "properties": {}},
            [f'w: {SENT}: the root has no type; sent with "type": "object"'],
        ),
        ({"type": "object", "x": 1}, {"type": "object", "x": 1}, []),
        ({"type": "string"}, {"type": "string"}, []),
    ],
)
def test_sent_parameters_exact(schema: Any, sent: dict[str, Any], notes: list[str]) -> None:
    from scorer.schema.sent import sent_parameters

    assert sent_parameters(schema, "w") == (sent, notes)
