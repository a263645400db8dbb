"""The method page and the decision pages say what the code does (issue 34, "the method whole").

- Every formula written in docs/METHOD.md or docs/decisions/ (a code span that reads like one) is
  registered in FORMULAS with a check that evaluates the formula as written, on seeded inputs,
  against the function that implements it; where the implementing module's docstring states the
  formula, it states the same text. A formula added to the docs without a check, or a check whose
  formula left the docs, fails.
- No sentence ends mid-way: every paragraph and list item ends with terminal punctuation (a ':' only
  before a list, table or code block), with balanced backticks, parentheses and brackets.
- Every decision METHOD.md lists links to its full text, which keeps the same anchors.
"""

from __future__ import annotations

import inspect
import math
import random
import re
import statistics
from collections.abc import Callable
from dataclasses import dataclass, replace
from fractions import Fraction
from itertools import product
from pathlib import Path

import numpy as np
import pytest
from scipy import stats as sps

from scorer import repeats
from scorer.stats import case_exact, clustered, front_paired, paired, power
from scorer.stats.wilson import Z95
from tests.conftest import ROOT

METHOD = ROOT / "docs" / "METHOD.md"
DECISIONS = ROOT / "docs" / "decisions"
COMMANDS = ROOT / "docs" / "commands"


def _method_pages() -> list[Path]:
    return [METHOD, *sorted(DECISIONS.glob("*.md"))]


def _without_fences(text: str) -> str:
    return re.sub(r"^```.*?^```", "```", text, flags=re.MULTILINE | re.DOTALL)


def _code_spans(text: str) -> list[str]:
    return re.findall(r"`([^`\n]+)`", _without_fences(text))


# A code span reads like a formula when it has an operator between terms, a power, or a named
# function of one.
LOOKS_LIKE_A_FORMULA = re.compile(
    r"\s(?:[-+*/~]|[=<>!]=?|>=|<=|\+-)\s|\^|\bsqrt\(|\bsum\b|\bprod\b|\bC\(|\bmod\b"
)

# Code spans that read like formulas and are not one, each with what it is.
NOT_FORMULAS = {
    "sum": "the name of a candidate weight in docs/decisions/history-gate.md (every failure counts "
    "1)",
    "1 == 1.0": "an example of JSON equality (the eq check)",
    "true != 1": "an example of JSON equality (the eq check)",
    '"a@" + "." * 40000 + "@"': "the hostile answer of benchmarks/patterns.py",
    r"^[^@\s]+@[^@\s]+\.[^@\s]+$": "the suite's email pattern (checked below to be the suite's)",
    "^[a-z]+$": "a pattern in an example of RE2's `$`",
}


def _rng(seed: int = 34) -> random.Random:
    return random.Random(seed)


def _clusters(rng: random.Random) -> list[tuple[int, int]]:
    """Per-case (passed, items), at least two cases, some case holding several items, 0 < R < 1."""
    while True:
        n = rng.randint(2, 40)
        sizes = [rng.choice([1, 1, 2, 3, 5, 10]) for _ in range(n)]
        clusters = [(rng.randint(0, m), m) for m in sizes]
        total = sum(m for _, m in clusters)
        rate = sum(y for y, _ in clusters) / total
        if total > n and 0 < rate < 1:
            return clusters


def check_rate() -> None:
    """R = sum(y_c) / sum(m_c) is the rate shown (in percent)."""
    rng = _rng()
    for _ in range(200):
        clusters = _clusters(rng)
        got = clustered.clustered_rate(clusters).rate
        assert got == 100 * sum(y for y, _ in clusters) / sum(m for _, m in clusters)


def _n_eff_as_written(clusters: list[tuple[int, int]]) -> float:
    """V and n_eff exactly as the docs write them, bounded above by sum(m_c) (V = 0: sum(m_c))."""
    n = len(clusters)
    R = sum(y for y, _ in clusters) / sum(m for _, m in clusters)
    V = n / (n - 1) * sum((y - R * m) ** 2 for y, m in clusters) / sum(m for _, m in clusters) ** 2
    return (
        sum(m for _, m in clusters) if V == 0 else min(sum(m for _, m in clusters), R * (1 - R) / V)
    )


