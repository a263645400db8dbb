"""The history gate's window check (scorer/drift/window.py, docs/decisions/history-gate.md#window)
on small seeded windows: the cut after a change, short windows left alone, and the split scan
against a loop over the splits scored one by one; then windows of one case small enough to score by
hand (each expected cut worked out in the test's docstring), for the mutation benchmark
(benchmarks/README.md, scorer.drift.window)."""

from __future__ import annotations

from dataclasses import replace

import numpy as np

from benchmarks.drift import NOISY
from scorer.drift.window import MIN_SIDE, SCAN, WINDOW, WindowCut, split_scan, window_cut


def test_the_check_cuts_after_the_change_and_leaves_short_windows_alone() -> None:
    rng = np.random.default_rng(5)
    passes = rng.binomial(1, np.tile(NOISY, (20, 1)))
    passes[12:, NOISY == 1.0] = 0  # every stable case breaks from run 13 on
    cut = window_cut(passes, np.ones_like(passes))
    assert cut.checked and cut.cut and cut.first_kept == 12
    short = window_cut(passes[: WINDOW.baseline_runs], np.ones_like(passes[:10]))
    assert not short.checked and not short.cut


def test_the_split_scan_is_the_lowest_pooled_score_of_the_runs_after_a_split() -> None:
    """The scan against a loop over the splits, each scored by ``run_score`` on its own (the
    pooled runs after the split against the runs before it): it cuts at the lowest split when
    that score is below -SCAN, and at none otherwise."""
    from scorer.drift.cusum import run_score

    rng = np.random.default_rng(7)
    for trial in range(40):
        passes = rng.binomial(1, np.tile(NOISY, (20, 1)))
        if trial % 2:
            passes[10:, : 20 + trial] = rng.binomial(1, 0.35, size=(10, 20 + trial))
        trials = np.ones_like(passes)
        scores = {
            s: float(run_score(passes[s:].sum(0), trials[s:].sum(0), passes[:s].sum(0),
                               trials[:s].sum(0), WINDOW))
            for s in range(MIN_SIDE, 20 - MIN_SIDE + 1)
        }  # fmt: skip
        lowest = min(scores, key=lambda s: (scores[s], s))
        want = lowest if scores[lowest] < -SCAN else 0
        assert split_scan(passes, trials) == want, trial
    assert split_scan(passes[:5], trials[:5]) == 0  # no split with MIN_SIDE runs a side


# Small windows of one case whose scores are worked out by hand from drift's score (run_score:
# the run's share minus the share pooled over reference and run, over its hypergeometric sd,
# prior and ridge 0.25; one case, so the weight cancels): s = (m + 0.25) / (n + 0.5) the shrunk
# rate, var = s (1 - s) (n - k) / (k (n - 1)), z = (x / k - m / n) / sqrt(var), x of k trials
# in the run, m of n pooled.
def _column(values: list[int]) -> np.ndarray:
    return np.array(values)[:, None]


TEN_THEN_TWO_FAILS = _column([1] * 10 + [0, 0])  # one trial a run


def test_two_failures_after_ten_passes_alarm_and_cut_after_the_last_stable_run() -> None:
    """Run 10: x 0 of 1 against 10 of 10: m 10, n 11, s 10.25 / 11.5 = 0.8913, var 0.09688,
    z = -0.9091 / 0.3113 = -2.92, CUSUM 2.92 - 0.75 = 2.17; run 11 (reference frozen at run 9):
    the same z, CUSUM 4.34 > 3: the alarm, last stable run 9, drift cuts at 10. The scan (m 10,
    n 12, s 0.82): split 9 (1 of 3 after) z = -0.5 / 0.2006 = -2.49, split 8 (2 of 4) -2.03,
    split 7 (3 of 5) -1.70, split 3 (7 of 9) -0.83: it cuts at 9; the later cut, 10, is kept."""
    trials = np.ones_like(TEN_THEN_TWO_FAILS)
    assert split_scan(TEN_THEN_TWO_FAILS, trials) == 9
    cut = window_cut(TEN_THEN_TWO_FAILS, trials)
    assert cut == WindowCut(first_kept=10, alarm=11, checked=True)
    assert cut.cut


def test_the_window_threshold_alarms_where_drifts_own_rule_would_not() -> None:
    """Two trials a run: 10 runs of 2 of 2, then 0 of 2, then 2 of 2. Run 10: m 20, n 22, s 0.9,
    var 0.09 x 20 / 42 = 0.04286, z = -0.9091 / 0.2070 = -4.39, CUSUM 3.64: over the window's 3
    (drift's own rule wants at least 4 for the first CUSUM, 3 for the second, which is at 2.89).
    Cut after run 9; the scan's split 9 (4 of 6 after; s 22.25 / 24.5) scores
    -0.25 / 0.1043 = -2.40, split 8 -1.96: it cuts at 9, the drift cut at 10 is later."""
    passes = _column([2] * 10 + [0, 2])
    trials = np.full_like(passes, 2)
    assert split_scan(passes, trials) == 9
    assert window_cut(passes, trials) == WindowCut(first_kept=10, alarm=10, checked=True)


