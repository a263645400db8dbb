"""drift's CUSUM (scorer/drift/cusum.py) on histories small enough to work out by hand: the
hypergeometric variance, one run's score, the recursion, the reference frozen while the CUSUM
climbs, the thresholds of both rules and the allowance for runs that vary together. Every expected
value is written out from the module's docstring (docs/decisions/drift.md), not computed by the
code; milliseconds each, so the mutation benchmark can run them for every mutant."""

from __future__ import annotations

import math
import warnings
from dataclasses import replace

import numpy as np
import pytest

from scorer.drift.cusum import (
    DEFAULT,
    DriftSettings,
    Watch,
    cusum,
    drift_path,
    first_alarm,
    monitor,
    run_score,
    scores,
    share_variance,
    watch,
)

NAN = math.nan
# the constant rule, no allowance, one baseline run: the pre-round-3 test in its smallest form
PLAIN = replace(DEFAULT, baseline_runs=1, scale=None, dispersion_margin=None)


def _same(got: object, want: object, dtype: type = np.float64) -> None:
    """Exact dtype, shape and values (NaN equal to NaN), to 1e-12."""
    assert np.asarray(got).dtype == dtype, got
    arr = np.asarray(got, dtype=float)
    assert arr.shape == np.asarray(want).shape
    assert np.allclose(arr, want, rtol=1e-12, atol=1e-12, equal_nan=True), (arr, want)


@pytest.mark.parametrize(
    ("rate", "pooled", "drawn", "want"),
    [
        (0.5, 4, 2, 0.25 * 2 / (2 * 3)),  # p(1-p) (N - k) / (k (N - 1))
        (0.5, 2, 1, 0.25 * 1 / (1 * 1)),
        (0.3, 5, 1, 0.21 * 4 / (1 * 4)),
        (0.5, 3, 3, 0.0),  # every trial drawn: no variance left
        (0.5, 1.5, 0.5, 0.25 * 1 / (0.5 * 1)),  # N - 1 < 1: divided by 1, never by less
    ],
)
def test_share_variance_by_hand(rate: float, pooled: float, drawn: float, want: float) -> None:
    got = share_variance([rate], [pooled], [drawn])
    _same(got, [want])


def test_share_variance_reads_its_inputs_as_doubles() -> None:
    """Single-precision inputs are computed in doubles: 0.25 * 5 / (2 * 6) to 1e-12, where
    single precision is off by about 1e-8."""
    f32 = np.float32
    got = share_variance(np.array([0.5], f32), np.array([7.0], f32), np.array([2.0], f32))
    assert got.dtype == np.float64
    _same(got, [0.25 * 5 / 12])


def test_share_variance_keeps_the_shapes_of_its_arrays() -> None:
    got = share_variance(np.array([[0.5, 0.5], [0.5, 0.3]]), np.array([4, 2]), np.array([2, 1]))
    _same(got, [[1 / 12, 0.25], [1 / 12, 0.21]])


# One run against a reference, prior 0.5, ridge 0.25 (every shrunk rate is (m + 0.5) / (n + 1)):
#   A: reference 1 of 3, run 1 of 1 -> m 2 of n 4: share 1 - pooled 0.5 = 0.5, rate 0.5,
#      variance 0.25 * 3 / (1 * 3) = 0.25, weight 1 / (0.25 + 0.25) = 2
#   B: reference 2 of 2, run 1 of 2 -> 3 of 4: 0.5 - 0.75 = -0.25, rate 0.7,
#      variance 0.21 * 2 / (2 * 3) = 0.07, weight 1 / (0.21 + 0.25) = 1 / 0.46
#   C: reference 2 of 3, not run (0 of 0): left out
#   D: not in the reference, run 1 of 2: left out (nothing to compare with)
#   E: reference 3 of 3, run 0 of 1 -> 3 of 4: 0 - 0.75, rate 0.7, variance 0.21, weight 1 / 0.46
SMALL = replace(DEFAULT, prior=0.5, ridge=0.25)
REF_PASSED = [1.0, 2.0, 2.0, 0.0, 3.0]
REF_TRIED = [3.0, 2.0, 3.0, 0.0, 3.0]
PASSED = [1.0, 1.0, 0.0, 1.0, 0.0]
TRIED = [1.0, 2.0, 0.0, 2.0, 1.0]
COUNTS = (PASSED, TRIED, REF_PASSED, REF_TRIED)
SMALL_Z = (2 * 0.5 - 0.25 / 0.46 - 0.75 / 0.46) / math.sqrt(4 * 0.25 + (0.07 + 0.21) / 0.46**2)


def _score(*counts: object, settings: DriftSettings = DEFAULT) -> np.ndarray:
    """``run_score`` of counts given as lists (it takes arrays)."""
    passed, tried, ref_passed, ref_tried = (np.array(c, dtype=float) for c in counts)
    return run_score(passed, tried, ref_passed, ref_tried, settings)


