"""The drift test (scorer/drift/cusum.py) holds what docs/decisions/drift.md says, checked against
references and by seeded simulation of the real case structure (benchmarks/drift.py's profiles and
histories, the very code the benchmark runs):

- each run's score is centred exactly under "no change" (brute force over every arrangement of a
  case's runs) with the hypergeometric variance (scipy's), and the CUSUM and its first alarm are the
  textbook recursion;
- P(any false alarm in 180 daily runs) <= 5% under drift's rule: a small seeded version of the
  calibration (the rate under 5% on the profiles that sit highest, about 3%, and on the issue's
  two; the one-sided 95% Wilson bound, statsmodels', of the five cells together under 5%);
- the benchmark's calibration rule (``calibrated_threshold``) picks the smallest threshold meeting
  that bound;
- the median delay under drift's rule meets issue 31's targets at K = 1 (a diffuse 10-point drop
  <= 3 runs noisy, <= 2 near-deterministic; 5 points <= 10, and <= 3 near-deterministic), and
  K = 3 is no slower;
- the frozen reference: each run scored against the runs up to the CUSUM's last zero, and a change
  the pooled score misses for good is caught within 150 runs (issue 41).
"""

from __future__ import annotations

import itertools
import math
import random

import numpy as np
import pytest
from scipy.stats import hypergeom
from statsmodels.stats.proportion import proportion_confint

from benchmarks.drift import (
    CALIBRATION,
    DAYS,
    NEAR,
    NOISY,
    calibrated_threshold,
    concentrated,
    delays,
    diffuse,
    peak_statistics,
)
from benchmarks.drift_designs import ADAPTIVE, POOLED, logit_shift
from scorer.drift.cusum import (
    DEFAULT,
    DriftSettings,
    cusum,
    drift_path,
    first_alarm,
    monitor,
    run_score,
    scores,
    share_variance,
)

ALPHA = 0.05  # the promised false-alarm rate over 180 daily runs
CONFIDENCE = 0.95  # ... held with this confidence (one-sided)


@pytest.mark.parametrize(
    ("pooled", "passed", "drawn"), [(6, 4, 1), (12, 9, 3), (30, 29, 3), (9, 0, 3)]
)
def test_share_variance_is_the_hypergeometric_one(pooled: int, passed: int, drawn: int) -> None:
    with np.errstate(divide="ignore", invalid="ignore"):  # scipy's kurtosis term at 0 passes
        expected = hypergeom(pooled, passed, drawn).var() / drawn**2
    assert math.isclose(
        float(share_variance(passed / pooled, pooled, drawn)), expected, abs_tol=1e-12
    )


def test_the_last_run_is_centred_exactly_given_the_pooled_counts() -> None:
    """Two cases, 5 runs, K = 1: over every arrangement of each case's passes (all equally likely
    under "no change", whatever the pass rate), the numerator of run 5's score averages 0 and its
    variance is the sum of the weighted hypergeometric variances: the score's mean and scale do
    not depend on the profile."""
    settings = DriftSettings(baseline_runs=4, prior=0.0)  # the exact variance, no shrinkage
    case_runs = [(1, 1, 1, 0, 1), (0, 1, 0, 1, 1)]  # any counts: 4 of 5 and 3 of 5 passed
    arrangements = [sorted(set(itertools.permutations(runs))) for runs in case_runs]
    numerators = []
    for a, b in itertools.product(*arrangements):
        passes = np.array([a, b]).T
        trials = np.ones_like(passes)
        z = scores(passes, trials, settings)[4]
        m = passes.sum(0)
        q = m / 5
        weight = 1 / (q * (1 - q) + settings.ridge)
        sd = math.sqrt(float((weight**2 * q * (1 - q)).sum()))
        numerators.append(z * sd)
    assert math.isclose(sum(numerators) / len(numerators), 0.0, abs_tol=1e-12)
    q = np.array([4 / 5, 3 / 5])
    weight = 1 / (q * (1 - q) + settings.ridge)
    variance = sum(n * n for n in numerators) / len(numerators)
    assert math.isclose(variance, float((weight**2 * q * (1 - q)).sum()), rel_tol=1e-12)


