"""scorer/stats/case_exact.py, value by value: Fisher's one-sided test per case, its smallest p,
the paired t interval and the incomplete beta under it. Every expected value is written by hand
(hypergeometric tails counted out) or is scipy's; milliseconds in all (the gate's simulation is
tests/test_gate_calibration.py)."""

from __future__ import annotations

import math
from fractions import Fraction

import pytest
from scipy import special, stats

from scorer.stats import case_exact
from scorer.stats.case_exact import (
    PairedDifference,
    broke_p,
    paired_difference,
    smallest_broke_p,
    t_quantile,
)


@pytest.mark.parametrize(
    ("passed_a", "scored_a", "passed_b", "scored_b", "expected"),
    [
        # 4 passes in 6, A 2 of 3: P(X_B <= 2) = 1 - P(X_B = 3) = 1 - C(3,3) C(3,1) / C(6,4) = 12/15
        (2, 3, 2, 3, 12 / 15),
        # 3 passes in 6: P(X_B <= 1) = (C(3,0) C(3,3) + C(3,1) C(3,2)) / C(6,3) = 10/20
        (2, 3, 1, 3, 0.5),
        # unequal sides, 3 passes in 6 (A 4, B 2): (C(2,0) C(4,3) + C(2,1) C(4,2)) / C(6,3) = 16/20
        (2, 4, 1, 2, 0.8),
        # 4 passes, A has 2 repeats: B has at least 2 of them, X_B = 2 only: C(3,2) C(2,2) / C(5,4)
        (2, 2, 2, 3, 0.6),
        # B passed every repeat: the whole distribution, 1
        (1, 3, 3, 3, 1.0),
        # 10 of 10 then 0 of 10: 1 / C(20, 10)
        (10, 10, 0, 10, 1 / 184756),
        # 1 pass in 6 (A 1 of 5, B 0 of 1): B's one sample is the pass w.p. 1/6: P(X_B <= 0) = 5/6
        (1, 5, 0, 1, 5 / 6),
        # B better than A: 1 pass of 4 in A... P(X_B <= 2 | 3 passes, 4 + 2) = 1
        (1, 4, 2, 2, 1.0),
    ],
)
def test_broke_p_by_hand(
    passed_a: int, scored_a: int, passed_b: int, scored_b: int, expected: float
) -> None:
    """The one-sided hypergeometric tail P(X_B <= passed_b), counted out in each comment; scipy's
    one-sided Fisher test on the same 2x2 table agrees."""
    assert broke_p(passed_a, scored_a, passed_b, scored_b) == expected
    table = [[passed_b, scored_b - passed_b], [passed_a, scored_a - passed_a]]
    reference = stats.fisher_exact(table, alternative="less").pvalue
    assert expected == pytest.approx(reference, rel=1e-12, abs=0)


@pytest.mark.parametrize(("scored_a", "scored_b"), [(0, 3), (3, 0), (0, 0), (-1, 3), (3, -1)])
def test_broke_p_without_a_scored_repeat_on_a_side_is_1(scored_a: int, scored_b: int) -> None:
    assert broke_p(0, scored_a, 0, scored_b) == 1.0
    assert smallest_broke_p(scored_a, scored_b) == 1.0


def test_broke_p_with_one_scored_repeat_each_side() -> None:
    """1 of 1 then 0 of 1: one pass in 2, P(X_B = 0) = 1/2; 0 of 1 then 0 of 1: no pass, 1."""
    assert broke_p(1, 1, 0, 1) == 0.5
    assert broke_p(0, 1, 0, 1) == 1.0
    assert broke_p(1, 1, 1, 1) == 1.0


@pytest.mark.parametrize(
    ("scored_a", "scored_b", "expected"),
    [
        (3, 3, 1 / 20),
        (1, 1, 1 / 2),
        (2, 3, 1 / 10),
        (5, 3, 1 / 56),
        (5, 1, 1 / 6),
        (10, 10, 1 / 184756),
    ],
)
def test_smallest_broke_p_is_one_over_the_binomial(
    scored_a: int, scored_b: int, expected: float
) -> None:
    """1 / C(n_A + n_B, n_B), which is broke_p of all passed in A and all failed in B."""
    assert smallest_broke_p(scored_a, scored_b) == expected
    assert broke_p(scored_a, scored_a, 0, scored_b) == pytest.approx(expected, rel=1e-15, abs=0)


