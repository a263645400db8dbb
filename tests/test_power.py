"""scorer/stats/power.py, value by value: the within-case variance, the smallest detectable drop and
the repeats needed (Miller's equation with this tool's drop term, written out here), the exact
McNemar power against an enumeration of every outcome of a few cases (scipy's binomial test deciding
each), and the two power summaries on boards small enough to follow by hand. Milliseconds; the
simulations are tests/test_power_and_tiers_sim.py."""

from __future__ import annotations

import math

import pytest
from scipy import stats

from scorer.stats import power
from scorer.stats.power import (
    MAX_REPEATS,
    Power,
    Z,
    detectable_drop,
    mcnemar_power,
    paired_power,
    repeats_needed,
    rerun_power,
    within_variance,
)

Z2 = Z * Z


def test_the_z_values_are_the_normal_quantiles() -> None:
    assert pytest.approx(stats.norm.ppf(0.975), rel=1e-15, abs=0) == power.Z_ALPHA
    assert pytest.approx(stats.norm.ppf(0.80), rel=1e-15, abs=0) == power.Z_POWER
    assert pytest.approx(stats.norm.ppf(0.975) + stats.norm.ppf(0.80), rel=1e-15, abs=0) == Z
    assert MAX_REPEATS == 1000


def test_within_variance_by_hand() -> None:
    """(1, 2): 1/2 * 1/2 * 2/1 = 1/2; (3, 4): 3/4 * 1/4 * 4/3 = 1/4; (5, 5): 0; (0, 1) has one
    repeat and does not enter: the mean of the three, 1/4."""
    assert within_variance([(1, 2), (3, 4), (5, 5), (0, 1)]) == pytest.approx(
        0.25, rel=1e-15, abs=0
    )
    assert within_variance([(1, 1), (0, 1)]) is None
    assert within_variance([]) is None


def _drop_residual(n: int, variance: float, k: float, delta: float) -> float:
    """n delta^2 - Z^2 (variance + delta (1 - delta) / K): 0 at the smallest detectable drop."""
    return n * delta * delta - Z2 * (variance + delta * (1 - delta) / k)


@pytest.mark.parametrize(("n", "variance", "k"), [(80, 0.01, 1), (80, 0.2, 3), (20, 0.05, 2.5)])
def test_detectable_drop_solves_the_equation(n: int, variance: float, k: float) -> None:
    delta = detectable_drop(n, variance, k)
    assert 0 < delta < 1
    assert _drop_residual(n, variance, k, delta) == pytest.approx(0.0, abs=1e-12)


def test_detectable_drop_by_hand() -> None:
    """No variance: delta = (Z^2 / K) / (n + Z^2 / K); a negative variance counts as 0; no case or
    a variance no drop can beat: 1."""
    assert detectable_drop(100, 0.0, 2) == pytest.approx(
        (Z2 / 2) / (100 + Z2 / 2), rel=1e-14, abs=0
    )
    assert detectable_drop(100, -0.5, 2) == pytest.approx(
        (Z2 / 2) / (100 + Z2 / 2), rel=1e-14, abs=0
    )
    assert detectable_drop(0, 0.1, 1) == 1.0
    assert detectable_drop(-3, 0.1, 1) == 1.0
    assert detectable_drop(2, 5.0, 1) == 1.0


def test_repeats_needed_by_hand() -> None:
    """room = n t^2 / Z^2 - between; K = ceil((within + t (1 - t)) / room). n = 80, t = 0.1,
    within 0.5: room = 0.8 / Z^2 = 0.1019, (0.5 + 0.09) / room = 5.79: 6."""
    room = 80 * 0.01 / Z2
    assert 5 < (0.5 + 0.09) / room < 6
    assert repeats_needed(80, 0.0, 0.5, 0.1) == 6
    # between takes its share of the room first: room 0.1019 - 0.05, (0.59) / 0.0519 = 11.4: 12
    assert 11 < 0.59 / (room - 0.05) < 12
    assert repeats_needed(80, 0.05, 0.5, 0.1) == 12
    # nothing to measure: at least one repeat
    assert repeats_needed(8000, 0.0, 0.0, 0.1) == 1
    assert repeats_needed(80, room, 0.5, 0.1) is None  # no room left
    assert repeats_needed(80, 0.2, 0.5, 0.1) is None
    assert repeats_needed(0, 0.0, 0.5, 0.1) is None
    assert repeats_needed(-1, -1.0, 0.5, 0.1) is None


def test_repeats_needed_stops_at_the_cap() -> None:
    """room 1e-3 exactly (between chosen so): K = (within + t (1 - t)) / 1e-3; 1000 is allowed,
    1001 is None. t = 0.1, n = 80: within + 0.09 = 1.0 gives 1000 (a ratio a hair over an integer
    from rounding is still that integer), 1.001 gives 1001."""
    between = 80 * 0.01 / Z2 - 1e-3
    assert repeats_needed(80, between, 0.91, 0.1) == 1000
    assert repeats_needed(80, between, 0.911, 0.1) is None


