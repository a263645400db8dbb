"""scorer/stats/front_paired.py, value by value on boards of two to four cases: the paired
differences, the one-sided p that j is better, the Cornish-Fisher critical value and the closed-form
lower bound, each expected value worked out by hand in its comment (tests/test_front.py checks the
same pieces against a brute-force grid and scipy, and the front as a whole)."""

from __future__ import annotations

import math
from fractions import Fraction
from statistics import NormalDist

import pytest
from scipy import stats

from scorer.stats import front_paired
from scorer.stats.front_paired import (
    better_p,
    critical,
    differences,
    float_differences,
    lower_bound,
)

# m scored a, b, c and d; j scored a, b and c (0 repeats), and e. Shared: a and b.
M = {"b": (3, 3), "a": (1, 2), "c": (0, 2), "d": (1, 1)}
J = {"a": (0, 1), "b": (2, 3), "c": (0, 0), "e": (1, 1)}


def test_differences_over_the_cases_both_scored_in_ms_order() -> None:
    """b: 1 - 2/3 = 1/3; a: 1/2 - 0 = 1/2; c has no scored repeat in j, d is not in j."""
    assert differences(M, J) == [Fraction(1, 3), Fraction(1, 2)]
    assert float_differences(M, J) == [1 - 2 / 3, 0.5]
    both = {"a": (1, 4), "b": (0, 2)}
    assert float_differences(both, {"b": (1, 2), "a": (1, 2)}) == [-0.25, -0.5]
    nothing_in_m = {"a": (0, 0), "b": (0, 0)}
    assert differences(nothing_in_m, J) == [] and float_differences(nothing_in_m, J) == []


def test_better_p_at_one_sample_per_case_is_one_sided_mcnemar() -> None:
    """j passed where m failed in 2 cases, m passed where j failed in 1, one tie, one case only m
    scored (left out): P[Bin(3, 1/2) >= 2] = 4/8. Three losses and no win: 1/8; the mirror: 1."""
    m = {"a": (0, 1), "b": (0, 1), "c": (1, 1), "d": (1, 1), "e": (0, 1), "x": (0, 3)}
    j = {"a": (1, 1), "b": (1, 1), "c": (1, 1), "d": (0, 1), "e": (0, 1)}
    assert better_p(m, j) == 0.5
    assert better_p({"a": (0, 1), "b": (0, 1), "c": (0, 1)}, {k: (1, 1) for k in "abc"}) == 0.125
    assert better_p({k: (1, 1) for k in "abc"}, {"a": (0, 1), "b": (0, 1), "c": (0, 1)}) == 1.0
    assert better_p({}, {}) == 1.0


def test_better_p_with_repeats_is_the_lower_sign_flip_tail() -> None:
    """d = -1, -1/2, 0 (steps 2 and 1, observed -3 in halves): the four patterns sum to 3, 1, -1,
    -3, one at or below -3: p = 1/4. One case with one sample on each side and one with two:
    the rates, not McNemar's counts (d = -1 and -1/2 again)."""
    m = {"a": (0, 2), "b": (0, 2), "c": (1, 2)}
    j = {"a": (2, 2), "b": (1, 2), "c": (1, 2)}
    assert better_p(m, j) == 0.25
    assert better_p({"a": (0, 1), "b": (0, 2)}, {"a": (1, 1), "b": (1, 2)}) == 0.25
    # m with two samples of a case and j with one: not one sample per case on both sides
    assert better_p({"a": (0, 2), "b": (0, 1)}, {"a": (1, 1), "b": (1, 1)}) == 0.25


def test_better_p_with_repeats_on_one_side_compares_rates_not_passes() -> None:
    """m one sample per case, j two: m 1 of 1 and j 2 of 2 tie (d = 0), m 0 of 1 against j 1 of 2
    is d = -1/2: one non-zero difference, p = 1/2 (counting passes, j's 2 > 1 and 1 > 0, would say
    two losses, 1/4). The mirror, m two samples and j one: m 1 of 2 against j 1 of 1 is d = -1/2,
    m 0 of 2 against j 1 of 1 is d = -1: steps 1 and 2, only the all-minus pattern at or below
    -3/2, p = 1/4 (counting passes: one loss, 1/2). With j 2 of 2 against m 1 of 1 and 1 of 1
    against 0 of 1: d = 0 and -1, p = 1/2."""
    assert better_p({"a": (1, 1), "b": (0, 1)}, {"a": (2, 2), "b": (1, 2)}) == 0.5
    assert better_p({"a": (1, 2), "b": (0, 2)}, {"a": (1, 1), "b": (1, 1)}) == 0.25
    assert better_p({"a": (1, 1), "b": (0, 1)}, {"a": (2, 2), "b": (1, 1)}) == 0.5


def test_better_p_leaves_out_a_case_only_m_scored() -> None:
    """m's case c has one sample and j has none of it: the pair is not compared (and c is never
    looked up in j): one loss, p = 1/2."""
    assert better_p({"a": (0, 1), "c": (1, 1)}, {"a": (1, 1)}) == 0.5


