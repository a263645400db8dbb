"""The format checks of own suites' tool schemas (scorer/schema/formats.py) by exact value."""

from __future__ import annotations

import pytest

from scorer.schema.formats import is_date_time, is_time, is_uri


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