def test_one_run_s_score_by_hand() -> None:
    _same(_score(PASSED, TRIED, REF_PASSED, REF_TRIED, settings=SMALL), SMALL_Z)


def test_one_run_s_score_with_the_default_prior_and_ridge() -> None:
    """prior 0.25: one case, reference 1 of 1, run 0 of 1 -> 1 of 2: share 0 - 0.5, rate
    1.25 / 2.5 = 0.5, variance 0.25 * 1 / (1 * 1): z = -0.5 / 0.5 = -1. Two cases: the first as
    that, the second reference 0 of 2, run 0 of 1 -> rate 0.25 / 3.5, its share equal to the
    pooled 0: z = -0.5 * 2 / sqrt(4 * 0.25 + w^2 v), w = 1 / (s (1 - s) + 0.25), v = s (1 - s)."""
    _same(_score([0.0], [1.0], [1.0], [1.0]), -1.0)
    s = 0.25 / 3.5
    w = 1 / (s * (1 - s) + 0.25)
    want = -1.0 / math.sqrt(1.0 + w * w * s * (1 - s))
    _same(_score([0.0, 0.0], [1.0, 1.0], [1.0, 0.0], [1.0, 2.0]), want)


def test_a_run_with_no_case_scored_on_both_sides_gets_no_score() -> None:
    _same(_score([1.0, 0.0], [1.0, 0.0], [0.0, 2.0], [0.0, 3.0]), NAN)
    _same(_score([1.0], [2.0], [2.0], [4.0]), 0.0)  # 1 of 2 against 3 of 6:: a score of 0, not NaN


def test_one_run_s_score_over_leading_axes() -> None:
    """Two histories of five cases (and a square 5 x 5 stack) at once: each row its own score."""
    flipped = [0.0, 0.0, 0.0, 0.0, 1.0]
    # A 0 of 1 -> m 1 of 4: 0 - 0.25, rate 1.5 / 5 = 0.3, variance 0.21, weight 1 / 0.46; B 0 of 2
    # -> 2 of 4: 0 - 0.5, rate 0.5, variance 0.25 * 2 / (2 * 3), weight 2; E 1 of 1 -> 4 of 4:
    # 1 - 1 = 0, rate 4.5 / 5 = 0.9, variance 0.09, weight 1 / 0.34
    other = (-0.25 / 0.46 - 2 * 0.5) / math.sqrt(0.21 / 0.46**2 + 4 / 12 + 0.09 / 0.34**2)
    got = _score([PASSED, flipped], [TRIED] * 2, [REF_PASSED] * 2, [REF_TRIED] * 2, settings=SMALL)
    _same(got, [SMALL_Z, other])
    square = _score([PASSED] * 5, [TRIED] * 5, [REF_PASSED] * 5, [REF_TRIED] * 5, settings=SMALL)
    _same(square, [SMALL_Z] * 5)


def test_one_run_s_score_with_every_case_usable_is_a_double() -> None:
    """A, B and E alone: the same score (C and D add nothing), a float64 array."""
    every = _score(*([row[i] for i in (0, 1, 4)] for row in COUNTS), settings=SMALL)
    assert every.dtype == np.float64
    _same(every, SMALL_Z)


def test_many_runs_scores_with_every_case_usable_are_doubles() -> None:
    """Two histories of A, B and E (the second with B's run flipped to 0 of 2: m 2 of 4, share 0
    - 0.5, rate 0.5, variance 0.25 * 2 / 6, weight 2)."""
    rows = [[row[i] for i in (0, 1, 4)] for row in COUNTS]
    flipped = [rows[0][0], 0.0, rows[0][2]]
    got = _score([rows[0], flipped], [rows[1]] * 2, [rows[2]] * 2, [rows[3]] * 2, settings=SMALL)
    other = (2 * 0.5 - 2 * 0.5 - 0.75 / 0.46) / math.sqrt(1.0 + 4 / 12 + 0.21 / 0.46**2)
    _same(got, [SMALL_Z, other])


def test_one_run_s_score_warns_of_nothing() -> None:
    """Cases left out (not run now, not in the reference, or in neither) and a run with no case
    to score raise no numpy warning; the score is a float64 array."""
    neither = [[*row, 0.0] for row in COUNTS]  # a sixth case: 0 of 0 in both
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        some = _score(*neither, settings=SMALL)
        none = _score([1.0, 0.0, 0.0], [1.0, 0.0, 0.0], [0.0, 2.0, 0.0], [0.0, 3.0, 0.0])
    assert caught == []
    _same(some, SMALL_Z)
    _same(none, NAN)


def test_one_run_s_score_over_two_leading_axes() -> None:
    """One stack of five histories of the five cases (as many histories as cases)."""
    got = _score(*([[row] * 5] for row in COUNTS), settings=SMALL)
    _same(got, [[SMALL_Z] * 5])