def check_clustered() -> None:
    """V = n / (n - 1) * sum((y_c - R * m_c)^2) / (sum m_c)^2 and n_eff = R (1 - R) / V, at most
    sum(m_c): the interval is Wilson's at n_eff (scipy's Wilson interval at that many trials, as
    a share)."""
    rng = _rng(1)
    for _ in range(200):
        clusters = _clusters(rng)
        expected = _n_eff_as_written(clusters)
        assert clustered.effective_trials(clusters) == pytest.approx(expected, rel=1e-12)
        rate = clustered.clustered_rate(clusters)
        assert rate.ci is not None
        share = rate.count / rate.of
        z = sps.norm.ppf(0.975)
        centre = (share + z * z / (2 * expected)) / (1 + z * z / expected)
        half = (z / (1 + z * z / expected)) * math.sqrt(
            share * (1 - share) / expected + z * z / (4 * expected**2)
        )
        assert rate.ci[0] == pytest.approx(100 * (centre - half), abs=1e-9)
        assert rate.ci[1] == pytest.approx(100 * (centre + half), abs=1e-9)


def check_no_lower_bound() -> None:
    """The earlier rule `n_eff >= n` is gone: one case holding most items leaves fewer effective
    trials than cases (one case of 20/20 and 79 of 0/1, the decision's example)."""
    clusters = [(20, 20)] + [(0, 1)] * 79
    assert clustered.effective_trials(clusters) < len(clusters)
    interval = clustered.clustered_rate(clusters).ci
    assert interval is not None
    low, high = interval
    assert (round(low, 1), round(high, 1)) == (4.2, 59.3)


def check_agreeing_models() -> None:
    """Two models that agree on every case: the bound is -t^2 / (n + t^2), where the floor
    u (1 - u) meets n u^2 = t^2 u (1 - u) (the sample variance is 0)."""
    for n in (20, 80, 400):
        t = sps.t.ppf(0.95, n - 1)
        assert front_paired.lower_bound([0.0] * n, front_paired.critical(0.05, n)) == pytest.approx(
            -t * t / (n + t * t), rel=1e-3
        )


def check_score_variance() -> None:
    """Where the sample variance rules, the bound solves n (mean + u)^2 = t^2 (s^2 + (mean + u)^2):
    mean - t s / sqrt(n - t^2)."""
    d = [1.0, -1.0, 0.5, -0.5, 0.0, 1.0, -1.0, 0.25] * 10
    n, mean, sd = len(d), statistics.fmean(d), statistics.stdev(d)
    t = front_paired.critical(0.05, n)
    assert front_paired.lower_bound(d, t) == pytest.approx(mean - t * sd / math.sqrt(n - t * t))


def check_pass_all() -> None:
    """pass^k of a case: C(c, k) / C(n, k), c of its n scored repeats passing."""
    for n in range(1, 9):
        for c, k in product(range(n + 1), range(1, n + 1)):
            assert repeats.pass_all(c, n, k) == Fraction(math.comb(c, k), math.comb(n, k))


def check_pass_any() -> None:
    """pass@k of a case: 1 - C(n - c, k) / C(n, k)."""
    for n in range(1, 9):
        for c, k in product(range(n + 1), range(1, n + 1)):
            assert repeats.pass_any(c, n, k) == 1 - Fraction(math.comb(n - c, k), math.comb(n, k))


def check_fewer_repeats() -> None:
    """k' = min(k, n): a case with n < k scored repeats uses all of them, so its pass^k and
    pass@k are at k = n."""
    for n in range(1, 7):
        for c, k in product(range(n + 1), range(n + 1, n + 4)):
            assert repeats.pass_all(c, n, k) == repeats.pass_all(c, n, min(k, n))
            assert repeats.pass_any(c, n, k) == repeats.pass_any(c, n, min(k, n))
            assert repeats.pass_all(c, n, k) == int(c == n)


def check_tier_pairs() -> None:
    """m (m - 1) / 2: the tiers' Holm family is every pair of the m models with a scored case."""
    from dataclasses import replace

    from replay.ties import tiers
    from scorer.summarize import empty
    from scorer.summary import CaseTally

    rng = _rng(7)
    for m in range(1, 9):
        board = [
            replace(
                empty(f"model-{i}", f"model-{i}"),
                tallies=tuple(CaseTally(f"c-{c:02d}", rng.choice([0, 1]), 1) for c in range(20)),
            )
            for i in range(m)
        ]
        board.append(replace(empty("no-scores", "no-scores"), tallies=(CaseTally("c-01", 0, 0),)))
        assert tiers(board).tests == m * (m - 1) / 2


