"""The statistics of repeats, checked against hand computations and brute force: pass^k/pass@k, the
case's aggregate status, clustered intervals, the sign-flip test, Holm, power, and
answer identity."""

from __future__ import annotations

import itertools
import random
from fractions import Fraction
from typing import Any

import pytest

from scorer.answers import answer_digests, same_answers
from scorer.repeats import (
    aggregate_status,
    pass_all,
    pass_any,
    pass_k_curve,
    repeat_metrics,
    representative,
)
from scorer.stats.clustered import clustered_rate, effective_trials, wilson_at
from scorer.stats.paired import holm, mcnemar_exact, sign_flip_exact
from scorer.stats.power import (
    Z,
    detectable_drop,
    mcnemar_detectable,
    repeats_needed,
    rerun_power,
    within_variance,
)
from scorer.stats.wilson import wilson
from scorer.summary import CurvePoint, Rate
from tests.clusterkit import cr1_variance, reference_interval

# --- pass^k and pass@k ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("passed", "scored", "k", "all_k", "any_k"),
    [
        (3, 5, 1, Fraction(3, 5), Fraction(3, 5)),
        (3, 5, 2, Fraction(3, 10), Fraction(9, 10)),  # C(3,2)/C(5,2); 1 - C(2,2)/C(5,2)
        (3, 5, 3, Fraction(1, 10), Fraction(1)),  # C(3,3)/C(5,3); C(2,3) = 0
        (5, 5, 5, Fraction(1), Fraction(1)),
        (0, 5, 5, Fraction(0), Fraction(0)),
        (2, 3, 5, Fraction(0), Fraction(1)),  # k beyond the scored repeats uses all of them
        (3, 3, 5, Fraction(1), Fraction(1)),
    ],
)
def test_unbiased_estimators(
    passed: int, scored: int, k: int, all_k: Fraction, any_k: Fraction
) -> None:
    assert pass_all(passed, scored, k) == all_k
    assert pass_any(passed, scored, k) == any_k


def test_estimators_are_the_chance_over_every_draw_of_k_repeats() -> None:
    """Averaging over every k-subset of the repeats gives the same fractions (the estimators
    are unbiased)."""
    outcomes = [True, False, True, True, False, True]
    for k in range(1, len(outcomes) + 1):
        subsets = list(itertools.combinations(outcomes, k))
        assert pass_all(4, 6, k) == Fraction(sum(all(s) for s in subsets), len(subsets))
        assert pass_any(4, 6, k) == Fraction(sum(any(s) for s in subsets), len(subsets))


def test_curve_ends_at_the_counts_and_starts_at_the_mean_rate() -> None:
    cases = [(5, 5), (0, 5), (2, 5), (3, 4), (0, 0)]  # the last case has no scored repeat: left out
    curve = pass_k_curve(cases, 5)
    metrics = repeat_metrics(cases)
    assert [point.k for point in curve] == [1, 2, 3, 4, 5]
    assert curve[-1].pass_all == metrics["pass_all_k"].rate == 25.0  # 1 of 4
    assert curve[-1].pass_any == metrics["pass_any_k"].rate == 75.0  # 3 of 4
    assert curve[0].pass_all == curve[0].pass_any == pytest.approx(100 * (1 + 0 + 0.4 + 0.75) / 4)
    assert metrics["flaky"] == Rate(2, 4, 50.0, tuple(wilson(2, 4) or ()))  # type: ignore[arg-type]
    assert pass_k_curve([(0, 0)], 2) == (CurvePoint(1, None, None), CurvePoint(2, None, None))


@pytest.mark.parametrize(
    ("statuses", "aggregate", "shown"),
    [
        (["passed", "passed"], "passed", 0),
        (["passed", "failed", "failed"], "failed", 1),
        (["errored", "passed"], "passed", 1),
        (["errored", "unrecorded"], "errored", 0),
        (["unrecorded", "unrecorded"], "unrecorded", 0),
    ],
)
def test_aggregate_status(statuses: list[str], aggregate: str, shown: int) -> None:
    assert aggregate_status(statuses) == aggregate
    assert representative(statuses) == shown


# --- clustered intervals --------------------------------------------------------------------------


