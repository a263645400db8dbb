"""The CUSUM's tail exponent and the adaptive threshold (scorer/drift/exponent.py,
docs/decisions/drift.md#adaptive): theta against scipy's root of the cumulant generating function,
and small references worked out by hand (a single case, a case left out, a reference that never
varied, the skewed branch)."""

from __future__ import annotations

import math
import warnings
from collections.abc import Callable

import numpy as np
import pytest

from scorer.drift.cusum import DEFAULT


@pytest.mark.parametrize("kappa", [0.75, 1.5])
@pytest.mark.parametrize(
    ("passed", "tried", "k"),
    [((29,) * 80, (30,) * 80, 1), ((30, 0, 22, 15, 8, 29, 28) * 10, (30,) * 70, 1),
     ((30, 30, 30, 0, 22) * 16, (30,) * 80, 1), ((87,) * 80, (90,) * 80, 3)],
)  # fmt: skip
def test_the_tail_exponent_is_the_cusum_s_lundberg_root_to_a_few_percent(
    passed: tuple[int, ...], tried: tuple[int, ...], k: int, kappa: float
) -> None:
    """scorer/drift/exponent.py (docs/decisions/drift.md#adaptive): theta, from the score's
    cumulant series cut after its third term, is within 8% of the exact positive root of
    log E exp(theta (-z - kappa)) = 0 for independent binomial shares (scipy's brentq), and exactly
    2 kappa / V when no case is skewed (every rate 1/2: V = 1)."""
    from scipy.optimize import brentq

    from scorer.drift.exponent import PRIOR, tail_exponent

    m, n = np.array(passed, dtype=float), np.array(tried, dtype=float)
    s = (m + DEFAULT.prior) / (n + 2 * DEFAULT.prior)
    w = 1 / (s * (1 - s) + DEFAULT.ridge)
    sigma = math.sqrt(float((w * w * s * (1 - s) / k).sum()))
    q = (m + PRIOR) / (n + 2 * PRIOR)

    def cgf(theta: float) -> float:
        shares = k * np.log(1 - q + q * np.exp(-theta * w / (k * sigma))) + theta * w * q / sigma
        return float(shares.sum()) - theta * kappa

    got = float(tail_exponent(m, n, np.full(len(m), k), kappa, DEFAULT.ridge, DEFAULT.prior))
    assert got == pytest.approx(brentq(cgf, 1e-6, 200.0), rel=0.08)
    half = np.full(80, 15.0), np.full(80, 30.0), np.ones(80)
    symmetric = float(tail_exponent(*half, kappa, DEFAULT.ridge, DEFAULT.prior))
    assert symmetric == pytest.approx(2 * kappa, rel=1e-12)


def test_the_adaptive_threshold_is_c_over_theta_kept_within_its_range() -> None:
    """scorer/drift/exponent.py's threshold: c / theta, clipped to [low, high]; a reference with
    no usable case (theta NaN) or a theta <= 0 gets the highest threshold, the cautious one."""
    from scorer.drift.exponent import threshold

    theta = np.array([1.0, 2.0, 0.5, np.nan, 0.0, -1.0, 10.0])
    got = threshold(theta, 8.0, 4.0, 8.0)
    assert got.tolist() == [8.0, 4.0, 8.0, 8.0, 8.0, 8.0, 4.0]
    assert threshold(np.array([1.6]), 8.0, 4.0, 8.0).tolist() == [5.0]
    assert threshold(np.array([[2.5, 4.0]]), 10.0, 3.0, 4.0).tolist() == [[4.0, 3.0]]


# Small references by hand. prior = PRIOR = 0.02, so a case's shrunk rate s and its rate q agree:
# m = 0.48 of n = 0.96 (a reference of less than one trial, still used) gives s = q = 1/2, m = 2.98
# of n = 3.96 gives 3/4. The ridge 0.3125 makes
# their weights 1 / (1/4 + 0.3125) = 16/9 and 1 / (3/16 + 0.3125) = 2.
HALF, THREE_QUARTERS = (0.48, 0.96), (2.98, 3.96)


def _skewed_root(v: float, t: float, kappa: float) -> float:
    """The positive root of (t / 6) x^2 + (v / 2) x - kappa = 0, by the quadratic formula."""
    return (math.sqrt(v * v / 4 + 2 * t * kappa / 3) - v / 2) / (t / 3)


