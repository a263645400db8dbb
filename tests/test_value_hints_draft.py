"""Plausible values where a schema says little (scorer/suite/draft/value_hints.py): by format, by
the argument's name, then by its description; every expected value copied by hand from the module's
tables (the values ``suite new`` documents), not computed by them."""

from __future__ import annotations

import pytest

from scorer.suite.draft.value_hints import format_value, number_value, string_value, words

pytestmark = pytest.mark.timeout(10)


@pytest.mark.parametrize(
    ("name", "expected"),
    [
        ("startDate", ["start", "date"]),
        ("start_date", ["start", "date"]),
        ("user2Name", ["user2", "name"]),
        ("HTTPServer", ["httpserver"]),
        ("a--b..C", ["a", "b", "c"]),
        ("__", []),
        ("", []),
    ],
)
def test_words(name: str, expected: list[str]) -> None:
    assert words(name) == expected


@pytest.mark.parametrize(
    ("fmt", "name", "expected"),
    [
        ("date", "start_date", "2026-03-14"),
        ("date", "end_date", "2026-03-15"),
        ("date", "dueDate", "2026-03-15"),
        ("date-time", "until", "2026-03-14T10:30:00Z"),
        ("date-time", "when", "2026-03-14T09:30:00Z"),
        ("time", "finish_time", "10:30:00Z"),
        ("time", "time", "09:30:00Z"),
        ("email", "end", "ana.silva@example.com"),  # no later e-mail
        ("uuid", "id", "3f2b8c1e-6a4d-4e8f-9b7a-2c5d1e0f4a6b"),
        ("color", "end", None),
        ("color", "x", None),
    ],
)
def test_format_value(fmt: str, name: str, expected: str | None) -> None:
    assert format_value(fmt, name) == expected


@pytest.mark.parametrize(
    ("name", "description", "expected"),
    [
        ("repo_path", "", "/home/ana/website"),  # a local repository: a directory
        ("repositoryDir", "", "/home/ana/website"),
        ("repository_path", "", "/home/ana/website"),
        # Before the format words: a host or a url in the name does not make it one.
        ("repo_dir_host", "", "/home/ana/website"),
        ("repositoryDirectoryUrl", "", "/home/ana/website"),
        ("repo", "", "acme/website"),
        ("path", "", "reports/q3-summary.md"),
        ("email", "", "ana.silva@example.com"),
        ("homepage", "", "https://example.com/reports/q3"),
        ("guid", "", "3f2b8c1e-6a4d-4e8f-9b7a-2c5d1e0f4a6b"),
        ("ip", "", "192.0.2.10"),
        ("host", "", "mail.example.com"),
        ("created_at", "", "2026-03-14T09:30:00Z"),
        ("expires_at", "", "2026-03-14T10:30:00Z"),
        ("end_date", "", "2026-03-15"),
        ("birthday", "", "2026-03-14"),
        ("tz", "", "Europe/Lisbon"),
        ("first_name", "", "Ana"),  # "first" comes before "name" in the table
        ("user_name", "", "asilva"),
        ("name", "", "Ana Silva"),
        ("city", "the e-mail of the host", "Lisbon"),  # the name first
        ("description", "", "Please bring the Q3 numbers."),
        ("start_time", "", "09:30"),
        # The description when the name says nothing; its date-time words only from a name.
        ("value", "The date of the meeting", "2026-03-14"),
        ("value", "Look at this", "value"),
        ("value", "Where to look at the city", "Lisbon"),
        ("value", "a b c d e f g h i j k city", "Lisbon"),  # the 12th word
        ("value", "a b c d e f g h i j k l city", "value"),  # the 13th: not read
        ("frobnicate", "", "frobnicate"),
        ("fooBar", "", "foo bar"),
        ("__", "", "some text"),
        ("", "", "some text"),
    ],
)
def test_string_value(name: str, description: str, expected: str) -> None:
    assert string_value(name, description) == expected


def test_string_value_description_is_optional() -> None:
    assert string_value("country") == "PT"
    assert string_value("value") == "value"


@pytest.mark.parametrize(
    ("name", "expected"),
    [
        ("year", 2026),
        ("birthMonth", 3),
        ("port", 8080),
        ("page_size", 2),  # "page" comes before "size"
        ("max_results", 5),
        ("duration_minutes", 45),
        ("hours", 2),
        ("days", 7),
        ("percent", 25),
        ("timeout", None),
        ("", None),
    ],
)
def test_number_value(name: str, expected: int | None) -> None:
    assert number_value(name) == expected
