"""A day effect for the simulations: on some days a provider serves a model from a busier or other
host, and every case's pass probability moves together for that run, with no change of model.

Each run draws one shift d ~ N(0, S^2) and every case's pass probability p becomes
expit(logit(p) + d); a case at exactly 0 or 1 stays put, as a deterministic case would. S = 0 is
no day effect (the simulations then draw nothing more, so every existing figure is unchanged).
Same-model runs are then no longer exchangeable: drift's and the history gate's calibrations
assume they are (docs/decisions/drift.md, docs/decisions/history-gate.md).

``overall_sd`` says what S means where a user can see it: the run-to-run sd of a run's Overall
(points), without and with the day effect, by Gauss-Hermite quadrature over d (no simulation).
"""

from __future__ import annotations

import numpy as np
from scipy.special import expit, logit

NODES = 64  # Gauss-Hermite nodes: exact to far below a hundredth of a point here


def shifted(probability: np.ndarray, shift: np.ndarray | float) -> np.ndarray:
    """Every case's pass probability moved by ``shift`` on the logit scale; 0 and 1 stay put.
    ``shift`` broadcasts against ``probability`` (one shift per run: shape (..., runs, 1))."""
    p = np.asarray(probability, dtype=float)
    inside = (p > 0) & (p < 1)
    with np.errstate(divide="ignore"):
        moved = expit(logit(np.where(inside, p, 0.5)) + shift)
    return np.where(inside, moved, p)


def overall_sd(probability: np.ndarray, k: int, day_sd: float) -> tuple[float, float]:
    """(sd of a run's Overall with independent runs, sd with the day effect), in points, for a run
    of K repeats a case (Overall: the mean pass share over the cases). The law of total variance
    over the day's shift d: E_d[binomial variance] + Var_d[mean pass probability]."""
    p = np.asarray(probability, dtype=float)
    n = len(p)
    independent = np.sqrt((p * (1 - p)).sum() / k) / n
    nodes, weights = np.polynomial.hermite_e.hermegauss(NODES)
    weights = weights / weights.sum()
    day = shifted(p, day_sd * nodes[:, None])  # (nodes, cases)
    within = (weights * (day * (1 - day)).sum(-1) / k).sum() / n**2
    means = day.mean(-1)
    between = (weights * means**2).sum() - (weights * means).sum() ** 2
    return 100 * float(independent), 100 * float(np.sqrt(within + between))


def dispersion(passes: np.ndarray, trials: np.ndarray) -> np.ndarray:
    """Overall's run-to-run variance over the part the cases' own run-to-run variances explain:
    var_t(sum_c y_tc) / sum_c var_t(y_tc), y_tc case c's pass share in run t, for counts of shape
    (..., runs, cases). If the runs are exchangeable and the cases independent, the covariances
    between cases are 0 in expectation and the ratio is about 1 (its exact null is
    ``dispersion_p``'s); a day effect moves the cases together and raises it to about (sd with S /
    sd independent)^2 of ``overall_sd``. A case that never varies adds 0 to both."""
    share = np.asarray(passes, dtype=float) / np.asarray(trials, dtype=float)
    total = share.sum(-1).var(-1, ddof=1)
    cases = share.var(-2, ddof=1).sum(-1)
    with np.errstate(invalid="ignore", divide="ignore"):
        return total / cases


def dispersion_p(
    passes: np.ndarray, trials: np.ndarray, rng: np.random.Generator, permutations: int = 200
) -> float:
    """One history's (counts of shape (runs, cases)) one-sided permutation p-value for "its runs
    are exchangeable" against a day effect: each case's runs shuffled on their own keep every
    case's counts (and so the denominator of ``dispersion``) and break only what runs share."""
    share = np.asarray(passes, dtype=float) / np.asarray(trials, dtype=float)
    observed = share.sum(-1).var(ddof=1)
    shuffled = rng.permuted(np.broadcast_to(share, (permutations, *share.shape)), axis=1)
    null = shuffled.sum(-1).var(-1, ddof=1)
    return float((1 + (null >= observed - 1e-12).sum()) / (1 + permutations))
