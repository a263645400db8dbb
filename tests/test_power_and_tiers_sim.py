"""Seeded simulations of the exact tests behind the power figures and the leaderboard tiers: an "at
most" drop is seen at least 80% of the time, an "about" figure is near 80%, identical models
rarely split into tiers."""

from __future__ import annotations

import math
import random
from dataclasses import replace
from fractions import Fraction

import numpy as np
import pytest

from replay.ties import tiers
from scorer.stats.paired import mcnemar_exact, sign_flip_exact
from scorer.stats.power import mcnemar_detectable, mcnemar_power, rerun_power
from scorer.summarize import empty
from scorer.summary import CaseTally, ModelSummary


def _detects(rng: random.Random, rates: np.ndarray, repeats: int) -> bool:
    """One simulated comparison: the exact paired test says B is worse (two-sided p < 0.05, the
    drop's way). ``rates`` holds each case's pass probability before and after, one row a case."""
    # Each case's passed-count difference as an int (its sign and sum are the share's): a
    # Fraction only for the sign-flip test, which takes them. The draws are the same, in the same
    # order (case by case: A's repeats, then B's), drawn at once and compared by numpy.
    draw = rng.random
    draws = np.array([draw() for _ in range(rates.size * repeats)]).reshape(*rates.shape, repeats)
    passed = (draws < rates[:, :, None]).sum(axis=2)
    gaps = (passed[:, 1] - passed[:, 0]).tolist()
    if repeats == 1:
        p = mcnemar_exact(sum(g < 0 for g in gaps), sum(g > 0 for g in gaps))
    else:
        p = sign_flip_exact([Fraction(g, repeats) for g in gaps])
    return p < 0.05 and sum(gaps) < 0


def _power(before: list[float], drop: float, repeats: int, runs: int, seed: int) -> float:
    rng = random.Random(seed)
    rates = np.array([before, [q - drop for q in before]]).T
    return sum(_detects(rng, rates, repeats) for _ in range(runs)) / runs


def test_exact_mcnemar_power_matches_simulation() -> None:
    """The exact power sum against 2,000 simulated comparisons (every case at the same rate)."""
    for rate, drop in ((1.0, 0.097), (0.5, 0.2), (0.8, 0.15)):
        expected = mcnemar_power(80, rate, drop)
        simulated = _power([rate] * 80, drop, 1, 2000, seed=1)
        assert abs(simulated - expected) <= 4 * math.sqrt(expected * (1 - expected) / 2000)


@pytest.mark.parametrize(
    "before",
    [
        pytest.param([1.0] * 80, id="deterministic-100%"),
        pytest.param([0.5] * 80, id="all-at-50%"),
        pytest.param([1.0] * 40 + [0.5] * 40, id="half-sure-half-coin"),
        pytest.param([0.9] * 40 + [0.6] * 40, id="two-rates"),
        pytest.param([0.3 + 0.7 * i / 79 for i in range(80)], id="spread-30-100%"),
    ],
)
def test_at_most_figures_are_upper_bounds(before: list[float]) -> None:
    """K = 1: the printed "at most" drop (the exact test at the worst noise for the run's rate) is
    seen at least 80% of the time when the drop is spread over every case, whatever the per-case
    rates behind that rate."""
    rate = sum(before) / len(before)
    drop = mcnemar_detectable(len(before), rate)
    power = _power(before, drop, 1, 1000, seed=2)
    assert power >= 0.80 - 3 * math.sqrt(0.8 * 0.2 / 1000), (drop, power)


def test_the_deterministic_model_gets_the_exact_tests_figure() -> None:
    """The audit's case: 80 cases all passed, one sample each. The normal approximation printed 8.9;
    the exact McNemar test needs 6 discordant cases, P[Bin(80, delta) >= 6] = 0.8 at delta =
    9.7 points."""
    power = rerun_power([(1, 1)] * 80, 1, 5.0)
    assert power.bound == "at most"
    assert power.detectable == pytest.approx(9.70, abs=0.01)
    assert rerun_power([(0, 1)] * 80, 1, 5.0).detectable == math.inf  # 0%: no drop to see


