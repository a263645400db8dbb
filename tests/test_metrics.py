"""The seven rates, latency and cost, over hand-built outcomes whose right answers are counted
by hand."""

from __future__ import annotations

import csv
import json
import shutil
from pathlib import Path
from typing import Any

import pytest

from replay.rows.build import frames
from replay.scored import summarized
from scorer import Attempt, CaseOutcome, StepRecord, judge_step, wilson
from scorer.results import results_document as skeleton
from scorer.stats.wilson import wilson_at
from scorer.summarize import summarize
from tests.suitekit import case, make_suite
from tests.test_judge import response

WEATHER = {
    "name": "get_weather",
    "args": {"city": {"eq": "Oslo"}},
    "reference": {"city": "Oslo"},
    "result": "3C",
}
LIMA = {
    "name": "get_weather",
    "args": {"city": {"eq": "Lima"}},
    "reference": {"city": "Lima"},
    "result": "20C",
}
SUITE = make_suite(
    [
        case(
            "selection-01",
            [{"expect": "call", "calls": [WEATHER]}],
            tools=["get_weather", "read_file"],
        ),
        case("no_call-01", [{"expect": "none"}], group="no_call", tools=["get_weather"]),
        case(
            "parallel-01",
            [{"expect": "call", "calls": [WEATHER, LIMA]}],
            group="parallel",
            tools=["get_weather"],
        ),
        case(
            "chains-01",
            [{"expect": "call", "calls": [WEATHER]}, {"expect": "call", "calls": [LIMA]}],
            group="chains",
            tools=["get_weather"],
        ),
    ]
)
OSLO = {"name": "get_weather", "arguments": '{"city": "Oslo"}'}
LIMA_CALL = {"name": "get_weather", "arguments": '{"city": "Lima"}'}


def results_document(
    suite: Any, model: str, slug: str, outcomes: list[CaseOutcome]
) -> dict[str, Any]:
    """results.json as rescore writes it: the run's entries, then the summary of their rows."""
    return summarized(suite, skeleton(suite, model, slug, outcomes))


def compute_metrics(outcomes: list[CaseOutcome]) -> tuple[dict[str, Any], dict[str, Any]]:
    document = results_document(SUITE, "m", "m", outcomes)
    return document["metrics"], document["groups"]


def outcome(
    case_id: str, answers: list[list[dict[str, Any]]], status: str | None = None
) -> CaseOutcome:
    c = SUITE.case(case_id)
    steps = []
    for index, calls in enumerate(answers):
        r = response(calls)
        steps.append(StepRecord(index, r, judge_step(c.steps[index], r, c, SUITE)))
        if not steps[-1].verdict.passed:
            break
    passed = len(steps) == len(c.steps) and all(s.verdict.passed for s in steps)
    final = status or ("passed" if passed else "failed")
    attempts = tuple(Attempt(i, 1, "ok", 200, 100.0 * (i + 1), "0.001") for i in range(len(steps)))
    return CaseOutcome(c, final, None if passed else "x", tuple(steps), attempts)  # type: ignore[arg-type]


def test_all_pass() -> None:
    metrics, groups = compute_metrics(
        [
            outcome("selection-01", [[OSLO]]),
            outcome("no_call-01", [[]]),
            outcome("parallel-01", [[LIMA_CALL, OSLO]]),
            outcome("chains-01", [[OSLO], [LIMA_CALL]]),
        ]
    )
    assert (
        metrics["overall"]["count"] == 4
        and metrics["overall"]["of"] == 4
        and metrics["overall"]["rate"] == 100.0
    )
    # Cases with a call step: selection, parallel, chains.
    assert (metrics["right_tool"]["count"], metrics["right_tool"]["of"]) == (3, 3)
    # Calls: 1 + 2 + 2 = 5, all to offered tools.
    assert (metrics["valid_arguments"]["count"], metrics["valid_arguments"]["of"]) == (5, 5)
    assert (metrics["made_up_tool"]["count"], metrics["made_up_tool"]["of"]) == (0, 5)
    assert (metrics["chains"]["count"], metrics["chains"]["of"]) == (1, 1)
    assert (metrics["parallel"]["count"], metrics["parallel"]["of"]) == (1, 1)
    assert (metrics["no_call_needed"]["count"], metrics["no_call_needed"]["of"]) == (1, 1)
    assert groups["selection"]["rate"] == 100.0 and groups["arguments"]["of"] == 0