def test_cusum_and_first_alarm_match_the_textbook_recursion() -> None:
    rng = random.Random(3)
    settings = DriftSettings(kappa=0.75, threshold=5.0)
    z = np.array([[rng.gauss(-0.6, 1.3) for _ in range(60)] for _ in range(40)])
    z[:, 7] = np.nan  # a run with no score leaves the CUSUM as it was
    got, alarms = cusum(z, settings), first_alarm(cusum(z, settings), settings)
    for row, path, alarm in zip(z, got, alarms, strict=True):
        level, expected, first = 0.0, [], -1
        for t, value in enumerate(row):
            level = level if math.isnan(value) else max(0.0, level - value - 0.75)
            expected.append(level)
            if first < 0 and level > 5.0:
                first = t
        assert path.tolist() == pytest.approx(expected, abs=1e-12)
        assert alarm == first


def test_no_score_before_the_baseline_and_the_change_point_is_the_last_zero() -> None:
    rng = np.random.default_rng(4)
    passes = rng.binomial(1, np.tile(NOISY, (40, 1)))
    passes[25:, NOISY == 1.0] = 0  # the cases that always passed break from run 26 on
    path = drift_path(passes, np.ones_like(passes))
    assert path.z[: DEFAULT.baseline_runs] == (None,) * DEFAULT.baseline_runs
    assert path.alarm is not None and 25 <= path.alarm <= 27
    assert path.statistic[path.last_stable] == 0.0
    assert all(s > 0 for s in path.statistic[path.last_stable + 1 : path.alarm + 1])
    assert path.last_stable == 24


def _upper_bound(alarms: int, count: int) -> float:
    """The one-sided 95% upper bound of a rate (Clopper-Pearson: the two-sided 90% interval's)."""
    return float(proportion_confint(alarms, count, alpha=2 * (1 - CONFIDENCE), method="beta")[1])


# the seeded small calibration: (profile, K, histories, seed); the profiles that sit highest (every
# case at 0.9 at K = 1, at 0.95 at K = 3) and the two
CELLS = [
    ("all 0.9", 1, 800, 13), ("all 0.95", 3, 600, 14), ("noisy", 1, 500, 11),
    ("near-deterministic", 1, 500, 12), ("noisy", 3, 300, 15),
]  # fmt: skip


@pytest.fixture(scope="module")
def critical_c() -> dict[tuple[str, int], np.ndarray]:
    """Each cell's histories of 180 runs under drift's rule: per history its largest critical c
    (benchmarks/drift_designs.py ``adaptive``: it alarms at every c below), drawn once."""
    return {
        (profile, k): peak_statistics(
            CALIBRATION[profile], k, count, np.random.default_rng(seed), ADAPTIVE, 0.0, "adaptive"
        )
        for profile, k, count, seed in CELLS
    }


def _wilson_upper(alarms: int, count: int) -> float:
    """The one-sided 95% upper bound of a rate (Wilson, statsmodels')."""
    bound = proportion_confint(alarms, count, alpha=2 * (1 - CONFIDENCE), method="wilson")[1]
    return float(bound)


@pytest.mark.parametrize(("profile", "k"), [(cell[0], cell[1]) for cell in CELLS])
def test_false_alarms_over_180_daily_runs_stay_under_5_percent(
    critical_c: dict[tuple[str, int], np.ndarray], profile: str, k: int
) -> None:
    """A small seeded version of the calibration of drift's rule, the adaptive threshold with the
    allowance for runs that vary together (benchmarks/drift.py --calibrate, 5,000 histories a
    cell, where every profile's 95% bound is <= 5% at c = 8.1): on the profiles that sit highest
    (about 3%: every case at 0.9 at K = 1, at 0.95 at K = 3) and on the issue's (1.4-2.8%) the
    seeded rate is under 5%. The bound is the pooled test's below: per cell it would need
    thousands of histories at these rates."""
    peaks = critical_c[profile, k]
    alarms = int((peaks > DEFAULT.scale).sum())
    assert alarms / len(peaks) <= ALPHA, (
        f"{profile} K = {k}: {alarms} of {len(peaks)} x {DAYS} runs"
    )