def test_a_share_of_a_repeat_is_scored_by_the_same_formula() -> None:
    """Weighted counts below one repeat: reference 0.25 of 0.25, run 0 of 0.5 -> m 0.25 of n
    0.75: share 0 - 1/3, rate 0.5 / 1.25 = 0.4, variance 0.24 * 0.25 / (0.5 * 1) (N - 1 below
    1 counts as 1): z = -1/3 / sqrt(0.12). Beside a case not run now (left out, so the masks are
    applied) the same score."""
    _same(_score([0.0], [0.5], [0.25], [0.25]), -1 / 3 / math.sqrt(0.12))
    _same(_score([0.0, 0.0], [0.5, 0.0], [0.25, 1.0], [0.25, 2.0]), -1 / 3 / math.sqrt(0.12))


def test_a_case_run_now_with_no_reference_trial_adds_nothing() -> None:
    """The share of a repeat above beside a case run now (1 of 1) with no reference trial, which
    is not usable (its share is its pooled share), two histories at once: the same doubles."""
    counts = ([0.0, 1.0], [0.5, 1.0], [0.25, 0.0], [0.25, 0.0])
    _same(_score(*([row] * 2 for row in counts)), [-1 / 3 / math.sqrt(0.12)] * 2)


def test_the_cusum_recursion_by_hand() -> None:
    """S_t = max(0, S_{t-1} - z_t - kappa); a run with no score leaves S as it was."""
    z = [NAN, -1.0, -2.0, NAN, 0.5, -3.0, 4.0]
    _same(cusum(z), [0.0, 0.25, 1.5, 1.5, 0.25, 2.5, 0.0])
    _same(cusum(z, replace(DEFAULT, kappa=0.5)), [0.0, 0.5, 2.0, 2.0, 1.0, 3.5, 0.0])


def test_a_last_run_with_no_score_keeps_the_cusum() -> None:
    _same(cusum([-1.0, NAN]), [0.25, 0.25])


def test_the_cusum_of_one_run() -> None:
    _same(cusum([-1.0]), [0.25])


def test_the_cusum_of_whole_scores() -> None:
    _same(cusum([-1, -2, 0, -3]), [0.25, 1.5, 0.75, 3.0])  # integers read as doubles


def test_the_cusum_of_no_run_is_empty() -> None:
    empty = cusum(np.zeros(0))
    assert isinstance(empty, np.ndarray) and empty.shape == (0,) and empty.dtype == np.float64
    two = cusum(np.zeros((2, 0)))
    assert isinstance(two, np.ndarray) and two.shape == (2, 0)


def test_the_cusum_of_many_histories_at_once() -> None:
    z = [[NAN, -1.0, -2.0, NAN, 0.5, -3.0, 4.0], [-1.0] * 7]
    want = [[0.0, 0.25, 1.5, 1.5, 0.25, 2.5, 0.0], [0.25, 0.5, 0.75, 1.0, 1.25, 1.5, 1.75]]
    _same(cusum(z), want)


def test_the_cusum_over_two_leading_axes() -> None:
    z = [
        [[-1, -2, 0, -3], [0, 0, 0, 0], [-2, -2, -2, -2]],
        [[1, 1, 1, 1], [-1, NAN, -1, -1], [-3, 0, 0, 0]],
    ]
    want = [
        [[0.25, 1.5, 0.75, 3.0], [0.0] * 4, [1.25, 2.5, 3.75, 5.0]],
        [[0.0] * 4, [0.25, 0.25, 0.5, 0.75], [2.25, 1.5, 0.75, 0.0]],
    ]
    _same(cusum(z), want)


def test_the_first_alarm_is_the_first_run_strictly_above_the_threshold() -> None:
    _same(first_alarm([7.0, 0.0, 9.0]), 0, np.int64)
    _same(first_alarm([0.0, 5.6, 5.7]), 2, np.int64)  # 5.6 is not above 5.6
    _same(first_alarm([0.0, 1.0, 2.0]), -1, np.int64)


SQUARE = [[0.0, 6.0, 7.0], [0.0, 5.6, 5.7], [0.0, 0.0, 0.0]]


def test_the_first_alarm_of_each_history() -> None:
    _same(first_alarm(SQUARE), [1, 2, -1], np.int64)
    _same(first_alarm(SQUARE, replace(DEFAULT, threshold=6.5)), [2, -1, -1], np.int64)


def test_the_first_alarm_over_two_leading_axes() -> None:
    other = [[7.0, 0.0, 0.0], [0.0, 0.0, 9.0], [0.0, 6.0, 0.0]]
    _same(first_alarm([SQUARE, other]), [[1, 2, -1], [0, 2, 1]], np.int64)


def test_either_cusum_above_its_own_threshold_alarms() -> None:
    def row(*values: float) -> np.ndarray:
        return np.array(values)

    w = Watch(
        z=row(0, 0, 0, 0, 0),
        statistic=row(1, 5, 0, 2, 3),
        end=row(0, 0, 0, 0, 0),
        limit=row(2, 4, 1, 2, 1),
        second=row(0, 0, 3, 1, 2),
        limit2=row(1, 1, 2, 1, 1),
        inflation=row(1, 1, 1, 1, 1),
    )
    assert w.alarms.tolist() == [False, True, True, False, True]