def check_difference() -> None:
    """d_c = x_c(B) - x_c(A): a case's paired difference is B's pass rate minus A's."""
    from replay.diff_runs.model import CasePair, Sample

    rng = _rng(2)
    for _ in range(100):
        a = tuple(Sample(rng.choice(["passed", "failed"])) for _ in range(rng.randint(1, 5)))
        b = tuple(Sample(rng.choice(["passed", "failed"])) for _ in range(rng.randint(1, 5)))
        case = CasePair("c-01", "g", a[0].status, b[0].status, None, None, a, b)
        x_a = Fraction(sum(s.status == "passed" for s in a), len(a))
        x_b = Fraction(sum(s.status == "passed" for s in b), len(b))
        assert case.difference == x_b - x_a


def check_paired_interval() -> None:
    """mean +- t(0.975, n - 1) * sd / sqrt(n), in points, cut to [-100, 100]."""
    rng = _rng(3)
    for _ in range(100):
        n = rng.randint(2, 80)
        d = [Fraction(rng.randint(-5, 5), 5) for _ in range(n)]
        mean = statistics.fmean(float(x) for x in d)
        sd = statistics.stdev(float(x) for x in d)
        half = sps.t.ppf(0.975, n - 1) * sd / math.sqrt(n)
        got = case_exact.paired_difference(d)
        assert got is not None and got.low is not None and got.high is not None
        assert got.mean == pytest.approx(100 * mean, abs=1e-9)
        assert got.low == pytest.approx(max(-100, 100 * (mean - half)), abs=1e-7)
        assert got.high == pytest.approx(min(100, 100 * (mean + half)), abs=1e-7)


def check_z() -> None:
    """Z = z(0.975) + z(0.80), and the Wilson intervals' z is z(0.975)."""
    assert pytest.approx(sps.norm.ppf(0.975) + sps.norm.ppf(0.80), abs=1e-12) == power.Z
    assert pytest.approx(sps.norm.ppf(0.975), abs=1e-12) == Z95


def check_power() -> None:
    """n * delta^2 >= Z^2 * (omega^2 + sigma_A^2 / K_A + sigma_B^2 / K_B + delta (1 - delta) / K_B):
    the smallest detectable delta meets it with equality, and the repeats needed are the fewest K
    (both sides) that meet it."""
    rng = _rng(4)
    Z = sps.norm.ppf(0.975) + sps.norm.ppf(0.80)
    for _ in range(200):
        n = rng.randint(10, 200)
        omega2, s_a, s_b = rng.uniform(0, 0.02), rng.uniform(0, 0.25), rng.uniform(0, 0.25)
        k_a, k_b = rng.randint(1, 10), rng.randint(1, 10)
        variance = omega2 + s_a / k_a + s_b / k_b
        delta = power.detectable_drop(n, variance, k_b)
        if delta < 1:
            lhs, rhs = n * delta**2, Z**2 * (variance + delta * (1 - delta) / k_b)
            assert lhs == pytest.approx(rhs, rel=1e-9)

        def holds(
            k: int,
            target: float,
            n: int = n,
            omega2: float = omega2,
            s_a: float = s_a,
            s_b: float = s_b,
        ) -> bool:
            return n * target**2 >= Z**2 * (omega2 + s_a / k + s_b / k + target * (1 - target) / k)

        target = rng.uniform(0.03, 0.3)
        needed = power.repeats_needed(n, omega2, s_a + s_b, target)
        if needed is not None:
            assert holds(needed, target)
            assert needed == 1 or not holds(needed - 1, target)
        else:
            assert not holds(power.MAX_REPEATS, target)


