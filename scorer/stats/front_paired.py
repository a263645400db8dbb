"""The paired tests behind the cost-quality front and the pick (METHOD.md#the-pick).

Both pair two models by case: case c gives x_c, a model's pass rate over its scored repeats of c
(0 or 1 at K = 1), and d_c = x_c(m) - x_c(j) over the cases both scored. The case is the unit, so
repeats are clustered by construction.

- ``better_p``: the one-sided p that j is better than m, the exact sign-flip test on d_c
  (``scorer.stats.paired.sign_flip``; at K = 1 the exact McNemar test). It says "j dominates m".
- ``lower_bound``: a one-sided lower confidence bound for mean(d) = Overall(m) - Overall(j), by
  inverting a score-type z test of H0: mean(d) = -u whose variance is at least the least favourable
  one under H0: ``max(s^2, u (1 - u))``, s^2 the sample variance of d_c and u (1 - u) the variance
  of d when m loses whole cases with probability u, which is how two models that agree on every
  case can still differ by u. Without that floor, two models that agree on all 80 cases would be
  "within 0 points" with certainty; with it they are within z^2 / (n + z^2) (3.3 points at n = 80,
  z = 1.645), close to the exact 1 - alpha^(1/n) (3.7) of a binomial with no failure seen. The
  bound is closed-form (two quadratics), so a board of 100 models costs no grid search.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from fractions import Fraction
from statistics import NormalDist

from scorer.stats.paired import mcnemar_worse, sign_flip

CaseRates = dict[str, tuple[int, int]]  # case id -> (passed, scored) repeats


def differences(m: CaseRates, j: CaseRates) -> list[Fraction]:
    """d_c = x_c(m) - x_c(j) over the cases both scored, in ``m``'s case order."""
    return [
        Fraction(m[c][0], m[c][1]) - Fraction(j[c][0], j[c][1])
        for c in m
        if m[c][1] and c in j and j[c][1]
    ]


def float_differences(m: CaseRates, j: CaseRates) -> list[float]:
    """``differences`` as floats (the bound's arithmetic is float anyway; Fractions cost 10x)."""
    return [m[c][0] / m[c][1] - j[c][0] / j[c][1] for c in m if m[c][1] and c in j and j[c][1]]


def better_p(m: CaseRates, j: CaseRates) -> float:
    """One-sided p-value that ``j`` is better than ``m`` on the cases both scored (exact): the
    exact McNemar test from the discordant counts when both have one sample per case, else the
    sign-flip test on the per-case rates (which is the same test at K = 1)."""
    shared = [c for c in m if m[c][1] and c in j and j[c][1]]
    if all(m[c][1] == 1 and j[c][1] == 1 for c in shared):
        worse = sum(1 for c in shared if j[c][0] > m[c][0])
        better = sum(1 for c in shared if m[c][0] > j[c][0])
        return mcnemar_worse(worse, better)
    return sign_flip(differences(m, j), lower=True).p


def critical(alpha: float, n: int) -> float:
    """Student's t quantile 1 - alpha at n - 1 degrees of freedom (Cornish-Fisher from the normal
    quantile; within 1e-4 of scipy's from 20 cases up), the normal one below 2 cases."""
    z = NormalDist().inv_cdf(1 - alpha)
    nu = n - 1
    if nu < 1:
        return z
    return (
        z
        + (z**3 + z) / (4 * nu)
        + (5 * z**5 + 16 * z**3 + 3 * z) / (96 * nu**2)
        + (3 * z**7 + 19 * z**5 + 17 * z**3 - 15 * z) / (384 * nu**3)
    )


def _roots(a: float, b: float, c: float) -> tuple[float, float] | None:
    """Real roots (low, high) of a u^2 + b u + c (a > 0), or None."""
    disc = b * b - 4 * a * c
    if disc < 0:
        return None
    root = math.sqrt(disc)
    return (-b - root) / (2 * a), (-b + root) / (2 * a)


def lower_bound(d: Sequence[float], z: float) -> float | None:
    """The one-sided lower bound for mean(d) (a share, -1..1) at critical value ``z``; None without
    a shared case.

    H0 at -u is rejected when mean(d) + u > 0 and n (mean(d) + u)^2 > z^2 max(s^2 + (mean(d) +
    u)^2, |u| (1 - |u|)). The bound is -sup{u: not rejected}: the largest of (a)
    z s / sqrt(n - z^2) - mean(d), where the
    sample variance decides, and (b) the highest root of the floor's quadratic on each side of 0
    (u >= 0: the bound below 0; u < 0: a bound above 0, m better than j)."""
    n = len(d)
    if n == 0:
        return None
    mean = math.fsum(d) / n
    var = math.fsum((x - mean) ** 2 for x in d) / (n - 1) if n > 1 else 0.0
    z2 = z * z
    worst = z * math.sqrt(var / max(n - z2, 1.0)) - mean  # (a)
    # (b), u >= 0: n (mean + u)^2 - z^2 u (1 - u) <= 0
    found = _roots(n + z2, 2 * n * mean - z2, n * mean * mean)
    if found is not None and found[1] >= 0:
        worst = max(worst, found[1])
    # (b), u < 0 (a positive bound): n (mean + u)^2 + z^2 u (1 + u) <= 0
    found = _roots(n + z2, 2 * n * mean + z2, n * mean * mean)
    if found is not None and found[0] < 0:
        worst = max(worst, min(found[1], 0.0))
    return max(-1.0, min(1.0, -worst))
