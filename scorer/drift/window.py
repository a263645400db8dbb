"""Does a history gate's window hold a change? drift's statistic run over the window before the
history test (issue 41; docs/decisions/history-gate.md#window).

The history test is exact when every run of the window is the same model as B. A window that holds
an older change (a better model for its first runs, then B's own) makes an unchanged B look worse
than its history and fails it far more often than alpha. So the window's runs, in date order, go
through drift's test (``scorer.drift.cusum``: each run scored against the runs before it, the
reference frozen while the CUSUM climbs); when it alarms, the window is cut to the runs after the
estimated change (the last run where the CUSUM was 0).

Then a split scan, because the window is all there at once: drift's online test sees a change
late (a 5-point drop among ref/flaky's 48 flaky cases: a median 8 runs), and a window with 10 runs
after it missed a third of them, each failing B about 17% of the time. For every split with at
least ``MIN_SIDE`` runs on each side, the runs after it, pooled as one run, are scored against the
runs before it with drift's score (``run_score``: exactly centred given the split); the lowest
score below ``-SCAN`` cuts the window at its split. The later of the two cuts is kept.

The thresholds are lower than drift's (4-8 a run, holding 180 runs of a watch): a cut can only cost
power, never level, because the check looks for drops alone, so the runs it keeps are the lower
ones and an unchanged B looks no worse against them (simulated in benchmarks/gate_power.py
``--window``). Pure: counts in, a frozen dataclass out.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

import numpy as np

from scorer.drift.cusum import DEFAULT, DriftSettings, drift_path, run_score

# drift's score, allowance and baseline; a threshold for a window of tens of runs, not 180
# constant: the window keeps 3.0, and its calibration has no allowance for runs that vary together
WINDOW = replace(DEFAULT, threshold=3.0, scale=None, dispersion_margin=None)
# the split scan: a cut where the runs after a split score below -SCAN against the runs before it
# (benchmarks/gate_power.py --window; docs/decisions/history-gate.md#window)
SCAN = 2.0
MIN_SIDE = 3  # runs on each side of a split: fewer make a level a guess


@dataclass(frozen=True)
class WindowCut:
    """The check over one window: the first run kept (0: the whole window), the run where drift's
    statistic passed the threshold (None: it did not), and whether the window was long enough
    to be checked at all (more than ``baseline_runs`` runs). A cut with no alarm is the split
    scan's."""

    first_kept: int
    alarm: int | None
    checked: bool

    @property
    def cut(self) -> bool:
        """Whether runs were left out."""
        return self.first_kept > 0


def window_cut(
    passes: np.ndarray, trials: np.ndarray, settings: DriftSettings = WINDOW
) -> WindowCut:
    """The check over one window's counts, shape (runs, cases), runs in date order: drift's test,
    then the split scan; the later cut is kept."""
    runs = len(passes)
    if runs <= settings.baseline_runs:
        return WindowCut(0, None, False)
    path = drift_path(passes, trials, settings)
    first = 0
    if path.alarm is not None:
        first = 0 if path.last_stable is None else path.last_stable + 1
    return WindowCut(max(first, split_scan(passes, trials, settings)), path.alarm, True)


def split_scan(
    passes: np.ndarray, trials: np.ndarray, settings: DriftSettings = WINDOW, level: float = SCAN
) -> int:
    """The split whose later runs, pooled as one run, score lowest against the runs before it,
    when that score is below ``-level`` (0: none), over splits with ``MIN_SIDE`` runs a side."""
    passes = np.asarray(passes, dtype=float)
    trials = np.asarray(trials, dtype=float)
    splits = np.arange(MIN_SIDE, len(passes) - MIN_SIDE + 1)
    if not len(splits):
        return 0
    passed, tried = np.cumsum(passes, axis=0), np.cumsum(trials, axis=0)
    before_p, before_t = passed[splits - 1], tried[splits - 1]
    z = run_score(passed[-1] - before_p, tried[-1] - before_t, before_p, before_t, settings)
    z = np.where(np.isnan(z), np.inf, z)
    lowest = int(np.argmin(z))
    return int(splits[lowest]) if z[lowest] < -level else 0