def check_within_variance() -> None:
    """sigma^2: the mean over cases with two or more scored repeats of x_c (1 - x_c) K_c / (K_c -
    1)."""
    rng = _rng(5)
    for _ in range(100):
        cases = [
            (p, k) for k in (rng.randint(1, 6) for _ in range(20)) for p in [rng.randint(0, k)]
        ]
        used = [(Fraction(p, k), k) for p, k in cases if k >= 2]
        expected = (
            statistics.fmean(float(x * (1 - x) * k / (k - 1)) for x, k in used) if used else None
        )
        got = power.within_variance(cases)
        assert got == pytest.approx(expected, abs=1e-12) if expected is not None else got is None


def check_mcnemar() -> None:
    """min(1, 2 * P[X <= min(b, c)]) with X ~ Bin(b + c, 1/2)."""
    for b, c in product(range(15), range(15)):
        expected = 1.0 if b + c == 0 else min(1.0, 2 * sps.binom.cdf(min(b, c), b + c, 0.5))
        assert paired.mcnemar_exact(b, c) == pytest.approx(expected, rel=1e-12, abs=1e-300)


def _sign_flip_as_written(differences: list[Fraction]) -> float:
    """The share of the 2^m sign patterns of the m non-zero d_c whose sum is at least as far from 0
    as the observed one, read off the polynomial prod (1 + x^{s_c}): a pattern's sum is 2 S - T."""
    values = [d for d in differences if d]
    scale = math.lcm(*(v.denominator for v in values))
    s = [abs(int(v * scale)) for v in values]
    coefficients = [1]  # prod (1 + x^{s_c}), multiplied out
    for step in s:
        grown = coefficients + [0] * step
        for power_, count in enumerate(coefficients):
            grown[power_ + step] += count
        coefficients = grown
    total, observed = sum(s), abs(sum(int(v * scale) for v in values))
    extreme = sum(c for S, c in enumerate(coefficients) if abs(2 * S - total) >= observed)
    return extreme / 2 ** len(s)


def check_sign_flip() -> None:
    """prod (1 + x^{s_c}), 2 S - T and the integer count modulo 2^(m + 2) - 1: exact on every small
    design, and the float path past 4 Mbit agrees."""
    rng = _rng(6)
    for _ in range(150):
        n = rng.randint(1, 14)
        d = [Fraction(rng.randint(-3, 3), 3) - Fraction(rng.randint(-2, 2), 2) for _ in range(n)]
        if not any(d):
            continue
        assert paired.sign_flip(d) == paired.SignFlip(
            pytest.approx(_sign_flip_as_written(d), rel=1e-12), 0
        )


def check_monte_carlo(monkeypatch: pytest.MonkeyPatch) -> None:
    """(hits + 1) / (draws + 1) past the exact designs: the p is a whole number of hits over
    the draws."""
    monkeypatch.setattr(paired, "MAX_INTEGER_BITS", 0)
    monkeypatch.setattr(paired, "MAX_FLOAT_STEPS", 0)
    monkeypatch.setattr(paired, "MONTE_CARLO_DRAWS", 999)
    result = paired.sign_flip([Fraction(-1)] * 6 + [Fraction(1, 2)] * 3)
    assert result.draws == 999
    hits = result.p * (999 + 1) - 1
    assert hits == pytest.approx(round(hits), abs=1e-9) and 0 <= round(hits) <= 999


def check_exact_rate() -> None:
    """A rate is 100 * count / of in one division, never k / n * 100 (which misses the exact
    rate's double)."""
    misses = 0
    for of in range(1, 101):
        for count in range(of + 1):
            assert clustered.clustered_rate([(count, of)]).rate == 100 * count / of
            misses += count / of * 100 != 100 * count / of
    assert misses > 0  # the other order does round differently somewhere


def check_tool_order() -> None:
    """Case NN offers its right tool at position ((NN - 1) mod m) + 1, m the fewest tools of the
    group's cases."""
    import json

    suite = json.loads((ROOT / "evals" / "suite.json").read_text(encoding="utf-8"))
    groups: dict[str, list[dict]] = {}
    for case in suite["cases"]:
        groups.setdefault(case["group"], []).append(case)
    checked = 0
    for cases in groups.values():
        if cases[0]["steps"][0]["expect"] != "call":
            continue
        m = min(len(c["tools"]) for c in cases)
        for case in cases:
            NN = int(case["id"].rsplit("-", 1)[1])
            right = case["steps"][0]["calls"][0]["name"]
            assert case["tools"].index(right) + 1 == ((NN - 1) % m) + 1, case["id"]
            checked += 1
    assert checked == 66


