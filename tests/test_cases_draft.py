"""The cases ``suite new`` drafts (scorer/suite/draft/cases.py), each written out whole by hand
from docs/commands/suite-new.md#drafts-worth-keeping: ids, groups, draft notes, requests, and the
steps with their ``eq`` checks and scripted results."""

from __future__ import annotations

from typing import Any

import pytest

from scorer.suite.draft.cases import (
    call_case,
    case_id,
    chain_case,
    near_miss_case,
    no_call_case,
    parallel_case,
    required_reference,
    taken_chain_case,
)
from scorer.suite.draft.listed import ListedTool, TakenResult
from scorer.suite.draft.reference import Drafted

pytestmark = pytest.mark.timeout(10)

REWRITE = (
    "rewrite the request in your users' words; keep each value it gives or change it in the "
    "reference and its check too"
)
WEATHER = ListedTool("get_weather", "Get the weather.", {})
CITY = Drafted({"city": "Lisbon"}, ())


def _user(text: str) -> list[dict[str, str]]:
    return [{"role": "user", "content": text}]


@pytest.mark.parametrize(
    ("prefix", "tool", "expected"),
    [
        ("select", "git_status", "select-git_status"),
        ("select", "a.b-c_D9", "select-a.b-c_D9"),
        ("select", "git status/x", "select-git_status_x"),
        ("near", "a  /b", "near-a_b"),
        ("near", "évt", "near-_vt"),
        ("p", "x" * 200, "p-" + "x" * 98),
    ],
)
def test_case_id(prefix: str, tool: str, expected: str) -> None:
    assert case_id(prefix, tool) == expected


def test_call_case() -> None:
    assert call_case("selection", WEATHER, ["get_weather", "list_events"], CITY) == {
        "id": "select-get_weather",
        "group": "selection",
        "draft": REWRITE,
        "tools": ["get_weather", "list_events"],
        "messages": _user('Can you pull up the weather with city "Lisbon"?'),
        "steps": [
            {
                "expect": "call",
                "calls": [
                    {
                        "name": "get_weather",
                        "args": {"city": {"eq": "Lisbon"}},
                        "reference": {"city": "Lisbon"},
                    }
                ],
            }
        ],
    }


def test_call_case_ids_by_group_and_undecided_values() -> None:
    drafted = Drafted({"city": "Lisbon", "days": 5}, ("units (why)", "lang (because)"))
    case = call_case("arguments", WEATHER, ["get_weather"], drafted)
    assert case["id"] == "args-get_weather"
    assert case["group"] == "arguments"
    assert case["draft"] == REWRITE + "; decide a value for units (why), lang (because)"
    assert case["steps"][0]["calls"][0]["args"] == {"city": {"eq": "Lisbon"}, "days": {"eq": 5}}
    assert call_case("custom", WEATHER, [], CITY)["id"] == "custom-get_weather"


GET = ListedTool("get_event", "Read an event.", {})
EVENT = Drafted({"event_id": "e1"}, ())


@pytest.mark.parametrize(
    ("other", "added"),
    [
        ("delete_event", " Don't delete or cancel anything."),
        ("event_log", " Not the event log."),  # no verb: its thing
        ("get_events", " Not the events."),  # same verb, another thing
        ("fetch_event", ""),  # same verb, same thing: nothing to add
        ("event", ""),  # no verb, same thing
    ],
)
def test_near_miss_case(other: str, added: str) -> None:
    assert near_miss_case(GET, other, ["get_event", other], EVENT) == {
        "id": "near-get_event",
        "group": "near_misses",
        "draft": f"near miss: {other} looks alike; make sure the request can only mean "
        "get_event, then " + REWRITE,
        "tools": ["get_event", other],
        "messages": _user('Can you pull up the event with event id "e1"?' + added),
        "steps": [
            {
                "expect": "call",
                "calls": [
                    {
                        "name": "get_event",
                        "args": {"event_id": {"eq": "e1"}},
                        "reference": {"event_id": "e1"},
                    }
                ],
            }
        ],
    }


def test_near_miss_case_names_undecided_values() -> None:
    case = near_miss_case(GET, "delete_event", [], Drafted({}, ("event_id (why)",)))
    assert case["draft"].endswith(REWRITE + "; decide a value for event_id (why)")
    assert case["messages"] == _user("Can you pull up the event? Don't delete or cancel anything.")


def test_parallel_case() -> None:
    listing = ListedTool("list_events", "", {})
    pair = ((WEATHER, Drafted({"city": "Lisbon"}, ("x (why)",))), (listing, Drafted({}, ("y",))))
    assert parallel_case(pair, ["get_weather", "list_events"]) == {
        "id": "parallel-get_weather-list_events",
        "group": "parallel",
        "draft": "parallel: both calls are independent and expected in one response; "
        + REWRITE
        + "; decide a value for x (why)",
        "tools": ["get_weather", "list_events"],
        "messages": _user(
            'Two things at once, please. Can you pull up the weather with city "Lisbon"? '
            "And: What events are there?"
        ),
        "steps": [
            {
                "expect": "call",
                "calls": [
                    {
                        "name": "get_weather",
                        "args": {"city": {"eq": "Lisbon"}},
                        "reference": {"city": "Lisbon"},
                    },
                    {"name": "list_events", "args": {}, "reference": {}},
                ],
            }
        ],
    }