def _cornish_fisher(z: float, nu: int) -> float:
    """Abramowitz and Stegun 26.7.5, the t quantile's expansion in 1 / nu to its third term."""
    g1 = (z**3 + z) / 4
    g2 = (5 * z**5 + 16 * z**3 + 3 * z) / 96
    g3 = (3 * z**7 + 19 * z**5 + 17 * z**3 - 15 * z) / 384
    return z + g1 / nu + g2 / nu**2 + g3 / nu**3


@pytest.mark.parametrize(("alpha", "n"), [(0.05, 2), (0.05, 3), (0.005, 5), (0.0005, 11)])
def test_the_critical_value_is_the_cornish_fisher_expansion(alpha: float, n: int) -> None:
    """At few degrees of freedom the three terms are far apart, so each is checked; from 20 cases up
    the value is within 1e-4 of scipy's t quantile."""
    z = stats.norm.ppf(1 - alpha)
    assert critical(alpha, n) == pytest.approx(_cornish_fisher(z, n - 1), rel=1e-13, abs=0)
    assert critical(alpha, 40) == pytest.approx(stats.t.ppf(1 - alpha, 39), abs=1e-4)


def test_the_critical_value_below_two_cases_is_normal() -> None:
    assert critical(0.05, 1) == NormalDist().inv_cdf(0.95)
    assert critical(0.05, 0) == pytest.approx(1.6448536269514722, rel=1e-15, abs=0)


def test_roots_by_hand() -> None:
    assert front_paired._roots(1.0, -3.0, 2.0) == (1.0, 2.0)
    assert front_paired._roots(2.0, 0.0, -8.0) == (-2.0, 2.0)
    assert front_paired._roots(1.0, 2.0, 1.0) == (-1.0, -1.0)  # a double root
    assert front_paired._roots(1.0, 0.0, 1.0) is None


def test_two_models_that_agree_everywhere_by_hand() -> None:
    """d = 0 on 80 cases, z = 1.645: the floor's quadratic (n + z^2) u^2 - z^2 u has the roots 0 and
    z^2 / (n + z^2); the bound is minus that."""
    z = 1.645
    assert lower_bound([0.0] * 80, z) == pytest.approx(-(z * z) / (80 + z * z), rel=1e-14, abs=0)


def test_a_model_better_on_every_case_by_hand() -> None:
    """d = 1 on 4 cases, z = 1: (a) gives -1; u >= 0: 5 u^2 + 7 u + 4 has no root; u < 0:
    5 u^2 + 9 u + 4 has the roots -1 and -4/5: the bound is 4/5."""
    assert lower_bound([1.0] * 4, 1.0) == pytest.approx(0.8, rel=1e-14, abs=0)


def test_the_sample_variance_decides_by_hand() -> None:
    """d = 1, -1, 1, -1, z = 1: mean 0, s^2 = 4/3, (a) = sqrt(4/3 / (4 - 1)) = 2/3; the floor's
    roots are 0 and 1/5 (u >= 0) and -1/5 and 0 (u < 0): the bound is -2/3."""
    assert lower_bound([1.0, -1.0, 1.0, -1.0], 1.0) == pytest.approx(-2 / 3, rel=1e-14, abs=0)


def test_a_model_worse_on_every_case_by_hand() -> None:
    """d = -1/2 on 4 cases, z = 1: (a) gives 1/2; u >= 0: 5 u^2 - 5 u + 1 has the roots
    (5 -+ sqrt(5)) / 10, the higher 0.7236 decides; u < 0: 5 u^2 - 3 u + 1 has no root: the bound is
    -(5 + sqrt(5)) / 10."""
    assert lower_bound([-0.5] * 4, 1.0) == pytest.approx(-(5 + math.sqrt(5)) / 10, rel=1e-14, abs=0)


def test_n_below_z_squared_divides_by_1_by_hand() -> None:
    """d = 1, 0, z = 1.5: n - z^2 < 1, so (a) = 1.5 sqrt(1/2 / 1) - 1/2; u >= 0: 4.25 u^2 - 0.25 u
    + 0.5 has no root; u < 0: 4.25 u^2 + 4.25 u + 0.5 has both roots below 0, the higher
    (-4.25 + sqrt(9.5625)) / 8.5 = -0.136 is below (a)."""
    assert lower_bound([1.0, 0.0], 1.5) == pytest.approx(
        0.5 - 1.5 * math.sqrt(0.5), rel=1e-14, abs=0
    )


def test_one_case_and_the_cut_at_minus_1() -> None:
    """d = 1/2 alone, z = 1: s^2 = 0, (a) = -1/2; u < 0: 2 u^2 + 2 u + 1/4 has the roots
    (-2 -+ sqrt(2)) / 4: the bound is (2 - sqrt(2)) / 4. d = 1, -1 at z = 2: (a) = 2 sqrt(2 / 1)
    = 2.83, cut at -1. No case: None."""
    assert lower_bound([0.5], 1.0) == pytest.approx((2 - math.sqrt(2)) / 4, rel=1e-14, abs=0)
    assert lower_bound([1.0, -1.0], 2.0) == -1.0
    assert lower_bound([], 1.0) is None


def test_the_bound_is_cut_at_1() -> None:
    """d = 1 on 400 cases at a tiny z: every root is near -1; the bound is at most 1."""
    bound = lower_bound([1.0] * 400, 1e-3)
    assert bound is not None and 0.99 < bound <= 1.0