def check_half_alpha() -> None:
    """--alpha / 2: the per-case rule's level, when its repeats let it fire, is half of --alpha
    (quoted from the rule's code)."""
    from replay.diff_runs import alpha

    assert "half = options.alpha / 2" in inspect.getsource(alpha)


def _drift_as_written(
    passes: list[list[int]], trials: list[list[int]]
) -> tuple[list[float | None], list[float]]:
    """docs/decisions/drift.md's scores and CUSUM, run by run, from its formulas alone: the
    reference is runs 1..r, r the last run where S was 0 (the run before while S is 0); with m of N
    passes over the reference and run t, the term x / k - m / N, its variance p(1-p)(N-k) / (k(N-1))
    at p = (m + 0.25) / (N + 0.5), the weight 1 / (p(1-p) + 0.25); S_t = max(0, S_{t-1} - z_t -
    0.75)."""
    out: list[float | None] = []
    path: list[float] = []
    level, last_zero = 0.0, -1
    for t in range(len(passes)):
        if t < 10:
            out.append(None)
            path.append(0.0)
            continue
        if level == 0.0:
            last_zero = t - 1
        num = var = 0.0
        for c in range(len(passes[t])):
            k, x = trials[t][c], passes[t][c]
            m = x + sum(passes[r][c] for r in range(last_zero + 1))
            n = k + sum(trials[r][c] for r in range(last_zero + 1))
            if k == 0 or n <= k:
                continue
            p = (m + 0.25) / (n + 0.5)
            weight = 1 / (p * (1 - p) + 0.25)
            num += weight * (x / k - m / n)
            var += weight * weight * p * (1 - p) * (n - k) / (k * (n - 1))
        z_t = num / math.sqrt(var) if var > 0 else None
        out.append(z_t)
        level = level if z_t is None else max(0.0, level - z_t - 0.75)
        path.append(level)
    return out, path


def check_drift() -> None:
    """The drift score and CUSUM as docs/decisions/drift.md writes them, against scorer.drift.cusum
    on seeded histories (K = 1 and K = 3, some cases unscored in some runs, a drop half way so the
    reference freezes)."""
    from scorer.drift import cusum as drift

    rng = np.random.default_rng(7)
    for k in (1, 3):
        trials = rng.choice([0, k], size=(40, 12), p=[0.1, 0.9])
        rates = np.where(np.arange(40)[:, None] < 20, 0.95, 0.6) * np.ones(12)
        passes = rng.binomial(trials, rates)
        got, statistic, _ = drift.monitor(passes, trials)
        want, written = _drift_as_written(passes.tolist(), trials.tolist())
        for g, w in zip(got.tolist(), want, strict=True):
            assert (w is None and math.isnan(g)) or g == pytest.approx(w, rel=1e-12)
        assert statistic.tolist() == pytest.approx(written, rel=1e-12, abs=1e-12)
        assert drift.cusum(got).tolist() == pytest.approx(written, rel=1e-12, abs=1e-12)
    assert drift.DEFAULT.threshold == THRESHOLD  # S_t > THRESHOLD
    assert (
        drift.DEFAULT.kappa == 0.75 and drift.DEFAULT.prior == 0.25 and drift.DEFAULT.ridge == 0.25
    )
    assert drift.first_alarm(np.array([[4.0, THRESHOLD, THRESHOLD + 1e-4]])).tolist() == [2]


THRESHOLD = 5.6  # docs/decisions/drift.md's constant rule (before round 3)
SCALE = 8.1  # docs/decisions/drift.md's c of the adaptive threshold