def test_one_skewed_case_by_hand() -> None:
    """One case at 3/4, one trial: V / scale = 1, the third cumulant 8 * 3/16 * 1/2 = 3/4 over
    (4 * 3/16)^1.5 = (3/4)^1.5, so the skew is 2 / sqrt(3) whatever the weight."""
    from scorer.drift.exponent import tail_exponent

    got = tail_exponent(np.array([2.98]), np.array([3.96]), np.array([1]), 0.75, 0.3125, 0.02)
    assert got.dtype == np.float64
    assert got.tolist() == pytest.approx(_skewed_root(1.0, 2 / math.sqrt(3), 0.75), rel=1e-9)
    assert float(got) == pytest.approx(_skewed_root(1.0, 2 / math.sqrt(3), 0.75), rel=1e-9)
    assert float(got) == pytest.approx(
        1.0641, abs=1e-4
    )  # 3 sqrt(3) / 2 (sqrt(1/4 + 1/sqrt(3)) - 1/2)


def test_two_cases_their_trials_and_the_cases_left_out_by_hand() -> None:
    """The 1/2 case with one trial, the 3/4 case with two; a case with no trial in run t and one
    with no reference trial are left out. scale = V = (16/9)^2 / 4 + 4 * 3/16 / 2 = 64/81 + 3/8;
    the third cumulant is the 3/4 case's alone, 8 * 3/16 * 1/2 / 2^2 = 3/16."""
    from scorer.drift.exponent import tail_exponent

    passed = np.array([HALF[0], THREE_QUARTERS[0], 5.0, 0.0])
    tried = np.array([HALF[1], THREE_QUARTERS[1], 9.0, 0.0])
    trials = np.array([1, 2, 0, 3])
    scale = 64 / 81 + 3 / 8
    expected = _skewed_root(1.0, (3 / 16) / scale**1.5, 1.5)
    got = tail_exponent(passed, tried, trials, 1.5, 0.3125, 0.02)
    assert got.dtype == np.float64
    assert got.tolist() == pytest.approx(expected, rel=1e-9)
    # the skew is below 1 here (0.149): the skewed root, not 2 kappa / V = 3.0
    assert float(got) == pytest.approx(2.6508, abs=1e-4)
    # any leading axes: two runs at once, the second with only the 1/2 case (no skew: 2 kappa)
    stacked = tail_exponent(
        np.stack([passed, passed]), np.stack([tried, tried]), np.array([trials, [1, 0, 0, 0]]),
        1.5, 0.3125, 0.02,
    )  # fmt: skip
    assert stacked.shape == (2,)
    assert stacked.tolist() == pytest.approx([expected, 3.0], rel=1e-9)


def test_runs_and_cases_on_their_own_axes() -> None:
    """Square arrays, so a sum over the wrong axis gives numbers, not a shape error: two runs of
    the two cases above (trials (1, 2), then (1, 0): the second is the 1/2 case alone, 2 kappa =
    3.0), and two such histories at once (leading axes)."""
    from scorer.drift.exponent import tail_exponent

    expected = _skewed_root(1.0, (3 / 16) / (64 / 81 + 3 / 8) ** 1.5, 1.5)
    passed = np.array([[HALF[0], THREE_QUARTERS[0]]] * 2)
    tried = np.array([[HALF[1], THREE_QUARTERS[1]]] * 2)
    trials = np.array([[1, 2], [1, 0]])
    got = tail_exponent(passed, tried, trials, 1.5, 0.3125, 0.02)
    assert got.tolist() == pytest.approx([expected, 3.0], rel=1e-9)
    both = tail_exponent(
        np.stack([passed, passed]), np.stack([tried, tried]), np.stack([trials, trials[::-1]]),
        1.5, 0.3125, 0.02,
    )  # fmt: skip
    assert both.tolist() == [
        pytest.approx([expected, 3.0], rel=1e-9), pytest.approx([3.0, expected], rel=1e-9)
    ]  # fmt: skip


def test_a_reference_that_never_varied_gets_the_floor() -> None:
    """0 passes of 98 with the score's prior 1: s = 1/100, q = 0.02 / 98.04, so V / scale =
    q (1 - q) / (s (1 - s)) = 0.0206 < FLOOR = 0.05, and no skew (q < 1/2): theta =
    2 kappa / 0.05."""
    from scorer.drift.exponent import FLOOR, PRIOR, tail_exponent

    assert (FLOOR, PRIOR) == (0.05, 0.02)
    got = tail_exponent(np.array([0.0]), np.array([98.0]), np.array([1]), 0.75, 0.25, 1.0)
    assert got.dtype == np.float64
    assert got.tolist() == pytest.approx(30.0, rel=1e-9)


