"""The drift statistics compared in docs/decisions/drift.md (issue 41), and the second drop
definition.

- ``frozen`` (shipped, ``scorer.drift.cusum.monitor``): each run scored against the runs up to the
last
  one where the CUSUM was 0, so the runs of a candidate change never enter their own reference;
- ``pooled`` (shipped before issue 41): each run scored against every run so far, itself included.
  Exactly centred, but a change dilutes into the pooled level: its score fades as changed runs
  accumulate, and a change that has not alarmed after a few dozen runs may never alarm;
- ``adaptive`` (issue 41 round 3, docs/decisions/drift.md#adaptive): the frozen scores with the
  threshold c / theta_t within [low, high] and the second CUSUM (``scorer.drift.cusum.watch``).

Each returns a path, shape (..., runs), from counts of shape (..., runs, cases), that passes
``settings.threshold`` exactly where the design alarms: the CUSUM for the first two; for
``adaptive`` the critical c of each run (the run alarms at every c below it), so that
``settings.threshold`` is the rule's constant c and the calibration's peaks are c's.

``logit_shift`` is the second drop definition of METHOD.md ("Drift and the history gate: two
drops"): every flaky case (0 < p < 1) moves by one common shift on the logit scale, cases at 0 or 1
stay; ``benchmarks.drift.diffuse`` is the additive one (every case that can drop loses the same
probability, so cases that never failed start failing).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace

import numpy as np
from scipy.optimize import brentq
from scipy.special import expit, logit

from scorer.drift.cusum import DriftSettings, cusum, monitor, run_score, watch

ALWAYS = 1e6  # the critical c of a run that alarms whatever c is (above high, or the second CUSUM)


def frozen(passes: np.ndarray, trials: np.ndarray, settings: DriftSettings) -> np.ndarray:
    """The shipped CUSUM: the reference frozen at its last zero (``scorer.drift.cusum.monitor``)."""
    return monitor(passes, trials, settings)[1]


def pooled(passes: np.ndarray, trials: np.ndarray, settings: DriftSettings) -> np.ndarray:
    """The design before issue 41: run t against runs 1..t pooled (run t included)."""
    passes = np.asarray(passes, dtype=float)
    trials = np.asarray(trials, dtype=float)
    passed, tried = np.cumsum(passes, axis=-2), np.cumsum(trials, axis=-2)
    z = np.full(passes.shape[:-1], np.nan)
    for t in range(settings.baseline_runs, passes.shape[-2]):
        z[..., t] = run_score(
            passes[..., t, :], trials[..., t, :], passed[..., t - 1, :], tried[..., t - 1, :],
            settings,
        )  # fmt: skip
    return cusum(z, settings)


def adaptive(passes: np.ndarray, trials: np.ndarray, settings: DriftSettings) -> np.ndarray:
    """The adaptive rule's critical c per run: the first CUSUM S alarms at c iff S > clip(c / theta,
    low, high), that is iff S > high, or S > low and c < S theta; the second CUSUM's alarm does
    not depend on c. So the run alarms iff c < crit, crit = ALWAYS (S > high or the second
    alarms), S theta (low < S <= high) or 0. ``settings.scale`` is ignored: c is the threshold."""
    # scale 1 and no clip: the first limit is 1 / theta (inf where theta is NaN: S theta = 0);
    # read only where S > low, and the second CUSUM (never above S) can pass its threshold (at
    # least low2) only where S > low2: the thresholds of the other runs are not computed
    above = min(settings.low, settings.low2)
    w = watch(passes, trials, replace(settings, scale=1.0, low=0.0, high=np.inf), above)
    s = w.statistic
    crit = np.where(s > settings.low, s / w.limit, 0.0)
    return np.where((s > settings.high) | (w.second > w.limit2), ALWAYS, crit)


DESIGNS: dict[str, Callable[[np.ndarray, np.ndarray, DriftSettings], np.ndarray]] = {
    "frozen": frozen,
    "pooled": pooled,
    "adaptive": adaptive,
}
# the pooled design's constants as shipped before issue 41 (docs/decisions/drift.md)
POOLED = DriftSettings(kappa=0.75, threshold=5.2, ridge=0.1, prior=0.25)
# the adaptive design (drift's rule) as the benchmark runs it: c in ``threshold``
ADAPTIVE = replace(DriftSettings(), threshold=DriftSettings().scale or 0.0)


def logit_shift(base: np.ndarray, points: float) -> np.ndarray:
    """The flaky cases (0 < p < 1) all move by one shift on the logit scale, chosen so that the mean
    pass probability falls by ``points``; cases at 0 or 1 stay put."""
    base = np.asarray(base, dtype=float)
    inside = (base > 0) & (base < 1)
    centre = logit(np.where(inside, base, 0.5))

    def moved(shift: float) -> np.ndarray:
        return np.where(inside, expit(centre - shift), base)

    shift = brentq(lambda d: float((base - moved(d)).mean()) - points / 100, 0.0, 30.0)
    return moved(shift)
