"""The history gate's window check (scorer/drift/window.py, docs/decisions/history-gate.md#window)
on small seeded windows: the cut after a change, short windows left alone, and the split scan
against a loop over the splits scored one by one."""

from __future__ import annotations

import numpy as np

from benchmarks.drift import NOISY
from scorer.drift.window import MIN_SIDE, SCAN, WINDOW, split_scan, window_cut


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