def test_made_up_tool_is_not_in_valid_arguments_denominator() -> None:
    made_up = {"name": "weather_lookup", "arguments": '{"city": "Oslo"}'}
    bad_json = {"name": "get_weather", "arguments": "{bad"}
    metrics, _ = compute_metrics(
        [
            outcome("selection-01", [[made_up]]),
            outcome("parallel-01", [[OSLO, bad_json]]),
            outcome("no_call-01", [[OSLO]]),
        ]
    )
    # Calls made: weather_lookup (made up), Oslo, bad JSON, Oslo (in a no-call case): 4 calls,
    # 3 offered.
    assert (metrics["made_up_tool"]["count"], metrics["made_up_tool"]["of"]) == (1, 4)
    assert (metrics["valid_arguments"]["count"], metrics["valid_arguments"]["of"]) == (2, 3)
    assert (metrics["right_tool"]["count"], metrics["right_tool"]["of"]) == (1, 2)
    assert (metrics["no_call_needed"]["count"], metrics["no_call_needed"]["of"]) == (0, 1)
    assert metrics["overall"]["count"] == 0


def test_chain_stopped_early_fails_chains_but_keeps_right_tool() -> None:
    metrics, _ = compute_metrics([outcome("chains-01", [[OSLO], [OSLO]])])
    assert (metrics["chains"]["count"], metrics["chains"]["of"]) == (0, 1)
    assert (metrics["right_tool"]["count"], metrics["right_tool"]["of"]) == (1, 1)


def test_errored_and_unrecorded_are_excluded_from_every_rate() -> None:
    metrics, _ = compute_metrics(
        [
            outcome("selection-01", [[OSLO]]),
            outcome("parallel-01", [[OSLO]], status="errored"),
            outcome("chains-01", [[OSLO]], status="unrecorded"),
        ]
    )
    assert metrics["overall"]["of"] == 1
    assert (
        metrics["made_up_tool"]["of"] == 1
        and metrics["parallel"]["of"] == 0
        and metrics["chains"]["of"] == 0
    )


def test_all_errored_model_has_no_scores() -> None:
    outcomes = [outcome(cid, [[OSLO]], status="errored") for cid in ("selection-01", "parallel-01")]
    doc = results_document(SUITE, "m", "m", outcomes)
    assert all(
        m["rate"] is None and m["ci"] is None and m["of"] == 0 for m in doc["metrics"].values()
    )
    assert doc["cases"] == {"total": 2, "scored": 0, "errored": 2, "unrecorded": 0}
    assert doc["cost_per_100_cases_usd"] is None


def test_latency_and_cost() -> None:
    outcomes = [outcome("selection-01", [[OSLO]]), outcome("chains-01", [[OSLO], [LIMA_CALL]])]
    doc = results_document(SUITE, "m", "m", outcomes)
    # Attempt wall times 100, 100, 200 ms: the median is 100.
    assert doc["latency_p50_ms"] == 100.0
    # 3 answered calls at $0.001 over 2 scored cases, times 100.
    assert doc["cost_per_100_cases_usd"] == pytest.approx(0.15)


def test_unpriced_answer_hides_cost() -> None:
    o = outcome("selection-01", [[OSLO]])
    unpriced = CaseOutcome(
        o.case, o.status, o.reason, o.steps, (Attempt(0, 1, "ok", 200, 5.0, None),)
    )
    assert results_document(SUITE, "m", "m", [unpriced])["cost_per_100_cases_usd"] is None


