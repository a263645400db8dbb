"""Which tools make which drafted cases (scorer/suite/draft/shapes.py): look-alikes, the parallel
pair, chains and the domain's thing, each expected value written out by hand from the module's
rules (words of the things, a namespace word left out, ties by name likeness then listed order)."""

from __future__ import annotations

import difflib

import pytest

from scorer.suite.draft.shapes import (
    _everywhere,
    _stem,
    _thing_words,
    chain_pairs,
    domain_thing,
    id_argument,
    look_alikes,
    parallel_pair,
)

pytestmark = pytest.mark.timeout(10)


@pytest.mark.parametrize(
    ("word", "stem"),
    [
        ("events", "event"),
        ("bugs", "bug"),  # four letters: a plural
        ("ads", "ads"),  # three letters: kept
        ("status", "status"),
        ("address", "address"),
        ("analysis", "analysis"),
        ("event", "event"),
    ],
)
def test_stem(word: str, stem: str) -> None:
    assert _stem(word) == stem


def test_thing_words() -> None:
    assert _thing_words("list_events") == {"event"}
    assert _thing_words("git_log") == {"git", "log"}  # no verb: the whole name
    assert _thing_words("github_get_issues") == {"issue"}  # a namespace before the verb


def test_everywhere_needs_three_tools() -> None:
    assert _everywhere(["git_log", "git_diff"]) == set()
    assert _everywhere(["git_logs", "git_diff", "git_status"]) == {"git"}
    assert _everywhere(["get_events", "list_event", "delete_events"]) == {"event"}
    assert _everywhere(["get_event", "list_notes", "git_diff"]) == set()


def test_look_alikes_by_shared_words() -> None:
    names = ["get_event", "delete_event", "list_notes", "read_note_body"]
    assert look_alikes(names) == {
        "get_event": "delete_event",
        "delete_event": "get_event",
        "list_notes": "read_note_body",
        "read_note_body": "list_notes",
    }


def test_look_alikes_more_shared_words_win_over_likeness() -> None:
    # read_note_body shares "note" and "body" with edit_note_body, one word with note_body_x
    names = ["read_note_body", "note_body_x", "edit_note_body", "list_cats"]
    assert look_alikes(names)["note_body_x"] == "read_note_body"  # equally like: listed first
    assert look_alikes(names)["read_note_body"] == "edit_note_body"
    assert look_alikes(names)["edit_note_body"] == "read_note_body"
    assert "list_cats" not in look_alikes(names)


def test_look_alikes_ties_by_likeness_then_listed_order() -> None:
    # Each shares one word, "event"; set_event is the name most like get_event.
    names = ["delete_event", "get_event", "set_event", "list_notes"]
    assert difflib.SequenceMatcher(None, "get_event", "set_event").ratio() > (
        difflib.SequenceMatcher(None, "get_event", "delete_event").ratio()
    )
    assert look_alikes(names)["get_event"] == "set_event"
    assert look_alikes(names)["set_event"] == "get_event"
    # Equally like: the one listed first.
    names = ["event_b", "event_a", "event_c", "list_notes"]
    assert look_alikes(names) == {"event_b": "event_a", "event_a": "event_b", "event_c": "event_b"}


def test_look_alikes_leave_out_a_namespace_word() -> None:
    # "git" is in every name: it tells no tool apart, so only diff pairs them.
    names = ["git_diff_staged", "git_diff_unstaged", "git_log"]
    assert look_alikes(names) == {
        "git_diff_staged": "git_diff_unstaged",
        "git_diff_unstaged": "git_diff_staged",
    }
    # Two tools sharing a word are a pair, not a namespace.
    assert look_alikes(["git_diff", "git_log"]) == {"git_diff": "git_log", "git_log": "git_diff"}


@pytest.mark.parametrize("names", [["get_event", "list_notes"], ["get_event"], []])
def test_look_alikes_of_tools_sharing_no_word(names: list[str]) -> None:
    assert look_alikes(names) == {}


def test_look_alikes_more_shared_words_win_over_a_closer_name() -> None:
    # read_note_bod is the closer name, but body_note_zzzzzz shares two words.
    names = ["read_note_body", "body_note_zzzzzz", "read_note_bod", "list_cats"]
    assert look_alikes(names)["read_note_body"] == "body_note_zzzzzz"


def test_look_alikes_consider_32_tools_a_word() -> None:
    # get_event's only candidates are the first 32 tools with "event": got_event, the 33rd and
    # the name most like it, is not one of them; got_event itself still finds get_event.
    names = ["get_event", *(f"event_zz{i}" for i in range(1, 32)), "got_event", "list_notes"]
    found = look_alikes(names)
    assert found["get_event"] == "event_zz1"
    assert found["got_event"] == "get_event"