def test_the_paired_difference_of_four_cases_by_hand() -> None:
    """Differences 1, 0, 0, 1/2: mean 3/8, sample variance ((5/8)^2 + 2 (3/8)^2 + (1/8)^2) / 3
    = 44/192, so sd / sqrt(4) = sqrt(11/192); t(0.975, 3) from scipy."""
    result = paired_difference([Fraction(1), Fraction(0), 0, Fraction(1, 2)])
    half = stats.t.ppf(0.975, 3) * math.sqrt(11 / 192)
    assert result is not None and result.cases == 4
    assert result.mean == 37.5
    assert result.low == pytest.approx(100 * (0.375 - half), rel=1e-11, abs=0)
    assert result.high == pytest.approx(min(100.0, 100 * (0.375 + half)), rel=1e-11, abs=0)
    assert result.high == 100.0  # 0.375 + 0.76 is past 1: cut


def test_the_paired_difference_is_cut_at_minus_100_and_kept_inside() -> None:
    """-1, -1, 0: mean -2/3, variance 1/3, half = t(0.975, 2) sqrt(1/9) = 1.435: the low end is cut
    at -100 points; a tight design is not cut: 0.1, 0.2, 0.3 -> 20 +- t(0.975, 2) * 0.1 / sqrt(3)
    points * 100."""
    cut = paired_difference([Fraction(-1), Fraction(-1), Fraction(0)])
    assert cut is not None
    assert cut.low == -100.0
    assert cut.high == pytest.approx(100 * (-2 / 3 + stats.t.ppf(0.975, 2) / 3), rel=1e-11, abs=0)
    tight = paired_difference([0.1, 0.2, 0.3])
    half = 100 * stats.t.ppf(0.975, 2) * 0.1 / math.sqrt(3)
    assert tight is not None
    assert tight.mean == pytest.approx(20.0, rel=1e-15, abs=0)
    assert (tight.low, tight.high) == (
        pytest.approx(20 - half, rel=1e-11, abs=0),
        pytest.approx(20 + half, rel=1e-11, abs=0),
    )


def test_the_paired_difference_of_no_case() -> None:
    assert paired_difference([]) is None


def test_the_paired_difference_of_one_case() -> None:
    """One case: its difference in points, no spread to make an interval from."""
    assert paired_difference([Fraction(1, 4)]) == PairedDifference(25.0, None, None, 1)


def test_the_paired_difference_of_two_equal_cases() -> None:
    """Two cases and no spread: an interval of width 0 around the mean."""
    assert paired_difference([0.5, 0.5]) == PairedDifference(50.0, 50.0, 50.0, 2)


def test_broke_p_without_a_scored_repeat_whatever_the_passes_say() -> None:
    """1.0 when either side has no scored repeat, as documented, even for counts that do not add
    up (passes with nothing scored)."""
    assert broke_p(2, 0, 0, 3) == 1.0
    assert broke_p(3, 3, 2, 0) == 1.0


@pytest.mark.parametrize("df", [1, 2, 3, 7, 30, 79, 400])
@pytest.mark.parametrize("q", [0.6, 0.975, 0.999])
def test_t_quantile_is_scipys(df: int, q: float) -> None:
    assert t_quantile(q, df) == pytest.approx(stats.t.ppf(q, df), rel=1e-11, abs=0)


@pytest.mark.parametrize(("q", "df"), [(0.999999999, 1), (0.999999999, 5), (0.975, 1), (0.6, 7)])
def test_t_quantile_is_where_the_cdf_first_reaches_q(q: float, df: int) -> None:
    """The q quantile is the least t with P(T <= t) >= q. Far in the tail the computed CDF is flat
    over a run of t (1 - q = 1e-9 against float steps of 1.1e-16: a run ~1e-7 wide relative), and
    the quantile is the run's first t, not its last: just below it the CDF is still under q."""
    t = t_quantile(q, df)
    assert case_exact._t_cdf(t * (1 - 1e-12), df) < q <= case_exact._t_cdf(t * (1 + 1e-12), df)


@pytest.mark.parametrize(
    ("a", "b", "x"),
    [
        (0.5, 0.5, 0.3),
        (1.5, 0.5, 0.2),
        (1.5, 0.5, 0.9),  # past (a + 1) / (a + b + 2): the mirrored fraction
        (40.0, 0.5, 0.97),
        (40.0, 0.5, 0.5),
        (3.0, 4.0, 0.01),
        (200.0, 0.5, 0.999),
        (0.5, 200.0, 0.001),
        (2.0, 3.0, 0.5),
    ],
)
def test_the_incomplete_beta_is_scipys(a: float, b: float, x: float) -> None:
    assert case_exact._beta_inc(a, b, x) == pytest.approx(
        special.betainc(a, b, x), rel=1e-12, abs=0
    )