def test_the_settings_prior_reaches_drift_and_the_scan() -> None:
    """TEN_THEN_TWO_FAILS with a prior of 10: s = 20 / 31 at run 10, var 0.2289, z -1.90, CUSUM
    1.15 then 2.30: no alarm; the scan's split 9: s = 20 / 32 = 0.625, var 0.234375 x 9 / 33,
    z = -0.5 / 0.2528 = -1.98, not below -2: nothing cut (the default prior cuts at 9)."""
    trials = np.ones_like(TEN_THEN_TWO_FAILS)
    settings = replace(WINDOW, prior=10.0)
    assert split_scan(TEN_THEN_TWO_FAILS, trials, settings) == 0
    assert window_cut(TEN_THEN_TWO_FAILS, trials, settings) == WindowCut(0, None, True)


def test_a_window_of_baseline_runs_is_not_checked_and_a_stable_one_is_not_cut() -> None:
    """Ten runs (baseline_runs) are too few to check, whatever they hold; twelve runs that all
    pass score 0 at every split (x / k = m / n): checked, nothing cut."""
    drop = _column([1] * 7 + [0] * 3)
    short = window_cut(drop, np.ones_like(drop))
    assert short == WindowCut(first_kept=0, alarm=None, checked=False)
    assert not short.cut
    stable = _column([1] * 12)
    assert split_scan(stable, np.ones_like(stable)) == 0
    assert window_cut(stable, np.ones_like(stable)) == WindowCut(0, None, True)


def test_cut_is_whether_any_run_was_left_out() -> None:
    assert not WindowCut(0, None, True).cut
    assert WindowCut(1, None, True).cut
    assert WindowCut(12, 14, True).cut


def test_an_alarm_with_no_stable_run_before_it_cuts_nothing() -> None:
    """With no baseline, run 0 is scored at once (against the window's totals: x 0 of 20, m 220,
    n 260, z about -10.9, CUSUM over 3): an alarm at run 0 has no run where the CUSUM was 0
    before it, so drift keeps the whole window; the later runs only score higher, no split."""
    passes = _column([0] + [20] * 11)
    trials = np.full_like(passes, 20)
    settings = replace(WINDOW, baseline_runs=0)
    assert window_cut(passes, trials, settings) == WindowCut(0, 0, True)


def test_the_scan_looks_at_no_split_with_fewer_than_three_runs_a_side() -> None:
    """One pass then seven failures: split 1 (0 of 7 after 1 of 1; m 1, n 8, s 1.25 / 8.5) would
    score -0.125 / 0.0506 = -2.47, but it has one run before it; splits 3, 4, 5 score -1.21,
    -0.93, -0.72: no cut. Twelve runs whose last two fail: split 10 (0 of 2 after, -3.22) is
    left out too, split 9 cuts."""
    one_pass = _column([1] + [0] * 7)
    assert split_scan(one_pass, np.ones_like(one_pass)) == 0
    trials = np.ones_like(TEN_THEN_TWO_FAILS)
    assert split_scan(TEN_THEN_TWO_FAILS, trials) == 9


def test_the_scan_cuts_only_strictly_below_the_level() -> None:
    """Six runs with trials in runs 0 (passed) and 3 (failed) only: the one split, 3, has m 1,
    n 2, k 1: s = 1.25 / 2.5 = 0.5, var 0.25, weight 1 / (0.25 + 0.25) = 2, z = 2 x -0.5 / 1 =
    -1.0 exactly: a level of 1 cuts nothing, a level of 0.5 cuts at 3."""
    passes = _column([1, 0, 0, 0, 0, 0])
    trials = _column([1, 0, 0, 1, 0, 0])
    assert split_scan(passes, trials, level=1.0) == 0
    assert split_scan(passes, trials, level=0.5) == 3


def test_splits_with_no_run_scored_before_them_have_no_score() -> None:
    """Runs 0-3 unscored, 4-8 passed, 9-11 failed: splits 3 and 4 have nothing before them (no
    score, not a cut); split 9 (0 of 3 after 5 of 5: m 5, n 8, s 5.25 / 8.5) scores
    -0.625 / 0.2371 = -2.64, split 8 -2.04: the cut is at 9. Drift's test does not alarm: runs
    10 and 11 each score -0.714 / 0.458 = -1.56 against 5 of 6 (m 5, n 7, s 0.7, var 0.21),
    CUSUM 0.81 then 1.62."""
    passes = _column([0, 0, 0, 0, 1, 1, 1, 1, 1, 0, 0, 0])
    trials = _column([0] * 4 + [1] * 8)
    assert split_scan(passes, trials) == 9
    assert window_cut(passes, trials) == WindowCut(9, None, True)
