"""Exact tests for one case, and the paired difference of two runs with its interval (pure).

``broke_p`` is the one-sided Fisher exact test that a case passes less often in B than in A, from
its scored repeats on each side. The gate applies it to every paired case of every model and
controls that family with Holm (``scorer.stats.paired.holm``), so the chance of any false "this case
broke" on a same-model re-run is at most the level it is given (METHOD.md#calibrated-gate).
``paired_difference`` is the mean per-case change B - A with its 95% Student t interval over cases
(the case is the cluster: its repeats enter through its pass rate).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache


def broke_p(passed_a: int, scored_a: int, passed_b: int, scored_b: int) -> float:
    """One-sided Fisher exact p-value that B's pass probability is below A's for one case.

    Conditioning on the total number of passes t, B's passes are hypergeometric; the p-value is
    P(X_B <= passed_b). It is 1.0 when either side has no scored repeat. A case that passed 3 of
    3 in A and 0 of 3 in B gets 0.05, one of 10 of 10 and 0 of 10 gets 1 / C(20, 10)."""
    if scored_a <= 0 or scored_b <= 0:
        return 1.0
    total = passed_a + passed_b
    low = max(0, total - scored_a)
    tail = sum(
        math.comb(scored_b, x) * math.comb(scored_a, total - x) for x in range(low, passed_b + 1)
    )
    return float(Fraction(tail, math.comb(scored_a + scored_b, total)))


def smallest_broke_p(scored_a: int, scored_b: int) -> float:
    """The smallest ``broke_p`` a case with these numbers of scored repeats can get (all passed in
    A, all failed in B): 1 / C(n_A + n_B, n_B); 1.0 when either side has none. Known before any
    outcome is seen."""
    if scored_a <= 0 or scored_b <= 0:
        return 1.0
    return 1 / math.comb(scored_a + scored_b, scored_b)


@dataclass(frozen=True)
class PairedDifference:
    """The mean per-case change B - A in points over ``cases`` paired cases, with its 95% interval
    (None for fewer than two cases: no spread to estimate)."""

    mean: float
    low: float | None
    high: float | None
    cases: int


def paired_difference(differences: Sequence[Fraction | float]) -> PairedDifference | None:
    """Mean of the per-case differences (in shares, 0..1) in points, with the paired t interval
    mean +- t(0.975, n - 1) * sd / sqrt(n), cut to [-100, 100]; None without a paired case."""
    n = len(differences)
    if n == 0:
        return None
    values = [float(d) for d in differences]
    mean = math.fsum(values) / n
    if n < 2:
        return PairedDifference(100 * mean, None, None, n)
    variance = math.fsum((v - mean) ** 2 for v in values) / (n - 1)
    half = t_quantile(0.975, n - 1) * math.sqrt(variance / n)
    # A difference of two rates lies in [-100, 100] points: the interval is cut there (it only
    # matters for a handful of cases, where the t interval can reach past it).
    return PairedDifference(
        100 * mean, max(-100.0, 100 * (mean - half)), min(100.0, 100 * (mean + half)), n
    )


@lru_cache(
    maxsize=256
)  # a few degrees of freedom per session; the bisection costs ~50 incomplete betas
def t_quantile(q: float, df: int) -> float:
    """The ``q`` quantile (0.5 < q < 1) of Student's t with ``df`` degrees of freedom, by
    bisection on its CDF."""
    low, high = 0.0, 1.0
    while _t_cdf(high, df) < q:
        high *= 2
    for _ in range(200):
        mid = (low + high) / 2
        if _t_cdf(mid, df) < q:
            low = mid
        else:
            high = mid
        if high - low < 1e-13:
            break
    return (low + high) / 2


def _t_cdf(t: float, df: int) -> float:
    """P(T <= t) for t >= 0: 1 - I_x(df/2, 1/2) / 2 with x = df / (df + t^2)."""
    return 1 - 0.5 * _beta_inc(df / 2, 0.5, df / (df + t * t))


def _beta_inc(a: float, b: float, x: float) -> float:
    """The regularized incomplete beta function I_x(a, b) (Lentz's continued fraction)."""
    if x <= 0:
        return 0.0
    if x >= 1:
        return 1.0
    front = math.exp(
        math.lgamma(a + b) - math.lgamma(a) - math.lgamma(b) + a * math.log(x) + b * math.log1p(-x)
    )
    if x > (a + 1) / (a + b + 2):
        return 1 - _beta_inc(b, a, 1 - x)
    return front * _beta_fraction(a, b, x) / a


def _beta_fraction(a: float, b: float, x: float) -> float:
    """The continued fraction of the incomplete beta function (modified Lentz, as in Numerical
    Recipes' betacf)."""
    tiny = 1e-300
    c, d = 1.0, 1 - (a + b) * x / (a + 1)
    d = 1 / (tiny if abs(d) < tiny else d)
    h = d
    for m in range(1, 400):
        for numerator in (
            m * (b - m) * x / ((a - 1 + 2 * m) * (a + 2 * m)),
            -(a + m) * (a + b + m) * x / ((a + 2 * m) * (a + 1 + 2 * m)),
        ):
            d = 1 + numerator * d
            d = 1 / (tiny if abs(d) < tiny else d)
            c = 1 + numerator / c
            c = tiny if abs(c) < tiny else c
            h *= d * c
        if abs(d * c - 1) < 1e-15:
            break
    return h
