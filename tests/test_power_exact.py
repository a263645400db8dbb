"""scorer/stats/power.py at its edges, value by value: the exact McNemar test's rejection
thresholds and grid written out by hand, the binomial log-pmf off a longer table, the bisection of
``mcnemar_detectable`` at the powers where it must stop early or run to its resolution, and
``paired_power`` with one side's noise known, each side alone (a test that asks both in a row
stops at the first). Expected values by hand, scipy's binomial test and root finder as the
reference. Milliseconds."""

from __future__ import annotations

import math

import numpy as np
import pytest
from scipy import optimize, stats

from scorer.stats import power
from scorer.stats.power import (
    Power,
    mcnemar_detectable,
    mcnemar_power,
    paired_power,
    rerun_power,
)
from tests.test_power import _drop_residual

D = [0.1, -0.1, 0.3, -0.3]  # mean 0, variance (0.01 + 0.01 + 0.09 + 0.09) / 3 = 0.2 / 3


def test_mcnemar_thresholds_by_hand() -> None:
    """t discordant cases, b of them passed->failed: rejected when 2 P[Bin(t, 1/2) <= t - b] <
    0.05. Up to t = 5 not even b = t is (2 / 32 = 0.0625): t + 1. t = 6: 2 / 64 rejects, 2 * 7 / 64
    does not: 6. t = 7: 2 / 128 yes, 2 * 8 / 128 no: 7. t = 8: 2 * 9 / 256 = 0.07 no: 8. t = 9:
    2 * 10 / 512 = 0.039 yes, 2 * 46 / 512 no: 8. t = 10: 2 * 11 / 1024 = 0.021 yes, 2 * 56 / 1024
    no: 9."""
    assert power._mcnemar_thresholds(10, 0.05) == (1, 2, 3, 4, 5, 6, 6, 7, 8, 8, 9)


def test_mcnemar_thresholds_reject_only_below_alpha() -> None:
    """At alpha = 1/16, 5 of 5 has p = 2 / 32 = 1/16 exactly: not below alpha, so t = 5 has no
    threshold (6); 6 of 6 (p = 1/32) has."""
    assert power._mcnemar_thresholds(6, 1 / 16) == (1, 2, 3, 4, 5, 6, 6)


def test_mcnemar_thresholds_against_scipy() -> None:
    """The fewest b > t - b that scipy's two-sided binomial test rejects at 0.01, t = 0..20."""
    expected = [
        min(
            (b for b in range(t + 1) if b > t - b and stats.binomtest(b, t).pvalue < 0.01),
            default=t + 1,
        )
        for t in range(21)
    ]
    assert power._mcnemar_thresholds(20, 0.01) == tuple(expected)


def _as_list(value: object) -> object:
    """An array's values as lists, anything else as it is (so a None fails the comparison)."""
    return value.tolist() if isinstance(value, np.ndarray) else value


def test_grid_by_hand() -> None:
    """Six cases: log k! for k = 0..6, t a column and b a row of 0..6, and the one rejected cell at
    0.05: all six discordant cases passed->failed (t = b = 6)."""
    log_factorial, t, b, reject = power._grid(6, 0.05)
    expected = [math.log(math.factorial(k)) for k in range(7)]
    assert _as_list(log_factorial) == pytest.approx(expected, rel=1e-14, abs=1e-15)
    assert _as_list(t) == [[k] for k in range(7)]
    assert _as_list(b) == [list(range(7))]
    assert _as_list(reject) == [[(i, j) == (6, 6) for j in range(7)] for i in range(7)]


@pytest.mark.parametrize(
    ("cases", "log_factorial_expected"),
    [(-1, [0.0]), (0, [0.0]), (2, [0.0, 0.0, math.log(2)])],
)
def test_grid_of_too_few_cases_to_reject(cases: int, log_factorial_expected: list[float]) -> None:
    """Two cases or none (or fewer: the same empty grid): max(cases, 0) + 1 log-factorials, cases
    + 1 values of t and b, nothing rejected."""
    log_factorial, t, b, reject = power._grid(cases, 0.05)
    size = cases + 1
    assert _as_list(log_factorial) == pytest.approx(log_factorial_expected, rel=1e-15, abs=0)
    assert _as_list(t) == [[k] for k in range(size)]
    assert _as_list(b) == [list(range(size))]
    assert _as_list(reject) == [[False] * size for _ in range(size)]