def test_one_sample_per_case_is_the_plain_wilson_interval() -> None:
    """Clusters all of size 1 are no clustering: Wilson at n, not at CR1's n - 1
    (METHOD.md#clustered-interval-rule)."""
    clusters = [(1, 1)] * 30 + [(0, 1)] * 50 + [(0, 0)] * 3
    assert effective_trials(clusters) == 80
    assert clustered_rate(clusters).ci == tuple(wilson(30, 80) or ())
    assert (30 / 80) * (50 / 80) / cr1_variance(clusters[:80]) == pytest.approx(
        79
    )  # what CR1 alone would give


def test_identical_repeats_count_as_one_trial_per_case_less_the_cr1_factor() -> None:
    """Five repeats that always agree carry no more information than one: n_eff = R(1-R)/V_CR1 =
    n - 1."""
    clusters = [(5, 5)] * 30 + [(0, 5)] * 50
    rate = clustered_rate(clusters)
    assert (rate.count, rate.of, rate.rate) == (150, 400, 37.5)
    assert effective_trials(clusters) == pytest.approx(79)
    assert list(rate.ci or ()) == pytest.approx(reference_interval(clusters), abs=1e-9)
    assert rate.ci[1] - rate.ci[0] > wilson(30, 80)[1] - wilson(30, 80)[0]  # type: ignore[index]


def test_effective_trials_by_hand() -> None:
    # R = 3/6; V = 3/2 * (0 + 1 + 1) / 36 = 1/12; n_eff = (1/4) / (1/12) = 3, within (0, 6 items].
    assert effective_trials([(1, 2), (2, 2), (0, 2)]) == pytest.approx(3.0)
    # Every case at the same rate: V = 0, and n_eff is its upper bound, the items.
    assert effective_trials([(1, 2), (1, 2), (1, 2), (1, 2)]) == 8.0
    assert effective_trials([(1, 2), (2, 4), (1, 2)]) == 8.0
    # R = 0 or 1, or one case: the variance says nothing, one trial per case.
    assert effective_trials([(0, 3), (0, 1)]) == effective_trials([(3, 3), (1, 1)]) == 2
    assert effective_trials([(1, 4)]) == 1
    assert clustered_rate([]) == Rate(0, 0, None, None)
    # Wilson at p = 1/2, n = 3: centre 1/2, half-width z sqrt(1/12 + z^2/36) / (1 + z^2/3)
    # = 0.37466.
    assert wilson_at(0.5, 3) == pytest.approx([12.5334, 87.4666], abs=1e-3)


def test_one_big_case_is_no_longer_narrowed_to_one_trial_per_case() -> None:
    """The issue's example: one case with 20 of 20, 79 with 0 of 1. The old lower bound n_eff >= n
    gave [12.9, 30.3]; CR1 (statsmodels) gives about 6 effective trials and [4.2, 59.3]."""
    clusters = [(20, 20)] + [(0, 1)] * 79
    assert effective_trials(clusters) == pytest.approx(20 / 99 * 79 / 99 / cr1_variance(clusters))
    assert list(clustered_rate(clusters).ci or ()) == pytest.approx(
        reference_interval(clusters), abs=1e-9
    )
    assert list(clustered_rate(clusters).ci or ()) == pytest.approx([4.2, 59.3], abs=0.05)


@pytest.mark.parametrize("seed", range(40))
def test_clustered_interval_equals_the_statsmodels_reference(seed: int) -> None:
    """Random clusters of unequal sizes (calls per case, repeats with some errored): the interval is
    Wilson's at R(1-R)/V with V the CR1 variance statsmodels gives for an intercept clustered
    by case."""
    rng = random.Random(seed)
    clusters = []
    for _ in range(rng.choice([2, 5, 30, 80])):
        m = rng.choice([0, 1, 1, 2, 3, 5, 8])
        p = rng.random()
        clusters.append((sum(rng.random() < p for _ in range(m)), m))
    ci = clustered_rate(clusters).ci
    expected = reference_interval(clusters)
    assert (ci is None) == (expected is None)
    if ci is not None:
        assert list(ci) == pytest.approx(expected, abs=1e-7)