def test_the_cells_together_hold_5_percent_at_95_percent_confidence(
    critical_c: dict[tuple[str, int], np.ndarray],
) -> None:
    """Over the 2,700 seeded histories of the cells above, the one-sided 95% Wilson upper bound of
    the false-alarm rate at c = 8.1 is <= 5% (about 2.5%: 54 alarms): the rule's average over these
    profiles is under the promise with 95% confidence. The check can fail: on the very same
    histories, a c of 7.0 (below the calibrated one) puts the bound above 5%."""
    peaks = np.concatenate(list(critical_c.values()))
    assert len(peaks) == sum(cell[2] for cell in CELLS)
    assert _wilson_upper(int((peaks > DEFAULT.scale).sum()), len(peaks)) <= ALPHA
    assert _wilson_upper(int((peaks > 7.0).sum()), len(peaks)) > ALPHA


def test_the_calibration_rule_picks_the_smallest_threshold_whose_bound_holds() -> None:
    peaks = np.random.default_rng(16).gamma(4.0, 1.0, 3000)
    threshold = calibrated_threshold(peaks)
    assert _upper_bound(int((peaks > threshold).sum()), len(peaks)) <= ALPHA
    below = peaks[peaks < threshold].max()  # the next smaller candidate lets one more alarm in
    assert _upper_bound(int((peaks > below).sum()), len(peaks)) > ALPHA


# issue 31's targets, met by drift's rule (the near-deterministic 5-point drop's 3 too, which the
# constant 5.6 of round 2 missed by a run: docs/decisions/drift.md#delays)
TARGETS = {("noisy", 10): 3, ("noisy", 5): 10, ("near", 10): 2, ("near", 5): 3}


@pytest.mark.parametrize(("name", "points"), sorted(TARGETS))
def test_median_delay_meets_the_targets_and_repeats_do_not_slow_it(name: str, points: int) -> None:
    """drift's rule (benchmarks/drift.py --delays: 7, 3, 1 and 3 runs at 5,000 histories)."""
    base = NOISY if name == "noisy" else NEAR
    rng = np.random.default_rng(points)
    k1, _ = delays(base, diffuse(base, points), 1, 200, rng, ADAPTIVE, design="adaptive")
    k3, _ = delays(base, diffuse(base, points), 3, 100, rng, ADAPTIVE, design="adaptive")
    assert np.median(k1) <= TARGETS[name, points]
    assert np.median(k3) <= np.median(k1)


def _naive_scores(passes: np.ndarray, settings: DriftSettings = DEFAULT) -> np.ndarray:
    """The rejected self-starting score (K = 1): level and weight both from the earlier
    runs alone."""
    out = np.full(passes.shape[:-1], np.nan)
    for t in range(settings.baseline_runs, passes.shape[-2]):
        level = passes[..., :t, :].mean(-2)
        shrunk = (passes[..., :t, :].sum(-2) + settings.prior) / (t + 2 * settings.prior)
        weight = 1 / (shrunk * (1 - shrunk) + settings.ridge)
        total = (weight**2 * shrunk * (1 - shrunk) * (1 + 1 / t)).sum(-1)
        out[..., t] = (weight * (passes[..., t, :] - level)).sum(-1) / np.sqrt(total)
    return out


def test_pooling_the_current_run_keeps_the_score_centred_where_a_self_starting_one_is_not() -> None:
    """Every case at 0.9: a case that happened to pass every earlier run gets a high weight and a
    level above 0.9, so the self-starting score leans negative (a CUSUM for drops then alarms too
    often); the score that pools the current run is centred (mean within 3 standard errors of 0)."""
    rng = np.random.default_rng(8)
    passes = rng.binomial(1, np.full((200, 60, 80), 0.9))
    shipped = scores(passes, np.ones_like(passes))[:, DEFAULT.baseline_runs :]
    naive = _naive_scores(passes)[:, DEFAULT.baseline_runs :]
    per_history = shipped.mean(-1)  # histories are independent; runs within one need not be
    error = per_history.std() / math.sqrt(len(per_history))
    assert abs(shipped.mean()) < 3 * error
    assert naive.mean() < -10 * error


