"""Plausible values for ``suite new``'s reference calls where a schema says little: by ``format``,
then by the argument's name and description (issue 40, part 3).

A time zone is an IANA name, a country a code, an e-mail an address; a free string gets words that
read like what the argument holds, never ``example-...``. Every value is fixed (no clock, no
randomness): the same tools give the same suite. An end or a deadline is an hour after a start.
"""

from __future__ import annotations

import re

FORMATS = {
    "date": "2026-03-14",
    "date-time": "2026-03-14T09:30:00Z",
    "time": "09:30:00Z",
    "email": "ana.silva@example.com",
    "idn-email": "ana.silva@example.com",
    "uri": "https://example.com/reports/q3",
    "iri": "https://example.com/reports/q3",
    "uri-reference": "https://example.com/reports/q3",
    "iri-reference": "https://example.com/reports/q3",
    "uri-template": "https://example.com/reports/{id}",
    "uuid": "3f2b8c1e-6a4d-4e8f-9b7a-2c5d1e0f4a6b",
    "ipv4": "192.0.2.10",
    "ipv6": "2001:db8::10",
    "hostname": "mail.example.com",
    "idn-hostname": "mail.example.com",
    "duration": "P1DT2H",
    "json-pointer": "/items/0",
    "relative-json-pointer": "0/name",
    "regex": "^[a-z]+$",
}
# A later value of the same format, for an argument whose name says it ends something.
LATER = {"date": "2026-03-15", "date-time": "2026-03-14T10:30:00Z", "time": "10:30:00Z"}
_ENDS = {"end", "until", "to", "finish", "deadline", "due", "stop", "expires", "before"}

# (words in the name, the format it means): checked before the plain-string table.
_FORMAT_WORDS: tuple[tuple[frozenset[str], str], ...] = (
    (frozenset({"email", "mail"}), "email"),
    (frozenset({"url", "uri", "link", "website", "href", "homepage", "endpoint"}), "uri"),
    (frozenset({"uuid", "guid"}), "uuid"),
    (frozenset({"ip", "ipv4"}), "ipv4"),
    (frozenset({"hostname", "host", "domain"}), "hostname"),
    (frozenset({"datetime", "timestamp", "at"}), "date-time"),
    (frozenset({"date", "day", "birthday"}), "date"),
)
_PROSE = frozenset(
    {"description", "body", "message", "content", "text", "note", "notes", "comment", "details"}
    | {"reason", "prompt", "instructions"}
)
# (words, value); the first whose word is in the name wins.
_STRINGS: tuple[tuple[frozenset[str], str], ...] = (
    (frozenset({"timezone", "tz", "tzid"}), "Europe/Lisbon"),
    (frozenset({"country"}), "PT"),
    (frozenset({"currency"}), "EUR"),
    (frozenset({"locale"}), "en-GB"),
    (frozenset({"language", "lang"}), "en"),
    (frozenset({"phone", "mobile", "tel", "telephone"}), "+351 912 345 678"),
    (frozenset({"city", "town"}), "Lisbon"),
    (frozenset({"address", "street", "venue", "location"}), "Rua Augusta 24, Lisbon"),
    (frozenset({"room"}), "Orion room"),
    (frozenset({"first", "given", "firstname"}), "Ana"),
    (frozenset({"last", "surname", "family", "lastname"}), "Silva"),
    (frozenset({"username", "login", "handle", "user", "owner", "author"}), "asilva"),
    (
        frozenset({"title", "subject", "summary", "heading", "headline"}),
        "Quarterly planning review",
    ),
    (frozenset({"query", "search", "q", "keyword", "keywords", "term", "terms"}), "budget report"),
    (frozenset({"branch", "ref", "revision"}), "main"),
    (frozenset({"dir", "directory", "folder", "cwd"}), "/home/ana/website"),
    (frozenset({"filename", "file", "path", "filepath"}), "reports/q3-summary.md"),
    (frozenset({"repo", "repository"}), "acme/website"),
    (frozenset({"commit", "sha", "hash"}), "3f2b8c1"),
    (frozenset({"color", "colour"}), "blue"),
    (frozenset({"tag", "label", "category", "topic"}), "finance"),
    (frozenset({"status", "state"}), "open"),
    (frozenset({"name", "attendee", "person", "contact", "assignee"}), "Ana Silva"),
    (frozenset({"id", "identifier", "key", "slug"}), "q3-budget"),
    (frozenset({"time", "hour"}), "09:30"),
    (
        frozenset(
            {
                "description",
                "body",
                "message",
                "content",
                "text",
                "note",
                "notes",
                "comment",
                "details",
                "reason",
                "prompt",
                "instructions",
            }
        ),
        "Please bring the Q3 numbers.",
    ),
)
_NUMBERS: tuple[tuple[frozenset[str], int], ...] = (
    (frozenset({"year"}), 2026),
    (frozenset({"month"}), 3),
    (frozenset({"port"}), 8080),
    (frozenset({"age"}), 34),
    (frozenset({"page"}), 2),
    (frozenset({"limit", "max", "count", "size", "top", "n", "results", "per"}), 5),
    (frozenset({"minutes", "duration", "mins"}), 45),
    (frozenset({"hours"}), 2),
    (frozenset({"days"}), 7),
    (frozenset({"percent", "percentage"}), 25),
)


def words(name: str) -> list[str]:
    """The words of an argument name: ``startDate`` and ``start_date`` -> ``["start", "date"]``."""
    spaced = re.sub(r"([a-z0-9])([A-Z])", r"\1 \2", name)
    return [w for w in re.split(r"[^A-Za-z0-9]+", spaced.lower()) if w]


def format_value(fmt: str, name: str) -> str | None:
    """A value of format ``fmt`` (later for an end), or None for a format not known here."""
    if fmt in LATER and _ENDS & set(words(name)):
        return LATER[fmt]
    return FORMATS.get(fmt)


def string_value(name: str, description: str = "") -> str:
    """A string that reads like argument ``name`` (its description helps when the name is
    vague)."""
    named = words(name)
    if {"repo", "repository"} & set(named) and {"path", "dir", "directory"} & set(named):
        return "/home/ana/website"  # a local repository's path: a directory
    for source in (named, words(description)[:12]):
        found = set(source)
        for keys, fmt in _FORMAT_WORDS:
            if keys & found and (fmt != "date-time" or source is named):
                value = format_value(fmt, name)
                if value is not None:
                    return value
        for keys, value in _STRINGS:
            if keys & found:
                return value
    return " ".join(named) or "some text"


def number_value(name: str) -> int | None:
    """A number that reads like argument ``name``, or None."""
    found = set(words(name))
    for keys, value in _NUMBERS:
        if keys & found:
            return value
    return None