CREATE = ListedTool("create_event", "", {})
INVITE = ListedTool("invite_guest", "", {})
MADE = Drafted({"title": "Q", "start": "2026-03-14T09:30:00Z"}, ())
NEEDS = Drafted({"event_id": "evt_1", "email": "ana@example.com"}, ())


def test_chain_case() -> None:
    result = '{"id": "evt_1", "title": "Q", "start": "2026-03-14T09:30:00Z"}'
    assert chain_case((CREATE, MADE), (INVITE, NEEDS), "event_id", ["a", "b"]) == {
        "id": "chain-create_event-invite_guest",
        "group": "chains",
        "draft": "chain: invite_guest's event_id comes from create_event's result (scripted "
        "here, shaped as the draft guessed: paste a real answer of your server); " + REWRITE,
        "tools": ["a", "b"],
        "messages": _user(
            'Please set up a new event with title "Q" and start "2026-03-14T09:30:00Z". Then: '
            'Please send the guest out with email "ana@example.com", using the id from that '
            "result."
        ),
        "steps": [
            {
                "expect": "call",
                "calls": [
                    {
                        "name": "create_event",
                        "args": {"title": {"eq": "Q"}, "start": {"eq": "2026-03-14T09:30:00Z"}},
                        "reference": {"title": "Q", "start": "2026-03-14T09:30:00Z"},
                        "result": result,
                    }
                ],
            },
            {
                "expect": "call",
                "calls": [
                    {
                        "name": "invite_guest",
                        "args": {"event_id": {"eq": "evt_1"}, "email": {"eq": "ana@example.com"}},
                        "reference": {"event_id": "evt_1", "email": "ana@example.com"},
                        "result": '{"ok": true}',
                    }
                ],
            },
            {"expect": "none"},
        ],
    }


def _result(first: ListedTool, made: Drafted, handed: Any = "évt_1") -> str:
    case = chain_case((first, made), (INVITE, Drafted({"event_id": handed}, ())), "event_id", [])
    assert case is not None
    return case["steps"][0]["calls"][0]["result"]


def test_chain_case_scripted_result() -> None:
    # Strings and numbers of the first reference are shown beside the id (booleans are numbers
    # to Python); lists, objects and null are not; the text keeps non-ASCII.
    made = Drafted({"q": "x", "tags": ["a"], "n": None, "limit": 5, "r": 0.5, "on": True}, ())
    assert _result(CREATE, made) == '{"id": "évt_1", "q": "x", "limit": 5, "r": 0.5, "on": true}'
    # A lister, a search or a finder gives a list; so does a first call with no arguments.
    for name in ("list_events", "search_events", "find_events"):
        assert _result(ListedTool(name, "", {}), Drafted({"q": "x"}, ())) == (
            '[{"id": "évt_1", "q": "x"}]'
        )
    assert _result(CREATE, Drafted({}, ())) == '[{"id": "évt_1"}]'
    assert _result(ListedTool("listing_x", "", {}), Drafted({"q": "x"}, ())) == (
        '{"id": "évt_1", "q": "x"}'
    )
    assert _result(CREATE, Drafted({"id": "other"}, ()), 7) == '{"id": "other"}'


def test_chain_case_needs_both_references_whole() -> None:
    assert chain_case((CREATE, Drafted({}, ("t (why)",))), (INVITE, NEEDS), "event_id", []) is None
    assert (
        chain_case((CREATE, MADE), (INVITE, Drafted(NEEDS.reference, ("x",))), "event_id", [])
        is None
    )
    assert chain_case((CREATE, MADE), (INVITE, NEEDS), "guest_id", []) is None


def test_taken_chain_case() -> None:
    taken = TakenResult("get_weather", {"city": "Lisbon"}, "Sunny, 21 C")
    assert taken_chain_case(WEATHER, ["get_weather"], taken) == {
        "id": "chain-get_weather",
        "group": "chains",
        "draft": "the result was taken from the server once, when this suite was built (no "
        "later command calls it); " + REWRITE,
        "tools": ["get_weather"],
        "messages": _user(
            'Can you pull up the weather with city "Lisbon"? Then tell me what it says.'
        ),
        "steps": [
            {
                "expect": "call",
                "calls": [
                    {
                        "name": "get_weather",
                        "args": {"city": {"eq": "Lisbon"}},
                        "reference": {"city": "Lisbon"},
                        "result": "Sunny, 21 C",
                    }
                ],
            },
            {"expect": "none"},
        ],
    }
    # An empty result is still a result.
    empty = taken_chain_case(WEATHER, [], TakenResult("get_weather", {}, ""))
    assert empty["steps"][0]["calls"][0]["result"] == ""


def test_no_call_case() -> None:
    assert no_call_case("no-call-x", "Hi there", ["a", "b"], "keep it") == {
        "id": "no-call-x",
        "group": "no_call",
        "draft": "keep it",
        "tools": ["a", "b"],
        "messages": _user("Hi there"),
        "steps": [{"expect": "none"}],
    }


def test_required_reference() -> None:
    schema = {
        "type": "object",
        "properties": {"city": {"type": "string"}, "days": {"type": "integer"}},
        "required": ["city"],
    }
    assert required_reference(ListedTool("get_weather", "", schema)) == {"city": "Lisbon"}
