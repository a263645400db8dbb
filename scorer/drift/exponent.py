"""How far a CUSUM of drift's scores climbs by chance, from the reference's own pass rates: the
tail exponent behind a threshold that follows the history's dispersion profile (issue 41,
docs/decisions/drift.md#adaptive).

A CUSUM ``S_t = max(0, S_{t-1} - z_t - kappa)`` of independent steps passes a level h by chance
with a probability that falls like ``exp(-theta h)``, theta the positive root of the steps'
cumulant generating function, ``log E exp(theta (-z - kappa)) = 0`` (Lundberg's exponent). For a
normal score of variance V it is ``2 kappa / V``; a score skewed towards low values (rare
failures spread over many cases: a failure is a rare, large step) has a smaller root, and one whose
cases never vary (a deterministic case's term is always 0) a larger one. So a threshold of
``c / theta`` holds about the same false-alarm rate whatever the profile, and the profiles whose
score is tame get a lower threshold than the worst one sets for all.

theta is computed from run t's reference (the counts the score compares run t with): each case's
rate q, shrunk by ``PRIOR`` (a case that never failed is not certain never to fail), the score's
weights and scale as ``run_score`` computes them, and the first three cumulants of ``-z`` (the
variance and the skew of a sum of independent binomial shares), the root of the cumulant series
cut after its third term: ``(T / 6) theta^2 + (V / 2) theta - kappa = 0`` (within 8% of the
exact root: tests/test_drift.py). Pure: counts in, arrays out, any leading axes.

Measured by benchmarks/drift_adaptive.py; ``monitor`` (scorer/drift/cusum.py) applies it when its
settings ask for an adaptive threshold (docs/decisions/drift.md#adaptive).
"""

from __future__ import annotations

import numpy as np

PRIOR = 0.02  # added to passes and to fails for the rates behind theta (the score's own is 0.25)
FLOOR = 0.05  # the least variance ratio: a reference where nothing varied gets a finite theta


def tail_exponent(
    ref_passed: np.ndarray,
    ref_tried: np.ndarray,
    trials: np.ndarray,
    kappa: float,
    ridge: float,
    prior: float,
) -> np.ndarray:
    """theta for one run against its reference, counts of shape (..., cases) -> (...).

    ``trials`` are run t's scored repeats per case (0: not scored, left out, as in the score);
    ``ridge`` and ``prior`` the score's (its weights and its shrunk variance). Returns NaN where
    no case is scored on both sides.
    """
    return tail_exponents(ref_passed, ref_tried, trials, (kappa,), ridge, prior)[0]


def tail_exponents(
    ref_passed: np.ndarray,
    ref_tried: np.ndarray,
    trials: np.ndarray,
    kappas: tuple[float, ...],
    ridge: float,
    prior: float,
) -> tuple[np.ndarray, ...]:
    """``tail_exponent`` for each allowance in ``kappas``, the same values: the cumulants, which do
    not depend on the allowance, are computed once (drift's two CUSUMs share one reference)."""
    m = np.asarray(ref_passed, dtype=float)
    n = np.asarray(ref_tried, dtype=float)
    k = np.asarray(trials, dtype=float)
    usable = (k > 0) & (n > 0)
    # every case usable (the usual run): the masks below would copy their arrays unchanged
    every = bool(usable.all())
    k_safe = k if every else np.where(usable, k, 1.0)
    shrunk = (m + prior) / (n + 2 * prior)  # the score's rate: its weights and its scale
    apart = 1 - shrunk
    weight = 1.0 / (shrunk * apart + ridge)
    square = weight * weight
    q = (m + PRIOR) / (n + 2 * PRIOR)  # the rate a case's chance failures come at
    spread = q * (1 - q)
    # the third cumulant of -z: a share of k trials has -(1 - 2q) q (1 - q) / k^2
    parts = (
        square * shrunk * apart / k_safe,
        square * spread / k_safe,
        -(weight**3) * spread * (1 - 2 * q) / k_safe**2,
    )
    scale, variance, third = (
        (part if every else np.where(usable, part, 0.0)).sum(-1) for part in parts
    )
    with np.errstate(invalid="ignore", divide="ignore"):
        v = np.maximum(variance / scale, FLOOR)
        t = np.maximum(third / scale**1.5, 0.0)
        return tuple(np.where(scale > 0, _root(v, t, kappa), np.nan) for kappa in kappas)


def _root(v: np.ndarray, t: np.ndarray, kappa: float) -> np.ndarray:
    """The positive root of ``(t / 6) theta^2 + (v / 2) theta - kappa = 0`` (the normal one,
    ``2 kappa / v``, where the skew ``t`` is nil)."""
    normal = 2 * kappa / v
    skewed = (np.sqrt(v * v / 4 + 2 * t * kappa / 3) - v / 2) / (t / 3)
    return np.where(t > 1e-9, skewed, normal)


def threshold(theta: np.ndarray, scale: float, low: float, high: float) -> np.ndarray:
    """The run's threshold ``scale / theta`` kept within [low, high] (NaN theta: ``high``)."""
    theta = np.asarray(theta, dtype=float)
    with np.errstate(divide="ignore", invalid="ignore"):
        raw = np.where(np.isnan(theta) | (theta <= 0), high, scale / theta)
    return np.clip(raw, low, high)