def _coverage(rng: random.Random, draw_case: Any, truth: float, runs: int) -> tuple[float, float]:
    """Shares of ``runs`` simulated 80-case samples whose interval holds ``truth``: (clustered,
    Wilson over items)."""
    held = [0, 0]
    for _ in range(runs):
        clusters = [draw_case(rng) for _ in range(80)]
        count, items = sum(y for y, _ in clusters), sum(m for _, m in clusters)
        for i, (low, high) in enumerate((clustered_rate(clusters).ci, wilson(count, items))):  # type: ignore[misc]
            held[i] += low <= 100 * truth <= high
    return held[0] / runs, held[1] / runs


def _case(mean: float, spread: float, sizes: Any) -> Any:
    """A case: its own success chance from Beta(mean, spread), then ``sizes(rng)`` items at
    that chance."""
    a, b = mean * spread, (1 - mean) * spread

    def draw(rng: random.Random) -> tuple[int, int]:
        m, p = sizes(rng), rng.betavariate(a, b)
        return sum(rng.random() < p for _ in range(m)), m

    return draw


def test_per_call_intervals_clustered_by_case_hold_their_coverage() -> None:
    """Calls of one case share its difficulty. Seeded simulation, 1,000 samples of 80 cases of 1-4
    calls, valid with a case-level chance (mean 0.9): Wilson over calls covers well under 0.95,
    the clustered interval ~0.95."""
    clustered, plain = _coverage(
        random.Random(1), _case(0.9, 2.0, lambda r: r.randint(1, 4)), 0.9, 1000
    )
    assert plain < 0.90 and clustered >= 0.93


def test_dropping_the_lower_bound_raises_coverage_with_unequal_cases() -> None:
    """A few cases holding many items (5% of cases with 20 calls): the interval without n_eff >= n
    covers far more often than the old rule did (measured here against it); neither reaches 0.95
    with so few big clusters."""
    draw = _case(0.5, 1.0, lambda r: 20 if r.random() < 0.05 else 1)
    rng, held, old = random.Random(2), 0, 0
    for _ in range(1000):
        clusters = [draw(rng) for _ in range(80)]
        used = [c for c in clusters if c[1]]
        ratio = sum(y for y, _ in used) / sum(m for _, m in used)
        low, high = clustered_rate(clusters).ci  # type: ignore[misc]
        held += low <= 50 <= high
        low, high = wilson_at(
            ratio, max(len(used), effective_trials(clusters))
        )  # the old lower bound
        old += low <= 50 <= high
    assert held / 1000 >= old / 1000 + 0.08 and held / 1000 >= 0.85


# --- paired tests ---------------------------------------------------------------------------------


def _brute_force(differences: list[Fraction]) -> Fraction:
    observed = abs(sum(differences))
    patterns = list(itertools.product((1, -1), repeat=len(differences)))
    extreme = sum(
        1
        for signs in patterns
        if abs(sum(s * d for s, d in zip(signs, differences, strict=True))) >= observed
    )
    return Fraction(extreme, len(patterns))


@pytest.mark.parametrize(
    "differences",
    [
        [Fraction(-2, 5), Fraction(-1, 5), Fraction(1, 5), Fraction(-3, 5)],
        [
            Fraction(-1, 3),
            Fraction(1, 2),
            Fraction(-1),
            Fraction(-1, 6),
            Fraction(0),
            Fraction(-1, 2),
        ],
        [Fraction(-1)] * 7 + [Fraction(1)],
        [Fraction(1, 5)] * 3,
    ],
)
def test_sign_flip_equals_brute_force_enumeration(differences: list[Fraction]) -> None:
    nonzero = [d for d in differences if d]
    assert sign_flip_exact(differences) == float(_brute_force(nonzero))


@pytest.mark.parametrize(("worse", "better"), [(0, 0), (2, 1), (6, 0), (10, 2), (5, 5)])
def test_sign_flip_on_single_samples_is_mcnemar(worse: int, better: int) -> None:
    differences = [Fraction(-1)] * worse + [Fraction(1)] * better + [Fraction(0)] * 7
    assert sign_flip_exact(differences) == mcnemar_exact(worse, better)


