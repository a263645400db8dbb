"""``suite new``'s document written out whole (scorer/suite/draft/new.py): every case of a small
catalogue, field by field, so a case left out, added as nothing or built from the wrong tool's
reference fails an assertion; the tools a case offers above a gateway's limit; the catalogue
problems of whole schemas. Every expected value written by hand from docs/commands/suite-new.md
(decision 123, drafts worth keeping) and the request templates it quotes."""

from __future__ import annotations

from typing import Any

import pytest

from scorer.suite.draft.new import ListedTool, TakenResult, catalogue_problems, draft_suite
from tests.test_new_draft import TOOLS

pytestmark = pytest.mark.timeout(10)

NAMES = ["create_note", "get_note", "list_notes", "get_weather"]
REWRITE = (
    "rewrite the request in your users' words; keep each value it gives or change it in the "
    "reference and its check too"
)
TITLE = "Quarterly planning review"
OBJECT = {"type": "object", "properties": {}}


def _call(name: str, reference: dict[str, Any], result: str | None = None) -> dict[str, Any]:
    """A reference call, each value checked ``eq`` (decision 123)."""
    call = {"name": name, "args": {k: {"eq": v} for k, v in reference.items()}}
    call["reference"] = reference
    return call if result is None else {**call, "result": result}


def _case(cid: str, group: str, draft: str, text: str, *steps: dict[str, Any]) -> dict[str, Any]:
    return {
        "id": cid,
        "group": group,
        "draft": draft,
        "tools": NAMES,
        "messages": [{"role": "user", "content": text}],
        "steps": list(steps),
    }


def _calls(*calls: dict[str, Any]) -> dict[str, Any]:
    return {"expect": "call", "calls": list(calls)}


NONE = {"expect": "none"}
CREATE = _call("create_note", {"title": TITLE})
GET = _call("get_note", {"note_id": "n_111"})
LIST = _call("list_notes", {})
SAY_CREATE = f'Please set up a new note with title "{TITLE}".'
SAY_GET = 'Can you pull up the note with note id "n_111"?'


def _near(other: str, own: str) -> str:
    return (
        f"near miss: {other} looks alike; make sure the request can only mean {own}, then {REWRITE}"
    )


CASES = [
    _case("select-create_note", "selection", REWRITE, SAY_CREATE, _calls(CREATE)),
    _case("select-get_note", "selection", REWRITE, SAY_GET, _calls(GET)),
    _case(
        "args-get_note",
        "arguments",
        REWRITE,
        'Can you pull up the note with note id "n_111" and verbose set to true?',
        _calls(_call("get_note", {"note_id": "n_111", "verbose": True})),
    ),
    _case("select-list_notes", "selection", REWRITE, "What notes are there?", _calls(LIST)),
    _case(
        "select-get_weather",
        "selection",
        REWRITE,
        'Can you pull up the weather with city "Lisbon"?',
        _calls(_call("get_weather", {"city": "Lisbon"})),
    ),
    _case(
        "near-create_note",
        "near_misses",
        _near("get_note", "create_note"),
        f"{SAY_CREATE} Don't look anything up.",
        _calls(CREATE),
    ),
    _case(
        "near-get_note",
        "near_misses",
        _near("create_note", "get_note"),
        f"{SAY_GET} Don't create anything new.",
        _calls(GET),
    ),
    _case(
        "near-list_notes",
        "near_misses",
        _near("get_note", "list_notes"),
        "What notes are there? Don't look anything up.",
        _calls(LIST),
    ),
    _case(
        "parallel-get_note-list_notes",
        "parallel",
        f"parallel: both calls are independent and expected in one response; {REWRITE}",
        f"Two things at once, please. {SAY_GET} And: What notes are there?",
        _calls(GET, LIST),
    ),
    _case(
        "chain-create_note-get_note",
        "chains",
        "chain: get_note's note_id comes from create_note's result (scripted here, shaped as the "
        f"draft guessed: paste a real answer of your server); {REWRITE}",
        f"{SAY_CREATE} Then: Can you pull up the note, using the id from that result?",
        _calls(_call("create_note", {"title": TITLE}, f'{{"id": "n_111", "title": "{TITLE}"}}')),
        _calls(_call("get_note", {"note_id": "n_111"}, '{"ok": true}')),
        NONE,
    ),
    _case(
        "chain-get_weather",
        "chains",
        "the result was taken from the server once, when this suite was built (no later command "
        f"calls it); {REWRITE}",
        'Can you pull up the weather with city "Lisbon"? Then tell me what it says.',
        _calls(_call("get_weather", {"city": "Lisbon"}, "Sunny")),
        NONE,
    ),
    _case(
        "no-call-small-talk",
        "no_call",
        "small talk: keep it, or write what your users say that needs no tool",
        "Hi! Thanks for the help earlier, how is your day going?",
        NONE,
    ),
    _case(
        "no-call-cannot",
        "no_call",
        "make sure none of your tools can do this request; else write one they cannot do",
        "Please book me a table for two at an Italian restaurant tonight at 8 pm.",
        NONE,
    ),
    _case(
        "no-call-hold",
        "no_call",
        "near the tools' domain, but asks not to act yet: keep a request like it",
        "I may need your help with a note later today. Don't create anything new yet; just tell "
        "me what you would need from me.",
        NONE,
    ),
    _case(
        "no-call-general",
        "no_call",
        "near the tools' domain, answered from general knowledge: rewrite it in your users' words",
        "In general terms, what makes a good note? No need to look anything up.",
        NONE,
    ),
]


