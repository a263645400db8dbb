"""Paired tests on the same cases scored in two runs: exact McNemar, the exact sign-flip test on per-case pass
rates (repeats), and Holm's correction for several tests at once."""

from __future__ import annotations

import math
from collections.abc import Sequence
from fractions import Fraction


def mcnemar_exact(b: int, c: int) -> float:
    """Two-sided exact McNemar p-value on the discordant counts.

    ``b`` is how many cases went passed->failed, ``c`` failed->passed. Under the null hypothesis each
    discordant case is a fair coin, so the p-value is ``min(1, 2 * P[X <= min(b, c)])`` with
    ``X ~ Bin(b + c, 1/2)``; it is 1.0 when there are no discordant pairs. Computed with exact integers
    (``math.comb``) and converted to float once, so the result does not depend on summation order.
    """
    if isinstance(b, bool) or isinstance(c, bool) or not isinstance(b, int) or not isinstance(c, int):
        raise TypeError(f"mcnemar_exact needs integer counts, got b={b!r}, c={c!r}")
    if b < 0 or c < 0:
        raise ValueError(f"mcnemar_exact needs non-negative counts, got b={b}, c={c}")
    n = b + c
    if n == 0:
        return 1.0
    tail = sum(math.comb(n, k) for k in range(min(b, c) + 1))
    return float(min(Fraction(1), Fraction(2 * tail, 2**n)))


def sign_flip_exact(differences: Sequence[Fraction]) -> float:
    """Two-sided exact sign-flip (Fisher-Pitman permutation) p-value for paired per-case differences.

    Under the null hypothesis each case's difference ``d_c = x_B - x_A`` is as likely to have either sign, so
    the p-value is the share of the 2^m sign patterns of the m non-zero differences whose sum is at least as far
    from 0 as the observed one. Counted exactly on integers (the differences scaled by the least common
    denominator). With one sample per case it is the exact McNemar test. When counting would take more than
    5 * 10^6 steps (many different repeat counts) the normal approximation of the same distribution is used.
    """
    values = [Fraction(d) for d in differences if d != 0]
    if not values:
        return 1.0
    scale = math.lcm(*(v.denominator for v in values))
    steps = [abs(int(v * scale)) for v in values]
    observed = abs(sum(int(v * scale) for v in values))
    total = sum(steps)
    if total * len(steps) > 5_000_000:
        return math.erfc(observed / math.sqrt(2 * sum(s * s for s in steps)))
    counts = [0] * (2 * total + 1)  # counts[total + s]: sign patterns summing to s
    counts[total] = 1
    for step in steps:
        shifted = [0] * len(counts)
        for index, count in enumerate(counts):
            if count:
                shifted[index - step] += count
                shifted[index + step] += count
        counts = shifted
    extreme = sum(count for index, count in enumerate(counts) if abs(index - total) >= observed)
    return float(Fraction(extreme, 2 ** len(steps)))


def holm(p_values: Sequence[float]) -> list[float]:
    """Holm-Bonferroni adjusted p-values (same order as given): compare each with alpha to control the
    family-wise error rate over all the tests."""
    order = sorted(range(len(p_values)), key=lambda i: (p_values[i], i))
    adjusted = [1.0] * len(p_values)
    running = 0.0
    for rank, index in enumerate(order):
        running = max(running, min(1.0, (len(p_values) - rank) * p_values[index]))
        adjusted[index] = running
    return adjusted