def check_adaptive_threshold() -> None:
    """drift's thresholds as docs/decisions/drift.md writes them, h_t = min(8, max(4, c / theta_t))
    and the second CUSUM's min(4, max(3, 10 / theta2_t)), theta from each run's reference counts
    (scorer.drift.exponent, checked against the exact root in tests/test_drift.py), against
    scorer.drift.cusum.watch on a seeded history with a drop half way (the reference freezes)."""
    from scorer.drift import cusum as drift
    from scorer.drift.exponent import tail_exponent

    settings = drift.DEFAULT
    assert settings.scale == SCALE and (settings.low, settings.high) == (4.0, 8.0)
    assert (settings.kappa2, settings.scale2, settings.low2, settings.high2) == (1.5, 10, 3, 4)
    rng = np.random.default_rng(8)
    trials = np.ones((40, 30), dtype=int)
    passes = rng.binomial(1, np.where(np.arange(40)[:, None] < 25, 0.97, 0.7) * np.ones(30))
    w = drift.watch(passes, trials)
    for t in range(10, 40):
        r = int(w.end[t])
        ref_p, ref_t = passes[: r + 1].sum(0), trials[: r + 1].sum(0)
        theta = float(tail_exponent(ref_p, ref_t, trials[t], 0.75, 0.25, 0.25))
        theta2 = float(tail_exponent(ref_p, ref_t, trials[t], 1.5, 0.25, 0.25))
        assert w.limit[t] == pytest.approx(min(8.0, max(4.0, SCALE / theta)), rel=1e-12)
        assert w.limit2[t] == pytest.approx(min(4.0, max(3.0, 10 / theta2)), rel=1e-12)
    assert w.second.tolist() == pytest.approx(drift.cusum(w.z, replace(settings, kappa=1.5)))
    alarms = (w.statistic > w.limit) | (w.second > w.limit2)
    assert np.array_equal(w.alarms, alarms) and alarms.any()


def check_allowance() -> None:
    """drift's allowance as docs/decisions/drift.md writes it, f_t = max(1, phi_t - 0.5 sqrt(3 /
    n_t)), phi_t the dispersion (benchmarks/day_effect.py's, the reference) of runs 1..r of run t's
    reference and n_t = r its pairs of successive runs, against scorer.drift.cusum.watch on seeded
    histories with a day effect (every case at 0.8, S = 0.5), where z_t is the plain score over
    sqrt(f_t)."""
    from benchmarks.day_effect import dispersion
    from scorer.drift import cusum as drift

    assert drift.DEFAULT.dispersion_margin == 0.5
    rng = np.random.default_rng(9)
    shift = rng.normal(0.0, 0.5, size=(3, 40, 1))
    passes = rng.binomial(1, 1 / (1 + np.exp(-(np.log(4.0) + shift))) * np.ones(25))
    trials = np.ones_like(passes)
    w = drift.watch(passes, trials)
    inflated = 0
    for h in range(3):
        for t in range(10, 40):
            r = int(w.end[h, t])
            phi = float(dispersion(passes[h, : r + 1], trials[h, : r + 1]))
            f = max(1.0, phi - 0.5 * math.sqrt(3 / r))
            assert w.inflation[h, t] == pytest.approx(f, rel=1e-12)
            plain = drift.run_score(
                passes[h, t], trials[h, t], passes[h, : r + 1].sum(0), trials[h, : r + 1].sum(0)
            )
            assert w.z[h, t] == pytest.approx(float(plain) / math.sqrt(f), rel=1e-12)
            inflated += f > 1
    assert inflated > 0


@dataclass(frozen=True)
class Formula:
    """A formula as the docs write it, the module whose docstring states the same text (None when
    none does), and the check that evaluates it against the code."""

    source: object | None
    check: Callable[..., None]


