"""Does a history gate's window hold a change? drift's statistic run over the window before the
history test (issue 41; docs/decisions/history-gate.md#window).

The history test is exact when every run of the window is the same model as B. A window that holds
an older change (a better model for its first runs, then B's own) makes an unchanged B look worse
than its history and fails it far more often than alpha. So the window's runs, in date order, go
through drift's test (``scorer.drift.cusum``: each run scored against the runs before it, the
reference
frozen while the CUSUM climbs); when it alarms, the window is cut to the runs after the estimated
change (the last run where the CUSUM was 0).

The threshold is lower than drift's (whose 5.8 holds 180 runs of a watch): a cut can only cost
power, never level, because the check looks for drops alone, so the runs it keeps are the lower
ones and an unchanged B looks no worse against them (simulated in benchmarks/gate_power.py
``--window``). Pure: counts in, a frozen dataclass out.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

import numpy as np

from scorer.drift.cusum import DEFAULT, DriftSettings, drift_path

# drift's score, allowance and baseline; a threshold for a window of tens of runs, not 180
WINDOW = replace(DEFAULT, threshold=3.0)


@dataclass(frozen=True)
class WindowCut:
    """The check over one window: the first run kept (0: the whole window), the run where the
    statistic passed the threshold (None: no change found), and whether the window was long enough
    to be checked at all (more than ``baseline_runs`` runs)."""

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
    """The check over one window's counts, shape (runs, cases), runs in date order."""
    runs = len(passes)
    if runs <= settings.baseline_runs:
        return WindowCut(0, None, False)
    path = drift_path(passes, trials, settings)
    if path.alarm is None:
        return WindowCut(0, None, True)
    first = 0 if path.last_stable is None else path.last_stable + 1
    return WindowCut(first, path.alarm, True)
