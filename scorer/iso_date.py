"""The one rule for a calendar date written as text: ``YYYY-MM-DD`` and a day that exists."""

from __future__ import annotations

import datetime


def is_iso_date(text: str) -> bool:
    """True when ``text`` is exactly ``YYYY-MM-DD`` naming a real day (``2026-02-30`` and
    ``2026-13-01`` are not; neither is ``20261205``, which ``fromisoformat`` also reads)."""
    try:
        return len(text) == 10 and datetime.date.fromisoformat(text).isoformat() == text
    except ValueError:
        return False
