"""Exact McNemar test for paired pass/fail outcomes (the same cases scored in two runs)."""

from __future__ import annotations

import math
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
