"""scorer/status.py: the statuses, their order, and which are scored (passed and failed only)."""

from __future__ import annotations

import pytest

from scorer.status import SCORED, STATUSES, is_scored


def test_the_statuses_in_report_order() -> None:
    assert STATUSES == ("passed", "failed", "errored", "unrecorded")
    assert SCORED == ("passed", "failed")


@pytest.mark.parametrize(
    ("status", "scored"),
    [
        ("passed", True),
        ("failed", True),
        ("errored", False),
        ("unrecorded", False),
        ("PASSED", False),
        (None, False),
        ([], False),  # unhashable: answered, not raised
        ({"passed"}, False),
    ],
)
def test_is_scored(status: object, scored: bool) -> None:
    assert is_scored(status) is scored
