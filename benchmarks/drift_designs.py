"""The drift statistics compared in docs/decisions/drift.md (issue 41), and the second drop
definition.

- ``frozen`` (shipped, ``scorer.drift.cusum.monitor``): each run scored against the runs up to the
last
  one where the CUSUM was 0, so the runs of a candidate change never enter their own reference;
- ``pooled`` (shipped before issue 41): each run scored against every run so far, itself included.
  Exactly centred, but a change dilutes into the pooled level: its score fades as changed runs
  accumulate, and a change that has not alarmed after a few dozen runs may never alarm.

Both return the CUSUM path, shape (..., runs), from counts of shape (..., runs, cases).

``logit_shift`` is the second drop definition of METHOD.md ("Drift and the history gate: two
drops"): every flaky case (0 < p < 1) moves by one common shift on the logit scale, cases at 0 or 1
stay; ``benchmarks.drift.diffuse`` is the additive one (every case that can drop loses the same
probability, so cases that never failed start failing).
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
from scipy.optimize import brentq
from scipy.special import expit, logit

from scorer.drift.cusum import DriftSettings, cusum, monitor, run_score


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


DESIGNS: dict[str, Callable[[np.ndarray, np.ndarray, DriftSettings], np.ndarray]] = {
    "frozen": frozen,
    "pooled": pooled,
}
# the pooled design's constants as shipped before issue 41 (docs/decisions/drift.md)
POOLED = DriftSettings(kappa=0.75, threshold=5.2, ridge=0.1, prior=0.25)


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