def test_unanswered_attempts_are_not_latency() -> None:
    o = outcome("selection-01", [[OSLO]])
    attempts = (Attempt(0, 1, "timeout", None, 120000.0), Attempt(0, 2, "ok", 200, 7.0, "0"))
    doc = results_document(
        SUITE, "m", "m", [CaseOutcome(o.case, o.status, o.reason, o.steps, attempts)]
    )
    assert doc["latency_p50_ms"] == 7.0


def test_wilson_known_values() -> None:
    lo, hi = wilson(5, 10)  # type: ignore[misc]
    assert lo == pytest.approx(23.66, abs=0.01) and hi == pytest.approx(76.34, abs=0.01)
    lo, hi = wilson(0, 10)  # type: ignore[misc]
    assert lo == 0.0 and hi == pytest.approx(27.75, abs=0.01)
    assert wilson(0, 0) is None


def test_wilson_bounds_at_the_edges_are_exact() -> None:
    """All passed: the upper bound is 100 itself; none passed: the lower bound is 0 itself (METHOD
    decision 92). The other bound, and both bounds of any count in between, stay strictly inside.
    One test looping over n, not 200 parametrized ones: a mutant that raises on most n would crash
    200 test ids before the mutation benchmark reached a test checking a value (MAX_CRASHES)."""
    for of in [*range(1, 200), 12345, 10**6]:
        assert wilson(of, of)[1] == 100.0 and 0 < wilson(of, of)[0] < 100, of  # type: ignore[index]
        assert wilson(0, of)[0] == 0.0 and 0 < wilson(0, of)[1] < 100, of  # type: ignore[index]
        if of > 1:
            assert wilson(1, of)[0] > 0 and wilson(of - 1, of)[1] < 100, of  # type: ignore[index]
        assert wilson_at(1.0, of * 1.37)[1] == 100.0 and wilson_at(0.0, of * 1.37)[0] == 0.0, of


def test_wilson_of_one_trial_by_hand() -> None:
    """One trial (of = 1) is an interval, not "no data": with z^2 = Z, 0 of 1 is [0, Z / (1 + Z)]
    and 1 of 1 is [1 / (1 + Z), 1], in percent (the Wilson closed form at p = 0 and 1, n = 1)."""
    zz = 1.959963984540054**2
    assert wilson(0, 1) == pytest.approx([0.0, 100 * zz / (1 + zz)], rel=1e-12)
    assert wilson(1, 1) == pytest.approx([100 / (1 + zz), 100.0], rel=1e-12)


def test_wilson_at_another_z_by_hand() -> None:
    """``z`` is used, not the 95% default: 1 of 2 at z = 4 is 50 +- 100 * sqrt(2) / 3 (centre
    (1/2 + 16/4) / 9 = 1/2, half 4 * sqrt(1/8 + 1) / 9 = sqrt(2) / 3)."""
    half = 100 * 2**0.5 / 3
    assert wilson(1, 2, z=4.0) == pytest.approx([50 - half, 50 + half], rel=1e-12)


def test_wilson_bounds_never_leave_0_100_by_rounding() -> None:
    """Inside (0, 1) the closed form can round a hair past an edge (1.0000000000000002 at this p
    and fractional n, -5.6e-17 at the other): the bounds are clamped to [0, 100]."""
    assert wilson_at(0.9999999999987454, 257.326157422693)[1] == 100.0
    assert wilson_at(1.7762202900965048e-12, 1.4611995365927841)[0] == 0.0