def _reference_power(n: int, rate: float, drop: float, alpha: float = 0.05) -> float:
    """Every (b, c) of n cases (b passed->failed, c failed->passed, the rest agreeing), its
    multinomial probability, rejected when b > c and scipy's two-sided binomial test is < alpha."""
    high, low = rate * (1 - rate + drop), (1 - rate) * (rate - drop)
    same = 1 - high - low
    total = 0.0
    for b in range(n + 1):
        for c in range(n + 1 - b):
            if b > c and stats.binomtest(b, b + c, 0.5).pvalue < alpha:
                ways = math.factorial(n) // (
                    math.factorial(b) * math.factorial(c) * math.factorial(n - b - c)
                )
                total += ways * high**b * low**c * same ** (n - b - c)
    return total


@pytest.mark.parametrize(
    ("n", "rate", "drop"), [(8, 0.8, 0.3), (10, 0.5, 0.4), (12, 0.9, 0.5), (9, 0.6, 0.6)]
)
def test_mcnemar_power_is_the_enumerated_rejection_region(n: int, rate: float, drop: float) -> None:
    assert mcnemar_power(n, rate, drop) == pytest.approx(
        _reference_power(n, rate, drop), rel=1e-9, abs=0
    )


def test_mcnemar_power_at_a_stricter_alpha() -> None:
    assert mcnemar_power(10, 0.7, 0.5, alpha=0.01) == pytest.approx(
        _reference_power(10, 0.7, 0.5, alpha=0.01), rel=1e-9
    )


def test_mcnemar_power_when_every_discordant_case_dropped_by_hand() -> None:
    """rate 1, drop 1: every case goes passed->failed; n of n rejects when 2 / 2^n < 0.05, so from
    n = 6. rate = drop = 1/2: half the cases drop, none rises; t ~ Bin(n, 1/2) rejects from t = 6:
    at n = 6, 1/64; at n = 7, (7 + 1) / 128."""
    assert mcnemar_power(6, 1.0, 1.0) == 1.0
    assert mcnemar_power(5, 1.0, 1.0) == 0.0
    assert mcnemar_power(6, 0.5, 0.5) == pytest.approx(1 / 64, rel=1e-12, abs=0)
    assert mcnemar_power(7, 0.5, 0.5) == pytest.approx(1 / 16, rel=1e-12, abs=0)


def test_mcnemar_power_without_a_drop_to_see() -> None:
    """No case, no discordance (rate 0 and no drop), or nothing going passed->failed: 0."""
    assert mcnemar_power(0, 0.5, 0.2) == 0.0
    assert mcnemar_power(-1, 0.5, 0.2) == 0.0
    assert mcnemar_power(-5, 0.5, 0.2) == 0.0
    assert mcnemar_power(10, 0.0, 0.0) == 0.0
    assert mcnemar_power(10, 0.0, -0.3) == 0.0  # a rise from 0: only failed->passed
    assert mcnemar_power(10, 1.0, 0.0) == 0.0  # rate 1 and no drop: nothing discordant


def test_the_log_pmf_is_the_binomials() -> None:
    import numpy as np

    log_factorial = np.concatenate(([0.0], np.cumsum(np.log(np.arange(1, 11)))))
    found = power._log_pmf(log_factorial, np.array([10, 10, 4]), np.array([3, 10, 0]), 0.3)
    expected = [stats.binom.logpmf(3, 10, 0.3), stats.binom.logpmf(10, 10, 0.3)]
    expected.append(stats.binom.logpmf(0, 4, 0.3))
    assert found.tolist() == pytest.approx(expected, rel=1e-12, abs=0)


def test_rerun_power_with_repeats_by_hand() -> None:
    """Four cases of (1, 2) and four of (2, 2), K = 2: within variance (1/2 * 4 + 0 * 4) / 8 = 1/4,
    so the variance is 2 * (1/4) / 2 = 1/4; overall 12 / 16; target 50 points: room = 8 * 0.25 /
    Z^2 = 0.2548, (2 * 1/4 + 1/4) / room = 2.94: 3 repeats."""
    counts = [(1, 2)] * 4 + [(2, 2)] * 4 + [(0, 0)]
    found = rerun_power(counts, 2, 50.0)
    delta = detectable_drop(8, 0.25, 2)
    assert _drop_residual(8, 0.25, 2, delta) == pytest.approx(0.0, abs=1e-12)
    assert 2 < 0.75 / (8 * 0.25 / Z2) < 3
    assert delta < 0.75
    assert found == Power(8, pytest.approx(100 * delta, rel=1e-14, abs=0), 50.0, 3, "exact")


