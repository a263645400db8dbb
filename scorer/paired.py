"""Paired tests on the same cases scored in two runs: exact McNemar, the sign-flip test on per-case pass rates
(repeats; counted exactly), and Holm's correction for several tests at once."""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from dataclasses import dataclass
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
    """Two-sided sign-flip (Fisher-Pitman permutation) p-value for paired per-case differences.

    Under the null hypothesis each case's difference ``d_c = x_B - x_A`` is as likely to have either sign, so
    the p-value is the share of the 2^m sign patterns of the m non-zero differences whose sum is at least as far
    from 0 as the observed one. With one sample per case it is the exact McNemar test. The count is exact
    (``sign_flip``) except in designs far beyond this tool's (METHOD.md#sign-flip-exact-count), where it is a
    seeded Monte Carlo estimate; ``sign_flip`` says which.
    """
    return sign_flip(differences).p


@dataclass(frozen=True)
class SignFlip:
    """A sign-flip test's two-sided p-value; ``draws`` is 0 when it was counted exactly, else the number of
    seeded random sign patterns it was estimated from (its standard error is at most 0.5 / sqrt(draws))."""

    p: float
    draws: int


MAX_EXACT_BITS = 1 << 28  # 32 MB for the count's one integer: n = 300 cases with every difference +-1 in 2520ths
MONTE_CARLO_DRAWS = 100_000
MONTE_CARLO_SEED = 20_240_611


def sign_flip(differences: Sequence[Fraction]) -> SignFlip:
    """The sign-flip test of ``sign_flip_exact``, saying whether its p was counted exactly.

    The differences are scaled to integers s_c (by the least common denominator, then their gcd); a sign
    pattern's sum is 2 S - T with T = sum s_c and S the sum of the s_c given a plus sign. The distribution of S
    is the polynomial prod (1 + x^{s_c}), multiplied out in one Python integer with one (m + 2)-bit field per
    power of x (a count never exceeds 2^m, so fields never carry); the count of patterns with S >= t is the sum
    of the fields from t up, which is that shifted integer modulo 2^(m + 2) - 1. Exact, and fast for hundreds of
    cases with differences in ``K_A K_B``-ths; the distribution is symmetric, so the two tails are equal.
    """
    values = [Fraction(d) for d in differences if d != 0]
    if not values:
        return SignFlip(1.0, 0)
    scale = math.lcm(*(v.denominator for v in values))
    steps = [abs(int(v * scale)) for v in values]
    signed = sum(int(v * scale) for v in values)
    common = math.gcd(*steps)
    steps = [s // common for s in steps]
    observed, total, m = abs(signed) // common, sum(steps), len(steps)
    if observed == 0:
        return SignFlip(1.0, 0)
    width = m + 2
    if (total + 1) * width > MAX_EXACT_BITS:
        return _monte_carlo(steps, observed)
    poly = 1
    for step in steps:
        poly += poly << (step * width)
    # |2 S - T| >= observed  <=>  S >= (T + observed) / 2 (upper tail); the lower tail is its mirror image.
    start = (total + observed + 1) // 2
    upper = (poly >> (start * width)) % ((1 << width) - 1)
    return SignFlip(float(min(Fraction(1), Fraction(2 * upper, 2**m))), 0)


def _monte_carlo(steps: Sequence[int], observed: int) -> SignFlip:
    """The share of seeded random sign patterns at least as extreme, counting the observed one ((hits + 1) /
    (draws + 1): a valid p-value whatever the draws)."""
    rng = random.Random(MONTE_CARLO_SEED)
    hits = 0
    for _ in range(MONTE_CARLO_DRAWS):
        bits = rng.getrandbits(len(steps))
        if abs(sum(s if bits >> i & 1 else -s for i, s in enumerate(steps))) >= observed:
            hits += 1
    return SignFlip((hits + 1) / (MONTE_CARLO_DRAWS + 1), MONTE_CARLO_DRAWS)


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
