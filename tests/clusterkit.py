"""A reference for rates clustered by case, computed with statsmodels (not with ``scorer``): the
cluster-robust (CR1) variance of the mean of the items is the variance of an OLS intercept with
``cov_type="cluster"``, and the interval is statsmodels' Wilson interval at the effective number
of trials (METHOD.md#clustered-interval-rule)."""

from __future__ import annotations

from collections.abc import Sequence

from statsmodels.regression.linear_model import OLS
from statsmodels.stats.proportion import proportion_confint


def cr1_variance(clusters: Sequence[tuple[int, int]]) -> float:
    """The CR1 variance of sum(y) / sum(m): one item per row (1 for a success), its case
    the cluster."""
    items, groups = [], []
    for case, (y, m) in enumerate(clusters):
        items += [1.0] * y + [0.0] * (m - y)
        groups += [case] * m
    fit = OLS(items, [[1.0]] * len(items)).fit(cov_type="cluster", cov_kwds={"groups": groups})
    return float(fit.cov_params()[0][0])


def reference_interval(clusters: Sequence[tuple[int, int]]) -> list[float] | None:
    """The 95% interval in percent of sum(y) / sum(m) over the cases with an item, as the
    rule says."""
    used = [(y, m) for y, m in clusters if m > 0]
    n, total = len(used), sum(m for _, m in used)
    if total == 0:
        return None
    ratio = sum(y for y, _ in used) / total
    if total == n or n == 1 or ratio in (0.0, 1.0):
        trials = float(n)
    else:
        variance = cr1_variance(used)
        trials = (
            float(total) if variance < 1e-15 else min(float(total), ratio * (1 - ratio) / variance)
        )
    low, high = proportion_confint(ratio * trials, trials, alpha=0.05, method="wilson")
    return [100 * float(low), 100 * float(high)]
