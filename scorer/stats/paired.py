"""Paired tests on the same cases scored in two runs: exact McNemar, the sign-flip test on per-case
pass rates (repeats; counted exactly), and Holm's correction for several tests at once."""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction


def mcnemar_exact(b: int, c: int) -> float:
    """Two-sided exact McNemar p-value on the discordant counts.

    ``b`` is how many cases went passed->failed, ``c`` failed->passed. Under the null hypothesis
    each discordant case is a fair coin, so the p-value is ``min(1, 2 * P[X <= min(b, c)])`` with
    ``X ~ Bin(b + c, 1/2)``; it is 1.0 when there are no discordant pairs. Computed with exact
    integers (``math.comb``) and converted to float once, so the result does not depend on
    summation order.
    """
    if (
        isinstance(b, bool)
        or isinstance(c, bool)
        or not isinstance(b, int)
        or not isinstance(c, int)
    ):
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

    Under the null hypothesis each case's difference ``d_c = x_B - x_A`` is as likely to have either
    sign, so the p-value is the share of the 2^m sign patterns of the m non-zero differences whose
    sum is at least as far from 0 as the observed one. With one sample per case it is the exact
    McNemar test. The count is exact (``sign_flip``; float rounding only, for large designs) except
    far beyond this tool's designs (METHOD.md#sign-flip-exact-count), where it is a seeded Monte
    Carlo estimate; ``sign_flip`` says which.
    """
    return sign_flip(differences).p


@dataclass(frozen=True)
class SignFlip:
    """A sign-flip test's two-sided p-value; ``draws`` is 0 when it was counted exactly, else the
    number of seeded random sign patterns it was estimated from (its standard error is at most
    0.5 / sqrt(draws))."""

    p: float
    draws: int


# The integer count while it stays small (exact to the last bit, ~0.1 s); float probabilities past
# it (one numpy pass per case: 400 cases in 2520ths take about a second); a seeded Monte Carlo
# estimate only past that.
MAX_INTEGER_BITS = 1 << 22
MAX_FLOAT_STEPS = 2 * 10**9
MONTE_CARLO_DRAWS = 100_000
MONTE_CARLO_SEED = 20_240_611


def mcnemar_worse(worse: int, better: int) -> float:
    """One-sided exact McNemar p-value that B is worse: P[X >= worse] with X ~ Bin(worse + better,
    1/2) (``worse`` cases went passed->failed, ``better`` failed->passed); 1.0 without a
    discordant pair."""
    n = worse + better
    if n == 0:
        return 1.0
    return float(Fraction(sum(math.comb(n, k) for k in range(worse, n + 1)), 2**n))


def sign_flip(differences: Sequence[Fraction], *, lower: bool = False) -> SignFlip:
    """The sign-flip test of ``sign_flip_exact``, saying whether its p was counted or estimated.

    The differences are scaled to integers s_c (by the least common denominator, then their gcd); a
    sign pattern's sum is 2 S - T with T = sum s_c and S the sum of the s_c given a plus sign. The
    distribution of S is the polynomial prod (1 + x^{s_c}). While it is small it is multiplied out
    in one Python integer with one (m + 2)-bit field per power of x (a count never exceeds 2^m, so
    fields never carry), and the count of patterns with S >= t is that integer shifted, modulo
    2^(m + 2) - 1: exact to the last bit. Past that, the same product as float probabilities
    (rounding only, relative ~1e-13); the distribution is symmetric, so the two tails are equal.
    Only past 2 * 10^9 steps (about 10 s), a seeded Monte Carlo estimate. With ``lower`` it is the
    one-sided p that B is worse: the share of patterns whose sum is at most the observed one (by
    symmetry, the upper tail at minus the observed sum).
    """
    values = [Fraction(d) for d in differences if d != 0]
    if not values:
        return SignFlip(1.0, 0)
    if lower:
        return _lower(values)
    scale = math.lcm(*(v.denominator for v in values))
    steps = [abs(int(v * scale)) for v in values]
    signed = sum(int(v * scale) for v in values)
    common = math.gcd(*steps)
    steps = [s // common for s in steps]
    observed, total, m = abs(signed) // common, sum(steps), len(steps)
    if observed == 0:
        return SignFlip(1.0, 0)
    # |2 S - T| >= observed  <=>  S >= (T + observed) / 2 (upper tail);
    # the lower tail is its mirror image.
    start = (total + observed + 1) // 2
    upper = _exact_upper_count(steps, total, start)
    if upper is not None:
        return SignFlip(float(min(Fraction(1), Fraction(2 * upper, 2**m))), 0)
    if (total + 1) * m > MAX_FLOAT_STEPS:
        return _monte_carlo(steps, observed)
    return SignFlip(min(1.0, 2 * _upper_tail(steps, total, start)), 0)


def _exact_upper_count(steps: list[int], total: int, start: int) -> int | None:
    """How many of the 2^m sign assignments give S >= ``start`` (S the sum of the steps taken
    with a plus sign), exactly, or None when the count's polynomial would not fit in
    MAX_INTEGER_BITS. The generating polynomial prod (1 + x^step) is one big integer with a
    field of m + 2 bits per power (no coefficient reaches 2^m); reducing the shifted integer
    modulo 2^width - 1 sums the coefficients from x^start up."""
    width = len(steps) + 2
    if (total + 1) * width > MAX_INTEGER_BITS:
        return None
    poly = 1
    for step in steps:
        poly += poly << (step * width)
    return (poly >> (start * width)) % ((1 << width) - 1)


def _lower(values: list[Fraction]) -> SignFlip:
    """P[sum of signed |d| <= observed sum] = P[S >= (T - observed) / 2] in the notation of
    ``sign_flip``."""
    scale = math.lcm(*(v.denominator for v in values))
    steps = [abs(int(v * scale)) for v in values]
    common = math.gcd(*steps)
    steps = [s // common for s in steps]
    signed = sum(int(v * scale) for v in values) // common
    total, m = sum(steps), len(steps)
    start = (total - signed + 1) // 2
    if start <= 0:
        return SignFlip(1.0, 0)
    upper = _exact_upper_count(steps, total, start)
    if upper is not None:
        return SignFlip(float(min(Fraction(1), Fraction(upper, 2**m))), 0)
    if (total + 1) * m > MAX_FLOAT_STEPS:
        rng = random.Random(MONTE_CARLO_SEED)
        hits = 0
        for _ in range(MONTE_CARLO_DRAWS):
            bits = rng.getrandbits(m)
            hits += sum(s if bits >> i & 1 else -s for i, s in enumerate(steps)) <= signed
        return SignFlip((hits + 1) / (MONTE_CARLO_DRAWS + 1), MONTE_CARLO_DRAWS)
    return SignFlip(min(1.0, _upper_tail(steps, total, start)), 0)


def _upper_tail(steps: Sequence[int], total: int, start: int) -> float:
    """P[S >= start] by the same product as float probabilities (each factor (1 + x^s) / 2), one
    numpy pass per case: halving is exact in binary, so the only error is the additions' rounding
    (relative ~1e-13)."""
    import numpy as np

    probabilities = np.zeros(total + 1)
    probabilities[0] = 1.0
    reach = 0
    for step in sorted(steps):
        reach += step
        probabilities[step : reach + 1] += probabilities[: reach + 1 - step]
        probabilities[: reach + 1] *= 0.5
    return float(probabilities[start:].sum())


def _monte_carlo(steps: Sequence[int], observed: int) -> SignFlip:
    """The share of seeded random sign patterns at least as extreme, counting the observed one
    ((hits + 1) / (draws + 1): a valid p-value whatever the draws)."""
    rng = random.Random(MONTE_CARLO_SEED)
    hits = 0
    for _ in range(MONTE_CARLO_DRAWS):
        bits = rng.getrandbits(len(steps))
        if abs(sum(s if bits >> i & 1 else -s for i, s in enumerate(steps))) >= observed:
            hits += 1
    return SignFlip((hits + 1) / (MONTE_CARLO_DRAWS + 1), MONTE_CARLO_DRAWS)


def holm(p_values: Sequence[float]) -> list[float]:
    """Holm-Bonferroni adjusted p-values (same order as given): compare each with alpha to control
    the family-wise error rate over all the tests."""
    order = sorted(range(len(p_values)), key=lambda i: (p_values[i], i))
    adjusted = [1.0] * len(p_values)
    running = 0.0
    for rank, index in enumerate(order):
        running = max(running, min(1.0, (len(p_values) - rank) * p_values[index]))
        adjusted[index] = running
    return adjusted