# One case, one repeat a run, passes 1 0 0 1 0 (a second case never scored), one baseline run,
# prior 0.25, kappa 0.75. Run 1 against run 0 (1 of 1): 0 - 1/2 over sqrt(0.5 * 0.5) = -1,
# S = 0.25. S > 0, so run 2 is compared with run 0 again: -1, S = 0.5. Run 3 (1) against run 0:
# m 2 of 2, share 1 - 1 = 0, S = max(0, 0.5 - 0.75) = 0. Run 4 against runs 0..3 (2 of 4): m 2 of
# 5, share 0 - 0.4, rate 2.25 / 5.5 = 9/22, variance 9/22 * 13/22 * 4 / (1 * 4): z = -0.4 * 22 /
# sqrt(117), S = 8.8 / sqrt(117) - 0.75.
H_PASSES = np.array([[1, 0], [0, 0], [0, 0], [1, 0], [0, 0]])
H_TRIALS = np.array([[1, 0], [1, 0], [1, 0], [1, 0], [1, 0]])
H_Z = [NAN, -1.0, -1.0, 0.0, -8.8 / math.sqrt(117)]
H_S = [0.0, 0.25, 0.5, 0.0, 8.8 / math.sqrt(117) - 0.75]
H_END = [-1, 0, 0, 0, 3]


def test_each_run_is_scored_against_the_runs_before_the_cusum_left_zero() -> None:
    z, statistic, end = monitor(H_PASSES, H_TRIALS, PLAIN)
    _same(z, H_Z)
    _same(statistic, H_S)
    _same(end, H_END, np.int64)
    assert end.dtype == np.int64
    _same(scores(H_PASSES, H_TRIALS, PLAIN), H_Z)
    w = watch(H_PASSES, H_TRIALS, PLAIN)
    _same(w.z, H_Z)
    _same(w.statistic, H_S)
    _same(w.end, H_END, np.int64)
    _same(w.limit, [5.6] * 5)
    _same(w.second, [0.0] * 5)
    _same(w.limit2, [math.inf] * 5)
    _same(w.inflation, [1.0] * 5)


def test_counts_are_read_as_doubles_with_the_settings_given() -> None:
    """Two baseline runs (1, 1) then a failure, prior 0.1, counts given in single precision:
    m 2 of 3, share 0 - 2/3, rate 2.1 / 3.2 = 21/32, variance 21/32 * 11/32 * 2 / (1 * 2):
    z = -2/3 * 32 / sqrt(231), to 1e-12 (single precision, or the default prior, is far off)."""
    settings = replace(PLAIN, baseline_runs=2, prior=0.1)
    passes, trials = np.array([[1], [1], [0]], np.float32), np.ones((3, 1), np.float32)
    want = [NAN, NAN, -2 / 3 * 32 / math.sqrt(231)]
    _same(watch(passes, trials, settings).z, want)
    _same(watch(passes.astype(float), trials, settings).z, want)
    _same(watch(passes, trials.astype(float), settings).z, want)
    _same(watch(passes.tolist(), trials.tolist(), settings).z, want)


# The history above with a run where its case was not scored after run 1 and another at the end:
# no score, the CUSUM and the reference kept; run 4 (1) is compared with run 0 (m 2 of 2: 0, S 0)
# and run 5 (0) with runs 0..4, whose counts are those of runs 0..3 above (2 of 4)
GAP_PASSES = np.array([[1], [0], [0], [0], [1], [0], [0]])
GAP_TRIALS = np.array([[1], [1], [0], [1], [1], [1], [0]])
GAP_Z = [NAN, -1.0, NAN, -1.0, 0.0, H_Z[4], NAN]
GAP_S = [0.0, 0.25, 0.25, 0.5, 0.0, H_S[4], H_S[4]]
GAP_END = [-1, 0, 0, 0, 0, 4, 4]


@pytest.mark.parametrize("settings", [PLAIN, replace(DEFAULT, baseline_runs=1)])
def test_a_run_with_nothing_scored_leaves_the_cusum_and_the_reference(
    settings: DriftSettings,
) -> None:
    w = watch(GAP_PASSES, GAP_TRIALS, settings)
    _same(w.z, GAP_Z)
    _same(w.statistic, GAP_S)
    _same(w.end, GAP_END, np.int64)
    _same(w.inflation, [1.0] * 7)  # one case: its runs cannot vary together


def test_a_last_run_with_nothing_scored_keeps_the_cusum_and_the_reference() -> None:
    passes, trials = np.vstack([H_PASSES, [[0, 0]]]), np.vstack([H_TRIALS, [[0, 0]]])
    for settings in (PLAIN, replace(DEFAULT, baseline_runs=1)):
        w = watch(passes, trials, settings)
        _same(w.z, [*H_Z, NAN])
        _same(w.statistic, [*H_S, H_S[4]])
        _same(w.end, [*H_END, 3], np.int64)


