"""A history as side A (issue 31 items 2 and 7): the history test's exact null distribution (brute
force and scipy), the one-sided paired tests, how alpha is spent, the gate's false alarms and power
on simulated histories (the benchmark's own run simulation), and ``diff runs --history``'s rules
and errors.
"""

from __future__ import annotations

import itertools
import json
import math
import random
import xml.etree.ElementTree as ET
from fractions import Fraction
from pathlib import Path

import pytest
from scipy import stats

from benchmarks.gate_power import BASE, CASES, NEAR, concentrated, diffuse, history_side, run
from lobstack_eval.main import main
from replay.diff_runs import compare, decide
from replay.diff_runs.alpha import levels
from replay.diff_runs.history import merge_history
from replay.diff_runs.rules import GateOptions
from scorer.errors import ResultsError
from scorer.stats.history_exact import CaseMargins, history_test, hypergeometric, score_weight
from scorer.stats.paired import mcnemar_worse, sign_flip
from tests.history_simulation import ALPHA, false_alarm_rate
from tests.test_diff_runs import results

# --- the exact null distribution ------------------------------------------------------------------


def _brute_force_p(cases: list[CaseMargins]) -> float:
    """P(T >= observed) by enumerating, for every case, every set of positions B's samples could
    take among the case's N samples (each equally likely under exchangeability), with
    exact fractions."""
    per_case = []
    observed = 0
    for c in cases:
        scored, failed = c.scored_history + c.scored_b, c.failed_history + c.failed_b
        weight = score_weight(failed, scored)
        observed += weight * c.failed_b
        outcomes = [1] * failed + [0] * (scored - failed)
        draws = [
            weight * sum(outcomes[i] for i in chosen)
            for chosen in itertools.combinations(range(scored), c.scored_b)
        ]
        per_case.append(draws)
    total = math.prod(len(d) for d in per_case)
    hits = sum(1 for combo in itertools.product(*per_case) if sum(combo) >= observed)
    return float(Fraction(hits, total))


@pytest.mark.parametrize("seed", range(12))
def test_the_history_test_is_the_brute_force_permutation_distribution(seed: int) -> None:
    rng = random.Random(seed)
    cases = []
    for _ in range(rng.randint(2, 4)):
        scored_h, scored_b = rng.randint(1, 5), rng.randint(1, 2)
        cases.append(
            CaseMargins(rng.randint(0, scored_h), scored_h, rng.randint(0, scored_b), scored_b)
        )
    assert history_test(cases).p == pytest.approx(_brute_force_p(cases), abs=1e-12)


def _plain_loop_p(cases: list[CaseMargins]) -> float:
    """The convolution as plain Python floats, cell by cell (the history test before numpy):
    grown[i * w + j] += p_i * q_j with i ascending, then the tail summed with ``math.fsum``."""
    distribution, observed = [1.0], 0
    for c in cases:
        scored, failed = c.scored_history + c.scored_b, c.failed_history + c.failed_b
        if failed in (0, scored):
            continue
        weight = score_weight(failed, scored)
        low, probabilities = hypergeometric(failed, scored, c.scored_b)
        observed += weight * (c.failed_b - low)
        grown = [0.0] * (len(distribution) + weight * (len(probabilities) - 1))
        for i, p in enumerate(probabilities):
            for j, q in enumerate(distribution):
                grown[i * weight + j] += p * q
        distribution = grown
    return min(1.0, math.fsum(distribution[observed:]))


@pytest.mark.parametrize("seed", range(3))
def test_the_convolution_is_bit_for_bit_the_plain_loop(seed: int) -> None:
    # Histories of up to 40 runs at K up to 5, 40 cases: p to the last bit (==, not approx)
    rng = random.Random(100 + seed)
    cases = []
    for _ in range(40):
        scored_h, scored_b = rng.randint(1, 200), rng.randint(1, 5)
        cases.append(
            CaseMargins(rng.randint(0, scored_h), scored_h, rng.randint(0, scored_b), scored_b)
        )
    assert history_test(cases).p == _plain_loop_p(cases)


def test_a_stable_case_that_fails_once_weighs_more_than_a_flaky_one() -> None:
    """20 of 20 passed, now failed: p = 1/21 on its own (the rank of the new run among 21); a case
    that failed 10 of 20 weighs less, so the same failure there moves the statistic less."""
    one = history_test([CaseMargins(0, 20, 1, 1)])
    assert one.p == pytest.approx(1 / 21)
    assert score_weight(1, 21) > score_weight(11, 21)
    assert history_test([CaseMargins(0, 20, 0, 1)]).p == 1.0  # nothing ever failed: nothing to test
    assert history_test([]).p == 1.0


