"""scorer/format_version.py: the one rule for ``format_version`` (docs/FORMATS.md, results.json's
line written out by hand)."""

from __future__ import annotations

from typing import Any

import pytest

from scorer.format_version import format_version_problem


@pytest.mark.parametrize(
    ("data", "current"),
    [({"format_version": 1}, 1), ({}, 1), ({"format_version": 3, "x": 1}, 3), ({}, 7)],
)
def test_the_current_version_or_none_is_read(data: dict[str, Any], current: int) -> None:
    assert format_version_problem(data, current) is None


@pytest.mark.parametrize(
    ("data", "current", "said"),
    [
        ({"format_version": 99}, 1, "99"),
        ({"format_version": 1}, 2, "1"),
        ({"format_version": True}, 1, "True"),  # a JSON true is no version, though True == 1
        ({"format_version": "1"}, 1, "'1'"),
        ({"format_version": None}, 1, "None"),
        ({"format_version": 1.5}, 1, "1.5"),
    ],
)
def test_another_version_is_refused_with_one_line(
    data: dict[str, Any], current: int, said: str
) -> None:
    assert format_version_problem(data, current) == (
        f"format_version: {said} is not one this lobstack-eval reads ({current}); "
        "a newer lobstack-eval wrote it, or it is corrupt"
    )


def test_the_documented_line() -> None:
    assert format_version_problem({"format_version": 99}, 1) == (
        "format_version: 99 is not one this lobstack-eval reads (1); a newer lobstack-eval "
        "wrote it, or it is corrupt"
    )