@pytest.mark.parametrize(
    ("names", "pair"),
    [
        # The first two that read, list or find (or have no verb), skipping the others.
        (["create_event", "get_event", "delete_note", "list_notes"], ("get_event", "list_notes")),
        (["create_event", "git_log", "search_notes"], ("git_log", "search_notes")),
        (["get_a", "get_b", "get_c"], ("get_a", "get_b")),
        # Fewer than two readers: the first two tools.
        (["create_event", "get_event", "delete_event"], ("create_event", "get_event")),
        (["create_event", "delete_event"], ("create_event", "delete_event")),
        (["get_event"], None),
        ([], None),
    ],
)
def test_parallel_pair(names: list[str], pair: tuple[str, str] | None) -> None:
    assert parallel_pair(names) == pair


@pytest.mark.parametrize(
    ("required", "tool", "expected"),
    [
        (["title", "event_id"], "invite_guest", ("event_id", {"event"})),
        (["event_id"], "invite_guest", ("event_id", {"event"})),
        (["eventIds"], "x", None),  # "ids" is not "id"
        (["calendar_events_id"], "x", ("calendar_events_id", {"calendar", "event"})),
        (["user_id_list"], "x", None),
        # A bare id: the tool's own thing.
        (["id"], "get_notes", ("id", {"note"})),
        (["name", "id", "user_id"], "get_notes", ("id", {"note"})),
        (["title"], "get_notes", None),
        ([], "get_notes", None),
    ],
)
def test_id_argument(required: list[str], tool: str, expected: tuple[str, set[str]] | None) -> None:
    assert id_argument(required, tool) == expected


@pytest.mark.parametrize(
    ("names", "required", "chains"),
    [
        # Makers first (create), then listers, then finders; get_event makes nothing.
        (
            ["get_event", "list_events", "create_event", "invite_guest", "get_weather"],
            {"get_event": ["event_id"], "invite_guest": ["event_id", "email"]},
            [
                ("create_event", "get_event", "event_id"),
                ("create_event", "invite_guest", "event_id"),
            ],
        ),
        # Without a maker, a lister; a tool is never chained to itself.
        (
            ["list_events", "find_events", "cancel_event"],
            {"list_events": ["event_id"], "cancel_event": ["event_id"]},
            [
                ("find_events", "list_events", "event_id"),
                ("list_events", "cancel_event", "event_id"),
            ],
        ),
        # Every tool takes an id.
        (
            ["list_events", "cancel_event"],
            {"list_events": ["event_id"], "cancel_event": ["event_id"]},
            [("list_events", "cancel_event", "event_id")],
        ),
        # The maker's family decides, not its thing (create_list makes a list).
        (
            ["find_list", "create_list", "get_list"],
            {"get_list": ["list_id"]},
            [("create_list", "get_list", "list_id")],
        ),
        # Listed order among makers of one family.
        (["add_note", "create_note", "delete_note"], {"delete_note": ["id"]},
         [("add_note", "delete_note", "id")]),
        (["add_note", "create_note", "delete_note"], {"delete_note": ["title"]}, []),
        (["delete_note"], {"delete_note": ["note_id"]}, []),
        (["delete_note"], {}, []),
    ],
)  # fmt: skip
def test_chain_pairs(
    names: list[str], required: dict[str, list[str]], chains: list[tuple[str, str, str]]
) -> None:
    assert chain_pairs(names, required) == chains


def test_chain_pairs_consider_32_makers_a_word() -> None:
    # A maker comes before a lister, but only the first 32 tools of a word are candidates.
    listers = [f"list_event_{chr(97 + i // 26)}{chr(97 + i % 26)}" for i in range(32)]
    names = [*listers, "create_event", "get_event"]
    assert chain_pairs(names, {"get_event": ["event_id"]}) == [
        ("list_event_aa", "get_event", "event_id")
    ]
    names = [*listers[1:], "create_event", "get_event"]
    assert chain_pairs(names, {"get_event": ["event_id"]}) == [
        ("create_event", "get_event", "event_id")
    ]


@pytest.mark.parametrize(
    ("names", "thing"),
    [
        (["create_event", "get_event", "list_events", "get_weather"], "event"),
        (["get_weather", "list_weather", "get_city"], "weather"),  # the most, not the shortest
        (["get_weather", "get_city"], "city"),  # a tie: the shorter word
        (["get_v2", "get_v2_note"], "v2"),  # not all digits
        (["get_2", "list_2", "read_note"], "note"),  # digits never
        (["git_log", "git_diff", "git_status"], "log"),  # a namespace word never
        ([], "request"),
        (["get_1"], "request"),
    ],
)
def test_domain_thing(names: list[str], thing: str) -> None:
    assert domain_thing(names) == thing