@pytest.mark.parametrize(
    ("failed", "scored", "drawn"), [(3, 10, 2), (0, 5, 1), (7, 21, 5), (5, 5, 3)]
)
def test_hypergeometric_is_scipys(failed: int, scored: int, drawn: int) -> None:
    low, probabilities = hypergeometric(failed, scored, drawn)
    for i, p in enumerate(probabilities):
        assert p == pytest.approx(stats.hypergeom.pmf(low + i, scored, failed, drawn), rel=1e-12)
    assert sum(probabilities) == pytest.approx(1.0)


def test_unweighted_cases_of_one_sample_are_fishers_one_sided_test() -> None:
    """One case: the history test is the one-sided Fisher exact test on its 2x2 table (scipy)."""
    case = CaseMargins(2, 12, 3, 4)
    expected = stats.fisher_exact([[3, 1], [2, 10]], alternative="greater").pvalue
    assert history_test([case]).p == pytest.approx(expected, rel=1e-12)


@pytest.mark.parametrize(("worse", "better"), [(6, 0), (5, 2), (1, 4), (0, 0), (10, 10)])
def test_one_sided_mcnemar_is_scipys_binomtest(worse: int, better: int) -> None:
    expected = (
        1.0
        if worse + better == 0
        else stats.binomtest(worse, worse + better, 0.5, "greater").pvalue
    )
    assert mcnemar_worse(worse, better) == pytest.approx(expected, rel=1e-12)


@pytest.mark.parametrize("seed", range(6))
def test_one_sided_sign_flip_is_the_enumerated_lower_tail(seed: int) -> None:
    rng = random.Random(seed)
    differences = [Fraction(rng.randint(-3, 3), 3) for _ in range(rng.randint(1, 9))]
    values = [d for d in differences if d != 0]
    observed = sum(values)
    patterns = list(itertools.product((1, -1), repeat=len(values)))
    lower = sum(
        1
        for signs in patterns
        if sum(s * abs(v) for s, v in zip(signs, values, strict=True)) <= observed
    )
    assert sign_flip(differences, lower=True).p == pytest.approx(lower / len(patterns), abs=1e-12)


# --- how alpha is spent ---------------------------------------------------------------------------


def test_the_per_case_rule_gets_alpha_only_when_it_can_fire() -> None:
    """At K = 1 (one run a side) and K = 5 no case of 80 can reach Holm's first step at alpha / 2:
    the whole-run test gets all of alpha. At K = 10 (1 / C(20, 10) * 80 = 4e-4) the rule can
    fire: half each. A history of 20 runs at K = 3 (1 / C(63, 3) * 80 = 0.002) can fire too."""
    rng = random.Random(3)
    for k, expected in ((1, (0.05, 0.0)), (5, (0.05, 0.0)), (10, (0.025, 0.025))):
        diff = compare({"m": run(BASE, k, rng)}, {"m": run(BASE, k, rng)})
        assert levels(diff, GateOptions()) == {"m": expected}
    diff = compare({"m": history_side(BASE, 20, 3, rng)}, {"m": run(BASE, 3, rng)})
    assert levels(diff, GateOptions()) == {"m": (0.025, 0.025)}
    diff = compare({"m": history_side(BASE, 20, 1, rng)}, {"m": run(BASE, 1, rng)})
    assert levels(diff, GateOptions()) == {"m": (0.05, 0.0)}


# --- false alarms and power, through the real compare and decide ----------------------------------


FAST_CELLS = [("near", 1, 20), ("noisy", 1, 20), ("near", 1, 5), ("noisy", 3, 10)]


@pytest.mark.parametrize(("profile", "k", "runs"), FAST_CELLS)
def test_same_model_histories_pass_the_gate_at_most_alpha_of_the_time(
    profile: str, k: int, runs: int
) -> None:
    pairs = 150
    rate = false_alarm_rate(
        NEAR if profile == "near" else BASE,
        NEAR if profile == "near" else BASE,
        runs,
        k,
        pairs,
        31 + k,
    )
    assert rate <= ALPHA + 3 * math.sqrt(ALPHA * (1 - ALPHA) / pairs), (
        f"{profile} K={k} H={runs}: {rate}"
    )