def test_the_baseline_runs_are_only_counted() -> None:
    """Three baseline runs: run 3 (1) against runs 0..2 (1 of 3): m 2 of 4, share 1 - 0.5, rate
    2.25 / 4.5 = 0.5, variance 0.25 * 3 / 3: z = 1; run 4 (0) against runs 0..3: m 2 of 5, as
    above with the sign: -8.8 / sqrt(117)."""
    settings = replace(PLAIN, baseline_runs=3)
    z, statistic, end = monitor(H_PASSES, H_TRIALS, settings)
    _same(z, [NAN, NAN, NAN, 1.0, -8.8 / math.sqrt(117)])
    _same(statistic, [0.0, 0.0, 0.0, 0.0, 8.8 / math.sqrt(117) - 0.75])
    _same(end, [-1, -1, -1, 2, 3], np.int64)


@pytest.mark.parametrize("runs", [5, 4])
def test_a_history_no_longer_than_its_baseline_is_never_scored(runs: int) -> None:
    settings = replace(PLAIN, baseline_runs=5)
    w = watch(H_PASSES[:runs], H_TRIALS[:runs], settings)
    _same(w.z, [NAN] * runs)
    _same(w.statistic, [0.0] * runs)
    _same(w.end, [-1] * runs, np.int64)
    _same(w.limit, [5.6] * runs)
    _same(w.second, [0.0] * runs)
    _same(w.limit2, [math.inf] * runs)
    _same(w.inflation, [1.0] * runs)
    many = watch(np.stack([H_PASSES[:runs]] * 2), np.stack([H_TRIALS[:runs]] * 2), settings)
    _same(many.z, [[NAN] * runs] * 2)
    _same(many.statistic, [[0.0] * runs] * 2)
    _same(many.end, [[-1] * runs] * 2, np.int64)
    _same(many.inflation, [[1.0] * runs] * 2)
    ruled = watch(H_PASSES[:runs], H_TRIALS[:runs], replace(DEFAULT, baseline_runs=5))
    _same(ruled.limit, [8.0] * runs)  # the adaptive rule's highest threshold: the cautious one
    _same(ruled.limit2, [4.0] * runs)
    _same(ruled.second, [0.0] * runs)
    _same(ruled.z, [NAN] * runs)


def test_many_histories_at_once_are_each_their_own() -> None:
    """The history above beside its mirror (every outcome flipped) and beside itself, histories on
    the first axis: each is scored against its own reference."""
    mirror = np.where(H_TRIALS > 0, 1 - H_PASSES, 0)
    # mirror, passes 0 1 1 0 1: run 1 against run 0 (0 of 1): 1 - 1/2 -> z 1; run 2 against runs
    # 0..1 (1 of 2): m 2 of 3, 1 - 2/3, rate 2.25 / 3.5 = 9/14, variance 9/14 * 5/14 * 2 / (1 * 2);
    # run 3 (0) against 2 of 3: m 2 of 4, -0.5, rate 0.5, variance 0.25 * 3 / 3 -> z -1 (S 0.25)
    # run 4 (1) against runs 0..2 again: m 3 of 4, 0.25, rate 3.25 / 4.5 = 13/18, variance
    # 13/18 * 5/18 * 3 / 3 -> z 0.25 * 18 / sqrt(65), S = max(0, 0.25 - z - 0.75) = 0
    mz = [NAN, 1.0, (1 / 3) * 14 / math.sqrt(45), -1.0, 0.25 * 18 / math.sqrt(65)]
    passes = np.stack([H_PASSES, mirror, H_PASSES])
    trials = np.stack([H_TRIALS] * 3)
    ms, mend = [0.0, 0.0, 0.0, 0.25, 0.0], [-1, 0, 1, 2, 2]
    w = watch(passes, trials, PLAIN)
    _same(w.z, [H_Z, mz, H_Z])
    _same(w.statistic, [H_S, ms, H_S])
    _same(w.end, [H_END, mend, H_END], np.int64)
    _same(w.limit, [[5.6] * 5] * 3)
    _same(w.limit2, [[math.inf] * 5] * 3)
    _same(w.second, [[0.0] * 5] * 3)
    _same(w.inflation, [[1.0] * 5] * 3)
    # two leading axes (2 x 3 histories), the mirror and the history alternating
    four = watch(np.stack([passes, passes[::-1]]), np.stack([trials, trials]), PLAIN)
    _same(four.z, [[H_Z, mz, H_Z], [H_Z, mz, H_Z][::-1]])
    _same(four.statistic, [[H_S, ms, H_S], [H_S, ms, H_S][::-1]])
    _same(four.end, [[H_END, mend, H_END], [H_END, mend, H_END][::-1]], np.int64)
    ruled = watch(np.stack([passes[:2]] * 3), np.stack([trials[:2]] * 3), replace(PLAIN, scale=8.1))
    _same(ruled.z, [[H_Z, mz]] * 3)
    _same(ruled.statistic, [[H_S, ms]] * 3)