def test_rescored_csv_prints_exact_bounds_at_the_edges(tmp_path: Path) -> None:
    """End to end: in the leaderboard.csv and results.json rescore writes, a rate of k of k has the
    upper bound ``100.0`` and one of 0 of n the lower bound ``0.0`` (not 99.99999999999999 or
    3.469446951953614e-16)."""
    from lobstack_eval.main import main
    from tests.conftest import ROOT

    for slug in ("ref_oracle", "ref_first-tool"):  # every rate 100 or 0 between them
        shutil.copytree(ROOT / "cassettes" / slug, tmp_path / "cas" / slug)
    out = tmp_path / "out"
    suite = ROOT / "evals" / "suite.json"
    assert (
        main(
            [
                "rescore",
                str(tmp_path / "cas"),
                "--suite",
                str(suite),
                "--out",
                str(out),
                "-q",
                "--no-html",
            ]
        )
        == 0
    )
    edges = 0
    with (out / "leaderboard.csv").open(newline="", encoding="utf-8") as file:
        for row in csv.DictReader(file):
            for metric in (
                "overall",
                "right_tool",
                "valid_arguments",
                "made_up_tool",
                "chains",
                "parallel",
                "no_call_needed",
            ):
                count, of = row[f"{metric}_count"], row[f"{metric}_of"]
                if count == of:
                    assert (row[metric], row[f"{metric}_ci_hi"]) == ("100.0", "100.0"), (
                        row["model"],
                        metric,
                    )
                    edges += 1
                if count == "0":
                    assert (row[metric], row[f"{metric}_ci_lo"]) == ("0.0", "0.0"), (
                        row["model"],
                        metric,
                    )
                    edges += 1
    assert (
        edges == 12
    )  # ref/oracle: 6 rates at 100, made_up_tool at 0; ref/first-tool: 5 rates at 0
    for results in out.glob("*/results.json"):
        for metric, value in json.loads(results.read_text())["metrics"].items():
            if value["of"] and value["count"] == value["of"]:
                assert value["ci"][1] == 100.0, (results, metric)
            if value["of"] and value["count"] == 0:
                assert value["ci"][0] == 0.0, (results, metric)


def test_many_models_at_once_equal_one_at_a_time() -> None:
    runs = {
        "good": [outcome("selection-01", [[OSLO]]), outcome("parallel-01", [[LIMA_CALL, OSLO]])],
        "bad": [
            outcome("selection-01", [[{"name": "nope", "arguments": "{}"}]]),
            outcome("no_call-01", [[OSLO]]),
        ],
        "errored": [outcome("chains-01", [[OSLO]], status="errored")],
    }
    documents = [skeleton(SUITE, model, model, outcomes) for model, outcomes in runs.items()]
    together = summarize(frames(SUITE, documents)["cases"])
    assert (
        together["good"].metrics["overall"].count == 2
        and together["bad"].metrics["made_up_tool"].count == 1
    )
    for document in documents:
        alone = summarized(SUITE, document)
        assert {**document, **together[document["model_slug"]].document()} == alone


def test_per_call_intervals_are_clustered_by_case_with_one_sample_per_case() -> None:
    """A case's calls share its difficulty, so Valid arguments and Made-up tool are clustered by
    case at K = 1 too (METHOD.md#clustered-interval-rule): the statsmodels CR1 reference, not
    Wilson over the calls."""
    from tests.clusterkit import reference_interval

    bad = {"name": "get_weather", "arguments": "{bad"}
    made_up = {"name": "weather_lookup", "arguments": "{}"}
    metrics, _ = compute_metrics(
        [
            outcome("selection-01", [[OSLO]]),
            outcome("parallel-01", [[bad, bad, made_up]]),
            outcome("chains-01", [[OSLO], [LIMA_CALL]]),
            outcome("no_call-01", [[OSLO]]),
        ]
    )
    valid, invented = metrics["valid_arguments"], metrics["made_up_tool"]
    assert (valid["count"], valid["of"], invented["count"], invented["of"]) == (4, 6, 1, 7)
    assert valid["ci"] == pytest.approx(
        reference_interval([(1, 1), (0, 2), (2, 2), (1, 1)]), abs=1e-9
    )
    assert invented["ci"] == pytest.approx(
        reference_interval([(0, 1), (1, 3), (0, 2), (0, 1)]), abs=1e-9
    )
    assert valid["ci"] != wilson(
        4, 6
    )  # the invalid calls sit in one case: wider than Wilson over 6 calls
    assert invented["ci"] == wilson(1, 7)  # n_eff 10.0 is above the 7 calls: bounded by them