def test_rerun_power_past_the_overall_is_inf() -> None:
    """The same variance with every case near 0: overall 1/8 (2 of 16 passed) leaves no room for
    the drop the test needs; the repeats needed do not depend on it."""
    counts = [(1, 2)] * 2 + [(0, 2)] * 6
    found = rerun_power(counts, 2, 50.0)
    assert found.detectable == math.inf and found.bound == "exact" and found.cases == 8


def test_rerun_power_with_one_sample_per_case_by_hand() -> None:
    """K = 1, 15 of 20 passed: every case taken to pass with the run's rate 3/4 (sigma = 3/16); the
    detectable drop is where the exact McNemar test reaches 80% power (checked against the
    enumeration, to the bisection's 1e-4); repeats needed for 30 points: room = 20 * 0.09 / Z^2
    = 0.229, (2 * 3/16 + 0.21) / room = 2.55: 3."""
    assert 2 < (2 * 3 / 16 + 0.21) / (20 * 0.09 / Z2) < 3
    counts = [(1, 1)] * 15 + [(0, 1)] * 5
    found = rerun_power(counts, 1, 30.0)
    assert (found.cases, found.target, found.repeats_needed, found.bound) == (
        20,
        30.0,
        3,
        "at most",
    )
    drop = found.detectable / 100
    assert _reference_power(20, 0.75, drop) >= 0.8
    assert _reference_power(20, 0.75, drop - 2e-4) < 0.8


def test_rerun_power_with_repeats_asked_but_none_measured() -> None:
    """Repeats 2 asked but every case scored once: no within variance, the one-sample bound; with
    nothing scored, overall 0: inf and no repeats needed."""
    assert rerun_power([(1, 1)] * 6 + [(0, 1)] * 2, 2, 50.0).bound == "at most"
    nothing = rerun_power([(0, 0), (0, 0)], 1, 5.0)
    assert nothing == Power(0, math.inf, 5.0, None, "at most")


def test_paired_power_with_both_noises_known_by_hand() -> None:
    """d = 0.1, -0.1, 0.3, -0.3 (mean 0, variance 0.2 / 3); within 0.02 and 0.04 at K 2 and 4:
    between = 0.2/3 - 0.01 - 0.01; the detectable drop uses the observed variance at K_B = 4."""
    d = [0.1, -0.1, 0.3, -0.3]
    variance = (0.01 + 0.01 + 0.09 + 0.09) / 3
    found = paired_power(d, 0.02, 0.04, 2, 4, 60.0)
    delta = found.detectable / 100
    assert _drop_residual(4, variance, 4, delta) == pytest.approx(0.0, abs=1e-12)
    # room = 4 * 0.36 / Z^2 - (0.2/3 - 0.02) = 0.1368; (0.06 + 0.24) / room = 2.19: 3
    room = 4 * 0.36 / Z2 - (variance - 0.02)
    assert 2 < 0.3 / room < 3
    assert (found.cases, found.target, found.repeats_needed, found.bound) == (4, 60.0, 3, "exact")


def test_paired_power_with_a_noise_unknown_by_hand() -> None:
    """d = 0.1, -0.1, 0.3, -0.3 (variance 0.2 / 3 = 0.0667), K_A = 1, K_B = 10, target 40 points:
    room = 4 * 0.16 / Z^2 = 0.0815. Only B's noise known (0.04): A's is what the variance leaves
    (0.0667 - 0.004) times K_A, within 0.1027, (0.1027 + 0.24) / room = 4.2: 5. Only A's known
    (0.02): B's is (0.0667 - 0.02) times K_B, within 0.4867, ratio 8.9: 9. Neither: all the
    variance is A's, times K_A, ratio 3.76: 4."""
    d = [0.1, -0.1, 0.3, -0.3]
    variance = 0.2 / 3
    room = 4 * 0.16 / Z2
    assert 4 < (0.04 + (variance - 0.004) + 0.24) / room < 5
    assert 8 < (0.02 + (variance - 0.02) * 10 + 0.24) / room < 9
    assert 3 < (variance + 0.24) / room < 4
    detectable = pytest.approx(100 * detectable_drop(4, variance, 10), rel=1e-14, abs=0)
    assert paired_power(d, None, 0.04, 1, 10, 40.0) == Power(4, detectable, 40.0, 5, "at least")
    assert paired_power(d, 0.02, None, 1, 10, 40.0) == Power(4, detectable, 40.0, 9, "at least")
    assert paired_power(d, None, None, 1, 10, 40.0) == Power(4, detectable, 40.0, 4, "at least")


def test_paired_power_of_one_case_or_none() -> None:
    """One case: no variance to measure (0); no case: detectable 100 (no drop is seen)."""
    one = paired_power([0.5], None, None, 1, 1, 10.0)
    assert one.cases == 1 and one.detectable == pytest.approx(100 * Z2 / (1 + Z2), rel=1e-14, abs=0)
    assert paired_power([], None, None, 1, 1, 10.0) == Power(0, 100.0, 10.0, None, "at least")