def test_the_path_places_the_change_after_the_last_zero_before_the_alarm() -> None:
    path = drift_path(H_PASSES, H_TRIALS, replace(PLAIN, threshold=0.3))
    assert path.z == (None, -1.0, -1.0, 0.0, pytest.approx(H_Z[4], rel=1e-12))
    assert path.statistic == pytest.approx(tuple(H_S), rel=1e-12)
    assert path.alarm == 2 and path.last_stable == 0
    assert path.threshold == (0.3,) * 5
    assert path.second is None and path.second_threshold is None and path.inflation == ()
    assert all(type(v) is float for v in path.statistic + path.threshold + path.z[1:])
    quiet = drift_path(H_PASSES, H_TRIALS, replace(PLAIN, threshold=0.5))
    assert quiet.alarm is None and quiet.last_stable is None  # 0.5 is not above 0.5
    late = drift_path(H_PASSES, H_TRIALS, replace(PLAIN, threshold=0.01, baseline_runs=3))
    assert late.alarm == 4 and late.last_stable == 3


def test_an_alarm_at_the_first_run_has_no_stable_run_before_it() -> None:
    """A threshold below 0: the first run (a baseline run, S 0) is already above it."""
    path = drift_path(H_PASSES, H_TRIALS, replace(PLAIN, threshold=-1.0))
    assert path.alarm == 0 and path.last_stable is None


# Under the adaptive rule a reference whose every case passed exactly half of its trials has no
# skew (the third cumulant is 0) and a variance ratio of 1, so theta = 2 kappa
# (scorer/drift/exponent.py): the thresholds are scale / (2 kappa) and scale2 / (2 kappa2), each
# kept within its range. One case, two repeats a run, one of them passed every run: every z is 0.
HALF_PASSES = np.array([[1], [1], [1], [1]])
HALF_TRIALS = np.array([[2], [2], [2], [2]])


@pytest.mark.parametrize(
    ("settings", "limit", "limit2"),
    [
        (replace(DEFAULT, baseline_runs=1), 8.1 / 1.5, 10.0 / 3.0),
        (replace(DEFAULT, baseline_runs=1, scale=3.0, scale2=30.0), 4.0, 4.0),  # low, high2
        (replace(DEFAULT, baseline_runs=1, scale=30.0, scale2=1.0), 8.0, 3.0),  # high, low2
        (replace(DEFAULT, baseline_runs=1, kappa=1.0, kappa2=1.6, scale=12.0), 6.0, 10 / 3.2),
        (replace(DEFAULT, baseline_runs=1, low=5.0, high=5.2, low2=1.0, high2=9.0), 5.2, 10 / 3),
        (replace(DEFAULT, baseline_runs=1, low=5.6, high=7.0, low2=3.5, high2=3.7), 5.6, 3.5),
    ],
)
def test_the_adaptive_thresholds_of_a_reference_with_no_skew(
    settings: DriftSettings, limit: float, limit2: float
) -> None:
    w = watch(HALF_PASSES, HALF_TRIALS, settings)
    _same(w.end, [-1, 0, 1, 2], np.int64)
    _same(w.statistic, [0.0] * 4)
    _same(w.limit, [settings.high, limit, limit, limit])
    _same(w.limit2, [settings.high2, limit2, limit2, limit2])
    _same(w.z, [NAN, 0.0, 0.0, 0.0])
    _same(w.second, [0.0] * 4)
    path = drift_path(HALF_PASSES, HALF_TRIALS, settings)
    assert path.threshold == pytest.approx((settings.high, limit, limit, limit), rel=1e-12)
    assert path.second == (0.0,) * 4
    assert path.second_threshold == pytest.approx((settings.high2, limit2, limit2, limit2))
    assert path.alarm is None


def test_the_second_cusum_runs_on_the_scores_with_its_own_allowance() -> None:
    """The history above under the adaptive rule (no allowance for runs that vary together):
    the first CUSUM as before; the second over the whole of z with kappa2 1.5 stays 0 (no z below
    -1.5); with kappa2 0.5 it is 0.5, 1.0, 0.5, 0.5 + 8.8 / sqrt(117) - 0.5."""
    ruled = replace(DEFAULT, baseline_runs=1, dispersion_margin=None)
    w = watch(H_PASSES, H_TRIALS, ruled)
    _same(w.z, H_Z)
    _same(w.statistic, H_S)
    _same(w.end, H_END, np.int64)
    _same(w.second, [0.0] * 5)
    low = watch(H_PASSES, H_TRIALS, replace(ruled, kappa2=0.5))
    _same(low.second, [0.0, 0.5, 1.0, 0.5, 0.5 + 8.8 / math.sqrt(117) - 0.5])
    _same(low.statistic, H_S)
    path = drift_path(H_PASSES, H_TRIALS, replace(ruled, kappa2=0.5, low2=0.9, high2=0.9))
    # the second CUSUM's threshold held at 0.9: it alarms at run 2 (1.0 > 0.9); the first never
    # passes its threshold (at least low, 4)
    assert path.second_threshold == (0.9,) * 5
    assert path.second == pytest.approx((0.0, 0.5, 1.0, 0.5, 8.8 / math.sqrt(117)), rel=1e-12)
    assert path.alarm == 2 and path.last_stable == 0


