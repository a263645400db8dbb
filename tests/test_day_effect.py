"""The day effect of the simulations (benchmarks/day_effect.py) does what docs/decisions/drift.md
and docs/decisions/history-gate.md say ("What the calibration does not cover"):

- a run's shift moves every case's logit pass probability and leaves cases at 0 or 1 put;
- with S = 0 drift's and the history gate's simulations are those of the calibrated figures, draw
  for draw (the option draws nothing more);
- with a day effect drift's false alarms over 180 runs rise above the no-effect rate on the same
  seed, past the promised 5% (documented: noisy profile, S = 0.5, about 10% at K = 1 with drift's
  allowance for runs that vary together, 93% without it), and the allowance cuts them (S = 0.25:
  about 9% against 25%);
- the sd of a run's Overall that the docs quote for each S matches a seeded simulation of runs;
- the proposed history check (``dispersion``) is the ratio it says, its permutation p-value holds
  its level on independent runs and flags a large day effect, and draws its permutations in
  blocks as all at once.
"""

from __future__ import annotations

import math
import random
from dataclasses import replace

import numpy as np
import pytest
from statsmodels.stats.proportion import proportion_confint

from benchmarks.day_effect import SHUFFLES, dispersion, dispersion_p, overall_sd, shifted
from benchmarks.drift import NOISY, histories, peak_statistics
from benchmarks.drift_designs import ADAPTIVE
from benchmarks.gate_power import BASE, history_rate, history_side, run
from scorer.drift.cusum import DEFAULT

pytestmark = pytest.mark.timeout(60)


def test_a_shift_moves_the_logit_and_leaves_deterministic_cases_put() -> None:
    out = shifted(np.array([0.0, 1.0, 0.5, 0.99]), 0.3)
    assert out[0] == 0.0 and out[1] == 1.0
    assert out[2] == pytest.approx(1 / (1 + math.exp(-0.3)), rel=1e-12)
    assert out[3] == pytest.approx(1 / (1 + math.exp(-(math.log(0.99 / 0.01) + 0.3))), rel=1e-12)


def test_no_day_effect_is_the_calibrated_simulation_draw_for_draw() -> None:
    plain = peak_statistics(NOISY, 1, 50, np.random.default_rng(7))
    zero = peak_statistics(NOISY, 1, 50, np.random.default_rng(7), DEFAULT, 0.0)
    assert np.array_equal(plain, zero)
    assert run(BASE, 1, random.Random(3)) == run(BASE, 1, random.Random(3), 0.0)
    assert history_side(BASE, 5, 1, random.Random(4)) == history_side(
        BASE, 5, 1, random.Random(4), 0.0
    )
    assert history_rate(BASE, BASE, 3, 1, 20, random.Random(5)) == history_rate(
        BASE, BASE, 3, 1, 20, random.Random(5), 0.0
    )


def test_a_day_effect_raises_drifts_false_alarms_past_the_promise() -> None:
    """drift's rule (the adaptive threshold, its critical c against c, with the allowance for runs
    that vary together): 400 seeded noisy histories. Without a day effect the rate is about 2.8%;
    with S = 0.5 about 10.3% (benchmarks/drift.py --day-effect, 5,000 histories; 93% without the
    allowance): not back to 5%, which stays below the rate's one-sided 95% Wilson bound."""
    count = 400
    c = ADAPTIVE.threshold
    without = peak_statistics(NOISY, 1, count, np.random.default_rng(11), ADAPTIVE, 0.0, "adaptive")
    with_day = peak_statistics(
        NOISY, 1, count, np.random.default_rng(11), ADAPTIVE, 0.5, "adaptive"
    )
    without, with_day = int((without > c).sum()), int((with_day > c).sum())
    assert without / count <= 0.05
    assert proportion_confint(with_day, count, alpha=0.1, method="wilson")[0] > 0.05, with_day


def test_the_allowance_for_runs_that_vary_together_cuts_the_false_alarms_of_a_day_effect() -> None:
    """drift's allowance (each score divided by the root of its reference's dispersion less half
    its null sd, docs/decisions/drift.md#day-effect): on 400 seeded noisy histories with a day
    effect of S = 0.25 the same draws alarm far less often with it than with the rule's
    thresholds alone (about 8.8% at 5,000 histories against 25.3% at 2,000, benchmarks/drift.py
    --day-effect; this seed draws high, 15% against 30%): the two one-sided 95% Wilson intervals
    do not meet, and the allowance at least cuts the rate by 40%."""
    count = 400
    c = ADAPTIVE.threshold
    peaks = {
        margin: peak_statistics(
            NOISY, 1, count, np.random.default_rng(12),
            replace(ADAPTIVE, dispersion_margin=margin), 0.25, "adaptive",
        )
        for margin in (None, 0.5)
    }  # fmt: skip
    without, allowed = (int((peaks[m] > c).sum()) for m in (None, 0.5))
    low = proportion_confint(without, count, alpha=0.1, method="wilson")[0]
    high = proportion_confint(allowed, count, alpha=0.1, method="wilson")[1]
    assert high < low and allowed <= 0.6 * without, (without, allowed)


