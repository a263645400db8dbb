"""The format checks of own suites' tool schemas (scorer/schema/formats.py) by exact value."""

from __future__ import annotations

from collections.abc import Iterator

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


def _refuse(instance: object) -> bool:
    return False


def test_the_three_formats_written_here() -> None:
    from scorer.schema.formats import OWN_CHECKS, is_date_time, is_time, is_uri

    assert (("date-time", is_date_time), ("time", is_time), ("uri", is_uri)) == OWN_CHECKS


def test_make_format_checker_adds_the_three_where_missing() -> None:
    from scorer.schema.formats import make_format_checker

    for replace in (False, True):
        checker = make_format_checker({}, replace=replace)
        assert sorted(checker.checkers) == ["date-time", "time", "uri"]
        assert checker.conforms("2026-10-21T10:00:00Z", "date-time")
        assert not checker.conforms("2026-10-21T10:00Z", "date-time")  # no seconds
        assert checker.conforms("10:00:00Z", "time") and not checker.conforms("10:00Z", "time")
        assert checker.conforms("urn:x", "uri") and not checker.conforms("x", "uri")
        assert checker.conforms("x", "email")  # not given: an annotation


def test_make_format_checker_keeps_or_replaces_an_installed_check() -> None:
    from scorer.schema.formats import make_format_checker

    given = {"uri": (_refuse, ()), "x-never": (_refuse, ())}
    kept = make_format_checker(given, replace=False)
    assert not kept.conforms("urn:x", "uri")  # the given check, not RFC 3986's
    assert not kept.conforms("urn:x", "x-never")
    replaced = make_format_checker(given, replace=True)
    assert replaced.conforms("urn:x", "uri") and not replaced.conforms("x", "uri")
    assert not replaced.conforms("urn:x", "x-never")
    # The caller's mapping (jsonschema's own, in use) is copied, never written to.
    assert given == {"uri": (_refuse, ()), "x-never": (_refuse, ())}


@pytest.fixture
def uncached() -> Iterator[None]:
    """format_checker built afresh in the test, and its checker of patched checks not kept for
    the others (mutmut's copy drops the cache: then there is none to clear)."""
    from scorer.schema.formats import format_checker

    clear = getattr(format_checker, "cache_clear", lambda: None)
    clear()
    yield
    clear()


@pytest.mark.usefixtures("uncached")
def test_an_own_suite_checks_the_three_here_where_jsonschema_could_too(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # As if rfc3339-validator and rfc3987 were installed and jsonschema checked the three itself
    # (here: refusing every value).
    from jsonschema import Draft202012Validator

    from scorer.schema.formats import format_checker

    checkers = Draft202012Validator.FORMAT_CHECKER.checkers
    for name in ("date-time", "time", "uri"):
        monkeypatch.setitem(checkers, name, (_refuse, ()))
    before = dict(checkers)
    checker = format_checker()
    assert checker.conforms("urn:x", "uri") and not checker.conforms("x", "uri")
    assert checker.conforms("10:00:00Z", "time") and not checker.conforms("10:00Z", "time")
    assert checker.conforms("2026-10-21T10:00:00Z", "date-time")
    # The listed formats jsonschema checks are still checked, the others still annotations.
    assert checker.conforms("a@b", "email") and not checker.conforms("x", "email")
    assert checker.conforms("-", "hostname")
    assert checkers == before  # jsonschema's own checker left as it was
