"""Power of a paired comparison over cases: the smallest Overall drop it can detect, and the repeats
it needs.

Every figure assumes the drop is spread over every case (each case's pass probability falls by
delta); a drop concentrated in a few cases that break outright is seen far less often
(METHOD.md#power-figures-say-their-terms).

Normal approximation (Miller, "Adding Error Bars to Evals", 2024): a paired comparison of n cases
with K_A and K_B repeats detects a drop of delta (as a share) with 80% power at two-sided alpha 0.05
when
``n * delta^2 >= Z^2 * (omega^2 + sigma_A^2 / K_A + sigma_B^2 / K_B + delta (1 - delta) / K_B)``, Z
= z(0.975) + z(0.80). omega^2 is the variance of the true per-case differences, sigma^2 a side's
within-case (repeat) variance: those three terms are Miller's. The last term is this tool's own
addition, not Miller's: the drop's own sampling noise (a pass rate that falls by delta adds up to
delta (1 - delta) of repeat variance), which keeps a comparison of two deterministic runs from
claiming it could see any drop at all. The smallest delta solves that quadratic; the repeats needed
for a target delta (the same K on both sides) solve it for K. These are approximations ("about"): a
seeded simulation of the exact test finds 75-93% power at them.

With one sample per case the noise cannot be measured, so ``rerun_power`` takes the worst case
(every case passing with the run's rate) and computes the exact McNemar test's power there exactly
(``mcnemar_power``): the smallest drop it detects is then a true "at most" for a diffuse drop.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

Z_ALPHA = 1.959963984540054  # two-sided alpha 0.05
Z_POWER = 0.8416212335729143  # power 0.80
Z = Z_ALPHA + Z_POWER
MAX_REPEATS = 1000


@dataclass(frozen=True)
class Power:
    """What a comparison can see. ``detectable`` and ``target`` are in points; ``repeats_needed`` is
    None when no number of repeats reaches ``target`` (the cases themselves differ too much: it
    needs more cases). ``bound`` says how far to trust the figures: ``exact`` (noise measured
    from repeats; the figures are the normal approximation's, "about"), ``at least`` (the fewest
    repeats, if all the disagreement is noise) or ``at most`` (one sample per case:
    ``detectable`` is the exact McNemar test's at the worst-case noise; ``repeats_needed`` is
    still the normal approximation's at that noise). ``detectable`` is ``inf`` when no drop the
    run's Overall leaves room for is detectable (a run at or near 0%)."""

    cases: int
    detectable: float
    target: float
    repeats_needed: int | None
    bound: str


def within_variance(cases: Sequence[tuple[int, int]]) -> float | None:
    """Mean unbiased within-case variance of one repeat's pass/fail, over cases with at least two
    scored repeats (``cases`` holds (passed, scored)); None when no case has two."""
    values = [(p / n) * (1 - p / n) * n / (n - 1) for p, n in cases if n >= 2]
    return sum(values) / len(values) if values else None


def detectable_drop(cases: int, variance: float, repeats_b: float) -> float:
    """The smallest drop (share, 0..1) detectable with ``variance`` = omega^2 + sigma_A^2/K_A +
    sigma_B^2/K_B."""
    if cases <= 0:
        return 1.0
    a = cases + Z * Z / repeats_b
    b = Z * Z / repeats_b
    delta = (b + math.sqrt(b * b + 4 * a * Z * Z * max(0.0, variance))) / (2 * a)
    return min(1.0, delta)


def repeats_needed(cases: int, between: float, within_sum: float, target: float) -> int | None:
    """The fewest repeats per side (same K both sides) that detect ``target`` (a share); None
    when none do."""
    room = cases * target * target / (Z * Z) - between
    if cases <= 0 or room <= 0:
        return None
    needed = max(1, math.ceil((within_sum + target * (1 - target)) / room - 1e-12))
    return needed if needed <= MAX_REPEATS else None


@functools.lru_cache(maxsize=8)
def _mcnemar_thresholds(cases: int, alpha: float) -> tuple[int, ...]:
    """For t discordant cases, the fewest passed->failed ones (of t) at which the exact McNemar test
    rejects at ``alpha`` (two-sided) in the drop's direction; t + 1 when none does.
    Exact integers."""
    out = []
    for t in range(cases + 1):
        tail, threshold = 0, t + 1
        # Rejects when 2 P[Bin(t, 1/2) <= t - b] < alpha; that tail grows as b falls, so scan b from
        # t down.
        for b in range(t, (t - 1) // 2, -1):
            tail += math.comb(t, t - b)
            if 2 * tail >= alpha * 2**t:
                break
            threshold = b
        out.append(threshold)
    return tuple(out)


@functools.lru_cache(maxsize=8)
def _grid(cases: int, alpha: float) -> tuple[Any, Any, Any, Any]:
    """Log-factorials, the (t, b) grid of discordant and passed->failed counts, and its
    rejection mask."""
    import numpy as np

    log_factorial = np.concatenate(([0.0], np.cumsum(np.log(np.arange(1, cases + 1)))))
    t = np.arange(cases + 1)[:, None]
    b = np.arange(cases + 1)[None, :]
    reject = (b <= t) & (b >= np.array(_mcnemar_thresholds(cases, alpha))[:, None])
    return log_factorial, t, b, reject


def _log_pmf(log_factorial: Any, n: Any, k: Any, p: float) -> Any:
    """log P[Bin(n, p) = k] elementwise (k <= n), with 0 < p < 1."""
    import numpy as np

    return (
        log_factorial[n]
        - log_factorial[k]
        - log_factorial[np.maximum(n - k, 0)]
        + k * math.log(p)
        + (n - k) * math.log1p(-p)
    )


def mcnemar_power(cases: int, rate: float, drop: float, alpha: float = 0.05) -> float:
    """Exact power of the two-sided exact McNemar test (one sample per case) to see a drop of
    ``drop`` (share) when every case passes with probability ``rate`` in run A and
    ``rate - drop`` in run B, independently: the probability of the rejection region, summed over
    the number of discordant cases t ~ Bin(n, high + low) and the passed->failed ones among them,
    b | t ~ Bin(t, high / (high + low))."""
    import numpy as np

    high, low = (
        rate * (1 - rate + drop),
        (1 - rate) * (rate - drop),
    )  # passed->failed, failed->passed
    discordant = high + low
    if cases <= 0 or discordant <= 0 or high <= 0:
        return 0.0
    log_factorial, t, b, reject = _grid(cases, alpha)
    counts = np.arange(cases + 1)
    if discordant >= 1:
        weights = (counts == cases).astype(float)
    else:
        weights = np.exp(_log_pmf(log_factorial, cases, counts, discordant))
    share = high / discordant
    if share >= 1:  # every discordant case went passed->failed
        inner = reject[counts, counts].astype(float)
    else:
        with np.errstate(invalid="ignore", over="ignore"):
            inner = np.where(
                reject, np.exp(_log_pmf(log_factorial, t, np.minimum(b, t), share)), 0.0
            ).sum(axis=1)
    return float(min(1.0, (weights * inner).sum()))


@functools.lru_cache(maxsize=1024)  # boards of many models repeat a few (cases, rate) pairs
def mcnemar_detectable(cases: int, rate: float, power: float = 0.80) -> float:
    """The smallest drop (share, to 1e-4) the exact McNemar test sees with ``power`` when every case
    passes with probability ``rate``; ``inf`` when even a drop to 0% is not seen that often."""
    if cases <= 0 or mcnemar_power(cases, rate, rate) < power:
        return math.inf
    low, high = 0.0, rate
    while high - low > 1e-4:
        middle = (low + high) / 2
        low, high = (middle, high) if mcnemar_power(cases, rate, middle) < power else (low, middle)
    return high


def rerun_power(counts: Sequence[tuple[int, int]], repeats: int, target_points: float) -> Power:
    """Power of comparing a run (``counts``: per case (passed, scored)) with a re-run of the
    same model.

    omega^2 is 0 (the same model). With repeats the within-case variance is measured (normal
    approximation); with one sample per case it cannot be: every case is taken to pass with the
    run's rate p (the most noise a mean of p allows), and the smallest detectable drop is the
    exact McNemar test's there, a true upper bound for a diffuse drop. A drop larger than the
    Overall itself cannot happen: then ``detectable`` is ``inf``."""
    scored = [(p, n) for p, n in counts if n > 0]
    measured = within_variance(scored) if repeats >= 2 else None
    if measured is None:
        total = sum(n for _, n in scored)
        rate = sum(p for p, _ in scored) / total if total else 0.0
        sigma, bound = rate * (1 - rate), "at most"
    else:
        sigma, bound = measured, "exact"
    k = max(1, repeats)
    n = len(scored)
    target = target_points / 100
    total = sum(c for _, c in scored)
    overall = sum(p for p, _ in scored) / total if total else 0.0
    if measured is None:
        detectable = mcnemar_detectable(n, overall)
    else:
        detectable = detectable_drop(n, 2 * sigma / k, k)
        detectable = detectable if detectable <= overall else math.inf
    return Power(
        cases=n,
        detectable=100 * detectable,
        target=target_points,
        repeats_needed=repeats_needed(n, 0.0, 2 * sigma, target),
        bound=bound,
    )


def paired_power(
    differences: Sequence[float],
    within_a: float | None,
    within_b: float | None,
    repeats_a: float,
    repeats_b: float,
    target_points: float,
) -> Power:
    """Power of a comparison whose per-case differences (shares) are ``differences``.

    The observed variance of the differences is the current design's; a side's within-case variance
    is known only when it has repeats. What is not known is taken as noise (the repeats needed
    are then a lower bound)."""
    n = len(differences)
    mean = sum(differences) / n if n else 0.0
    variance = sum((d - mean) ** 2 for d in differences) / (n - 1) if n >= 2 else 0.0
    target = target_points / 100
    detectable = 100 * detectable_drop(n, variance, repeats_b)
    if within_a is not None and within_b is not None:
        between = max(0.0, variance - within_a / repeats_a - within_b / repeats_b)
        return Power(
            n,
            detectable,
            target_points,
            repeats_needed(n, between, within_a + within_b, target),
            "exact",
        )
    # Unmeasured noise: all of what the known side does not explain is counted as the other
    # side's noise.
    known = (within_a or 0.0) / repeats_a + (within_b or 0.0) / repeats_b
    unknown_k = repeats_a if within_a is None else repeats_b
    within = (within_a or 0.0) + (within_b or 0.0) + max(0.0, variance - known) * unknown_k
    return Power(n, detectable, target_points, repeats_needed(n, 0.0, within, target), "at least")
