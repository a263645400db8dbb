"""Power of a paired comparison over cases: the smallest Overall drop it can detect, and the repeats it needs.

Miller ("Adding Error Bars to Evals", 2024): a paired comparison of n cases with K_A and K_B repeats detects a
drop of delta (as a share) with 80% power at two-sided alpha 0.05 when
``n * delta^2 >= Z^2 * (omega^2 + sigma_A^2 / K_A + sigma_B^2 / K_B + delta (1 - delta) / K_B)``,
Z = z(0.975) + z(0.80). omega^2 is the variance of the true per-case differences, sigma^2 a side's within-case
(repeat) variance. The last term is the drop's own sampling noise (a pass rate that falls by delta adds up to
delta (1 - delta) of repeat variance), which keeps a comparison of two deterministic runs from claiming it could
see any drop at all. The smallest delta solves that quadratic; the repeats needed for a target delta (the same
K on both sides) solve it for K.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

Z_ALPHA = 1.959963984540054  # two-sided alpha 0.05
Z_POWER = 0.8416212335729143  # power 0.80
Z = Z_ALPHA + Z_POWER
MAX_REPEATS = 1000


@dataclass(frozen=True)
class Power:
    """What a comparison can see. ``detectable`` and ``target`` are in points; ``repeats_needed`` is None when
    no number of repeats reaches ``target`` (the cases themselves differ too much: it needs more cases).
    ``bound`` says how far to trust the figures: ``exact`` (noise measured from repeats), ``at least`` (the
    fewest repeats, if all the disagreement is noise) or ``at most`` (the noise assumed as large as it can be)."""

    cases: int
    detectable: float
    target: float
    repeats_needed: int | None
    bound: str


def within_variance(cases: Sequence[tuple[int, int]]) -> float | None:
    """Mean unbiased within-case variance of one repeat's pass/fail, over cases with at least two scored repeats
    (``cases`` holds (passed, scored)); None when no case has two."""
    values = [(p / n) * (1 - p / n) * n / (n - 1) for p, n in cases if n >= 2]
    return sum(values) / len(values) if values else None


def detectable_drop(cases: int, variance: float, repeats_b: float) -> float:
    """The smallest drop (share, 0..1) detectable with ``variance`` = omega^2 + sigma_A^2/K_A + sigma_B^2/K_B."""
    if cases <= 0:
        return 1.0
    a = cases + Z * Z / repeats_b
    b = Z * Z / repeats_b
    delta = (b + math.sqrt(b * b + 4 * a * Z * Z * max(0.0, variance))) / (2 * a)
    return min(1.0, delta)


def repeats_needed(cases: int, between: float, within_sum: float, target: float) -> int | None:
    """The fewest repeats per side (same K both sides) that detect ``target`` (a share); None when none do."""
    room = cases * target * target / (Z * Z) - between
    if cases <= 0 or room <= 0:
        return None
    needed = max(1, math.ceil((within_sum + target * (1 - target)) / room - 1e-12))
    return needed if needed <= MAX_REPEATS else None


def rerun_power(counts: Sequence[tuple[int, int]], repeats: int, target_points: float) -> Power:
    """Power of comparing a run (``counts``: per case (passed, scored)) with a re-run of the same model.

    omega^2 is 0 (the same model). With repeats the within-case variance is measured; with one sample per case
    it cannot be, and the worst case p(1 - p) is assumed, so the figures are upper bounds."""
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
    return Power(
        cases=n,
        detectable=100 * detectable_drop(n, 2 * sigma / k, k),
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

    The observed variance of the differences is the current design's; a side's within-case variance is known
    only when it has repeats. What is not known is taken as noise (the repeats needed are then a lower bound)."""
    n = len(differences)
    mean = sum(differences) / n if n else 0.0
    variance = sum((d - mean) ** 2 for d in differences) / (n - 1) if n >= 2 else 0.0
    target = target_points / 100
    detectable = 100 * detectable_drop(n, variance, repeats_b)
    if within_a is not None and within_b is not None:
        between = max(0.0, variance - within_a / repeats_a - within_b / repeats_b)
        return Power(n, detectable, target_points, repeats_needed(n, between, within_a + within_b, target), "exact")
    # Unmeasured noise: all of what the known side does not explain is counted as the other side's noise.
    known = (within_a or 0.0) / repeats_a + (within_b or 0.0) / repeats_b
    unknown_k = repeats_a if within_a is None else repeats_b
    within = (within_a or 0.0) + (within_b or 0.0) + max(0.0, variance - known) * unknown_k
    return Power(n, detectable, target_points, repeats_needed(n, 0.0, within, target), "at least")
