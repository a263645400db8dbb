"""The case-cluster bootstrap of the cost-quality front: every draw resamples the cases (the same
cases for every model: they are paired by case), and recomputes each model's Overall and its x
(billed cost per 100 cases, or latency p50) from the resampled cases' own figures, so quality and
cost move together. Seeded: the same runs give the same figures.

What it gives: each model's share of draws in which it is on the front (no other model at most as
costly and at least as good, one of them strictly; ties on both are both on it), and a percentile
interval for its x. numpy only, vectorised over draws.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache

DRAWS = 2000
SEED = 44  # the number: any fixed seed makes the figures reproducible


@dataclass(frozen=True)
class Sample:
    """One model's per-case figures, aligned on the board's cases (0 where it has none)."""

    passed: tuple[int, ...]
    scored: tuple[int, ...]
    cost: tuple[float, ...]
    walls: tuple[tuple[float, ...], ...]


@dataclass(frozen=True)
class Resampled:
    """Per model (in the order given): its share of draws on the front, and the 95% percentile
    interval of its x (None when no draw had a value)."""

    on_front: tuple[float, ...]
    x_interval: tuple[tuple[float, float] | None, ...]


def counts(cases: int, draws: int = DRAWS, seed: int = SEED) -> object:
    """A (draws x cases) array: how many times each case is in each resample."""
    import numpy as np

    rng = np.random.Generator(np.random.PCG64(seed))
    picks = rng.integers(0, cases, size=(draws, cases))
    offsets = picks + (np.arange(draws) * cases)[:, None]
    return np.bincount(offsets.ravel(), minlength=draws * cases).reshape(draws, cases)


@lru_cache(maxsize=16)
def _shared_counts(cases: int, draws: int = DRAWS, seed: int = SEED) -> object:
    """``counts``, read only, built once a process for each size and seed: every board of the same
    number of cases draws the same table (2,000 x 80: 9 ms, most of a two-model board's
    bootstrap, which each rescore, report and leaderboard paid again)."""
    table = counts(cases, draws, seed)
    table.flags.writeable = False  # type: ignore[attr-defined]
    return table


def _median(weights: object, walls: Sequence[tuple[float, ...]]) -> object:
    """Each draw's median of the wall times, each case's times counted as often as the case was
    drawn (the middle two averaged, as the leaderboard's p50 is); NaN for a draw with none."""
    import numpy as np

    w = np.asarray(weights)
    values = [t for times in walls for t in times]
    if not values:
        return np.full(w.shape[0], np.nan)
    owner = np.array([c for c, times in enumerate(walls) for _ in times])
    order = np.argsort(np.array(values), kind="stable")
    sorted_values = np.array(values)[order]
    per = w[:, owner[order]]
    cumulative = np.cumsum(per, axis=1)
    total = cumulative[:, -1]
    low = np.argmax(cumulative > ((total - 1) // 2)[:, None], axis=1)
    high = np.argmax(cumulative > (total // 2)[:, None], axis=1)
    found = (sorted_values[low] + sorted_values[high]) / 2
    return np.where(total > 0, found, np.nan)


def resample(
    samples: Sequence[Sample], axis: str, draws: int = DRAWS, seed: int = SEED
) -> Resampled:
    """The bootstrap of ``samples`` (one per model, cases aligned) on ``axis`` (``cost`` or
    ``latency``)."""
    import numpy as np

    if not samples:
        return Resampled((), ())
    w = _shared_counts(len(samples[0].passed), draws, seed)
    quality, xs = [], []
    with np.errstate(divide="ignore", invalid="ignore"):
        for s in samples:
            scored = w @ np.array(s.scored, dtype=float)
            passed = w @ np.array(s.passed, dtype=float)
            quality.append(np.where(scored > 0, passed / scored, np.nan))
            if axis == "cost":
                xs.append(np.where(scored > 0, 100 * (w @ np.array(s.cost)) / scored, np.nan))
            else:
                xs.append(_median(w, s.walls))
    q, x = np.array(quality), np.array(xs)  # (models, draws)
    # j beats m in a draw: x_j <= x_m and q_j >= q_m, one strictly (NaN compares False: no beat).
    # One model at a time: (models, models, draws) at once would be 60 MB for 100 models.
    beaten = np.zeros_like(x, dtype=bool)
    for m in range(len(samples)):
        no_worse = (x <= x[m]) & (q >= q[m])
        beaten[m] = (no_worse & ((x < x[m]) | (q > q[m]))).any(axis=0)
    valid = ~(np.isnan(q) | np.isnan(x))
    on_front = (valid & ~beaten).sum(axis=1) / draws
    intervals = tuple(percentile_interval(row[~np.isnan(row)]) for row in x)
    return Resampled(tuple(float(v) for v in on_front), intervals)


def percentile_interval(values: object, level: float = 0.95) -> tuple[float, float] | None:
    """The percentile interval of ``values`` (numpy's default "linear" quantiles, as
    ``scipy.stats.bootstrap(method="percentile")`` takes them), None for no value."""
    import numpy as np

    ordered = np.sort(np.asarray(values, dtype=float))
    if ordered.size == 0:
        return None

    def at(share: float) -> float:
        h = (ordered.size - 1) * share
        low = int(np.floor(h))
        high = min(low + 1, ordered.size - 1)
        return float(ordered[low] + (h - low) * (ordered[high] - ordered[low]))

    tail = (1 - level) / 2
    return at(tail), at(1 - tail)