def test_each_run_is_scored_against_the_runs_up_to_the_cusum_s_last_zero() -> None:
    """The reference is every earlier run while the CUSUM is at 0 and stays frozen while it climbs:
    run t's score is ``run_score`` against the counts of runs 0..r, r = t - 1 when S_{t-1} = 0,
    else the previous run's r."""
    rng = np.random.default_rng(21)
    passes = rng.binomial(1, np.tile(NOISY, (3, 70, 1)))
    passes[:, 35:, NOISY == 1.0] = rng.binomial(1, 0.6, size=passes[:, 35:, NOISY == 1.0].shape)
    trials = np.ones_like(passes)
    z, statistic, end = monitor(passes, trials)
    assert np.array_equal(statistic, cusum(z))
    for h in range(3):
        reference = -1
        for t in range(DEFAULT.baseline_runs, 70):
            if t == DEFAULT.baseline_runs or statistic[h, t - 1] == 0.0:
                reference = t - 1
            assert end[h, t] == reference
            want = run_score(
                passes[h, t], trials[h, t], passes[h, : reference + 1].sum(0),
                trials[h, : reference + 1].sum(0),
            )  # fmt: skip
            assert z[h, t] == pytest.approx(float(want), rel=1e-12)
    assert (end[:, -1] < 69).any()  # the drop froze some reference


NEVER = {"concentrated": 0.01, "logit": 0.05}  # issue 41: never detected within 150 runs, noisy K=1


@pytest.mark.parametrize(("kind", "count"), [("concentrated", 500), ("logit", 300)])
def test_a_change_the_pooled_score_misses_for_good_is_caught_within_150_runs(
    kind: str, count: int
) -> None:
    """Issue 41: four stable cases breaking, or a 5-point logit drop among the flaky cases, on the
    noisy profile at K = 1. The pooled score (the design before) dilutes the change into its level
    and misses a share of them for good; drift's rule (the frozen reference, the adaptive
    threshold) stays under the issue's rate (a one-sided 95% Clopper-Pearson bound below it would
    need thousands of histories: benchmarks/drift.py; here the seeded share itself)."""
    after = concentrated(NOISY, 5) if kind == "concentrated" else logit_shift(NOISY, 5)
    rng = np.random.default_rng(41)
    late, _ = delays(NOISY, after, 1, count, rng, ADAPTIVE, design="adaptive")
    old, _ = delays(NOISY, after, 1, count, np.random.default_rng(41), POOLED, design="pooled")
    assert np.mean(late > 150) <= NEVER[kind]
    assert np.mean(old > 150) > 2 * NEVER[kind]
    assert np.median(late) <= np.median(old)


def test_the_frontier_evaluates_the_shipped_detector_on_the_shipped_scores() -> None:
    """benchmarks/drift_frontier.py (docs/decisions/drift.md#frontier) keeps each history's scores
    and runs its own CUSUMs over them: at the shipped allowance its path is monitor's statistic,
    run for run (float32 aside), so its shipped row is the shipped test; and a larger allowance
    never climbs above it, so the second CUSUM never moves the frozen reference's last zero."""
    from benchmarks.drift import histories
    from benchmarks.drift_frontier import cusum as frontier_cusum
    from benchmarks.drift_frontier import scores as frontier_scores

    rng = np.random.default_rng(12)
    z = frontier_scores(NOISY, diffuse(NOISY, 5), 30, 60, 1, 40, rng)
    rng = np.random.default_rng(12)
    passes, trials = histories(NOISY, diffuse(NOISY, 5), 30, 60, 1, 40, rng)
    statistic = monitor(passes, trials)[1]
    np.testing.assert_allclose(frontier_cusum(z, DEFAULT.kappa), statistic, rtol=1e-5, atol=1e-4)
    assert (frontier_cusum(z, 2.0) <= frontier_cusum(z, DEFAULT.kappa) + 1e-6).all()