def _entry(name: str, description: str, parameters: dict[str, Any]) -> dict[str, Any]:
    function = {"name": name, "description": description, "parameters": parameters}
    return {"type": "function", "function": function}


def test_the_whole_document() -> None:
    taken = [TakenResult("get_weather", {"city": "Lisbon"}, "Sunny")]
    origin = {"kind": "mcp", "server": {"name": "Notes"}}
    note_id = {"type": "string", "pattern": "^n_[0-9]{3}$"}
    city = {"type": "object", "required": ["city"], "properties": {"city": {"type": "string"}}}
    assert draft_suite(TOOLS, "notes", "2026-12-05", origin, taken) == {
        "name": "notes",
        "version": "0.1.0",
        "released": "2026-12-05",
        "system_prompt": "You are an assistant that acts through the tools of Notes. Answer in "
        "text when no tool is needed, and make independent calls in the same response.",
        "tools": {
            "create_note": _entry(
                "create_note",
                "Create a note.",
                {
                    "type": "object",
                    "required": ["title"],
                    "properties": {"title": {"type": "string"}},
                },
            ),
            "get_note": _entry(
                "get_note",
                "Read a note.",
                {
                    "type": "object",
                    "required": ["note_id"],
                    "properties": {"note_id": note_id, "verbose": {"type": "boolean"}},
                },
            ),
            "list_notes": _entry("list_notes", "List the notes.", OBJECT),
            "get_weather": _entry("get_weather", "Weather.", city),
        },
        "cases": CASES,
        "origin": {"kind": "mcp", "server": {"name": "Notes"}, "schema_notes": []},
    }


def test_a_finder_is_not_the_tool_to_hold_back() -> None:
    # "search" is of the find family, which reads: the tool not to use yet is the one that acts.
    tools = [ListedTool("search_notes", "", OBJECT), ListedTool("delete_note", "", OBJECT)]
    cases = draft_suite(tools, "x", "2026-12-05", {"kind": "tools_file"})["cases"]
    assert [c["messages"][0]["content"] for c in cases if c["id"] == "no-call-hold"] == [
        "I may need your help with a note later today. Don't delete or cancel anything yet; just "
        "tell me what you would need from me."
    ]


def test_the_parallel_pair_and_a_chain_far_apart_at_a_gateways_limit() -> None:
    # 130 tools; the fillers send (no reader, no maker, no shared word). The parallel pair is the
    # first two readers, list_events (2nd) and get_event (last): the case offers list_events'
    # 128 with get_event in place of the last other one. The chain create_event -> get_event
    # offers get_event's 128 (the last 128) with create_event in place of the last other one;
    # the result taken from the server for get_event offers its 128 alone.
    filler = [ListedTool(f"send_zz{i:03}", "", OBJECT) for i in range(127)]
    event_id = {"event_id": {"type": "string"}}
    tools = [
        ListedTool("create_event", "", OBJECT),
        ListedTool("list_events", "", OBJECT),
        *filler,
        ListedTool(
            "get_event", "", {"type": "object", "required": ["event_id"], "properties": event_id}
        ),
    ]
    names = [tool.name for tool in tools]
    taken = [TakenResult("get_event", {"event_id": "e1"}, "{}")]
    drafted = draft_suite(tools, "x", "2026-12-05", {"kind": "x"}, taken)
    cases = {c["id"]: c for c in drafted["cases"]}
    assert cases["parallel-list_events-get_event"]["tools"] == [*names[:127], "get_event"]
    assert cases["chain-get_event"]["tools"] == names[2:]  # the taken result: its tool's 128
    assert cases["chain-create_event-get_event"]["tools"] == [
        *names[2:128],
        "get_event",
        "create_event",
    ]


def test_catalogue_problems_read_whole_schemas() -> None:
    # anyOf and format are outside the method page's subset, valid in Draft 2020-12: no problem.
    parameters = {
        "type": "object",
        "properties": {
            "when": {"anyOf": [{"type": "string", "format": "date"}, {"type": "null"}]},
        },
    }
    assert catalogue_problems({"t": _entry("t", "d", parameters)}) == []
