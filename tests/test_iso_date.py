"""scorer/iso_date.py: exactly ``YYYY-MM-DD`` naming a day that exists (written by hand)."""

from __future__ import annotations

import pytest

from scorer.iso_date import is_iso_date


@pytest.mark.parametrize(
    ("text", "ok"),
    [
        ("2026-12-05", True),
        ("2024-02-29", True),  # a leap day
        ("0001-01-01", True),
        ("9999-12-31", True),
        ("2026-02-29", False),  # not a leap year
        ("2026-02-30", False),
        ("2026-13-01", False),
        ("2026-00-10", False),
        ("20261205", False),  # fromisoformat reads it; not the form
        ("2026-W49-6", False),  # ten characters, an ISO week date fromisoformat reads
        ("2026-12-5", False),
        ("2026-12-05 ", False),
        ("2026-12-05T00:00", False),
        ("", False),
        ("yesterday!", False),
    ],
)
def test_is_iso_date(text: str, ok: bool) -> None:
    assert is_iso_date(text) is ok
