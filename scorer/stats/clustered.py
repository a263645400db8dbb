"""Rates over case-runs, with intervals clustered by case (a case's repeats, and its calls, are not
independent).

A rate over case-runs is a ratio of sums over cases: R = sum(y_c) / sum(m_c), where case c
contributes y_c successes out of m_c items (its scored repeats, or the calls it made in them). Its
cluster-robust variance is the linearised (CR1) one,
``V = n / (n - 1) * sum((y_c - R * m_c)^2) / (sum m_c)^2`` over the n cases with m_c > 0 (what
statsmodels' OLS on an intercept with ``cov_type="cluster"`` gives). The interval is Wilson's at R
with the effective number of trials ``n_eff = R (1 - R) / V`` (Korn and Graubard 1998), bounded
above by sum(m_c) (every item independent: they never count for more) and not below: one case
holding many of the items may leave fewer effective trials than cases
(METHOD.md#clustered-interval-rule). Where the variance says nothing: every case one item (an
unclustered sample: plain Wilson at n, the binomial variance, without CR1's factor n / (n - 1)); R =
0 or 1, or one case: n; V = 0 at any other R: sum(m_c).
"""

from __future__ import annotations

from collections.abc import Sequence

from scorer.stats.wilson import wilson_at
from scorer.summary import Rate


def effective_trials(clusters: Sequence[tuple[int, int]]) -> float:
    """The effective number of independent trials behind ``sum(y) / sum(m)`` (see the
    module docstring)."""
    used = [(y, m) for y, m in clusters if m > 0]
    n = len(used)
    total = sum(m for _, m in used)
    if total == n:  # every case one item (also no case at all)
        return float(n)
    ratio = sum(y for y, _ in used) / total
    if n == 1 or ratio in (0.0, 1.0):
        return float(n)
    variance = n / (n - 1) * sum((y - ratio * m) ** 2 for y, m in used) / (total * total)
    if variance == 0:
        return float(total)
    return min(float(total), ratio * (1 - ratio) / variance)


def clustered_rate(clusters: Sequence[tuple[int, int]]) -> Rate:
    """The rate over case-runs: ``clusters`` holds each case's (successes, items)."""
    count = sum(y for y, _ in clusters)
    of = sum(m for _, m in clusters)
    if of == 0:
        return Rate(0, 0, None, None)
    low, high = wilson_at(count / of, effective_trials(clusters))
    return Rate(count, of, 100 * count / of, (low, high))