def test_the_log_pmf_reads_n_minus_k() -> None:
    """A table of log k! to 20, longer than any n + k asked: each term is the binomial's."""
    log_factorial = np.concatenate(([0.0], np.cumsum(np.log(np.arange(1, 21)))))
    found = power._log_pmf(log_factorial, np.array([10, 4, 6]), np.array([3, 2, 6]), 0.3)
    expected = [stats.binom.logpmf(k, n, 0.3) for n, k in ((10, 3), (4, 2), (6, 6))]
    assert found.tolist() == pytest.approx(expected, rel=1e-12, abs=0)


def test_mcnemar_detectable_at_the_edges_of_power() -> None:
    """In the order a broken bisection shows first (a wrong value, before any loop that would not
    end). A power every drop reaches (1e-9; at 20 cases and 30% even the smallest point has about
    1%, the chance of a rejection in the drop's direction with almost no drop) halves [0, 0.3] to
    its resolution, the first width <= 1e-4: 0.3 / 2^12 (0.3 / 2^11 = 1.5e-4 is wider). A width of
    exactly 1e-4 stops: a rate of 1e-4 * 2^12 gives 1e-4. A power of 1 asked of 6 cases all
    passing: a drop to 0 is certain (all six passed->failed, p = 2 / 64) and no smaller drop is
    (every case must drop: d^6 < 1), so 1.0, not inf. A power of 0 asked: every drop is seen that
    often, so one case gives the resolution (0.5 / 2^13); no case is no test at all: inf."""
    assert mcnemar_detectable(20, 0.3, power=1e-9) == 0.3 / 2**12
    assert mcnemar_detectable(20, 1e-4 * 2**12, power=1e-9) == 1e-4
    assert mcnemar_detectable(6, 1.0, power=1.0) == 1.0
    assert mcnemar_detectable(1, 0.5, power=0.0) == 0.5 / 2**13
    assert mcnemar_detectable(0, 0.5, power=0.0) == math.inf


def test_too_few_cases_detect_nothing() -> None:
    """Five cases, each passing: even all five going passed->failed has p = 2 / 32 = 0.0625, so no
    drop is ever seen: inf (not the rate). The repeats needed for 10 points at no noise (sigma 0):
    room = 5 * 0.01 / Z^2 = 0.00637, 0.09 / room = 14.1: 15."""
    assert mcnemar_power(5, 1.0, 1.0) == 0.0
    assert mcnemar_detectable(5, 1.0) == math.inf
    assert rerun_power([(1, 1)] * 5, 1, 10.0) == Power(5, math.inf, 10.0, 15, "at most")


def test_paired_power_with_only_a_noise_known_by_hand() -> None:
    """Only A's within variance known, 0.06 at K_A 1; K_B 10, target 40: A's repeats explain 0.06
    of the variance 0.0667, B's noise is the rest times K_B, 0.0067 * 10 = 0.0667; within 0.1267,
    room 4 * 0.16 / Z^2 = 0.0815, (0.1267 + 0.24) / room = 4.5: 5."""
    room = 4 * 0.16 / power.Z**2
    assert 4 < (0.06 + (0.2 / 3 - 0.06) * 10 + 0.24) / room < 5
    assert paired_power(D, 0.06, None, 1, 10, 40.0).repeats_needed == 5


def test_paired_power_with_only_b_noise_known_by_hand() -> None:
    """The mirror: only B's known, 0.06 at K_B 1; K_A 10: A's noise (0.0667 - 0.06) * 10, the
    same 5."""
    assert paired_power(D, None, 0.06, 10, 1, 40.0).repeats_needed == 5


def test_paired_power_whole_against_a_root_finder() -> None:
    """Both noises known (0.02 at K_A 2, 0.04 at K_B 4), target 60: the detectable drop is the root
    of n d^2 = Z^2 (variance + d (1 - d) / K_B) in (0, 1), found by scipy's brentq; 3 repeats (see
    test_power.py's both-known case)."""
    variance = 0.2 / 3
    root = optimize.brentq(lambda d: _drop_residual(4, variance, 4, d), 1e-9, 1.0, xtol=1e-15)
    found = paired_power(D, 0.02, 0.04, 2, 4, 60.0)
    assert found == Power(4, pytest.approx(100 * root, rel=1e-12), 60.0, 3, "exact")
