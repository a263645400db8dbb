"""A drafted case's request (scorer/suite/draft/user_requests.py): a tool's name read as a verb and
a thing, the request's template per verb family, the values said in words; each expected text
written out by hand from the templates."""

from __future__ import annotations

from typing import Any

import pytest

from scorer.suite.draft.user_requests import ask, do_not, verb_and_thing

pytestmark = pytest.mark.timeout(10)


@pytest.mark.parametrize(
    ("tool", "expected"),
    [
        ("create_event", ("make", "event")),
        ("list_events", ("list", "events")),
        ("searchNotes", ("find", "notes")),
        ("git_log", ("", "git log")),
        ("github_get_issue", ("read", "issue")),  # a namespace, then the verb
        ("gh_x_get", ("", "gh x get")),  # the second word is no verb
        ("my_get", ("", "my get")),  # two words: no namespace
        ("get", ("read", "")),
        ("open_ticket", ("make", "ticket")),
        ("", ("", "")),
        ("__", ("", "")),
    ],
)
def test_verb_and_thing(tool: str, expected: tuple[str, str]) -> None:
    assert verb_and_thing(tool) == expected


@pytest.mark.parametrize(
    ("tool", "reference", "expected"),
    [
        (
            "create_event",
            {"title": "Quarterly planning review", "start": "2026-03-14T09:30:00Z"},
            'Please set up a new event with title "Quarterly planning review" and start '
            '"2026-03-14T09:30:00Z".',
        ),
        ("get_weather", {"city": "Lisbon"}, 'Can you pull up the weather with city "Lisbon"?'),
        ("list_events", {}, "What events are there?"),
        ("search_notes", {"q": "budget"}, 'Look for notes with q "budget".'),
        ("update_note", {"noteId": 3}, "Please make a change to the note with note id 3."),
        (
            "delete_event",
            {"event_id": "e1", "notify": False, "reason": None},
            'Please get rid of the event with event id "e1", notify set to false and reason null.',
        ),
        ("send_invite", {"urgent": True}, "Please send the invite out with urgent set to true."),
        ("run_build", {"__": ["a", 1]}, 'Please kick off the build with __ ["a", 1].'),
        ("convert_units", {"to": "été"}, 'Please work out the units with to "été".'),
        ("git_log", {}, "I need the git log."),
        ("get", {}, "Can you pull up it?"),
        ("create", {}, "Please set up it."),
    ],
)
def test_ask(tool: str, reference: dict[str, Any], expected: str) -> None:
    assert ask(tool, reference) == expected


def test_ask_leaves_out_what_an_earlier_result_gives() -> None:
    reference = {"event_id": "evt_1", "email": "ana.silva@example.com"}
    assert ask("invite_guest", reference, given=("event_id",)) == (
        'Please send the guest out with email "ana.silva@example.com", using the id from that '
        "result."
    )
    assert ask("get_event", {"event_id": "evt_1"}, given=("event_id",)) == (
        "Can you pull up the event, using the id from that result?"
    )


@pytest.mark.parametrize(
    ("tool", "expected"),
    [
        ("get_event", "look anything up"),
        ("list_events", "list anything"),
        ("find_notes", "search for anything"),
        ("add_note", "create anything new"),
        ("rename_file", "change anything"),
        ("cancel_event", "delete or cancel anything"),
        ("email_report", "send anything"),
        ("deploy_site", "run anything"),
        ("summarize_text", "work anything out"),
        ("git_log", "do anything"),
        ("get", "look anything up"),  # by the verb, never the thing
        ("create_list", "create anything new"),
    ],
)
def test_do_not(tool: str, expected: str) -> None:
    assert do_not(tool) == expected