def test_paired_power_of_two_cases_with_a_mean() -> None:
    """d = 0.2, 0.4: mean 0.3, variance ((-0.1)^2 + 0.1^2) / 1 = 0.02 (not the raw squares' 0.2,
    and measured from two cases on): the detectable drop solves the equation at 0.02, K_B = 3."""
    found = paired_power([0.2, 0.4], None, None, 1, 3, 50.0)
    assert found.cases == 2
    assert _drop_residual(2, 0.02, 3, found.detectable / 100) == pytest.approx(0.0, abs=1e-12)


def test_paired_power_takes_both_known_noises_off_the_variance() -> None:
    """d = 0.1, -0.1, 0.3, -0.3 (variance 0.2 / 3), within A 0.02 at K 1, B 0.04 at K 2, target
    50: between = 0.0667 - 0.02 - 0.02 = 0.0267, room = 4 * 0.25 / Z^2 - 0.0267 = 0.1007,
    (0.06 + 0.25) / room = 3.08: 4 (adding a side's noise instead leaves room 0.0607: 6)."""
    room = 4 * 0.25 / Z2 - (0.2 / 3 - 0.04)
    assert 3 < 0.31 / room < 4
    found = paired_power([0.1, -0.1, 0.3, -0.3], 0.02, 0.04, 1, 2, 50.0)
    assert (found.repeats_needed, found.bound) == (4, "exact")


def test_paired_power_with_one_noise_known_counts_it_once() -> None:
    """The same d (variance 0.0667). Only B's known, 0.02 at K_B 2, K_A 3, target 40: A's noise is
    (0.0667 - 0.01) * 3 = 0.17, within 0.19, room 4 * 0.16 / Z^2 = 0.0815, (0.19 + 0.24) / room =
    5.27: 6. Only A's known, 0.03 at K_A 2, K_B 3, target 50: B's is (0.0667 - 0.015) * 3 = 0.155,
    within 0.185, room 0.1274, (0.185 + 0.25) / room = 3.41: 4."""
    d = [0.1, -0.1, 0.3, -0.3]
    assert 5 < (0.02 + (0.2 / 3 - 0.01) * 3 + 0.24) / (4 * 0.16 / Z2) < 6
    assert 3 < (0.03 + (0.2 / 3 - 0.015) * 3 + 0.25) / (4 * 0.25 / Z2) < 4
    assert paired_power(d, None, 0.02, 3, 2, 40.0).repeats_needed == 6
    assert paired_power(d, 0.03, None, 2, 3, 50.0).repeats_needed == 4


def test_repeats_needed_of_zero_cases_and_of_one() -> None:
    """No case: None, even with a between below 0 that would leave room; one case, t = 0.9:
    room = 0.81 / Z^2 = 0.103, (0 + 0.09) / room = 0.87: 1."""
    assert repeats_needed(0, -1.0, 0.5, 0.1) is None
    assert 0 < 0.09 / (0.81 / Z2) < 1
    assert repeats_needed(1, 0.0, 0.0, 0.9) == 1


def test_rerun_power_of_one_sample_asked_reads_no_within_variance() -> None:
    """repeats 1 with cases scored twice: the one-sample bound ("at most"), not the measured one."""
    assert rerun_power([(1, 2)] * 4 + [(2, 2)] * 4, 1, 50.0).bound == "at most"


def test_mcnemar_power_is_at_most_one() -> None:
    """30 cases at 95% dropping to 0%: a power is a probability; the region's summed float terms
    pass 1 by rounding here, and the power is 1 exactly."""
    assert mcnemar_power(30, 0.95, 0.95) == 1.0


def test_mcnemar_power_when_the_changes_cancel() -> None:
    """rate 1/4, drop 3/4 (past the rate): passed->failed 1/4 * 3/2 = 3/8, failed->passed 3/4 *
    (-1/2) = -3/8: nothing discordant in sum, 0."""
    assert mcnemar_power(10, 0.25, 0.75) == 0.0


def test_within_variance_of_three_and_four_repeats_by_hand() -> None:
    """(1, 4): 1/4 * 3/4 * 4/3 = 1/4; (2, 3): 2/3 * 1/3 * 3/2 = 1/3; the mean 7/24."""
    assert within_variance([(1, 4), (2, 3)]) == pytest.approx(7 / 24, rel=1e-15, abs=0)


def test_repeats_needed_when_the_cases_differ_too_much() -> None:
    """n = 80, t = 0.1: room = 0.8 / Z^2 - 0.2 < 0: no number of repeats, None (not 1)."""
    assert repeats_needed(80, 0.2, 0.5, 0.1) is None