# Runs that vary together: two cases, one repeat, runs 0..2 both passed, both failed, both passed;
# each pair of successive runs moves both cases the same way: the pairs' squared sums 4 + 4 over
# their squared differences 2 + 2, a ratio of 2 over 2 pairs, inflation 2 - 0.5 sqrt(3 / 2).
# Run 3 (passed, failed) against runs 0..2: case 0 m 3 of 4, share 1 - 0.75, rate 3.25 / 4.5 =
# 13/18, variance 13/18 * 5/18 (weight 324 / 146); case 1 m 2 of 4, 0 - 0.5, rate 0.5, variance
# 0.25 (weight 2): z = (81/146 - 1) / sqrt(324 * 65 / 146^2 + 1).
DAY_PASSES = np.array([[1, 1], [0, 0], [1, 1], [1, 0]])
DAY_TRIALS = np.ones((4, 2), dtype=int)
DAY_PLAIN_Z = (81 / 146 - 1) / math.sqrt(324 * 65 / 146**2 + 1)
DAY_INFLATION = 2 - 0.5 * math.sqrt(1.5)
# the same counts where the cases move apart: runs (1, 1), (1, 0), (1, 1): steps (0, -1), (0, 1):
# a ratio of 2 / 2 = 1, no inflation. Run 3 (1, 1): case 0 m 4 of 4, share 0, rate 4.25 / 4.5 =
# 17/18; case 1 m 3 of 4, 1 - 0.75, rate 13/18 (weight 324 / 146)
APART_PASSES = np.array([[1, 1], [1, 0], [1, 1], [1, 1]])
APART_Z = (0.25 * 324 / 146) / math.sqrt(324 * 17 / 98**2 + 324 * 65 / 146**2)


def test_each_history_s_own_dispersion_over_leading_axes() -> None:
    settings = replace(DEFAULT, baseline_runs=3, scale=None, kappa=0.1)
    day_z, infl = DAY_PLAIN_Z / math.sqrt(DAY_INFLATION), DAY_INFLATION
    five = np.stack([DAY_PASSES, APART_PASSES] * 2 + [DAY_PASSES])
    want_z = [day_z, APART_Z, day_z, APART_Z, day_z]
    want_f = [infl, 1.0, infl, 1.0, infl]
    w = watch(five, np.ones_like(five), settings)
    _same(w.inflation[:, 3], want_f)
    _same(w.z[:, 3], want_z)
    w4 = watch(five[None], np.ones_like(five[None]), settings)
    _same(w4.inflation[0, :, 3], want_f)
    _same(w4.z[0, :, 3], want_z)


def test_each_score_is_divided_by_the_root_of_its_reference_s_dispersion() -> None:
    settings = replace(DEFAULT, baseline_runs=3, scale=None, kappa=0.1)
    w = watch(DAY_PASSES, DAY_TRIALS, settings)
    _same(w.inflation, [1.0, 1.0, 1.0, DAY_INFLATION])
    _same(w.z, [NAN] * 3 + [DAY_PLAIN_Z / math.sqrt(DAY_INFLATION)])
    _same(w.statistic, [0.0] * 3 + [-DAY_PLAIN_Z / math.sqrt(DAY_INFLATION) - 0.1])
    path = drift_path(DAY_PASSES, DAY_TRIALS, settings)
    assert path.inflation == pytest.approx((1.0, 1.0, 1.0, DAY_INFLATION), rel=1e-12)
    assert all(type(v) is float for v in path.inflation)
    margin = replace(settings, dispersion_margin=0.25)
    _same(watch(DAY_PASSES, DAY_TRIALS, margin).inflation[3], 2 - 0.25 * math.sqrt(1.5))


def test_monitor_never_applies_the_allowance() -> None:
    """Nor the adaptive rule: the plain score and CUSUM."""
    settings = replace(DEFAULT, baseline_runs=3, kappa=0.1)
    z, statistic, _ = monitor(DAY_PASSES, DAY_TRIALS, settings)
    _same(z, [NAN] * 3 + [DAY_PLAIN_Z])
    _same(statistic, [0.0] * 3 + [-DAY_PLAIN_Z - 0.1])


def test_the_dispersion_of_two_histories_at_once() -> None:
    settings = replace(DEFAULT, baseline_runs=3, scale=None, kappa=0.1)
    w = watch(np.stack([DAY_PASSES, APART_PASSES]), np.stack([DAY_TRIALS] * 2), settings)
    _same(w.inflation, [[1.0, 1.0, 1.0, DAY_INFLATION], [1.0] * 4])
    _same(w.z, [[NAN] * 3 + [DAY_PLAIN_Z / math.sqrt(DAY_INFLATION)], [NAN] * 3 + [APART_Z]])