def test_at_one_run_a_history_of_20_catches_four_stable_cases_breaking() -> None:
    """Issue 31's goal at K = 1 with 20 earlier runs of a near-deterministic model: 4 stable cases
    breaking and a diffuse 10-point drop caught >= 80% of the time (the plain gate: about 7%)."""
    assert false_alarm_rate(NEAR, concentrated(5, NEAR), 20, 1, 60, 5) >= 0.8
    assert false_alarm_rate(NEAR, diffuse(10, NEAR), 20, 1, 60, 6) >= 0.8


def test_the_verdict_counts_the_stable_cases_and_calls_the_flaky_ones_noise() -> None:
    from replay.diff_runs import verdicts

    rng = random.Random(9)
    broken = [i for i, p in enumerate(NEAR) if p == 1.0][:4]
    worse = concentrated(5, NEAR)
    diff = compare({"m": history_side(NEAR, 20, 1, rng)}, {"m": run(worse, 1, rng)})
    decision = decide(diff)
    assert decision.regression and decision.rules == ("paired test",)
    (judged,) = verdicts(diff, decision)
    counted = {c.case_id for c in judged.cases if c.kind == "counted"}
    assert {CASES[i] for i in broken} <= counted
    assert all(not c.case.flaky for c in judged.cases if c.kind == "counted")
    assert all(c.kind == "noise" for c in judged.cases if c.case.change == "worse" and c.case.flaky)


# --- merging a history, and its errors ------------------------------------------------------------


def test_a_case_missing_from_some_runs_is_judged_on_the_runs_that_scored_it() -> None:
    runs = [
        ("r1", results("m", {"a": "passed", "b": "passed"})),
        ("r2", results("m", {"a": "passed"})),
        ("r3", results("m", {"a": "passed", "b": "errored"})),
    ]
    merged = merge_history("m", runs)
    assert merged["history"] == {"runs": ["r1", "r2", "r3"]}
    by_id = {r["id"]: r for r in merged["results"]}
    assert [s["status"] for s in by_id["a"]["runs"]] == ["passed"] * 3
    assert [s["status"] for s in by_id["b"]["runs"]] == ["passed", "errored"]
    case_b = next(
        c
        for c in compare({"m": merged}, {"m": results("m", {"a": "passed", "b": "failed"})})
        .models[0]
        .cases
        if c.case_id == "b"
    )
    assert case_b.counts("a") == (1, 1)


def test_a_history_of_another_model_or_suite_version_is_an_error() -> None:
    with pytest.raises(
        ResultsError, match=r"r2: holds model 'n', not 'm': a history is earlier runs"
    ):
        merge_history(
            "m", [("r1", results("m", {"a": "passed"})), ("r2", results("n", {"a": "passed"}))]
        )
    with pytest.raises(ResultsError, match=r"r2: scored with suite s 2.0.0, but r1 with s 1.0.0"):
        merge_history(
            "m",
            [("r1", results("m", {"a": "passed"})), ("r2", results("m", {"a": "passed"}, "2.0.0"))],
        )
    with pytest.raises(ResultsError, match="holds no run"):
        merge_history("m", [])


def _write(path: Path, doc: dict) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(doc), encoding="utf-8")
    return path


IDS = [f"c{i:02d}" for i in range(20)]


def _history(tmp_path: Path, count: int) -> list[Path]:
    """``count`` earlier runs in which every case passed (runs/NN/results.json)."""
    return [
        _write(
            tmp_path / "runs" / f"{n:02d}" / "results.json",
            results("m", dict.fromkeys(IDS, "passed")),
        )
        for n in range(count)
    ]


