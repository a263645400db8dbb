"""scorer/stats/history_exact.py, value by value on designs small enough to count by hand: the score
weight, the hypergeometric per case, and the convolved statistic's tail, mean and counts.
Milliseconds in all (the brute-force and simulation checks are in tests/test_history_gate.py)."""

from __future__ import annotations

import pytest
from scipy import stats

from scorer.stats.history_exact import (
    CaseMargins,
    HistoryTest,
    history_test,
    hypergeometric,
    score_weight,
)


@pytest.mark.parametrize(
    ("failed", "scored", "weight"),
    [
        (1, 21, 31),  # f = 1.5 / 22: 2 / (f (1 - f)) = 968 / 30.75 = 31.48
        (10, 20, 8),  # f = 10.5 / 21 = 1/2: 2 / (1/4)
        (0, 1, 11),  # f = 1/4: 2 / (3/16) = 10.67
        (1, 3, 9),  # f = 3/8: 2 / (15/64) = 8.53
        (1, 2, 8),  # f = 1/2
        (20, 21, 31),  # the mirror of (1, 21)
        (0, 200, 806),  # f = 0.5 / 201: 2 * 201^2 / (0.5 * 200.5) = 806.005
    ],
)
def test_score_weight_by_hand(failed: int, scored: int, weight: int) -> None:
    f = (failed + 0.5) / (scored + 1)
    assert round(2 / (f * (1 - f))) == weight  # the comment's arithmetic, checked
    assert score_weight(failed, scored) == weight


@pytest.mark.parametrize(
    ("failed", "scored", "drawn", "low", "probabilities"),
    [
        (3, 10, 2, 0, [21 / 45, 21 / 45, 3 / 45]),  # C(3,x) C(7,2-x) / C(10,2)
        (5, 6, 3, 2, [10 / 20, 10 / 20]),  # at least 2 of 3 drawn fail: C(5,2) C(1,1), C(5,3)
        (1, 21, 1, 0, [20 / 21, 1 / 21]),
        (1, 4, 2, 0, [3 / 6, 3 / 6]),  # fewer failures than drawn: X stops at 1 = failed
    ],
)
def test_hypergeometric_by_hand(
    failed: int, scored: int, drawn: int, low: int, probabilities: list[float]
) -> None:
    found = hypergeometric(failed, scored, drawn)
    assert found[0] == low
    assert found[1] == pytest.approx(probabilities, rel=1e-15, abs=0)
    assert type(found[1]) is list


def test_one_stable_case_that_fails_in_b() -> None:
    """20 of 20 passed in the history, B's one sample failed: weight 31, X = 1 with probability
    1/21 (B's sample is any of the 21), so T = 31 with p = 1/21 and null mean 31/21."""
    assert history_test([CaseMargins(0, 20, 1, 1)]) == HistoryTest(
        pytest.approx(1 / 21, rel=1e-15, abs=0), 31, pytest.approx(31 / 21, rel=1e-15, abs=0), 1
    )


def test_two_cases_convolved_by_hand() -> None:
    """Case 1: 1 of 2 failed in the history, B passed its one: weight 9, X1 = 1 w.p. 1/3. Case 2:
    0 of 1, B failed its one: weight 8, X2 = 1 w.p. 1/2. T = 9 X1 + 8 X2 takes 0 (1/3), 8 (1/3),
    9 (1/6), 17 (1/6); observed 8: p = 2/3, null mean 9/3 + 8/2 = 7."""
    result = history_test([CaseMargins(1, 2, 0, 1), CaseMargins(0, 1, 1, 1)])
    assert result == HistoryTest(pytest.approx(2 / 3, rel=1e-15, abs=0), 8, pytest.approx(7.0), 2)
    # The same margins, B's failure moved: observed 17 (both failed) is the last cell, 1/6;
    # observed 9 (case 1 failed, case 2 passed), the cells 9 and 17, 1/3.
    assert history_test([CaseMargins(0, 2, 1, 1), CaseMargins(0, 1, 1, 1)]).p == pytest.approx(
        1 / 6, rel=1e-15
    )
    assert history_test([CaseMargins(0, 2, 1, 1), CaseMargins(1, 1, 0, 1)]).p == pytest.approx(
        1 / 3, rel=1e-15
    )


def test_the_statistic_counts_from_the_lowest_possible_failures() -> None:
    """0 of 1 failed in the history and B failed 2 of 3: 2 failures in 4 samples, B holds at
    least 1 of them (low 1), X - 1 is 0 or 1 w.p. 1/2 each; weight 8: T = 8, p = 1/2, mean 4."""
    assert history_test([CaseMargins(0, 1, 2, 3)]) == HistoryTest(0.5, 8, 4.0, 1)


def test_the_weight_function_gets_the_margins_over_all_runs() -> None:
    """``weight_of(failed, scored)`` over history and B together; weight 1 everywhere is the plain
    sum of failures: T = X1 + X2 of the two cases above, P(T >= 1) = 1 - (2/3)(1/2)."""
    seen = []

    def weight(failed: int, scored: int) -> int:
        seen.append((failed, scored))
        return 1

    result = history_test([CaseMargins(1, 2, 0, 1), CaseMargins(0, 1, 1, 1)], weight)
    assert seen == [(1, 3), (1, 2)]
    assert result == HistoryTest(pytest.approx(2 / 3, rel=1e-15, abs=0), 1, pytest.approx(5 / 6), 2)


@pytest.mark.parametrize(
    "case",
    [
        CaseMargins(0, 0, 1, 2),  # nothing scored in the history
        CaseMargins(1, 3, 0, 0),  # nothing scored in B
        CaseMargins(0, 5, 0, 2),  # never failed
        CaseMargins(5, 5, 2, 2),  # always failed
        CaseMargins(0, -1, 1, 1),  # nonsense counts do not enter either
        CaseMargins(0, 3, 1, -1),
    ],
)
def test_cases_that_cannot_move_do_not_enter(case: CaseMargins) -> None:
    stable = CaseMargins(0, 20, 1, 1)
    assert history_test([case]) == HistoryTest(1.0, 0, 0.0, 0)
    assert history_test([case, stable]) == history_test([stable])


def test_one_case_is_fishers_one_sided_test_whatever_its_weight() -> None:
    """Weight scales T, not its tail: one case's p is scipy's one-sided Fisher test."""
    for case in (CaseMargins(2, 12, 3, 4), CaseMargins(1, 5, 1, 3), CaseMargins(4, 6, 0, 2)):
        table = [
            [case.failed_b, case.scored_b - case.failed_b],
            [case.failed_history, case.scored_history - case.failed_history],
        ]
        expected = stats.fisher_exact(table, alternative="greater").pvalue
        assert history_test([case]).p == pytest.approx(expected, rel=1e-12, abs=0)


def test_a_run_that_failed_nothing_has_p_1_exactly() -> None:
    """B failed no sample in any case: T is at its least, so P(T >= T_observed) = 1. On these five
    cases the float distribution's exact sum is 1.0000000000000002 (each probability rounded): the
    p is cut at 1."""
    cases = [
        CaseMargins(1, 3, 0, 1),
        CaseMargins(1, 1, 0, 4),
        CaseMargins(1, 1, 0, 4),
        CaseMargins(1, 3, 0, 1),
        CaseMargins(1, 1, 0, 3),
    ]
    result = history_test(cases)
    assert (result.p, result.statistic, result.informative) == (1.0, 0, 5)
