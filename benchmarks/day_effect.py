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
SHUFFLES = 50  # ``dispersion_p``'s permutations held at once (about 1 MiB for 60 runs of 46 cases)


def shifted(probability: np.ndarray, shift: np.ndarray | float) -> np.ndarray:
    """Every case's pass probability moved by ``shift`` on the logit scale; 0 and 1 stay put.
    ``shift`` broadcasts against ``probability`` (one shift per run: shape (..., runs, 1))."""
    p = np.asarray(probability, dtype=float)
    inside = (p > 0) & (p < 1)
    with np.errstate(divide="ignore"):
        moved = np.asarray(logit(np.where(inside, p, 0.5)) + shift, dtype=float)
    # in place, the same values as expit(...) and np.where(inside, moved, p): no second array of
    # every history's probabilities (docs/decisions/testing.md#r2drift)
    expit(moved, out=moved)
    np.copyto(moved, p, where=~inside)
    return moved


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


def successive_variance(values: np.ndarray, axis: int = -1) -> np.ndarray:
    """Half the mean squared difference of successive values: the variance for values drawn
    independently from one law, but a step in the level (a real change) adds one difference only,
    where it would add to every value's deviation from the mean."""
    steps = np.diff(np.asarray(values, dtype=float), axis=axis)
    return (steps * steps).mean(axis) / 2


def dispersion(passes: np.ndarray, trials: np.ndarray) -> np.ndarray:
    """Overall's run-to-run variance over the part the cases' own run-to-run variances explain:
    v(sum_c y_tc) / sum_c v(y_tc), y_tc case c's pass share in run t (runs in date order), v the
    ``successive_variance`` over runs, for counts of shape (..., runs, cases). If the runs are
    exchangeable and the cases independent, the ratio is about 1 (its exact null is
    ``dispersion_p``'s); a day effect moves the cases together and raises it to about (sd with S /
    sd independent)^2 of ``overall_sd``. Successive differences keep a real change (a level that
    steps once) from looking like a day effect. A case that never varies adds 0 to both."""
    return _ratio(np.asarray(passes, dtype=float) / np.asarray(trials, dtype=float))


def _ratio(share: np.ndarray, steps: np.ndarray | None = None) -> np.ndarray:
    """``dispersion`` of the pass shares ``share`` (..., runs, cases). ``steps``, a buffer of shape
    (..., runs - 1, cases), takes the cases' squared steps (``dispersion_p`` reuses one): the same
    values as ``successive_variance(share, axis=-2)``'s, without two new arrays a block."""
    total = successive_variance(share.sum(-1))
    steps = np.subtract(share[..., 1:, :], share[..., :-1, :], out=steps)
    np.multiply(steps, steps, out=steps)
    cases = (steps.mean(-2) / 2).sum(-1)
    with np.errstate(invalid="ignore", divide="ignore"):
        return total / cases


def dispersion_p(
    passes: np.ndarray, trials: np.ndarray, rng: np.random.Generator, permutations: int = 200
) -> float:
    """One history's (counts of shape (runs, cases)) one-sided permutation p-value for "its runs
    are exchangeable" against a day effect: each case's runs shuffled on their own keep what the
    case did and break only what runs share. Exact (given every case's outcomes) when the runs are
    exchangeable."""
    share = np.asarray(passes, dtype=float) / np.asarray(trials, dtype=float)
    # The shares as they are (not divided again by trials of one: the same values, half the work
    # on the permutations' copies)
    observed = _ratio(share)
    # SHUFFLES at a time, into one C-ordered buffer: numpy shuffles the slices in C order, so the
    # blocks draw what one block of every permutation would; a block stays in a core's cache,
    # where all at once went through memory (docs/decisions/testing.md#dispersion)
    count = 0
    shuffled = np.empty((min(SHUFFLES, permutations), *share.shape))
    steps = np.empty_like(shuffled[:, 1:])
    for start in range(0, permutations, SHUFFLES):
        block = shuffled[: min(SHUFFLES, permutations - start)]
        rng.permuted(np.broadcast_to(share, block.shape), axis=1, out=block)
        count += int((_ratio(block, steps[: len(block)]) >= observed - 1e-12).sum())
    return float((1 + count) / (1 + permutations))