def test_cli_history_catches_two_stable_cases_the_plain_gate_lets_through(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Two cases that passed in all 10 earlier runs fail now: the plain gate (McNemar, one-sided p =
    0.25) lets it through; against the history each failure has null probability 1/11 (the new
    run's rank among 11), so both: p = 1/121."""
    runs = _history(tmp_path, 10)
    b = _write(
        tmp_path / "b.json",
        results("m", dict.fromkeys(IDS, "passed") | {"c00": "failed", "c01": "failed"}),
    )
    assert main(["diff", "runs", str(runs[0]), str(b), "--fail-on-regression"]) == 0
    capsys.readouterr()
    pattern = str(tmp_path / "runs" / "*" / "results.json")
    junit = tmp_path / "gate.xml"
    argv = ["diff", "runs", str(runs[0]), str(b), "--fail-on-regression", "--history", pattern]
    assert main([*argv, "--junit", str(junit)]) == 1
    line = capsys.readouterr().out.splitlines()[0]
    properties = {p.get("name"): p.get("value") for p in ET.parse(junit).getroot().iter("property")}
    assert properties["history_runs"] == "10"
    assert float(properties["history_p"] or "nan") == pytest.approx(1 / 121)
    assert "sign_flip_p" not in properties
    assert line.startswith(
        "regression: paired test: B is worse than A at --alpha 0.05 (m: history exact (10 runs) "
        f"one-sided p = {1 / 121:.4g} < 0.05"
    ), line


def test_cli_history_errors(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    runs = _history(tmp_path, 2)
    b = _write(tmp_path / "b.json", results("m", dict.fromkeys(IDS, "passed")))
    other = _write(tmp_path / "other" / "results.json", results("n", dict.fromkeys(IDS, "passed")))
    old = _write(
        tmp_path / "old" / "results.json", results("m", dict.fromkeys(IDS, "passed"), "0.9.0")
    )
    cases = [
        (
            ["--history", str(tmp_path / "nothing-*")],
            2,
            f"error: --history {tmp_path / 'nothing-*'}: matches nothing",
        ),
        (
            ["--history", str(other)],
            1,
            f"error: {other}: holds 'n', none of B's models ('m'): a history is earlier "
            "runs of the same model",
        ),
        (
            ["--history", str(old)],
            1,
            f"error: {old}: scored with suite s 0.9.0, but {runs[0]} with s 1.0.0",
        ),
        (["--family", "all"], 2, "error: --family: expected model or run, got 'all'"),
    ]
    for extra, code, message in cases:
        assert main(["diff", "runs", str(runs[0]), str(b), *extra]) == code, extra
        err = capsys.readouterr().err
        assert err.startswith(message), err
        assert "Traceback" not in err


def test_the_same_run_given_twice_counts_once(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    runs = _history(tmp_path, 1)
    b = _write(tmp_path / "b.json", results("m", dict.fromkeys(IDS, "passed")))
    assert main(["diff", "runs", str(runs[0]), str(b), "--history", str(runs[0])]) == 0
    assert "history exact" not in capsys.readouterr().out  # one run: the plain gate


# --- the plugin -----------------------------------------------------------------------------------


def test_the_plugins_history_needs_a_baseline_and_a_pattern_that_matches(
    pytester: pytest.Pytester,
) -> None:
    import shutil

    from tests.conftest import ROOT

    # Both runs stop before any test runs (a usage error at configure, a collection error on
    # loading the history), in this process as tests/test_pytest_plugin.py's `refused`: a
    # subprocess costs seconds of CPU a run.
    result = pytester.runpytest_inprocess(
        "-p",
        "no:cacheprovider",
        "--lobstack-cassettes",
        "c",
        "--lobstack-history",
        "runs/*",
    )
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    assert "--lobstack-history needs --lobstack-baseline REPORTS" in result.stderr.str()
    shutil.copytree(ROOT / "cassettes" / "ref_oracle", pytester.path / "cassettes" / "ref_oracle")
    shutil.copytree(ROOT / "reports" / "ref_oracle", pytester.path / "reports" / "ref_oracle")
    result = pytester.runpytest_inprocess(
        "-p",
        "no:cacheprovider",
        "--lobstack-cassettes",
        "cassettes",
        "--lobstack-suite",
        str(ROOT / "evals" / "suite.json"),
        "--lobstack-baseline",
        "reports",
        "--lobstack-history",
        "runs/*",
    )
    assert result.ret != 0
    assert (
        f"error: --lobstack-history {pytester.path / 'runs/*'}: matches nothing"
        in result.stdout.str()
    )
    assert "Traceback" not in result.stdout.str() + result.stderr.str()


def test_family_run_holds_alpha_over_the_models_and_model_holds_it_per_model() -> None:
    """Five of ten cases flipped in one model (one-sided McNemar p = 1/32), none in another: per
    model it fails (1/32 < 0.05); with --family run Holm doubles it over the two models (1/16)
    and it passes."""
    ids = [f"c{i}" for i in range(10)]
    a = {m: results(m, dict.fromkeys(ids, "passed")) for m in ("m", "n")}
    b = {
        "m": results("m", dict.fromkeys(ids, "passed") | dict.fromkeys(ids[:5], "failed")),
        "n": results("n", dict.fromkeys(ids, "passed")),
    }
    diff = compare(a, b)
    assert diff.models[0].worse_p == pytest.approx(1 / 32)
    assert decide(diff).regression
    assert not decide(diff, family="run").regression
