"""Which metrics a case counts for, from the shape of its steps (METHOD.md, "The metrics"): each
rule of scorer.case_shape on hand-built cases, at its edges."""

from __future__ import annotations

from scorer.case_shape import expects_no_call_first, first_call_step, is_chain, parallel_steps
from scorer.suite.model import Case, ExpectedCall, Step


def _calls(n: int) -> Step:
    return Step("call", tuple(ExpectedCall(f"t{i}", (), None, None) for i in range(n)))


NONE = Step("none")


def _case(*steps: Step) -> Case:
    return Case("c-01", "selection", ("t0", "t1", "t2"), (), steps)


def test_first_call_step() -> None:
    assert first_call_step(_case(_calls(1))) == 0
    assert first_call_step(_case(NONE, NONE, _calls(2), _calls(1))) == 2
    assert first_call_step(_case(NONE)) is None
    assert first_call_step(_case(NONE, NONE)) is None


def test_a_chain_has_two_steps_or_more() -> None:
    assert is_chain(_case(_calls(1))) is False
    assert is_chain(_case(NONE)) is False
    assert is_chain(_case(_calls(1), NONE)) is True
    assert is_chain(_case(_calls(1), _calls(1), _calls(1))) is True


def test_parallel_steps_expect_two_calls_or_more() -> None:
    assert parallel_steps(_case(_calls(1))) == []
    assert parallel_steps(_case(_calls(2))) == [0]
    assert parallel_steps(_case(_calls(1), _calls(2), NONE, _calls(3))) == [1, 3]


def test_no_call_needed_reads_the_first_step_only() -> None:
    assert expects_no_call_first(_case(NONE, _calls(1))) is True
    assert expects_no_call_first(_case(_calls(1), NONE)) is False


def test_no_call_needed_of_one_step() -> None:
    assert expects_no_call_first(_case(NONE)) is True
    assert expects_no_call_first(_case(_calls(1))) is False
