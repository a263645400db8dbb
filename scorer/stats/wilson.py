"""Interval arithmetic for rates: the Wilson 95% score interval."""

from __future__ import annotations

import math

Z95 = 1.959963984540054


def wilson_at(p: float, trials: float, z: float = Z95) -> list[float]:
    """Wilson score interval in percent for a share ``p`` (0..1) seen over ``trials``
    (possibly fractional).

    At an edge the interval's bound is the edge itself (p = 0: lower 0; p = 1: upper 100); the
    closed form reaches it only up to rounding (99.99999999999999, 3.5e-16), so those bounds are
    written exactly (METHOD decision 92)."""
    denominator = 1 + z * z / trials
    centre = (p + z * z / (2 * trials)) / denominator
    half = z * math.sqrt(p * (1 - p) / trials + z * z / (4 * trials * trials)) / denominator
    low = 0.0 if p == 0 else max(0.0, centre - half) * 100
    high = 100.0 if p == 1 else min(1.0, centre + half) * 100
    return [low, high]


def wilson(count: int, of: int, z: float = Z95) -> list[float] | None:
    """Wilson score interval for ``count`` successes in ``of`` trials, in percent; None when
    ``of`` is 0."""
    if of == 0:
        return None
    return wilson_at(count / of, of, z)
