"""The exact McNemar test against p-values worked out by hand from binomial coefficients."""

from __future__ import annotations

import pytest
from hypothesis import assume, given
from hypothesis import strategies as st

from scorer.stats.paired import mcnemar_exact

# Each expected value: 2 * sum_{k<=min(b,c)} C(b+c, k) / 2^(b+c), capped at 1, written out by hand.
HAND = [
    pytest.param(0, 0, 1.0, id="no-discordant-pairs"),
    pytest.param(0, 5, 2 * 1 / 32, id="0-vs-5"),  # 0.0625
    pytest.param(5, 0, 2 * 1 / 32, id="5-vs-0"),
    pytest.param(1, 9, 2 * (1 + 10) / 1024, id="1-vs-9"),  # 22/1024 = 0.021484375
    pytest.param(2, 1, 1.0, id="2-vs-1-capped"),  # 2 * (1 + 3) / 8 = 1.0
    pytest.param(3, 3, 1.0, id="tie-capped"),  # 2 * 42/64 > 1
    pytest.param(0, 1, 1.0, id="single-pair"),  # 2 * 1/2
    pytest.param(2, 8, 2 * (1 + 10 + 45) / 1024, id="2-vs-8"),  # 0.109375
    pytest.param(0, 20, 2 / 2**20, id="0-vs-20"),
]


@pytest.mark.parametrize(("b", "c", "expected"), HAND)
def test_hand_computed_values(b: int, c: int, expected: float) -> None:
    """Matches the hand-computed exact binomial tail."""
    assert mcnemar_exact(b, c) == expected


def test_known_decimal_values() -> None:
    """The two values quoted in the brief, as decimals."""
    assert mcnemar_exact(0, 5) == 0.0625
    assert mcnemar_exact(1, 9) == 0.021484375


def test_large_counts_stay_exact() -> None:
    """Exact integers until the one final rounding: no overflow from 2**n or C(n, k) for large n."""
    assert mcnemar_exact(0, 60) == 2 / 2**60
    assert mcnemar_exact(500, 500) == 1.0
    assert mcnemar_exact(10, 1000) < 1e-250


@pytest.mark.parametrize(("b", "c"), [(-1, 2), (2, -1)])
def test_negative_counts_rejected(b: int, c: int) -> None:
    """Counts are non-negative."""
    with pytest.raises(ValueError, match="non-negative"):
        mcnemar_exact(b, c)


@pytest.mark.parametrize(
    ("b", "c"), [(1.0, 2), (True, 2), ("1", 2), (2, 1.0), (2, True), (1.0, 2.0), (False, True)]
)
def test_non_integer_counts_rejected(b: object, c: object) -> None:
    """Counts are ints (a float count is a caller bug), each checked on its own, with the message
    saying so (not a TypeError from deeper down)."""
    with pytest.raises(TypeError, match="needs integer counts"):
        mcnemar_exact(b, c)  # type: ignore[arg-type]


@given(st.integers(0, 300), st.integers(0, 300))
def test_symmetric_and_in_unit_interval(b: int, c: int) -> None:
    """Swapping the discordant counts gives the same p; p is in (0, 1]."""
    p = mcnemar_exact(b, c)
    assert p == mcnemar_exact(c, b)
    assert 0.0 < p <= 1.0


@given(st.integers(0, 200), st.integers(0, 200))
def test_more_lopsided_is_not_less_significant(b: int, c: int) -> None:
    """Moving one discordant pair from the smaller side to the larger never raises p."""
    assume(min(b, c) > 0)
    small, large = min(b, c), max(b, c)
    assert mcnemar_exact(small - 1, large + 1) <= mcnemar_exact(small, large)


# --- the sign-flip test: exact at every design the tool meets -------------------------------------

import math  # noqa: E402
import random  # noqa: E402
from fractions import Fraction  # noqa: E402

import numpy as np  # noqa: E402
from scipy import stats  # noqa: E402