def test_holm_by_hand() -> None:
    # Sorted: 0.01*4 = 0.04; 0.03*3 = 0.09; 0.04*2 = 0.08 -> kept at 0.09; 0.5*1 = 0.5.
    assert holm([]) == []  # first: a mutant raising on the others would hide it
    assert holm([0.01, 0.04, 0.03, 0.5]) == pytest.approx([0.04, 0.09, 0.09, 0.5])
    assert holm([0.9, 0.9]) == [1.0, 1.0]


# --- power ----------------------------------------------------------------------------------------


def test_detectable_drop_of_two_deterministic_runs() -> None:
    """No variance at all: only the drop's own sampling noise, delta = Z^2 / K / (n + Z^2 / K)."""
    for k in (1, 3, 5):
        assert detectable_drop(80, 0.0, k) == pytest.approx((Z * Z / k) / (80 + Z * Z / k))
    assert 0.08 < detectable_drop(80, 0.0, 1) < 0.10  # about 9 points at K = 1, as the notes expect


def test_detectable_drop_solves_the_power_equation() -> None:
    for variance in (0.01, 0.2, 0.5):
        delta = detectable_drop(80, variance, 5)
        assert 80 * delta**2 == pytest.approx(Z * Z * (variance + delta * (1 - delta) / 5))


def test_repeats_needed_is_the_first_k_that_detects_the_target() -> None:
    between, within, target = 0.01, 0.4, 0.05
    k = repeats_needed(80, between, within, target)
    assert k is not None
    assert detectable_drop(80, between + within / k, k) <= target + 1e-12
    assert detectable_drop(80, between + within / (k - 1), k - 1) > target
    # The cases alone differ too much: no number of repeats helps.
    assert repeats_needed(80, 0.05, 0.4, target) is None


def test_rerun_power_measures_noise_with_repeats_and_bounds_it_without() -> None:
    steady = rerun_power([(5, 5)] * 40 + [(0, 5)] * 40, 5, 5.0)
    assert (steady.bound, steady.cases) == ("exact", 80)
    assert steady.detectable == pytest.approx(100 * detectable_drop(80, 0.0, 5))
    noisy = rerun_power([(2, 4)] * 80, 4, 5.0)
    assert within_variance([(2, 4)]) == pytest.approx(0.5 * 0.5 * 4 / 3)
    assert noisy.detectable > steady.detectable
    single = rerun_power([(1, 1)] * 40 + [(0, 1)] * 40, 1, 5.0)
    assert (
        single.bound == "at most"
    )  # every case at p = 1/2: the exact McNemar test's 80%-power drop
    assert single.detectable == pytest.approx(100 * mcnemar_detectable(80, 0.5))
    assert 20 <= single.detectable <= 30


# --- answers --------------------------------------------------------------------------------------


def _step(arguments: str, passed: bool, flags: bool = True) -> dict:
    call = {"id": "c1", "name": "read_file", "arguments": arguments}
    if flags:
        call |= {
            "arguments_form": "string",
            "offered": True,
            "parsed": passed,
            "schema_valid": passed,
        }
    return {
        "index": 0,
        "passed": passed,
        "reason": None,
        "response": {"content": None, "model": "m", "tool_calls": [call]},
    }


def test_answer_digests_ignore_the_scorers_verdicts() -> None:
    assert answer_digests([_step('{"a": 1}', True)]) == answer_digests(
        [_step('{"a": 1}', False, flags=False)]
    )
    assert answer_digests([_step('{"a": 1}', True)]) != answer_digests(
        [_step('{"a":1}', True)]
    )  # byte-exact
    assert answer_digests([{"index": 0, "passed": False}]) is None  # no responses: unknown
    assert answer_digests(None) is None
    digest = answer_digests([_step("{}", True)])
    assert digest is not None and len(digest) == 1 and len(digest[0]) == 64


def test_same_answers_is_a_shared_prefix() -> None:
    assert same_answers(("x", "y"), ("x",))  # a chain that stopped earlier on one side
    assert same_answers(("x",), ("x",))
    assert not same_answers(("x", "y"), ("x", "z"))
    assert not same_answers((), ("x",))
    assert not same_answers(None, ("x",))