def _quiet(call: Callable[[], np.ndarray]) -> np.ndarray:
    """The call's result, asserting it warned of nothing (0 / 0 and x / 0 stay inside)."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        result = call()
    assert [str(w.message) for w in caught] == []
    return result


@pytest.mark.parametrize(
    ("passed", "tried", "trials", "prior"),
    [
        ([3], [0], [1], 0.25),  # no reference trial
        ([3], [4], [0], 0.25),  # no trial in run t
        ([0], [5], [1], 0.0),  # prior 0, never passed: the score's scale is 0 (theta would be 0)
        ([5], [5], [1], 0.0),  # prior 0, always passed: scale 0, V > 0
    ],
)
def test_nothing_to_scale_is_nan_without_a_warning(
    passed: list[int], tried: list[int], trials: list[int], prior: float
) -> None:
    """No case scored on both sides, or a score whose scale is 0: NaN, quietly."""
    from scorer.drift.exponent import tail_exponent

    arrays = np.array(passed), np.array(tried), np.array(trials)
    got = _quiet(lambda: tail_exponent(*arrays, 0.75, 0.25, prior))
    assert got.dtype == np.float64
    assert math.isnan(got.tolist())


def test_the_threshold_by_hand_and_quiet() -> None:
    """scale / theta within [low, high]: 2 / 0.5 = 4 and 2 / 0.4 = 5 (a theta under 1 is not
    the highest); NaN or 0 gives high, without a warning, even at scale 0 (0 / 0)."""
    from scorer.drift.exponent import threshold

    got = threshold(np.array([0.5, 0.4]), 2.0, 3.0, 8.0)
    assert got.dtype == np.float64
    assert got.tolist() == [4.0, 5.0]
    assert _quiet(lambda: threshold(np.array([0.0]), 8.0, 4.0, 8.0)).tolist() == [8.0]
    assert _quiet(lambda: threshold(np.array([0.0]), 0.0, 4.0, 8.0)).tolist() == [8.0]


def test_a_nan_theta_alone_gets_high_as_a_float() -> None:
    from scorer.drift.exponent import threshold

    nan = threshold(np.array([np.nan]), 8.0, 4.0, 8.0)
    assert nan.dtype == np.float64
    assert nan.tolist() == [8.0]


def test_counts_beyond_int64_are_read_as_floats() -> None:
    """Python ints past int64 are read as doubles (never an object array): at counts near 1e20 the
    priors (0.02, 0.25) are below a double's spacing, so q = s bit for bit, V / scale = 1, and the
    skew (about 1 / sqrt(k), k near 1e19) is under 1e-9: theta = 2 kappa = 1.5 exactly. The 16
    cases' sums then run in numpy's order (an object array's sums differ in the last bit). A
    threshold of such a theta: 8 / 2**70 clipped to low."""
    from scorer.drift.exponent import tail_exponent, threshold

    big = 2**64
    a = [2, 35, 26, 23, 10, 19, 8, 31, 19, 2, 10, 28, 21, 15, 10, 4]
    b = [24, 26, 21, 37, 37, 9, 24, 25, 10, 12, 20, 29, 12, 29, 26, 9]
    c = [2, 4, 4, 3, 1, 3, 1, 4, 4, 2, 4, 4, 2, 4, 2, 1]
    passed = [big * x + 1 for x in a]
    tried = [p + big * x + 1 for p, x in zip(passed, b, strict=True)]
    trials = [big * x + 1 for x in c]
    assert tail_exponent(passed, tried, trials, 0.75, 0.25, 0.25).tolist() == 1.5
    assert threshold([2**70], 8.0, 4.0, 8.0).tolist() == [4.0]


def test_both_allowances_from_one_reference_by_hand() -> None:
    """``tail_exponents`` (drift's two CUSUMs share a reference): the two cases above and a case
    left out, kappa 0.75 and 1.5 at once, each the skewed root of its own allowance (the cumulants
    do not depend on it), over two runs at once; the second run's 1/2 case alone gives 2 kappa."""
    from scorer.drift.exponent import tail_exponents

    skew = (3 / 16) / (64 / 81 + 3 / 8) ** 1.5
    passed = np.array([[HALF[0], THREE_QUARTERS[0], 5.0]] * 2)
    tried = np.array([[HALF[1], THREE_QUARTERS[1], 9.0]] * 2)
    trials = np.array([[1, 2, 0], [1, 0, 0]])
    low, high = tail_exponents(passed, tried, trials, (0.75, 1.5), 0.3125, 0.02)
    assert low.tolist() == pytest.approx([_skewed_root(1.0, skew, 0.75), 1.5], rel=1e-9)
    assert high.tolist() == pytest.approx([_skewed_root(1.0, skew, 1.5), 3.0], rel=1e-9)
    (alone,) = tail_exponents(passed[0], tried[0], trials[0], (0.75,), 0.3125, 0.02)
    assert float(alone) == pytest.approx(_skewed_root(1.0, skew, 0.75), rel=1e-9)
    # every case usable (the second case's run trials 2 of the first): the same sums
    every = tail_exponents(passed[0, :2], tried[0, :2], trials[0, :2], (1.5, 0.75), 0.3125, 0.02)
    assert [float(v) for v in every] == pytest.approx(
        [_skewed_root(1.0, skew, 1.5), _skewed_root(1.0, skew, 0.75)], rel=1e-9
    )
