"""``suite new``'s suite document (scorer/suite/draft/new.py): the catalogue entries and their
schema notes, the system prompt, the cases in their order, the tools each case offers at a
gateway's limit, and the no-call requests; every expected value written by hand from
docs/commands/suite-new.md."""

from __future__ import annotations

import difflib
from typing import Any

import pytest

from scorer.suite.draft.new import (
    ListedTool,
    TakenResult,
    _with,
    catalogue_entry,
    catalogue_problems,
    draft_suite,
    offered_near,
)

pytestmark = pytest.mark.timeout(10)

OBJECT = {"type": "object", "properties": {}}
DIFFERS = "what the model sees differs from the origin"


def test_catalogue_entry() -> None:
    schema = {"type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"]}
    assert catalogue_entry(ListedTool("get_weather", "Get the weather.", schema)) == (
        {
            "type": "function",
            "function": {
                "name": "get_weather",
                "description": "Get the weather.",
                "parameters": schema,
            },
        },
        [],
    )
    # No description: the name; strict kept when the tools file says it, false too.
    assert catalogue_entry(ListedTool("t", "", OBJECT, strict=False)) == (
        {
            "type": "function",
            "function": {"name": "t", "description": "t", "parameters": OBJECT, "strict": False},
        },
        [],
    )
    assert catalogue_entry(ListedTool("t", "d", None)) == (
        {"type": "function", "function": {"name": "t", "description": "d", "parameters": OBJECT}},
        [f"t.parameters: {DIFFERS}: no schema is listed; sent as an object with no properties"],
    )


def test_catalogue_problems() -> None:
    bad_type = {"type": "object", "properties": {"a": {"type": "strin"}}}
    catalogue = {
        "bad": {
            "type": "function",
            "function": {"name": "bad", "description": "d", "parameters": bad_type},
        },
        "odd": {"type": "function"},
        "fine": {
            "type": "function",
            "function": {"name": "fine", "description": "d", "parameters": OBJECT},
        },
    }
    assert catalogue_problems(catalogue) == [
        "tool 'bad': parameters.properties.a.type: 'strin' is not valid under any of the given "
        "schemas",
        'tool \'odd\': schema: must be {"type": "function", "function": {...}}',
    ]
    assert catalogue_problems({}) == [
        "tool 'tools': schema: missing or not a non-empty object of tool name -> tool"
    ]


def test_offered_near() -> None:
    names = [f"t{i:03}" for i in range(200)]
    assert offered_near(names[:128], 127) == names[:128]
    assert offered_near(names, 0) == names[:128]
    assert offered_near(names, 64) == names[:128]
    assert offered_near(names, 65) == names[1:129]
    assert offered_near(names, 100) == names[36:164]
    assert offered_near(names, 136) == names[72:200]
    assert offered_near(names, 199) == names[72:200]
    assert offered_near(names[:129], 128) == names[1:129]


def test_with() -> None:
    names = [f"t{i:03}" for i in range(128)]
    assert _with(names[:3], "t001", "t000") == names[:3]
    assert _with(names[:3], "x", "t000") == [*names[:3], "x"]
    assert _with(names[:127], "x", "t000") == [*names[:127], "x"]
    # At the limit: the last other tool makes room.
    assert _with(names, "x", "t000") == [*names[:127], "x"]
    assert _with(names, "x", "t127") == [*names[:126], "t127", "x"]


NOTE_ID = {"type": "string", "pattern": "^n_[0-9]{3}$"}
TOOLS = [
    ListedTool(
        "create_note",
        "Create a note.",
        {"type": "object", "required": ["title"], "properties": {"title": {"type": "string"}}},
    ),
    ListedTool(
        "get_note",
        "Read a note.",
        {
            "type": "object",
            "required": ["note_id"],
            "properties": {"note_id": NOTE_ID, "verbose": {"type": "boolean"}},
        },
    ),
    ListedTool("list_notes", "List the notes.", {"type": "object", "properties": {}}),
    ListedTool(
        "get_weather",
        "Weather.",
        {"type": "object", "required": ["city"], "properties": {"city": {"type": "string"}}},
    ),
]


def _ratio(one: str, other: str) -> float:
    return difflib.SequenceMatcher(None, one, other).ratio()


# Function scope: under mutmut only the test that first runs a module-scoped fixture is mapped to
# the functions it calls, so the others would never see a mutant of draft_suite.
@pytest.fixture
def suite() -> dict[str, Any]:
    taken = [TakenResult("get_weather", {"city": "Lisbon"}, "Sunny")]
    origin = {"kind": "mcp", "server": {"name": "Notes"}}
    return draft_suite(TOOLS, "notes", "2026-12-05", origin, taken)