import scorer.stats.paired as paired  # noqa: E402
from scorer.stats.paired import SignFlip, mcnemar_worse, sign_flip, sign_flip_exact  # noqa: E402


def _pattern_sums(values: list[Fraction]) -> tuple[np.ndarray, int]:
    """Every one of the 2^m sign patterns' sums of ``values`` at once, and the observed sum (all
    plus signs), each in units of the values' common denominator: exact integers (the same
    patterns ``itertools.product((1, -1), repeat=m)`` enumerates, in one integer matrix product)."""
    unit = math.lcm(*(v.denominator for v in values))
    scaled = np.array([v.numerator * (unit // v.denominator) for v in values], dtype=np.int64)
    bits = np.arange(2 ** len(values), dtype=np.int64)[:, None] >> np.arange(len(values)) & 1
    return (1 - 2 * bits) @ scaled, int(scaled.sum())


def _brute_force(differences: list[Fraction]) -> Fraction:
    """Every one of the 2^m sign patterns, counted."""
    values = [d for d in differences if d]
    observed = abs(sum(values))
    if not values or observed == 0:
        return Fraction(1)
    sums, signed = _pattern_sums(values)
    hits = int(np.count_nonzero(np.abs(sums) >= abs(signed)))
    return Fraction(hits, 2 ** len(values))


def _float_distribution(differences: list[Fraction]) -> float:
    """A second algorithm: the null distribution of the scaled sum as float probabilities,
    convolved case by case."""
    values = [d for d in differences if d]
    scale = math.lcm(*(v.denominator for v in values))
    steps = [abs(int(v * scale)) for v in values]
    observed, total = abs(sum(int(v * scale) for v in values)), sum(steps)
    dist = np.zeros(2 * total + 1)
    dist[total] = 1.0
    reach = 0  # the sums so far lie within total +- reach: only that stretch is worked on
    for s in steps:
        low, high = total - reach - s, total + reach + s + 1
        shifted = np.zeros(high - low)
        shifted[: high - low - s] += 0.5 * dist[low + s : high]
        shifted[s:] += 0.5 * dist[low : high - s]
        dist[low:high] = shifted
        reach += s
    return float(dist[np.abs(np.arange(2 * total + 1) - total) >= observed].sum())


def _random_differences(rng: random.Random, n: int, repeats: tuple[int, ...]) -> list[Fraction]:
    """Per-case differences of pass rates with each side's repeat count drawn from ``repeats``."""
    out = []
    for _ in range(n):
        ka, kb = rng.choice(repeats), rng.choice(repeats)
        out.append(Fraction(rng.randint(0, kb), kb) - Fraction(rng.randint(0, ka), ka))
    return out


def test_sign_flip_equals_brute_force_on_many_seeded_inputs() -> None:
    """400 seeded designs of up to 10 cases, mixed repeat counts: the same float as counting
    every pattern."""
    rng = random.Random(7)
    for _ in range(400):
        differences = _random_differences(
            rng, rng.randint(0, 10), rng.choice([(1,), (3,), (2, 3, 5), (4, 7, 9)])
        )
        assert sign_flip_exact(differences) == float(_brute_force(differences)), differences


def test_sign_flip_matches_scipy_permutation_test() -> None:
    """scipy's exact paired permutation test (swapping the two runs' rates within a case) on 200
    seeded designs."""
    rng = random.Random(11)
    for _ in range(200):
        n = rng.randint(2, 10)
        ka, kb = rng.choice([2, 3, 5, 7]), rng.choice([2, 3, 5, 8])
        a = [Fraction(rng.randint(0, ka), ka) for _ in range(n)]
        b = [Fraction(rng.randint(0, kb), kb) for _ in range(n)]
        differences = [y - x for x, y in zip(a, b, strict=True)]
        if (
            sum(differences) == 0
        ):  # scipy's float sum is then rounding noise around 0; the exact p is 1
            assert sign_flip_exact(differences) == 1.0
            continue
        result = stats.permutation_test(
            ([float(x) for x in b], [float(x) for x in a]),
            lambda x, y, axis: np.sum(x - y, axis=axis),
            permutation_type="samples",
            n_resamples=np.inf,
            vectorized=True,
        )
        assert sign_flip_exact(differences) == pytest.approx(result.pvalue, abs=1e-12)


@pytest.mark.parametrize(
    ("worse", "better"), [(0, 3), (4, 0), (7, 2), (30, 15), (31, 18), (60, 40)]
)
def test_sign_flip_on_one_sample_is_scipy_binomtest(worse: int, better: int) -> None:
    """One sample per case: the sign-flip test is the two-sided exact binomial (McNemar) test."""
    differences = [Fraction(-1)] * worse + [Fraction(1)] * better + [Fraction(0)] * 5
    expected = stats.binomtest(better, worse + better, 0.5).pvalue
    assert sign_flip_exact(differences) == pytest.approx(expected, rel=1e-12)


def test_sign_flip_is_exact_where_a_normal_approximation_was_used() -> None:
    """31 cases broke and 18 were fixed outright, plus two cases that moved by 1/56 and 4/45 (a
    common denominator of 2520): the old code switched to a normal approximation here (p 0.0619);
    the exact p is 0.0649."""
    differences = (
        [Fraction(-1)] * 31
        + [Fraction(1)] * 18
        + [Fraction(1, 7) - Fraction(1, 8), Fraction(1, 9) - Fraction(1, 5)]
    )
    result = sign_flip(differences)
    assert result.draws == 0
    assert result.p == pytest.approx(_float_distribution(differences), rel=1e-12)
    assert result.p == pytest.approx(0.0649, abs=5e-5)


def test_sign_flip_exact_on_large_seeded_designs() -> None:
    """80-200 cases with repeat counts from 5 to 10 on each side (common denominators up to 2520):
    counted exactly, agreeing with the float convolution."""
    rng = random.Random(13)
    for n in (80, 120, 200):
        differences = _random_differences(rng, n, (5, 7, 8, 9, 10))
        result = sign_flip(differences)
        assert result.draws == 0
        assert result.p == pytest.approx(_float_distribution(differences), rel=1e-9, abs=1e-15)


def test_sign_flip_monte_carlo_beyond_the_exact_limit(monkeypatch: pytest.MonkeyPatch) -> None:
    """Beyond the exact limit the p is a seeded estimate, said so (draws > 0), deterministic and
    within four standard errors of the exact value."""
    rng = random.Random(17)
    differences = _random_differences(rng, 40, (3, 4, 5))
    differences[:6] = [Fraction(-1)] * 6
    exact = sign_flip(differences)
    monkeypatch.setattr(paired, "MAX_INTEGER_BITS", 64)
    monkeypatch.setattr(paired, "MAX_FLOAT_STEPS", 64)
    monkeypatch.setattr(paired, "MONTE_CARLO_DRAWS", 20_000)
    estimate = sign_flip(differences)
    assert estimate.draws == 20_000
    assert estimate == sign_flip(differences)
    assert abs(estimate.p - exact.p) <= 4 * math.sqrt(exact.p * (1 - exact.p) / 20_000) + 1 / 20_001


def test_sign_flip_float_count_agrees_with_the_integer_count(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The float probabilities used for large designs give the integer count's p to rounding, on 200
    seeded designs (forced onto the float path)."""
    rng = random.Random(19)
    designs = [_random_differences(rng, rng.randint(1, 60), (1, 2, 3, 5, 7)) for _ in range(200)]
    exact = [sign_flip(d) for d in designs]
    monkeypatch.setattr(paired, "MAX_INTEGER_BITS", 0)
    for differences, counted in zip(designs, exact, strict=True):
        estimate = sign_flip(differences)
        assert estimate.draws == 0
        assert estimate.p == pytest.approx(counted.p, rel=1e-12, abs=1e-300)


def test_sign_flip_says_counted_on_trivial_and_small_designs() -> None:
    """No non-zero difference, or an observed sum of 0: p = 1, counted (draws 0). Three cases that
    all moved +1: 2 of the 8 sign patterns are as far from 0 (+3 and -3), p = 1/4; one sided
    (lower), only the all-minus pattern is at or below -3, p = 1/8."""
    assert sign_flip([]) == SignFlip(1.0, 0)
    assert sign_flip([Fraction(0), Fraction(0)]) == SignFlip(1.0, 0)
    assert sign_flip([Fraction(1, 2), Fraction(-1, 2)]) == SignFlip(1.0, 0)
    assert sign_flip([Fraction(1)] * 3) == SignFlip(0.25, 0)
    assert sign_flip([Fraction(-1)] * 3, lower=True) == SignFlip(0.125, 0)
    assert sign_flip([Fraction(1)] * 3, lower=True) == SignFlip(1.0, 0)  # the largest sum there is
    assert sign_flip([], lower=True) == SignFlip(1.0, 0)


def _counts(steps: list[int]) -> dict[int, int]:
    """How many of the 2^m sign patterns give each signed sum (an integer convolution, a second
    algorithm)."""
    counts = {0: 1}
    for s in steps:
        nxt: dict[int, int] = {}
        for total, k in counts.items():
            nxt[total + s] = nxt.get(total + s, 0) + k
            nxt[total - s] = nxt.get(total - s, 0) + k
        counts = nxt
    return counts


def _lower_reference(differences: list[Fraction]) -> Fraction:
    """P[signed sum <= observed sum] over every sign pattern, counted."""
    values = [d for d in differences if d]
    if not values:
        return Fraction(1)
    scale = math.lcm(*(v.denominator for v in values))
    observed = sum(int(v * scale) for v in values)
    counts = _counts([abs(int(v * scale)) for v in values])
    return Fraction(sum(k for total, k in counts.items() if total <= observed), 2 ** len(values))


def test_one_sided_sign_flip_is_the_counted_lower_tail() -> None:
    """``lower=True``: the share of sign patterns whose sum is at most the observed one, to the
    last bit, on 150 seeded designs of up to 12 cases with mixed repeat counts (zero differences
    mixed in), against an integer convolution and, for small designs, brute-force enumeration."""
    rng = random.Random(23)
    for _ in range(150):
        differences = _random_differences(
            rng, rng.randint(1, 12), rng.choice([(1,), (3,), (2, 3, 5), (4, 7, 9)])
        )
        result = sign_flip(differences, lower=True)
        expected = _lower_reference(differences)
        assert result == SignFlip(float(expected), 0), differences
        values = [d for d in differences if d]
        if len(values) <= 8:
            sums = _pattern_sums([abs(v) for v in values])[0]
            observed = _pattern_sums(values)[1]
            hits = int(np.count_nonzero(sums <= observed))
            assert expected == Fraction(hits, 2 ** len(values))


def _rounding_design() -> list[Fraction]:
    """68 cases moving by -3..3 (seeded): a design where the float path's sum rounds differently
    from the integer count in the last bit, in both tails."""
    rng = random.Random(0)
    return [Fraction(rng.choice([-1, 1]) * rng.randint(1, 3)) for _ in range(68)]


def test_small_designs_are_counted_not_summed_in_floats(monkeypatch: pytest.MonkeyPatch) -> None:
    """Within the integer limit p is the exact count rounded once (equal to the integer
    convolution's, to the last bit); the float path, forced, rounds differently on this design."""
    differences = _rounding_design()
    counts = _counts([abs(int(d)) for d in differences])
    observed = int(sum(differences))
    two_sided = Fraction(
        sum(k for total, k in counts.items() if abs(total) >= abs(observed)), 2 ** len(differences)
    )
    assert sign_flip(differences) == SignFlip(float(two_sided), 0)
    assert sign_flip(differences, lower=True) == SignFlip(float(_lower_reference(differences)), 0)
    monkeypatch.setattr(paired, "MAX_INTEGER_BITS", 0)
    floats = sign_flip(differences), sign_flip(differences, lower=True)
    assert floats[0].p != float(two_sided) and floats[0].p == pytest.approx(
        float(two_sided), rel=1e-13
    )
    lower = float(_lower_reference(differences))
    assert floats[1].p != lower and floats[1].p == pytest.approx(lower, rel=1e-13)


def test_the_integer_count_limit_is_inclusive(monkeypatch: pytest.MonkeyPatch) -> None:
    """The count's polynomial takes (T + 1) (m + 2) bits: counted at exactly that limit, None one
    bit below. Steps 1, 2, 3 (T = 6, m = 3): 35 bits; sums >= 4 are {1,3}, {2,3}, {1,2,3}."""
    monkeypatch.setattr(paired, "MAX_INTEGER_BITS", 35)
    assert paired._exact_upper_count([1, 2, 3], 6, 4) == 3
    monkeypatch.setattr(paired, "MAX_INTEGER_BITS", 34)
    assert paired._exact_upper_count([1, 2, 3], 6, 4) is None


@pytest.mark.parametrize("lower", [False, True])
def test_the_float_limit_is_inclusive(monkeypatch: pytest.MonkeyPatch, lower: bool) -> None:
    """Past the integer limit, (T + 1) m float steps at most MAX_FLOAT_STEPS are summed (draws 0),
    one more is estimated. Differences 1, 1, -1/2 scale to steps 2, 2, 1: T = 5, m = 3, 18
    steps."""
    differences = [Fraction(1), Fraction(1), Fraction(-1, 2)]
    monkeypatch.setattr(paired, "MAX_INTEGER_BITS", 0)
    monkeypatch.setattr(paired, "MONTE_CARLO_DRAWS", 50)
    monkeypatch.setattr(paired, "MAX_FLOAT_STEPS", 18)
    assert sign_flip(differences, lower=lower).draws == 0
    monkeypatch.setattr(paired, "MAX_FLOAT_STEPS", 17)
    assert sign_flip(differences, lower=lower).draws == 50


def _seeded_lower_estimate(steps: list[int], signed: int, draws: int) -> float:
    """The one-sided estimate as documented: ``draws`` sign patterns from
    random.Random(MONTE_CARLO_SEED).getrandbits(m), bit i set giving step i a plus sign, counting
    those whose sum is at most the observed one, (hits + 1) / (draws + 1)."""
    rng = random.Random(paired.MONTE_CARLO_SEED)
    hits = 0
    for _ in range(draws):
        bits = rng.getrandbits(len(steps))
        hits += sum(s if bits >> i & 1 else -s for i, s in enumerate(steps)) <= signed
    return (hits + 1) / (draws + 1)


def test_one_sided_monte_carlo_beyond_the_exact_limit(monkeypatch: pytest.MonkeyPatch) -> None:
    """Past both limits the one-sided p is a seeded estimate: draws said, the documented estimator
    at the documented seed, within four standard errors of the counted p."""
    rng = random.Random(29)
    differences = _random_differences(rng, 30, (2, 3))
    differences[:5] = [Fraction(-1)] * 5
    counted = sign_flip(differences, lower=True)
    monkeypatch.setattr(paired, "MAX_INTEGER_BITS", 0)
    monkeypatch.setattr(paired, "MAX_FLOAT_STEPS", 0)
    monkeypatch.setattr(paired, "MONTE_CARLO_DRAWS", 4000)
    estimate = sign_flip(differences, lower=True)
    values = [d for d in differences if d]
    scale = math.lcm(*(v.denominator for v in values))
    steps = [abs(int(v * scale)) for v in values]
    common = math.gcd(*steps)
    expected = _seeded_lower_estimate(
        [s // common for s in steps], sum(int(v * scale) for v in values) // common, 4000
    )
    assert estimate == SignFlip(expected, 4000)
    error = math.sqrt(counted.p * (1 - counted.p) / 4000)
    assert abs(estimate.p - counted.p) <= 4 * error + 1 / 4001


@pytest.mark.parametrize(
    ("worse", "better", "expected"),
    [
        (0, 0, 1.0),  # no discordant pair
        (3, 0, 1 / 8),  # P[X >= 3], X ~ Bin(3, 1/2)
        (0, 3, 1.0),  # P[X >= 0]
        (2, 1, 4 / 8),  # (C(3,2) + C(3,3)) / 8
        (1, 0, 1 / 2),
        (5, 2, (21 + 7 + 1) / 128),  # (C(7,5) + C(7,6) + C(7,7)) / 2^7
    ],
)
def test_one_sided_mcnemar_by_hand(worse: int, better: int, expected: float) -> None:
    """P[X >= worse] with X ~ Bin(worse + better, 1/2), binomial coefficients written out; scipy's
    one-sided binomtest agrees."""
    assert mcnemar_worse(worse, better) == expected
    if worse + better:
        assert expected == pytest.approx(
            stats.binomtest(worse, worse + better, 0.5, "greater").pvalue, rel=1e-12
        )


def test_a_p_value_past_1_by_float_rounding_is_cut_to_1(monkeypatch: pytest.MonkeyPatch) -> None:
    """60 cases moving by -3..3 (seeded) whose sum is 1: every sign pattern's sum has the parity of
    that sum, so none is 0 and p = 1 exactly. On the float path twice the upper tail rounds to
    1.0000000000000002: the p is cut at 1."""
    rng = random.Random(135)
    differences = [Fraction(rng.choice([-1, 1]) * rng.randint(1, 3)) for _ in range(60)]
    assert abs(sum(differences)) == 1
    monkeypatch.setattr(paired, "MAX_INTEGER_BITS", 0)
    assert sign_flip(differences) == SignFlip(1.0, 0)


def test_differences_past_one_are_scaled_by_their_common_denominator() -> None:
    """Differences need not lie in [-1, 1]: 5/2 and 3 have the sign-pattern sums 11/2, 1/2, -1/2
    and -11/2, so two of four are as far from 0 as 11/2 (p = 1/2), and one is at or below -11/2
    (one-sided, p = 1/4)."""
    assert sign_flip([Fraction(5, 2), Fraction(3)]) == SignFlip(0.5, 0)
    assert sign_flip([Fraction(-5, 2), Fraction(-3)], lower=True) == SignFlip(0.25, 0)


def test_two_sided_monte_carlo_is_the_documented_estimator(monkeypatch: pytest.MonkeyPatch) -> None:
    """Past both limits the two-sided p is (hits + 1) / (draws + 1) over draws from
    random.Random(MONTE_CARLO_SEED).getrandbits(m), bit i set giving step i a plus sign, a hit
    being a sum at least as far from 0 as the observed one (steps 1, 1, 2, 3, observed 3)."""
    differences = [Fraction(1), Fraction(1), Fraction(-2), Fraction(3)]
    monkeypatch.setattr(paired, "MAX_INTEGER_BITS", 0)
    monkeypatch.setattr(paired, "MAX_FLOAT_STEPS", 0)
    monkeypatch.setattr(paired, "MONTE_CARLO_DRAWS", 400)
    rng = random.Random(paired.MONTE_CARLO_SEED)
    hits = 0
    for _ in range(400):
        bits = rng.getrandbits(4)
        hits += abs(sum(s if bits >> i & 1 else -s for i, s in enumerate([1, 1, 2, 3]))) >= 3
    assert sign_flip(differences) == SignFlip((hits + 1) / 401, 400)
    # Enumerated, 10 of the 16 sign patterns are at least 3 from 0: the estimate is near 0.625.
    error = 4 * math.sqrt(0.625 * 0.375 / 400) + 1 / 401
    assert sign_flip(differences).p == pytest.approx(0.625, abs=error)


def _float_tail_loop(steps: list[int], start: int) -> float:
    """P[S >= start] as the docstring builds it: the product of (1 + x^s) / 2 over the steps in
    ascending order, in plain Python lists (each new coefficient the old one plus the one s below,
    then halved), and numpy's sum of the coefficients from x^start to x^T."""
    probabilities = [1.0]
    for step in sorted(steps):
        grown = probabilities + [0.0] * step
        for i, p in enumerate(probabilities):
            grown[i + step] += p
        probabilities = [p * 0.5 for p in grown]
    return float(np.array(probabilities[start:]).sum())


def test_the_float_path_is_the_plain_loop_bit_for_bit(monkeypatch: pytest.MonkeyPatch) -> None:
    """59 cases moving by 1..12 (seeded), the first eight (7 + 1 + 5 + 4 + 4 + 5 + 3 + 2 = 31)
    down: T = 253, the observed sum 191, P[S >= 31] one sided. The float path's p is the plain
    loop's to the last bit (a sum over one more, zero, coefficient rounds otherwise here)."""
    rng = random.Random(0)
    steps = [rng.randint(1, rng.choice([3, 7, 12])) for _ in range(rng.randint(5, 60))]
    assert (len(steps), sum(steps), sum(steps[:8])) == (59, 253, 31)
    differences = [Fraction(-s) for s in steps[:8]] + [Fraction(s) for s in steps[8:]]
    monkeypatch.setattr(paired, "MAX_INTEGER_BITS", 0)
    assert sign_flip(differences, lower=True) == SignFlip(_float_tail_loop(steps, 31), 0)


def test_two_cases_on_the_float_path(monkeypatch: pytest.MonkeyPatch) -> None:
    """Two cases that both moved +1: sums 2, 0, 0, -2; two of four as far from 0 (p = 1/2), one at
    or below -2 when both moved -1 (p = 1/4); forced onto the float path."""
    monkeypatch.setattr(paired, "MAX_INTEGER_BITS", 0)
    assert sign_flip([Fraction(1), Fraction(1)]) == SignFlip(0.5, 0)
    assert sign_flip([Fraction(-1), Fraction(-1)], lower=True) == SignFlip(0.25, 0)
    assert sign_flip([Fraction(1), Fraction(2)]) == SignFlip(0.5, 0)


def test_one_case_on_the_float_path(monkeypatch: pytest.MonkeyPatch) -> None:
    """One case: both of its sums are as far from 0 as the observed one (p = 1), one is at or below
    -1 (p = 1/2); forced onto the float path."""
    monkeypatch.setattr(paired, "MAX_INTEGER_BITS", 0)
    assert sign_flip([Fraction(1)]) == SignFlip(1.0, 0)
    assert sign_flip([Fraction(-1)], lower=True) == SignFlip(0.5, 0)


def test_a_one_sided_p_past_1_by_float_rounding_is_cut_to_1(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """60 cases moving by 1..3 (seeded), the first down by 1: the observed sum is T - 2, so
    P[sum <= observed] = 1 - 2^-60, which is 1.0 as a double; the float path's sum rounds to
    1.0000000000000002 on this design: the p is cut at 1."""
    rng = random.Random(29)
    differences = [Fraction(rng.randint(1, 3)) for _ in range(60)]
    differences[0] = Fraction(-1)
    monkeypatch.setattr(paired, "MAX_INTEGER_BITS", 0)
    assert sign_flip(differences, lower=True) == SignFlip(1.0, 0)


def test_the_largest_sum_is_at_or_below_itself_on_the_float_path(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """57 cases that all moved up (by 1..3, seeded): the observed sum is the largest, so every sign
    pattern is at or below it and the one-sided p is 1 exactly, not the float sum of every
    probability (0.9999999999999999 on this design)."""
    rng = random.Random(74)
    differences = [Fraction(rng.randint(1, 3)) for _ in range(rng.randint(2, 60))]
    assert len(differences) == 57
    monkeypatch.setattr(paired, "MAX_INTEGER_BITS", 0)
    assert sign_flip(differences, lower=True) == SignFlip(1.0, 0)