FORMULAS: dict[str, Formula] = {
    "u (1 - u)": Formula(front_paired, check_agreeing_models),
    "-t^2 / (n + t^2)": Formula(None, check_agreeing_models),
    "s^2 + (mean(d) + u)^2": Formula(front_paired, check_score_variance),
    "R = sum(y_c) / sum(m_c)": Formula(clustered, check_rate),
    "V = n / (n - 1) * sum((y_c - R * m_c)^2) / (sum m_c)^2": Formula(clustered, check_clustered),
    "n_eff = R (1 - R) / V": Formula(clustered, check_clustered),
    "n / (n - 1)": Formula(clustered, check_clustered),
    "n_eff >= n": Formula(None, check_no_lower_bound),
    "C(c, k) / C(n, k)": Formula(None, check_pass_all),
    "1 - C(n - c, k) / C(n, k)": Formula(None, check_pass_any),
    "d_c = x_c(B) - x_c(A)": Formula(None, check_difference),
    "k' = min(k, n)": Formula(None, check_fewer_repeats),
    "m (m - 1) / 2": Formula(None, check_tier_pairs),
    "mean +- t(0.975, n - 1) * sd / sqrt(n)": Formula(case_exact, check_paired_interval),
    "Z = z(0.975) + z(0.80)": Formula(power, check_z),
    "n * delta^2 >= Z^2 * (omega^2 + sigma_A^2 / K_A + sigma_B^2 / K_B + delta (1 - delta) / "
    "K_B)": Formula(power, check_power),
    "x_c (1 - x_c) K_c / (K_c - 1)": Formula(None, check_within_variance),
    "min(1, 2 * P[X <= min(b, c)])": Formula(paired, check_mcnemar),
    "X ~ Bin(b + c, 1/2)": Formula(paired, check_mcnemar),
    "prod (1 + x^{s_c})": Formula(paired, check_sign_flip),
    "2 S - T": Formula(paired, check_sign_flip),
    "2^(m + 2) - 1": Formula(paired, check_sign_flip),
    "(hits + 1) / (draws + 1)": Formula(paired, check_monte_carlo),
    "100 * count / of": Formula(None, check_exact_rate),
    "k / n * 100": Formula(None, check_exact_rate),
    "((NN - 1) mod m) + 1": Formula(None, check_tool_order),
    "--alpha / 2": Formula(None, check_half_alpha),
    "x / k - m / N": Formula(None, check_drift),
    "p(1-p)(N-k) / (k(N-1))": Formula(None, check_drift),
    "(m + 0.25) / (N + 0.5)": Formula(None, check_drift),
    "1 / (p(1-p) + 0.25)": Formula(None, check_drift),
    "S_t = max(0, S_{t-1} - z_t - 0.75)": Formula(None, check_drift),
    f"S_t > {THRESHOLD}": Formula(None, check_drift),
    "S_t > h_t": Formula(None, check_adaptive_threshold),
    f"h_t = min(8, max(4, {SCALE} / theta_t))": Formula(None, check_adaptive_threshold),
    "min(4, max(3, 10 / theta2_t))": Formula(None, check_adaptive_threshold),
    "f_t = max(1, phi_t - 0.5 sqrt(3 / n_t))": Formula(None, check_allowance),
    "sqrt(3 / n_t)": Formula(None, check_allowance),
}


def test_every_formula_in_the_method_docs_has_a_check() -> None:
    unregistered = {
        (path.name, span)
        for path in _method_pages()
        for span in _code_spans(path.read_text(encoding="utf-8"))
        if LOOKS_LIKE_A_FORMULA.search(span) and span not in FORMULAS and span not in NOT_FORMULAS
    }
    assert unregistered == set()


def test_the_suite_pattern_quoted_is_the_suite_s() -> None:
    suite = (ROOT / "evals" / "suite.json").read_text(encoding="utf-8")
    assert r"^[^@\\s]+@[^@\\s]+\\.[^@\\s]+$" in suite


