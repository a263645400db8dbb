"""A case-run's outcome (scorer.outcome): whether an attempt was answered, whether a case is
scored (scorer.status: passed and failed only)."""

from __future__ import annotations

import pytest

from scorer.outcome import Attempt, CaseOutcome
from scorer.suite.model import Case, Step


@pytest.mark.parametrize(
    ("status", "answered"), [(200, True), (500, True), (0, True), (None, False)]
)
def test_an_attempt_is_answered_when_it_has_a_status(status: int | None, answered: bool) -> None:
    outcome = "ok" if status == 200 else "timeout"
    assert Attempt(0, 1, outcome, status, 12.5).answered is answered


@pytest.mark.parametrize(
    ("status", "scored"),
    [("passed", True), ("failed", True), ("errored", False), ("unrecorded", False)],
)
def test_only_a_judged_case_is_scored(status: str, scored: bool) -> None:
    case = Case("c-01", "no_call", (), (), (Step("none"),))
    assert CaseOutcome(case, status, None, (), ()).scored is scored  # type: ignore[arg-type]