# ``limits_above``: one case, two repeats a run. X passes 1, 1, 1, 0, 0 of 2: runs 1 and 2 score
# 0 against a reference of half passed; run 3 (0 of 2 against 3 of 6: m 3 of 8, share 0 - 3/8,
# shrunk rate 3.25 / 8.5, variance 3.25 * 5.25 / 8.5^2 * 6 / (2 * 7)) takes the CUSUM to
# 3/8 / sd - 0.75 (about 0.43), run 4 the same against the frozen reference (about 0.86). H passes
# 1 of 2 every run: never above 0. Every reference passed half its trials: thresholds 8.1 / 1.5
# and 10 / 3 (no skew); a run whose thresholds are not wanted keeps each clip's top, 8 and 4.
X_PASSES = np.array([[1], [1], [1], [0], [0]])
X_Z = -(3 / 8) / math.sqrt(3.25 * 5.25 / 8.5**2 * 6 / 14)
X_S = [0.0, 0.0, 0.0, -X_Z - 0.75, 2 * (-X_Z - 0.75)]
RULED = replace(DEFAULT, baseline_runs=1, dispersion_margin=None)
MID, TOP, MID2, TOP2 = 8.1 / 1.5, 8.0, 10 / 3, 4.0


@pytest.mark.parametrize(
    ("above", "x_limit"),
    [
        (None, [TOP, MID, MID, MID, MID]),  # every run
        (0.5, [TOP, TOP, TOP, TOP, MID]),  # run 4 alone (0.86 > 0.5, 0.43 is not)
        (0.0, [TOP, TOP, TOP, MID, MID]),  # a CUSUM at 0 is not above 0
        (5.0, [TOP] * 5),  # no run wanted
    ],
)
def test_thresholds_only_where_the_first_cusum_is_above_the_level_asked(
    above: float | None, x_limit: list[float]
) -> None:
    passes = np.stack([X_PASSES, np.ones_like(X_PASSES)])
    trials = np.full_like(passes, 2)
    w = watch(passes, trials, RULED, above)
    _same(w.statistic, [X_S, [0.0] * 5])
    computed = [v == MID for v in x_limit]
    _same(w.limit[0], x_limit)
    _same(w.limit2[0], [MID2 if c else TOP2 for c in computed])
    h_limit = [TOP] + [TOP if above is not None else MID] * 4
    _same(w.limit[1], h_limit)
    _same(w.limit2[1], [MID2 if v == MID else TOP2 for v in h_limit])
    full = watch(passes, trials, RULED)
    assert np.array_equal(w.alarms, full.alarms)
    _same(w.z, full.z)
    _same(w.second, full.second)


def test_one_history_gets_every_run_s_thresholds_whatever_the_level() -> None:
    """A single history's thresholds are all computed (their counts keep their shape): the level
    only thins out many histories at once."""
    w = watch(X_PASSES, np.full_like(X_PASSES, 2), RULED, 0.5)
    _same(w.statistic, X_S)
    _same(w.limit, [TOP, MID, MID, MID, MID])
    _same(w.limit2, [TOP2, MID2, MID2, MID2, MID2])
    stacked = watch(X_PASSES[None, None], np.full_like(X_PASSES, 2)[None, None], RULED, 0.5)
    _same(stacked.limit, [[[TOP, TOP, TOP, TOP, MID]]])


def test_no_baseline_scores_the_first_run_against_the_whole_history() -> None:
    """baseline_runs 0: run 0 (1 of 1) against every run's counts (1 of 3): m 2 of 4, share 1 -
    1/2, shrunk rate 2.25 / 4.5 = 1/2, variance 1/4 * 3 / 3: z = 1, S = 0; from run 1 the counts so
    far start from run 0's alone (1 of 1): run 1 (0) m 1 of 2, share 0 - 1/2, variance 1/4: z = -1,
    S = 0.25, and run 2 against the same frozen reference, S = 0.5. No run at all: empty arrays."""
    settings = replace(PLAIN, baseline_runs=0)
    w = watch(np.array([[1], [0], [0]]), np.ones((3, 1)), settings)
    _same(w.z, [1.0, -1.0, -1.0])
    _same(w.statistic, [0.0, 0.25, 0.5])
    _same(w.end, [-1, 0, 0], np.int64)
    empty = watch(np.zeros((0, 1)), np.zeros((0, 1)), settings)
    for values in (empty.z, empty.statistic, empty.limit, empty.second, empty.inflation):
        _same(values, np.zeros(0))
    _same(empty.end, np.zeros(0), np.int64)


def test_the_constant_rule_has_no_second_cusum() -> None:
    """Under the constant rule (scale None) the second CUSUM is all 0 and never alarms, even with an
    allowance kappa2 its scores would pass (the history above with kappa2 0.5: 0.5, 1.0, ...)."""
    w = watch(H_PASSES, H_TRIALS, replace(PLAIN, kappa2=0.5))
    _same(w.second, [0.0] * 5)
    _same(w.limit2, [math.inf] * 5)
    _same(w.statistic, H_S)
