"""Interval arithmetic for rates: the Wilson 95% score interval."""

from __future__ import annotations

import math

Z95 = 1.959963984540054


def wilson(count: int, of: int, z: float = Z95) -> list[float] | None:
    """Wilson score interval for ``count`` successes in ``of`` trials, in percent; None when ``of`` is 0."""
    if of == 0:
        return None
    p = count / of
    denominator = 1 + z * z / of
    centre = (p + z * z / (2 * of)) / denominator
    half = z * math.sqrt(p * (1 - p) / of + z * z / (4 * of * of)) / denominator
    return [max(0.0, centre - half) * 100, min(1.0, centre + half) * 100]