@pytest.mark.parametrize("text", sorted(FORMULAS))
def test_formula_is_written_as_the_code_computes_it(
    text: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The formula is in the docs, word for word in its module's docstring when it has one, and its
    check holds."""
    spans = {span for p in _method_pages() for span in _code_spans(p.read_text(encoding="utf-8"))}
    assert text in spans
    formula = FORMULAS[text]
    if formula.source is not None:
        source = " ".join(inspect.getsource(formula.source).split())  # type: ignore[arg-type]
        assert text in source
    if "monkeypatch" in inspect.signature(formula.check).parameters:
        formula.check(monkeypatch)
    else:
        formula.check()


def test_constants_and_figures_the_docs_quote() -> None:
    """Numbers the decisions quote from the code: the Wilson z, the per-case test's p at 3/3 -> 0/3
    and 10/10 -> 0/10, the sign-flip p of 4 cases breaking at K = 2, and the K = 1 power figure
    at 100%."""
    text = "\n".join(p.read_text(encoding="utf-8") for p in _method_pages())
    assert f"z = {Z95!r}" in text
    assert case_exact.broke_p(3, 3, 0, 3) == pytest.approx(0.05)
    assert "3/3 -> 0/3 has p = 0.05" in text
    assert f"{case_exact.broke_p(10, 10, 0, 10):.1e}".replace("e-06", "e-6") == "5.4e-6"
    assert "10/10 -> 0/10 has p = 5.4e-6" in text
    assert paired.sign_flip_exact([Fraction(-1)] * 4) == 0.125
    assert "the sign-flip p is\n0.125 at best" in text or "the sign-flip p is 0.125 at best" in text
    assert round(100 * power.mcnemar_detectable(80, 1.0), 1) == 9.7
    assert "9.7 points for a\ndeterministic model at 100%" in text


# --- No sentence ends mid-way ---------------------------------------------------------------------

ITEM_START = re.compile(r"^\s*(?:[-*]|\d+\.)\s")
ANCHORS = re.compile(r'<a id="[^"]+"></a>')
ENDS = re.compile(r"""[.!?](?:[)"'*_`\]]*)$""")


def _blocks(text: str) -> list[tuple[str, str]]:
    """(paragraph or list item, the next non-blank line after it) for every block of prose: fenced
    code, tables, headings and lines holding only anchors are not prose."""
    lines = _without_fences(text).split("\n")
    out: list[tuple[str, str]] = []
    current: list[str] = []
    for index, line in enumerate([*lines, ""]):
        bare = ANCHORS.sub("", line).strip()
        prose = bool(bare) and not line.startswith(("#", "|", "```"))
        if current and (not prose or ITEM_START.match(line)):
            after = next((rest.strip() for rest in lines[index:] if rest.strip()), "")
            out.append((" ".join(current), after))
            current = []
        if prose:
            current.append(bare)
    return out


def _outside_code(text: str) -> str:
    return re.sub(r"`[^`]*`", "", text)


def _broken(block: str, after: str) -> list[str]:
    problems = []
    if block.count("`") % 2:
        problems.append("unbalanced backticks")
    plain = _outside_code(block)
    for left, right in ("()", "[]"):
        if plain.count(left) != plain.count(right):
            problems.append(f"unbalanced {left}{right}")
    if re.fullmatch(r"\*\*[^*]+\*\*", block):
        pass  # a line in bold alone is a title
    elif block.endswith((":", ";")):
        if not after.startswith(("-", "|", "```", "1.")):
            problems.append(f"ends with {block[-1]!r} before no list, table or code")
    elif not ENDS.search(block):
        problems.append("ends mid-sentence")
    return problems


def _pages_with_decisions() -> list[Path]:
    return [*_method_pages(), *sorted(COMMANDS.glob("*.md"))]


@pytest.mark.parametrize("page", _pages_with_decisions(), ids=lambda p: p.name)
def test_no_sentence_ends_mid_way(page: Path) -> None:
    found = [
        f"{problem}: ...{block[-90:]}"
        for block, after in _blocks(page.read_text(encoding="utf-8"))
        for problem in _broken(block, after)
    ]
    assert found == []


def test_the_check_finds_what_the_word_cap_cut() -> None:
    """The truncations issue 34 found are each caught."""
    assert _broken("V the CR1 cluster-robust variance (`n /` small-sample factor.", "")
    assert _broken("in any reasonable wording: - Text the user dictates", "")
    assert _broken("Reasons and names are escaped. These points were decided when:", "<a id=")
    assert not _broken("a list follows:", "- one")
    assert not _broken("**A rule.** It holds (`x`, [a](b)).", "")


# --- Every decision in METHOD.md links to its full text -------------------------------------------


def test_every_listed_decision_links_to_its_full_text_with_the_same_anchors() -> None:
    text = METHOD.read_text(encoding="utf-8").split("\n## Decisions\n", 1)[1]
    listed = re.findall(
        r'^- ((?:<a id="[^"]+"></a>)+)\[\*\*.+?\*\*\]\(decisions/([a-z-]+\.md)#([a-z0-9-]+)\)',
        text,
        re.MULTILINE,
    )
    items = [line for line in text.split("\n") if line.startswith("- <a id=")]
    assert len(listed) == len(items) > 100
    for anchors, page, target in listed:
        full = (DECISIONS / page).read_text(encoding="utf-8")
        ids = re.findall(r'id="([^"]+)"', anchors)
        assert target == ids[0]
        assert anchors in full, (page, anchors)
        block = full.split(anchors, 1)[1].split("\n\n", 1)[0]
        assert len(block.split()) >= 8, (page, ids)  # a rule with its reason, not a title