def test_the_incomplete_beta_at_its_ends_and_the_t_cdf() -> None:
    """I_0 = 0 and I_1 = 1 (and past them); P(T <= t) is scipy's t CDF, 1/2 at 0."""
    assert case_exact._beta_inc(2.0, 0.5, 0.0) == 0.0
    assert case_exact._beta_inc(2.0, 0.5, -0.5) == 0.0
    assert case_exact._beta_inc(2.0, 0.5, 1.0) == 1.0
    assert case_exact._beta_inc(2.0, 0.5, 1.5) == 1.0
    # I_x(1, 1) = x, by hand
    assert case_exact._beta_inc(1.0, 1.0, 0.25) == pytest.approx(0.25, rel=1e-14, abs=0)
    assert case_exact._t_cdf(0.0, 5) == 0.5
    for t, df in [(0.5, 1), (2.0, 3), (1.3, 40), (4.0, 9)]:
        assert case_exact._t_cdf(t, df) == pytest.approx(stats.t.cdf(t, df), rel=1e-13, abs=0)


def test_the_continued_fraction_by_hand() -> None:
    """I_x(1, 1) = x and the prefactor x (1 - x) / B(1, 1) make the fraction 1 / (1 - x); I_x(2, 1)
    = x^2 with prefactor x^2 (1 - x) * 2 makes it 2 * x^2 / (2 x^2 (1 - x)) = 1 / (1 - x) too."""
    assert case_exact._beta_fraction(1.0, 1.0, 0.4) == pytest.approx(1 / 0.6, rel=1e-13, abs=0)
    assert case_exact._beta_fraction(2.0, 1.0, 0.3) == pytest.approx(1 / 0.7, rel=1e-13, abs=0)


def test_the_continued_fraction_where_its_first_denominator_is_0() -> None:
    """At x = (a + 1) / (a + b) the first d is 1 - (a + b) x / (a + 1) = 0, replaced by the tiny
    floor (modified Lentz): a = 1, b = 3, x = 1/2: I = 1 - (1/2)^3 = 7/8, the prefactor
    x (1 - x)^3 / B(1, 3) = 3/16, so the fraction is a I / prefactor = 14/3."""
    assert case_exact._beta_fraction(1.0, 3.0, 0.5) == pytest.approx(14 / 3, rel=1e-14, abs=0)


@pytest.mark.parametrize(
    ("a", "x", "rel"),
    [(3.0, 0.7, 1e-14), (2.0, 0.9, 1e-14), (5.0, 0.5, 1e-14), (200.0, 0.995, 1e-12)],
)
def test_the_incomplete_beta_with_b_1_is_x_to_the_a(a: float, x: float, rel: float) -> None:
    """I_x(a, 1) = x^a (the Beta(a, 1) CDF), to a few units in the last place: the continued
    fraction stops as soon as it has converged."""
    assert case_exact._beta_inc(a, 1.0, x) == pytest.approx(x**a, rel=rel, abs=0)


def _binomial_tail(a: int, b: int, x: Fraction) -> Fraction:
    """I_x(a, b) for whole a and b: P[Bin(a + b - 1, x) >= a], exactly."""
    n = a + b - 1
    return sum((math.comb(n, j) * x**j * (1 - x) ** (n - j) for j in range(a, n + 1)), Fraction(0))


@pytest.mark.parametrize(
    ("a", "b", "x"),
    [(3, 3, "0.99"), (2, 4, "0.3"), (4, 2, "0.8"), (1, 3, "0.5"), (6, 2, "0.95"), (2, 7, "0.02")],
)
def test_the_incomplete_beta_of_whole_a_and_b_is_a_binomial_tail(a: int, b: int, x: str) -> None:
    """For whole a and b, I_x(a, b) is the chance of at least a successes in a + b - 1 trials of
    probability x (written out with exact fractions here); e.g. I_0.99(3, 3) = 10 x^3 (1 - x)^2 +
    5 x^4 (1 - x) + x^5 = 0.9999901494."""
    expected = float(_binomial_tail(a, b, Fraction(x)))
    assert case_exact._beta_inc(float(a), float(b), float(x)) == pytest.approx(
        expected, rel=1e-14, abs=0
    )