def test_the_suite_document(suite: dict[str, Any]) -> None:
    assert {k: v for k, v in suite.items() if k not in ("tools", "cases")} == {
        "name": "notes",
        "version": "0.1.0",
        "released": "2026-12-05",
        "system_prompt": "You are an assistant that acts through the tools of Notes. Answer in "
        "text when no tool is needed, and make independent calls in the same response.",
        "origin": {"kind": "mcp", "server": {"name": "Notes"}, "schema_notes": []},
    }
    assert list(suite["tools"]) == ["create_note", "get_note", "list_notes", "get_weather"]
    assert suite["tools"]["get_note"]["function"]["parameters"] == TOOLS[1].input_schema


def test_the_cases_in_order(suite: dict[str, Any]) -> None:
    # Near misses: each tool's closest by name among those sharing "note" (difflib's ratio).
    assert _ratio("create_note", "get_note") > _ratio("create_note", "list_notes")
    assert _ratio("get_note", "create_note") > _ratio("get_note", "list_notes")
    assert _ratio("list_notes", "get_note") > _ratio("list_notes", "create_note")
    assert [(c["id"], c["group"]) for c in suite["cases"]] == [
        ("select-create_note", "selection"),
        ("select-get_note", "selection"),
        ("args-get_note", "arguments"),  # an optional argument
        ("select-list_notes", "selection"),
        ("select-get_weather", "selection"),
        ("near-create_note", "near_misses"),
        ("near-get_note", "near_misses"),
        ("near-list_notes", "near_misses"),
        ("parallel-get_note-list_notes", "parallel"),  # the first two that read
        ("chain-create_note-get_note", "chains"),  # a maker's id feeds note_id
        ("chain-get_weather", "chains"),  # the result taken from the server
        ("no-call-small-talk", "no_call"),
        ("no-call-cannot", "no_call"),
        ("no-call-hold", "no_call"),
        ("no-call-general", "no_call"),
    ]
    names = ["create_note", "get_note", "list_notes", "get_weather"]
    assert all(case["tools"] == names for case in suite["cases"])
    by_id = {case["id"]: case for case in suite["cases"]}
    assert by_id["near-create_note"]["draft"].startswith("near miss: get_note looks alike;")
    assert by_id["near-get_note"]["draft"].startswith("near miss: create_note looks alike;")
    assert by_id["near-list_notes"]["draft"].startswith("near miss: get_note looks alike;")
    args = by_id["args-get_note"]["steps"][0]["calls"][0]["reference"]
    assert list(args) == ["note_id", "verbose"] and args["verbose"] is True
    assert list(by_id["select-get_note"]["steps"][0]["calls"][0]["reference"]) == ["note_id"]
    chain = by_id["chain-create_note-get_note"]["steps"]
    assert chain[0]["calls"][0]["name"] == "create_note"
    assert chain[1]["calls"][0]["name"] == "get_note"
    taken = by_id["chain-get_weather"]["steps"][0]["calls"][0]
    assert (taken["reference"], taken["result"]) == ({"city": "Lisbon"}, "Sunny")


def test_no_call_cases(suite: dict[str, Any]) -> None:
    texts = {c["id"]: (c["messages"][0]["content"], c["draft"]) for c in suite["cases"]}
    assert texts["no-call-small-talk"] == (
        "Hi! Thanks for the help earlier, how is your day going?",
        "small talk: keep it, or write what your users say that needs no tool",
    )
    assert texts["no-call-cannot"] == (
        "Please book me a table for two at an Italian restaurant tonight at 8 pm.",
        "make sure none of your tools can do this request; else write one they cannot do",
    )
    # The domain's thing is "note"; the first tool that acts is create_note.
    assert texts["no-call-hold"] == (
        "I may need your help with a note later today. Don't create anything new yet; just tell "
        "me what you would need from me.",
        "near the tools' domain, but asks not to act yet: keep a request like it",
    )
    assert texts["no-call-general"] == (
        "In general terms, what makes a good note? No need to look anything up.",
        "near the tools' domain, answered from general knowledge: rewrite it in your users' words",
    )


def _no_call(tools: list[ListedTool]) -> dict[str, str]:
    cases = draft_suite(tools, "x", "2026-12-05", {"kind": "tools_file"})["cases"]
    return {c["id"]: c["messages"][0]["content"] for c in cases if c["group"] == "no_call"}


