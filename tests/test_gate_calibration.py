"""The gate holds its false-alarm rate (a seeded simulation through the real gate) and the paired
difference's interval is the paired t interval (checked against tabulated Student t quantiles and a
hand computation).

Same-model pairs: both runs draw every case's K repeats from the same per-case pass probabilities
(ref/flaky's, fixed by the case id: a fifth of the cases always pass, a fifth never, the rest 1/4,
1/2 or 3/4). Each pair goes through ``compare`` and ``decide`` as ``diff runs --fail-on-regression``
runs them. The old "consistent failures" rule failed 35% of such pairs at K = 3; the gate must stay
within alpha plus three simulation standard errors.
"""

from __future__ import annotations

import math
import random
import statistics
from fractions import Fraction

import pytest

from benchmarks.gate_power import BASE, CASES, run
from replay.diff_runs import compare, decide
from scorer.stats.case_exact import broke_p, paired_difference, t_quantile

# One simulation of a run (each case's repeats drawn with ref/flaky's pass probability), shared with
# the benchmark that prints the gate's power: what the test holds and what the benchmark reports are
# the same runs.
PROBABILITIES = BASE
PAIRS = {
    1: 300,
    3: 300,
    5: 200,
    10: 120,
}  # fewer at large K: each pair costs more (the exact sign-flip test)
ALPHA = 0.05


@pytest.mark.parametrize("k", sorted(PAIRS))
def test_same_model_pairs_pass_the_gate_at_most_alpha_of_the_time(k: int) -> None:
    rng = random.Random(2024 + k)
    pairs = PAIRS[k]
    alarms = sum(
        decide(
            compare({"m": run(PROBABILITIES, k, rng)}, {"m": run(PROBABILITIES, k, rng)}),
            alpha=ALPHA,
        ).regression
        for _ in range(pairs)
    )
    error = math.sqrt(ALPHA * (1 - ALPHA) / pairs)
    assert alarms / pairs <= ALPHA + 3 * error, (
        f"K = {k}: {alarms} false alarms in {pairs} same-model pairs"
    )


def test_a_concentrated_drop_is_caught_case_by_case_with_enough_repeats() -> None:
    """Four cases that always passed break outright at K = 10: the paired test may miss it (4 of
    80), the per-case exact test (Holm over 80) names exactly those four."""
    rng = random.Random(7)
    broken = [i for i, p in enumerate(PROBABILITIES) if p == 1.0][:4]
    worse = [0.0 if i in broken else p for i, p in enumerate(PROBABILITIES)]
    decision = decide(compare({"m": run(PROBABILITIES, 10, rng)}, {"m": run(worse, 10, rng)}))
    assert "broken cases" in decision.rules
    assert {r.case_id for r in decision.regressions if r.kind == "broke"} == {
        CASES[i] for i in broken
    }


def test_broke_p_is_fishers_one_sided_exact_test() -> None:
    # Hypergeometric tails computed by hand: 3/3 -> 0/3 is 1/C(6,3) = 0.05; 5/5 -> 0/3 is 1/C(8,3);
    # 2/3 -> 0/3: P(X_B = 0 | 2 passes in 6) = C(3,2)/C(6,2) = 3/15.
    assert broke_p(3, 3, 0, 3) == pytest.approx(0.05)
    assert broke_p(5, 5, 0, 3) == pytest.approx(1 / 56)
    assert broke_p(2, 3, 0, 3) == pytest.approx(0.2)
    assert broke_p(0, 3, 0, 3) == 1.0 and broke_p(1, 1, 0, 1) == 0.5 and broke_p(0, 0, 0, 3) == 1.0


@pytest.mark.parametrize(
    ("df", "quantile"),
    # Student t, two-sided 95% (tables, e.g. NIST/SEMATECH e-Handbook 1.3.6.7.2).
    [(1, 12.706), (2, 4.303), (5, 2.571), (9, 2.262), (29, 2.045), (79, 1.990), (100, 1.984)],
)
def test_t_quantile_matches_the_tables(df: int, quantile: float) -> None:
    assert t_quantile(0.975, df) == pytest.approx(quantile, abs=5e-4)


def test_the_paired_difference_is_the_paired_t_interval_over_cases() -> None:
    """Per-case differences B - A of pass rates (repeats enter through each case's rate): mean +-
    t * sd / sqrt(n), computed here with the statistics module and the tabulated t(0.975, 7)
    = 2.365."""
    a = [
        Fraction(3, 3),
        Fraction(2, 3),
        Fraction(1, 3),
        Fraction(0),
        Fraction(3, 3),
        Fraction(2, 3),
        Fraction(1),
        0,
    ]
    b = [
        Fraction(1, 3),
        Fraction(2, 3),
        Fraction(0),
        Fraction(0),
        Fraction(2, 3),
        Fraction(1),
        Fraction(1),
        0,
    ]
    differences = [y - x for x, y in zip(a, b, strict=True)]
    floats = [float(d) for d in differences]
    mean, sd = statistics.fmean(floats), statistics.stdev(floats)
    result = paired_difference(differences)
    assert result is not None and result.cases == 8
    assert result.mean == pytest.approx(100 * mean)
    assert result.low == pytest.approx(100 * (mean - 2.365 * sd / math.sqrt(8)), abs=0.01)
    assert result.high == pytest.approx(100 * (mean + 2.365 * sd / math.sqrt(8)), abs=0.01)
    assert paired_difference([]) is None
    one = paired_difference([Fraction(-1)])
    assert one is not None and (one.mean, one.low, one.high) == (-100.0, None, None)


def test_the_paired_difference_covers_the_true_change_95_percent_of_the_time() -> None:
    """Coverage by simulation: two runs of 80 cases at K = 3 whose true per-case pass rates differ
    by a known mean; the interval covers that mean in 95% +- 3 standard errors of 300 pairs."""
    rng = random.Random(11)
    worse = [max(0.0, p - 0.1) for p in PROBABILITIES]
    truth = 100 * statistics.fmean(w - p for w, p in zip(worse, PROBABILITIES, strict=True))
    trials, covered = 300, 0
    for _ in range(trials):
        diff = compare({"m": run(PROBABILITIES, 3, rng)}, {"m": run(worse, 3, rng)})
        interval = diff.models[0].difference
        assert interval is not None and interval.low is not None and interval.high is not None
        covered += interval.low <= truth <= interval.high
    assert abs(covered / trials - 0.95) <= 3 * math.sqrt(0.95 * 0.05 / trials)
