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
from scorer.suite.origin import origin_problems, origin_validators
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


@pytest.mark.parametrize(
    ("origin", "problems"),
    [
        ([], ["origin: must be an object"]),
        ({"kind": "mcp", "server": {"name": "s", "version": "1"}, "tools": []}, []),
        ({"kind": "tools_file", "tools": [{}], "schema_notes": ["a"]}, []),
        (
            {"kind": "file", "tools": []},
            ["origin.kind: 'file' is not one of mcp, tools_file"],
        ),
        (
            {"kind": "mcp", "tools": []},
            ["origin.server: must be an object with the server's name and version"],
        ),
        (
            {"kind": "tools_file", "server": "s", "tools": []},
            ["origin.server: must be an object with the server's name and version"],
        ),
        (
            {"kind": "mcp", "server": {"name": "", "version": 1}, "tools": []},
            [
                "origin.server.name: missing or not a non-empty string",
                "origin.server.version: missing or not a non-empty string",
            ],
        ),
        (
            {"kind": "mcp", "server": {"version": "1"}, "tools": []},
            ["origin.server.name: missing or not a non-empty string"],
        ),
        (
            {"kind": "tools_file", "tools": [{}, "t"], "schema_notes": "a"},
            [
                "origin.tools: must be the list of tools as listed (objects)",
                "origin.schema_notes: must be a list of strings",
            ],
        ),
        (
            {"kind": "tools_file", "schema_notes": ["a", 1]},
            [
                "origin.tools: must be the list of tools as listed (objects)",
                "origin.schema_notes: must be a list of strings",
            ],
        ),
    ],
)
def test_each_origin_problem_is_worded_exactly(origin: Any, problems: list[str]) -> None:
    assert origin_problems(origin) == problems


def test_origin_validators_by_tool_name_and_their_schema_problems() -> None:
    good = {"type": "object", "properties": {"n": {"type": "integer"}}}
    origin = {
        "kind": "tools_file",
        "tools": [
            "not a tool",
            {"type": "function", "function": {"name": "a", "parameters": good}},
            {"name": "b", "inputSchema": good, "parameters": {"type": 3}},
            {"name": "c", "inputSchema": {"type": 3}},
            {"type": "function", "function": {"name": "d", "parameters": {"type": 3}}},
            {"name": 5, "inputSchema": good},
            {"name": "e", "inputSchema": "good"},
            {"name": "f", "parameters": good},
        ],
    }
    validators, problems = origin_validators(origin)
    assert sorted(validators) == ["a", "b", "f"]
    assert validators["a"].is_valid({"n": 1}) and not validators["a"].is_valid({"n": "1"})
    assert not validators["b"].is_valid({"n": 1.5})
    assert problems == [
        "origin.tools[3].inputSchema.type: 3 is not valid under any of the given schemas",
        "origin.tools[4].function.parameters.type: 3 is not valid under any of the given schemas",
    ]
    assert origin_validators({"tools": "x"}) == ({}, [])
    assert origin_validators([]) == ({}, [])


def test_a_good_origin_has_no_problem_and_its_tools_are_objects() -> None:
    assert origin_problems({"kind": "tools_file", "tools": []}) == []
    assert origin_problems({"kind": "tools_file", "tools": [1]}) == [
        "origin.tools: must be the list of tools as listed (objects)"
    ]


def test_origin_validators_of_no_list_and_of_a_name_that_is_no_string() -> None:
    assert origin_validators({"tools": "x"}) == ({}, [])
    assert origin_validators({"tools": [{"name": 5, "inputSchema": {"type": "object"}}]}) == (
        {},
        [],
    )
