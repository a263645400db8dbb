"""A results document is a JSON file: an attempt's ``first_byte_ms`` is read under its own name
only, never under a look-alike key (``XXfirst_byte_msXX``, ``FIRST_BYTE_MS``). Values by hand."""

from __future__ import annotations

from scorer.results import first_byte_p50


def test_the_first_byte_time_is_its_own_field() -> None:
    attempt = {"first_byte_ms": 10, "XXfirst_byte_msXX": 99, "FIRST_BYTE_MS": 98}
    assert first_byte_p50({"results": [{"attempts": [attempt]}]}) == 10.0
