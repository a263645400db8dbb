"""The history test (pure): is a new run B of a model worse than that model's earlier runs?

Under "same model" every scored sample of a case (each earlier run's repeats and B's) is
exchangeable with the others, whatever the case's pass rate. So, given a case's N scored samples and
F failures over all runs, the number X_c of B's n_c samples that failed is hypergeometric (as if B's
samples were drawn without replacement from the case's N), and the cases are independent. The
statistic is T = sum_c w_c X_c with the score weight w_c = round(2 / (f_c (1 - f_c))), f_c = (F_c +
1/2) / (N_c + 1): a failure counts for more in a case that rarely fails (20 of 20 passed, now
failed: weight 31) than in a flaky one (half failed: weight 8). The weights depend on the margins
alone, which the test conditions on, so the exact null distribution of T is the convolution of the
per-case hypergeometrics scaled by their weights: exact for any pass rates, no ordering of the runs
needed (docs/decisions/history-gate.md: chosen over the plain sum of failures and log weights by a
seeded simulation).
"""

from __future__ import annotations

import functools
import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass


@dataclass(frozen=True)
class CaseMargins:
    """One case over a history and B: ``failed`` and ``scored`` samples in the history, and in B."""

    failed_history: int
    scored_history: int
    failed_b: int
    scored_b: int


@dataclass(frozen=True)
class HistoryTest:
    """The one-sided p-value that B failed more than its history predicts, the observed statistic,
    its null mean, and how many cases could move (neither every sample passed nor every
    one failed)."""

    p: float
    statistic: int
    expected: float
    informative: int


def score_weight(failed: int, scored: int) -> int:
    """The integer weight of one failure in B for a case with ``failed`` of ``scored`` samples
    failed in all runs (B included): about 1 / (f (1 - f)), the score test's weight for a drop in
    pass rate, halved-count shrunk."""
    f = (failed + 0.5) / (scored + 1)
    return max(1, round(2 / (f * (1 - f))))


def hypergeometric(failed: int, scored: int, drawn: int) -> tuple[int, list[float]]:
    """P(X = x) for x from the returned lowest value up: ``drawn`` of ``scored`` samples, ``failed``
    of them failures, drawn without replacement. Computed from exact integers (``math.comb``)."""
    low, probabilities = _hypergeometric(failed, scored, drawn)
    return low, list(probabilities)


@functools.lru_cache(maxsize=4096)
def _hypergeometric(failed: int, scored: int, drawn: int) -> tuple[int, tuple[float, ...]]:
    # Cached: the cases of a history share few margins, and a simulation asks for them again and
    # again; a tuple, so no caller can change the cached value.
    low, high = max(0, drawn - (scored - failed)), min(drawn, failed)
    total = math.comb(scored, drawn)
    return low, tuple(
        math.comb(failed, x) * math.comb(scored - failed, drawn - x) / total
        for x in range(low, high + 1)
    )


@functools.lru_cache(maxsize=4096)
def _case_terms(failed: int, scored: int, drawn: int) -> tuple[int, tuple[float, ...], float]:
    # A case's hypergeometric and its mean (in the order of the plain sum), cached together: a
    # simulated history asks for the same few margins in case after case.
    low, probabilities = _hypergeometric(failed, scored, drawn)
    return low, probabilities, sum(i * p for i, p in enumerate(probabilities))


@functools.lru_cache(maxsize=4096)
def _score_weight(failed: int, scored: int) -> int:
    # The default weight, cached by margins (a pure function of them, asked once a case).
    return score_weight(failed, scored)


def history_test(
    cases: Sequence[CaseMargins], weight_of: Callable[[int, int], int] = score_weight
) -> HistoryTest:
    """The exact conditional test of B against its history (module docstring); a case without a
    scored sample on either side does not enter. ``weight_of(failed, scored)`` (over all runs) is
    any function of the margins: the score weight by default (benchmarks/history_test_choice.py
    compares others). P(T >= observed) is summed from the convolved distribution (float rounding
    only, relative ~1e-15)."""
    # numpy, imported here as scorer/stats/paired.py does: the convolution is most of the gate's
    # time on a long history.
    import numpy as np

    weigh = _score_weight if weight_of is score_weight else weight_of
    plan: list[tuple[int, tuple[float, ...]]] = []  # each case that can move: its weight, P(X)
    observed, expected, width = 0, 0.0, 1
    for case in cases:
        if case.scored_history <= 0 or case.scored_b <= 0:
            continue
        scored = case.scored_history + case.scored_b
        failed = case.failed_history + case.failed_b
        if failed in (0, scored):
            continue  # every sample the same: X is fixed, the case cannot move T
        weight = weigh(failed, scored)
        low, probabilities, mean = _case_terms(failed, scored, case.scored_b)
        observed += weight * (case.failed_b - low)
        expected += weight * mean
        plan.append((weight, probabilities))
        width += weight * (len(probabilities) - 1)
    # The convolution, case by case, between two zeroed buffers of the final width. Each cell gets
    # its terms in the order of the plain double loop (grown[i * w + j] += p_i * q_j, i ascending,
    # starting from the first term, which is 0.0 + p_0 q_j exactly), so the distribution is bit for
    # bit that loop's. A buffer is written only below the width it is given, which grows: the cells
    # a step reaches beyond the last step's width are still the zeros they began as.
    grown, old, term = np.zeros(width), np.zeros(width), np.empty(width)
    old[0], now = 1.0, 1
    for weight, probabilities in plan:
        distribution, product = old[:now], term[:now]
        np.multiply(distribution, probabilities[0], out=grown[:now])
        for i in range(1, len(probabilities)):
            np.multiply(distribution, probabilities[i], out=product)
            cells = grown[i * weight : i * weight + now]
            np.add(cells, product, out=cells)
        grown, old = old, grown
        now += weight * (len(probabilities) - 1)
    tail = old[observed:now].tolist()
    p = min(1.0, math.fsum(tail)) if plan else 1.0
    return HistoryTest(p, observed, expected, len(plan))