def test_no_call_cases_of_tools_that_only_read() -> None:
    texts = _no_call([ListedTool("get_event", "", OBJECT), ListedTool("list_events", "", OBJECT)])
    assert texts["no-call-hold"] == (
        "I may need your help with an event later today. Don't look anything up yet; just tell "
        "me what you would need from me."
    )
    texts = _no_call(
        [
            ListedTool("get_event", "", OBJECT),
            ListedTool("delete_event", "", OBJECT),
            ListedTool("list_events", "", OBJECT),
            ListedTool("get_weather", "", OBJECT),
        ]
    )
    assert texts["no-call-hold"].startswith(
        "I may need your help with an event later today. Don't delete or cancel anything yet;"
    )


def test_system_prompt_names_only_a_server() -> None:
    def prompt(origin: dict[str, Any]) -> str:
        return draft_suite(TOOLS[:1], "x", "2026-12-05", origin)["system_prompt"]

    plain = (
        "You are an assistant that acts through the tools you are offered. Answer in text when "
        "no tool is needed, and make independent calls in the same response."
    )
    assert prompt({"kind": "tools_file", "path": "tools.json"}) == plain
    assert prompt({"kind": "mcp", "server": "Notes"}) == plain
    assert prompt({"kind": "mcp", "server": {}}) == plain
    assert prompt({"kind": "mcp", "server": {"name": ""}}) == plain


def test_schema_notes_of_every_tool_in_order() -> None:
    tools = [
        ListedTool("a", "", None),
        ListedTool("b", "", {"properties": {}}),
        ListedTool("c", "", OBJECT),
    ]
    suite = draft_suite(tools, "x", "2026-12-05", {"kind": "tools_file", "schema_notes": ["old"]})
    assert suite["origin"] == {
        "kind": "tools_file",
        "schema_notes": [
            f"a.parameters: {DIFFERS}: no schema is listed; sent as an object with no properties",
            f'b.parameters: {DIFFERS}: the root has no type; sent with "type": "object"',
        ],
    }


def test_no_arguments_case_when_the_only_others_are_undecided() -> None:
    code = {"type": "string", "pattern": "^a\\Bb$"}  # no value can be made
    tools = [
        ListedTool(
            "get_code", "", {"type": "object", "required": ["code"], "properties": {"code": code}}
        ),
        ListedTool(
            "get_mode",
            "",
            {
                "type": "object",
                "required": ["code"],
                "properties": {"code": code, "mode": {"type": "string"}},
            },
        ),
    ]
    cases = draft_suite(tools, "x", "2026-12-05", {"kind": "tools_file"})["cases"]
    assert [c["id"] for c in cases if c["group"] in ("selection", "arguments", "parallel")] == [
        "select-get_code",
        "select-get_mode",
        "args-get_mode",
    ]  # no parallel pair: neither reference is whole


def test_cases_at_a_gateways_limit() -> None:
    # 130 tools: each case offers the 128 nearest its tool, with the other tool it names added.
    filler = [ListedTool(f"zz{i:03}", "", OBJECT) for i in range(127)]
    tools = [
        ListedTool(
            "get_event",
            "",
            {
                "type": "object",
                "required": ["event_id"],
                "properties": {"event_id": {"type": "string"}},
            },
        ),
        ListedTool("list_events", "", OBJECT),
        *filler,
        ListedTool("create_event", "", OBJECT),
    ]
    names = [tool.name for tool in tools]
    cases = {c["id"]: c for c in draft_suite(tools, "x", "2026-12-05", {"kind": "x"})["cases"]}
    assert cases["select-get_event"]["tools"] == names[:128]
    assert cases["select-create_event"]["tools"] == names[2:130]
    assert cases["no-call-cannot"]["tools"] == names[:128]
    # create_event's near miss, get_event, is not among its 128: the last other tool makes room.
    assert _ratio("create_event", "get_event") > _ratio("create_event", "list_events")
    assert cases["near-create_event"]["tools"] == [*names[2:128], "create_event", "get_event"]
    assert _ratio("get_event", "create_event") > _ratio("get_event", "list_events")
    assert cases["near-get_event"]["tools"] == [*names[:127], "create_event"]
    assert cases["near-list_events"]["tools"] == names[:128]
    assert cases["parallel-get_event-list_events"]["tools"] == names[:128]
    # get_event's id comes from create_event, which is listed last.
    assert cases["chain-create_event-get_event"]["tools"] == [*names[:127], "create_event"]