@pytest.mark.parametrize(("name", "day_sd"), [("noisy", 0.0), ("noisy", 0.5), ("0.9", 1.0)])
def test_the_overall_sd_quoted_for_each_day_effect_matches_simulated_runs(
    name: str, day_sd: float
) -> None:
    probability = NOISY if name == "noisy" else np.full(80, 0.9)
    passes, _ = histories(
        probability, probability, None, 4000, 1, 1, np.random.default_rng(2), day_sd
    )
    overall = 100 * passes[0].mean(-1)  # each run's Overall, points
    independent, total = overall_sd(probability, 1, day_sd)
    binomial = 100 * math.sqrt((probability * (1 - probability)).sum()) / len(probability)
    assert independent == pytest.approx(binomial, rel=1e-12)
    # 4,000 runs: the sd's sampling error is about 1.1% of it
    assert overall.std(ddof=1) == pytest.approx(total, rel=0.05)


def test_the_dispersion_ratio_compares_successive_differences_of_runs_and_cases() -> None:
    passes = np.array([[1, 1, 0], [0, 0, 0], [1, 1, 1], [0, 1, 0]])
    # run totals 2, 0, 3, 1: steps -2, 3, -2, (4 + 9 + 4) / 3 / 2 = 17/6; the cases (1,0,1,0),
    # (1,0,1,1), (0,0,1,0): 3/6, 2/6, 2/6
    expected = (17 / 6) / (7 / 6)
    assert dispersion(passes, np.ones_like(passes)) == pytest.approx(expected, rel=1e-12)


def test_the_dispersion_check_holds_its_level_and_sees_a_large_day_effect() -> None:
    rng = np.random.default_rng(21)
    count = 120
    flagged = {}
    for day_sd in (0.0, 0.5):
        passes, trials = histories(NOISY, NOISY, None, 30, 1, count, rng, day_sd)
        flagged[day_sd] = np.mean(
            [dispersion_p(passes[i], trials[i], rng) < 0.05 for i in range(count)]
        )
    assert flagged[0.0] <= 0.05 + 3 * math.sqrt(0.05 * 0.95 / count)
    assert flagged[0.5] >= 0.9  # docs: 91% of 20-run, every 60-run history


@pytest.mark.parametrize("permutations", [7, SHUFFLES, SHUFFLES + 1, 2 * SHUFFLES + 20])
def test_the_permutation_p_draws_its_blocks_as_one_block_would(permutations: int) -> None:
    """``dispersion_p`` shuffles SHUFFLES permutations at a time: its p, and the generator after
    it, are those of every permutation shuffled at once (written out here), on shares in thirds."""
    trials = np.full((12, 6), 3)
    passes = np.random.default_rng(24).binomial(3, 0.6, size=(12, 6))
    share = passes / trials
    at_once = np.random.default_rng(5)
    shuffled = at_once.permuted(np.broadcast_to(share, (permutations, *share.shape)), axis=1)
    null = dispersion(shuffled, np.ones_like(shuffled))
    count = int((null >= dispersion(passes, trials) - 1e-12).sum())
    assert 0 < count < permutations  # a p that the draws decide
    blocks = np.random.default_rng(5)
    assert dispersion_p(passes, trials, blocks, permutations) == (1 + count) / (1 + permutations)
    assert blocks.bit_generator.state == at_once.bit_generator.state


def test_a_real_change_does_not_look_like_a_day_effect() -> None:
    # 6 cases that always passed break from run 16 of 30 (ref/drifting's change, committed history)
    rng = np.random.default_rng(23)
    before = NOISY
    after = NOISY.copy()
    after[np.flatnonzero(NOISY == 1.0)[:6]] = 0.0
    passes, trials = histories(before, after, 16, 30, 1, 200, rng)
    assert np.median(dispersion(passes, trials)) < 1.3  # the plain variance ratio: about 1.7
