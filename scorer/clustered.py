"""Rates over repeated runs, with intervals clustered by case (a case's repeats are not independent samples).

A rate over case-runs is a ratio of sums over cases: R = sum(y_c) / sum(m_c), where case c contributes y_c
successes out of m_c items (its scored repeats, or the calls it made in them). Its cluster-robust variance is
the linearised (CR1) one, ``V = n / (n - 1) * sum((y_c - R * m_c)^2) / (sum m_c)^2`` over the n cases with
m_c > 0. The interval is Wilson's at R with the effective number of trials ``n_eff = R (1 - R) / V`` (Korn and
Graubard 1998), kept between n (every case one independent trial: repeats never count for less) and sum(m_c)
(every item independent: they never count for more); at R = 0 or 1, or V = 0, n_eff = n.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from scorer.stats import wilson_at


def effective_trials(clusters: Sequence[tuple[int, int]]) -> float:
    """The effective number of independent trials behind ``sum(y) / sum(m)`` (see the module docstring)."""
    used = [(y, m) for y, m in clusters if m > 0]
    n = len(used)
    total = sum(m for _, m in used)
    if n == 0:
        return 0.0
    ratio = sum(y for y, _ in used) / total
    if n == 1 or ratio in (0.0, 1.0):
        return float(n)
    variance = n / (n - 1) * sum((y - ratio * m) ** 2 for y, m in used) / (total * total)
    if variance == 0:
        return float(n)
    return min(float(total), max(float(n), ratio * (1 - ratio) / variance))


def clustered_rate(clusters: Sequence[tuple[int, int]]) -> dict[str, Any]:
    """``{count, of, rate, ci}`` over case-runs: ``clusters`` holds each case's (successes, items)."""
    count = sum(y for y, _ in clusters)
    of = sum(m for _, m in clusters)
    if of == 0:
        return {"count": 0, "of": 0, "rate": None, "ci": None}
    return {"count": count, "of": of, "rate": 100 * count / of, "ci": wilson_at(count / of, effective_trials(clusters))}