@pytest.mark.parametrize(
    ("before", "repeats"),
    [
        pytest.param([1.0] * 80, 3, id="deterministic-K3"),
        pytest.param([0.5] * 80, 3, id="coins-K3"),
        pytest.param([1.0] * 40 + [0.5] * 40, 5, id="mixed-K5"),
    ],
)
def test_about_figures_are_near_80_percent(before: list[float], repeats: int) -> None:
    """With repeats the figure is the normal approximation ("about"): the exact sign-flip test sees
    it 70-95% of the time (measured with the noise of the true rates, as an average run would
    measure it)."""
    counts = [
        (round(q * repeats), repeats) if q in (0.0, 1.0) else (repeats // 2, repeats)
        for q in before
    ]
    # a coin's measured within-case variance: take the expected one (repeats // 2 of repeats is
    # close to it)
    power_figure = rerun_power(counts, repeats, 5.0)
    assert power_figure.bound == "exact"
    power = _power(before, power_figure.detectable / 100, repeats, 400, seed=3)
    assert 0.70 <= power <= 0.95, (power_figure.detectable, power)


def test_repeats_needed_is_about_right() -> None:
    """A deterministic model: "5 points needs about 2 repeats"; at K = 2 the exact test sees a
    diffuse 5-point drop about 80% of the time."""
    figure = rerun_power([(1, 1)] * 80, 1, 5.0)
    assert figure.repeats_needed == 2
    power = _power([1.0] * 80, 0.05, 2, 400, seed=4)
    assert 0.70 <= power <= 0.97, power


def test_a_concentrated_drop_is_not_what_the_figures_promise() -> None:
    """4 cases break outright at K = 2: the sign-flip p is never below 2 / 2^4 = 0.125, whatever
    K says."""
    assert sign_flip_exact([Fraction(-1)] * 4 + [Fraction(0)] * 76) == 0.125


# --- tiers ----------------------------------------------------------------------------------------


def _model(name: str, rates: list[float], repeats: int, rng: random.Random) -> ModelSummary:
    # Each case's repeats drawn in order (case by case), at once, and compared by numpy.
    draw = rng.random
    draws = np.array([draw() for _ in range(len(rates) * repeats)]).reshape(len(rates), repeats)
    passed = (draws < np.array(rates)[:, None]).sum(axis=1).tolist()
    tallies = tuple(CaseTally(f"c{i:02d}", p, repeats) for i, p in enumerate(passed))
    return replace(empty(name, name), repeats=repeats, tallies=tallies)


def _boards(shifts: list[float], repeats: int, boards: int, seed: int) -> list[dict[str, str]]:
    """Letters of seeded boards of len(shifts) models: case c passes with base_c + shift (clipped
    to [0, 1])."""
    rng = random.Random(seed)
    base = [rng.random() for _ in range(80)]
    out = []
    for _ in range(boards):
        models = [
            _model(f"m{i}", [min(1.0, max(0.0, q + s)) for q in base], repeats, rng)
            for i, s in enumerate(shifts)
        ]
        order = sorted(models, key=lambda d: -sum(t.passed for t in d.tallies))
        out.append(tiers(order).letters)
    return out


@pytest.mark.parametrize("repeats", [1, 3])
def test_identical_models_rarely_split(repeats: int) -> None:
    """Five copies of one model (per-case pass rates spread over 0-1): the share of boards that put
    any two in different tiers stays within alpha = 0.05 plus three simulation errors."""
    boards = _boards([0.0] * 5, repeats, 200, seed=5 + repeats)
    split = sum(len({letters for letters in board.values()}) > 1 for board in boards) / len(boards)
    assert split <= 0.05 + 3 * math.sqrt(0.05 * 0.95 / len(boards)), split


def test_power_on_ten_point_gaps() -> None:
    """Five models 10 points apart at K = 1 (per-case rates shifted): the 40-point gap between the
    first and the last is always found; adjacent pairs share a letter most of the time (figures
    in METHOD.md)."""
    boards = _boards([0.2, 0.1, 0.0, -0.1, -0.2], 1, 100, seed=9)
    ends = sum(not set(b["m0"]) & set(b["m4"]) for b in boards) / len(boards)
    assert ends >= 0.95
