"""``diff runs``: loading, pairing, McNemar, the regression gate, the text report and JUnit XML."""

from __future__ import annotations

import json
import sys
import types
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any

import pytest

from lobstack_eval.main import main
from replay.diff_runs import METRICS, Decision, RunDiff, compare, decide, format_text, load_run
from replay.junit import to_junit
from scorer.errors import ResultsError

RUNS = Path(__file__).parent / "fixtures" / "runs"
BASE, CAND = RUNS / "base", RUNS / "cand"


def results(
    model: str, statuses: dict[str, str], version: str = "1.0.0", overall: float | None = 50.0
) -> dict:
    """A minimal results dict: the given case statuses, every metric at ``overall``."""
    metric = {"count": 1, "of": 2, "rate": overall, "ci": None if overall is None else [10.0, 90.0]}
    return {
        "model": model,
        "suite": {"name": "s", "version": version, "sha256": "0" * 64},
        "metrics": {name: dict(metric) for name in METRICS},
        "results": [
            {
                "id": cid,
                "group": "g",
                "status": st,
                "reason": None if st == "passed" else f"{cid} {st}",
            }
            for cid, st in statuses.items()
        ],
    }


# --- loading --------------------------------------------------------------------------------------


def test_load_results_file_model_dir_and_reports_dir() -> None:
    """A results.json, its model dir and a reports dir of model dirs all load, keyed by model."""
    file = BASE / "ref_noisy" / "results.json"
    assert list(load_run(file)) == ["ref/noisy"]
    assert list(load_run(BASE / "ref_noisy")) == ["ref/noisy"]
    assert list(load_run(CAND)) == ["ref/abstain", "ref/noisy", "ref/oracle"]
    assert load_run(file)["ref/noisy"] == json.loads(file.read_text())


def _write(path: Path, text: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)
    return path


def _valid() -> dict[str, Any]:
    return results("m", {"a": "passed"})


def _without(*keys: str) -> str:
    data = _valid()
    target = data
    for key in keys[:-1]:
        target = target[key]
    del target[keys[-1]]
    return json.dumps(data)


BAD_INPUTS = [
    pytest.param(None, "no such file or directory", id="missing-path"),
    pytest.param("{not json", "not valid JSON", id="bad-json"),
    pytest.param("[1, 2]", "not a results object", id="not-an-object"),
    pytest.param(_without("model"), "'model'", id="no-model"),
    pytest.param(_without("suite", "version"), "'suite.version'", id="no-suite-version"),
    pytest.param(_without("metrics", "overall"), "'metrics.overall.rate'", id="no-overall"),
    pytest.param(
        _without("metrics", "chains", "rate"), "'metrics.chains.rate'", id="no-chains-rate"
    ),
    pytest.param(_without("results"), "'results'", id="no-results"),
    pytest.param(
        json.dumps(results("m", {"a": "skipped"})), "status must be one of", id="bad-status"
    ),
    pytest.param(
        json.dumps({**_valid(), "results": [{"id": "a", "status": "passed"}] * 2}),
        "duplicate",
        id="dup-id",
    ),
]


@pytest.mark.parametrize(("content", "message"), BAD_INPUTS)
def test_bad_results_raise_results_error_naming_the_file(
    tmp_path: Path, content: str | None, message: str
) -> None:
    """Every unusable input is a ResultsError whose message names the file and the problem."""
    path = tmp_path / "results.json"
    if content is not None:
        _write(path, content)
    with pytest.raises(ResultsError, match=message) as info:
        load_run(path)
    assert str(path) in info.value.message


def test_dir_without_results_is_an_error(tmp_path: Path) -> None:
    """A directory with no results.json anywhere one level down names the directory."""
    (tmp_path / "empty_model").mkdir()
    with pytest.raises(ResultsError, match=r"no results\.json") as info:
        load_run(tmp_path)
    assert str(tmp_path) in info.value.message


def test_same_model_twice_in_a_reports_dir(tmp_path: Path) -> None:
    """Two model dirs claiming one model name cannot be matched."""
    for slug in ("x1", "x2"):
        _write(tmp_path / slug / "results.json", json.dumps(_valid()))
    with pytest.raises(ResultsError, match="appears twice"):
        load_run(tmp_path)


# --- comparing ------------------------------------------------------------------------------------


def test_compare_fixture_runs() -> None:
    """The hand-made runs: which cases flipped, which are unpaired, and the counts
    behind McNemar."""
    diff = compare(load_run(BASE), load_run(CAND))
    assert [m.model for m in diff.models] == ["ref/noisy", "ref/oracle"]
    assert diff.only_a == ()
    assert diff.only_b == ("ref/abstain",)
    noisy = diff.models[0]
    assert [(c.case_id, c.reason_b) for c in noisy.to_failed] == [
        ("parallel-02", "step 1: expected 2 calls in one response, got 1"),
        ("chains-03", 'step 2: run_tests.path: expected eq "tests/", got "test/"'),
    ]
    assert [(c.case_id, c.reason_a, c.reason_b) for c in noisy.to_passed] == [
        ("selection-01", "step 1: expected read_file, got search_code", None)
    ]
    assert [(c.case_id, c.status_a, c.status_b) for c in noisy.unpaired] == [
        ("selection-02", "errored", "passed"),
        ("arguments-02", "passed", "errored"),
        ("no_call-02", None, "passed"),
        ("no_call-01", "passed", None),
    ]
    assert (noisy.pairs, noisy.both_passed, noisy.both_failed) == (4, 0, 1)
    assert noisy.mcnemar_p == 1.0  # b=2, c=1: 2 * (1 + 3) / 8, capped at 1
    overall = noisy.metric("overall")
    assert (overall.a_rate, overall.b_rate) == (66.66666666666667, 50.0)
    assert overall.delta == pytest.approx(-16.666666666666671)
    assert (overall.a_ci, overall.b_ci) == ((30.0, 90.32), (18.76, 81.24))
    oracle = diff.models[1]
    assert oracle.metric("chains").delta is None
    assert oracle.metric("no_call_needed").b_rate is None
    assert [(c.case_id, c.status_b, c.reason_b) for c in oracle.unpaired] == [
        ("no_call-01", "unrecorded", "no recorded answer for step 1")
    ]


def test_mcnemar_uses_only_scored_pairs() -> None:
    """Five failed->passed flips give p = 2/32; errored and one-sided cases do not count."""
    a = results("m", {f"c{i}": "failed" for i in range(5)} | {"e": "passed", "only_a": "passed"})
    b = results("m", {f"c{i}": "passed" for i in range(5)} | {"e": "errored", "only_b": "failed"})
    diff = compare({"m": a}, {"m": b})
    model = diff.models[0]
    assert (len(model.to_failed), len(model.to_passed), model.pairs) == (0, 5, 5)
    assert model.mcnemar_p == 0.0625
    assert [c.case_id for c in model.unpaired] == ["e", "only_b", "only_a"]


def test_models_matched_by_name() -> None:
    """A model in only one run is listed, not compared and not an error."""
    diff = compare(
        {"x": results("x", {}), "y": results("y", {})},
        {"y": results("y", {}), "z": results("z", {})},
    )
    assert [m.model for m in diff.models] == ["y"]
    assert (diff.only_a, diff.only_b) == (("x",), ("z",))


def test_suite_mismatch_and_sha_mismatch_flags() -> None:
    """Different versions are a mismatch; the same version with other bytes is only flagged."""
    a = results("m", {})
    b = results("m", {}, version="1.1.0")
    assert compare({"m": a}, {"m": b}).models[0].suite_mismatch
    edited = results("m", {})
    edited["suite"]["sha256"] = "f" * 64
    model = compare({"m": a}, {"m": edited}).models[0]
    assert (model.suite_mismatch, model.sha_mismatch) == (False, True)


def test_reason_falls_back_to_first_failing_step() -> None:
    """Contract-minimal results without ``reason`` still show why a case failed."""
    a = results("m", {"c": "passed"})
    b = results("m", {"c": "failed"})
    del b["results"][0]["reason"]
    b["results"][0]["steps"] = [
        {"passed": True, "reason": None},
        {"passed": False, "reason": "x: expected eq 1"},
    ]
    assert compare({"m": a}, {"m": b}).models[0].to_failed[0].reason_b == "step 2: x: expected eq 1"


def _answered(status: str, content: str = "same") -> dict[str, Any]:
    """One repeat that kept its step's answer (a response), so its digest can be taken."""
    response = {"content": content, "model": "m", "tool_calls": []}
    return {"status": status, "steps": [{"passed": status == "passed", "response": response}]}


@pytest.mark.parametrize(
    ("runs_a", "runs_b", "change"),
    [
        (["passed"], ["failed"], True),
        (["failed"], ["passed"], True),
        (["passed", "failed"], ["passed"], True),  # A's failed repeat against B's pass
        (["passed"], ["passed", "failed"], True),
        (["failed", "failed"], ["passed", "failed"], True),
        (["passed", "failed"], ["failed", "passed"], True),  # both verdicts on both sides
        (["passed", "passed"], ["passed"], False),
        (["failed"], ["failed", "failed"], False),
        (["errored"], ["passed"], False),  # an unscored repeat has no verdict to change
        (["passed"], ["errored", "unrecorded"], False),
    ],
)
def test_a_scoring_change_is_the_same_answers_with_another_verdict(
    runs_a: list[str], runs_b: list[str], change: bool
) -> None:
    """Every repeat got the same answer: a scoring change exactly where a scored repeat of A and
    one of B got different verdicts (the answers are digested only for those cases)."""
    a, b = results("m", {"c": runs_a[0]}), results("m", {"c": runs_b[0]})
    a["results"][0]["runs"] = [_answered(s) for s in runs_a]
    b["results"][0]["runs"] = [_answered(s) for s in runs_b]
    assert compare({"m": a}, {"m": b}).models[0].cases[0].scoring_change is change
    # other answers on one side: never a scoring change
    b["results"][0]["runs"] = [_answered(s, "other") for s in runs_b]
    assert compare({"m": a}, {"m": b}).models[0].cases[0].scoring_change is False


# --- deciding -------------------------------------------------------------------------------------

NOT_WORSE = (
    "paired test: B is not worse at --alpha 0.05 (ref/noisy: one-sided p = 0.5; "
    "ref/oracle: one-sided p = 1)"
)
FLIPS = "2 cases flipped to failed (ref/noisy: parallel-02, chains-03)"
LOST = (
    "3 cases scored in A errored or vanished in B (ref/noisy: arguments-02, no_call-01; "
    "ref/oracle: no_call-01)"
)
ALLOWED = "3 cases errored or vanished in B, within --allow-errored 2"
LOST_RULE = "errored or vanished"
DECISIONS = [
    pytest.param(
        None,
        False,
        0,
        (LOST_RULE,),
        f"regression: {LOST}",
        id="flips-are-noise-but-lost-cases-fail",
    ),
    pytest.param(
        None, False, 2, (), f"no regression: {NOT_WORSE}; {ALLOWED}", id="two-flips-are-noise"
    ),
    pytest.param(
        None,
        True,
        0,
        ("--strict", LOST_RULE),
        f"regression: {FLIPS}; {LOST}",
        id="strict-flips-and-lost",
    ),
    pytest.param(None, True, 2, ("--strict",), f"regression: {FLIPS}", id="strict-flips"),
    pytest.param(
        None,
        True,
        1,
        ("--strict", LOST_RULE),
        f"regression: {FLIPS}; 2 cases scored in A errored or "
        "vanished in B (ref/noisy: arguments-02, no_call-01, more than --allow-errored 1)",
        id="allowance-per-model",
    ),
    pytest.param(
        20.0,
        False,
        2,
        (),
        f"no regression: {NOT_WORSE}; Overall within --max-drop 20; {ALLOWED}",
        id="drop-within",
    ),
    pytest.param(20.0, False, 0, (LOST_RULE,), f"regression: {LOST}", id="drop-within-but-lost"),
    pytest.param(
        16.0,
        False,
        2,
        ("--max-drop",),
        "regression: Overall dropped more than --max-drop 16 (ref/noisy: 66.67 -> 50.00)",
        id="drop-over",
    ),
    pytest.param(20.0, True, 2, ("--strict",), f"regression: {FLIPS}", id="strict-and-drop-within"),
]


@pytest.mark.parametrize(("max_drop", "strict", "allow", "rules", "line"), DECISIONS)
def test_decide_on_fixture_runs(
    max_drop: float | None, strict: bool, allow: int, rules: tuple[str, ...], line: str
) -> None:
    """Two flips against one are noise to the paired test (p = 1); --strict fails on them; the
    Overall gate on both sides of the 16.67-point drop; and, whatever else was asked, the
    lost-case gate with its per-model allowance (ref/noisy lost 2 cases, ref/oracle 1)."""
    decision = decide(compare(load_run(BASE), load_run(CAND)), max_drop, allow, strict=strict)
    assert (decision.regression, decision.line) == (bool(rules), line)
    assert decision.rules == rules


def test_decide_without_flips_and_with_lost_overall() -> None:
    """No flips is ``no regression``; a B whose only case errored has lost it and has no score at
    all, and under --max-drop it has lost its Overall rate too."""
    same = compare({"m": results("m", {"a": "passed"})}, {"m": results("m", {"a": "passed"})})
    assert decide(same) == decide(same, None)
    assert (
        decide(same).line
        == "no regression: paired test: B is not worse at --alpha 0.05 (m: one-sided p = 1)"
    )
    lost = compare(
        {"m": results("m", {"a": "passed"})}, {"m": results("m", {"a": "errored"}, overall=None)}
    )
    tail = "1 case scored in A errored or vanished in B (m: a); no scored case in B (m)"
    assert decide(lost).line == f"regression: {tail}"
    assert (
        decide(lost, 5.0).line
        == f"regression: Overall dropped more than --max-drop 5 (m: 50.00 -> no rate); {tail}"
    )


def test_single_flip_is_singular() -> None:
    """One case reads ``1 case``."""
    diff = compare({"m": results("m", {"a": "passed"})}, {"m": results("m", {"a": "failed"})})
    assert decide(diff, strict=True).line == "regression: 1 case flipped to failed (m: a)"


# --- the gate never passes a broken run -----------------------------------------------------------

EIGHT = {f"c{i}": "passed" if i % 2 else "failed" for i in range(8)}
BROKEN = [
    # id, B's statuses, --allow-errored, verdict line
    pytest.param(
        dict.fromkeys(EIGHT, "errored"),
        0,
        "regression: 8 cases scored in A errored or vanished in B (m: c0, c1, c2, c3, c4, c5, c6, "
        "c7); no scored case in B (m)",
        id="all-errored",
    ),
    pytest.param(
        dict.fromkeys(EIGHT, "errored"),
        100,
        "regression: no scored case in B (m)",
        id="all-errored-allowance-cannot-pass-it",
    ),
    pytest.param(
        dict.fromkeys(EIGHT, "unrecorded"),
        100,
        "regression: no scored case in B (m)",
        id="all-unrecorded",
    ),
    pytest.param(
        {},
        0,
        "regression: 8 cases scored in A errored or vanished in B (m: c0, c1, c2, c3, c4, c5, c6, "
        "c7); no scored case in B (m)",
        id="results-empty",
    ),
    pytest.param({}, 8, "regression: no scored case in B (m)", id="results-empty-allowed"),
    pytest.param(
        {**EIGHT, "c3": "errored"},
        0,
        "regression: 1 case scored in A errored or vanished in B (m: c3)",
        id="one-errored",
    ),
    pytest.param(
        {**EIGHT, "c3": "errored"},
        1,
        "no regression: paired test: B is not worse at --alpha 0.05 (m: one-sided p = 1); 1 case "
        "errored or vanished in B, within --allow-errored 1",
        id="one-errored-allowed",
    ),
    pytest.param(
        {k: v for k, v in EIGHT.items() if k != "c5"},
        0,
        "regression: 1 case scored in A errored or vanished in B (m: c5)",
        id="one-vanished",
    ),
    pytest.param(
        {**EIGHT, "c0": "errored", "c1": "unrecorded"},
        1,
        "regression: 2 cases scored in A errored or vanished in B (m: c0, c1, more than "
        "--allow-errored 1)",
        id="over-the-allowance",
    ),
    pytest.param(
        EIGHT,
        0,
        "no regression: paired test: B is not worse at --alpha 0.05 (m: one-sided p = 1)",
        id="same",
    ),
]


@pytest.mark.parametrize(("b_statuses", "allow", "line"), BROKEN)
def test_gate_never_green_on_a_broken_run(
    b_statuses: dict[str, str], allow: int, line: str
) -> None:
    """A B that errored, went unrecorded or lost cases is a regression unless allowed; no score
    at all always is."""
    diff = compare({"m": results("m", EIGHT)}, {"m": results("m", b_statuses)})
    decision = decide(diff, None, allow)
    assert decision.line == line
    assert decision.regression is line.startswith("regression")
    assert (
        decide(diff, 100.0, allow).regression is decision.regression
    )  # --max-drop cannot pass it either


def test_a_model_missing_from_b_is_a_regression() -> None:
    """A model of A that B lacks (its rescore failed, its dir was dropped) fails the gate; one
    only in B does not."""
    a = {"x": results("x", {"a": "passed"}), "y": results("y", {"a": "passed"})}
    b = {"y": results("y", {"a": "passed"}), "z": results("z", {"a": "passed"})}
    decision = decide(compare(a, b))
    assert decision.line == "regression: models in A missing from B (x)"
    assert [(r.model, r.case_id, r.kind) for r in decision.regressions] == [("x", None, "vanished")]
    assert decide(compare(b | {"x": a["x"]}, b | {"x": a["x"]})).regression is False


# --- text -----------------------------------------------------------------------------------------


def test_format_text_lines() -> None:
    """The lines a user reads: the verdict first, the summary, then per model Overall with the
    paired difference and each case that is not unchanged once, with its verdict and reason."""
    diff = compare(load_run(BASE), load_run(CAND))
    text = format_text(diff, decide(diff))
    assert text.splitlines() == [
        "regression: 3 cases scored in A errored or vanished in B (ref/noisy: arguments-02, "
        "no_call-01; ref/oracle: no_call-01)",
        "note: ref/noisy: 2 cases flipped to failed, but with one sample per case the paired test "
        "cannot tell them from noise (p = 1); record both runs with --repeats 5 to tell noise from "
        "regression",
        "summary: 2 models, 11 cases: 0 regressions, 3 lost, 2 noise, 1 fix, 1 known failure, 4 "
        "unchanged",
        "model ref/noisy (suite lobstack-tool-calling 1.0.0): Overall 66.67 -> 50.00; paired "
        "difference B - A -25.00 points [-100.00, +100.00] (95%, 4 paired cases); McNemar exact p "
        "= 1",
        "  arguments-02 [lost]: passed in A, errored in B: http_500 on step 1",
        "  no_call-01 [lost]: passed in A, absent from B",
        "  parallel-02 [noise]: passed in A, failed in B: step 1: expected 2 calls in one "
        "response, got 1",
        "  chains-03 [noise]: passed in A, failed in B: step 2: run_tests.path: expected eq "
        '"tests/", got "test/"',
        "  selection-01 [fix]: failed in A, passed in B",
        "  (1 known failure not listed; --verbose lists every case)",
        "model ref/oracle (suite lobstack-tool-calling 1.0.0): Overall 100.00 -> 100.00; paired "
        "difference B - A +0.00 points [+0.00, +0.00] (95%, 2 paired cases); McNemar exact p = 1",
        "  no_call-01 [lost]: passed in A, unrecorded in B: no recorded answer for step 1",
        "models only in B: ref/abstain",
    ]
    assert text == format_text(diff, decide(diff))


def test_format_text_verbose_and_quiet() -> None:
    """--verbose adds every case (known failures and unchanged ones), the metric table and the power
    line; --quiet keeps the verdict, the summary and one line per model. Each case is listed once
    at every level."""
    diff = compare(load_run(BASE), load_run(CAND))
    verbose = format_text(diff, decide(diff), detail="verbose").splitlines()
    overall = next(line for line in verbose if line.startswith("  overall") and "66.67" in line)
    assert overall.split() == [
        "overall",
        "66.67",
        "[30.00,",
        "90.32]",
        "50.00",
        "[18.76,",
        "81.24]",
        "-16.67",
    ]
    chains = [line.split() for line in verbose if line.startswith("  chains")]
    assert ["chains", "-", "-", "-"] in chains  # ref/oracle has no chains
    known = (
        "  near_misses-01 [known failure]: failed in A, failed in B: step 1: expected "
        "send_email, got post_slack"
    )
    assert known in verbose
    assert "  no_call-02 [unchanged]: absent in A, passed in B" in verbose
    assert any(line.startswith("  power: detects an Overall drop of") for line in verbose)
    for level in ("quiet", "normal", "verbose"):
        named, model = [], ""
        for line in format_text(diff, decide(diff), detail=level).splitlines():
            if line.startswith("model "):
                model = line.split()[1]
            elif line.startswith("  ") and not line.startswith("  ("):
                named.append((model, line.split()[0]))
        assert len(named) == len(set(named))  # never the same case twice in a model's block
    quiet = format_text(diff, decide(diff), detail="quiet").splitlines()
    assert quiet == [
        *verbose[:3],
        verbose[3],
        *(line for line in verbose if line.startswith("model ref/oracle")),
        "models only in B: ref/abstain",
    ]


# --- JUnit ----------------------------------------------------------------------------------------


def _junit(diff: RunDiff, decision: Decision) -> ET.Element:
    return ET.fromstring(to_junit(diff, decision))


def test_junit_xml_parsed_back() -> None:
    """One testsuite per model, one testcase per case of A or B: regressions are failures (flips,
    under --strict) and errors (lost scores), a case failing in both runs is a known failure
    (skipped, with B's reason)."""
    diff = compare(load_run(BASE), load_run(CAND))
    data = to_junit(diff, decide(diff, strict=True))
    assert data.startswith(b"<?xml version='1.0' encoding='utf-8'?>")
    root = ET.fromstring(data)
    assert root.tag == "testsuites"
    assert [root.get(k) for k in ("tests", "failures", "errors", "skipped")] == [
        "11",
        "2",
        "3",
        None,  # junit-10.xsd allows no skipped count on the root (tests/test_junit_schema.py)
    ]
    suites = root.findall("testsuite")
    assert [s.get("name") for s in suites] == ["ref/noisy", "ref/oracle"]
    noisy = suites[0]
    assert [noisy.get(k) for k in ("tests", "failures", "errors", "skipped")] == [
        "8",
        "2",
        "2",
        "1",
    ]
    cases = {c.get("name"): c for c in noisy.findall("testcase")}
    assert list(cases) == [
        "selection-01",
        "selection-02",
        "arguments-02",
        "near_misses-01",
        "no_call-02",
        "parallel-02",
        "chains-03",
        "no_call-01",
    ]
    assert all(c.get("classname") == "ref/noisy" for c in cases.values())
    failure = cases["chains-03"].find("failure")
    assert failure is not None
    assert failure.get("message") == 'step 2: run_tests.path: expected eq "tests/", got "test/"'
    assert (failure.get("type"), failure.text) == ("flipped", "passed in A, failed in B")
    known = cases["near_misses-01"].find("skipped")
    assert known is not None
    assert (
        known.get("message")
        == "known failure (failed in A and in B): step 1: expected send_email, got post_slack"
    )
    errored = cases["arguments-02"].find("error")
    assert errored is not None
    assert (errored.get("type"), errored.get("message")) == (
        "lost",
        "passed in A, errored in B: http_500 on step 1",
    )
    vanished = cases["no_call-01"].find("error")
    assert vanished is not None and vanished.get("message") == "passed in A, absent from B"
    assert [list(cases[c]) for c in ("selection-01", "selection-02", "no_call-02")] == [
        [],
        [],
        [],
    ]  # passed
    oracle_cases = {c.get("name"): c for c in suites[1].findall("testcase")}
    unrecorded = oracle_cases["no_call-01"].find("error")
    assert unrecorded is not None
    assert (
        unrecorded.get("message") == "passed in A, unrecorded in B: no recorded answer for step 1"
    )
    assert data == to_junit(diff, decide(diff, strict=True))


def test_junit_flips_the_paired_test_calls_noise() -> None:
    """Without --strict the same two flips are noise to the paired test (p = 1): skipped, saying why
    and how to count them; the lost cases are still errors."""
    diff = compare(load_run(BASE), load_run(CAND))
    root = _junit(diff, decide(diff))
    assert [root.get(k) for k in ("tests", "failures", "errors", "skipped")] == [
        "11",
        "0",
        "3",
        None,  # no skipped count on the root (junit-10.xsd)
    ]
    noisy = {c.get("name"): c for c in root.findall("testsuite")[0].findall("testcase")}
    flip = noisy["chains-03"].find("skipped")
    assert flip is not None and flip.get("message") == (
        "passed in A, failed in B; not a regression by itself (paired test p = 1): "
        'step 2: run_tests.path: expected eq "tests/", got "test/"'
    )  # the gate failed on the lost cases, so the message does not suggest --strict
    allowed = _junit(diff, decide(diff, None, 2))
    assert [allowed.get(k) for k in ("failures", "errors")] == ["0", "0"]
    assert len(list(allowed.iter("skipped"))) == 6
    flip = next(c for c in allowed.iter("testcase") if c.get("name") == "parallel-02").find(
        "skipped"
    )
    assert flip is not None and flip.get("message", "").startswith(
        "passed in A, failed in B; not a regression by itself: the paired test cannot tell it from "
        "noise (p = 1); --strict counts every flip: step 1:"
    )


def test_junit_of_a_paired_test_regression() -> None:
    """Six cases flipped to failed and none back (McNemar p = 0.03125): one (whole run) failure for
    the statistical verdict, each flipped case skipped as counted in it; --strict makes each flip
    a failure of its own as well."""
    ids = [f"c{i}" for i in range(10)]
    a = {"m": results("m", dict.fromkeys(ids, "passed"))}
    b = {"m": results("m", dict.fromkeys(ids, "passed") | dict.fromkeys(ids[:6], "failed"))}
    diff = compare(a, b)
    decision = decide(diff)
    assert decision.rules == ("paired test",)
    root = _junit(diff, decision)
    assert [root.get(k) for k in ("tests", "failures", "errors", "skipped")] == [
        "11",
        "1",
        "0",
        None,  # no skipped count on the root (junit-10.xsd)
    ]
    cases = {c.get("name"): c for c in root.iter("testcase")}
    whole = cases["(whole run)"].find("failure")
    assert whole is not None and (whole.get("type"), whole.get("message")) == (
        "paired_test",
        "paired test: B is worse than A (McNemar exact one-sided p = 0.01562 < 0.05, mean change "
        "-60.00 points); 6 cases got worse: c0, c1, c2, c3, c4, c5",
    )
    counted = cases["c0"].find("skipped")
    assert counted is not None
    assert (
        counted.get("message")
        == "counted in the paired test ((whole run) failure): passed in A, failed in B: c0 failed"
    )
    assert [list(cases[c]) for c in ids[6:]] == [[], [], [], []]
    strict = _junit(diff, decide(diff, strict=True))
    assert [strict.get(k) for k in ("failures", "errors")] == ["7", "0"]
    assert list(strict.iter("skipped")) == []


def test_junit_under_max_drop_and_allowance() -> None:
    """With --max-drop the one regression is the model's Overall (a whole-run failure); its flips
    are skipped with why, and so are lost cases within --allow-errored."""
    diff = compare(load_run(BASE), load_run(CAND))
    root = _junit(diff, decide(diff, 16.0, 2))
    assert [root.get(k) for k in ("tests", "failures", "errors", "skipped")] == [
        "12",
        "1",
        "0",
        None,  # no skipped count on the root (junit-10.xsd)
    ]
    noisy = {c.get("name"): c for c in root.findall("testsuite")[0].findall("testcase")}
    whole = noisy["(whole run)"].find("failure")
    assert whole is not None and whole.get("message") == "Overall dropped: 66.67 -> 50.00"
    flip = noisy["parallel-02"].find("skipped")
    assert flip is not None and flip.get("message", "").startswith(
        "passed in A, failed in B; not a regression by itself (paired test p = 1): step 1:"
    )
    allowed = noisy["arguments-02"].find("skipped")
    assert (
        allowed is not None
        and allowed.get("message") == "errored in B, within --allow-errored: http_500 on step 1"
    )


def test_junit_for_a_model_missing_from_b() -> None:
    """A model only in A is a testsuite with one whole-run error; a model only in B is not shown."""
    a = {"x": results("x", {"a": "passed"}), "y": results("y", {"a": "passed"})}
    b = {"y": results("y", {"a": "passed"}), "z": results("z", {"a": "passed"})}
    diff = compare(a, b)
    root = _junit(diff, decide(diff))
    assert [s.get("name") for s in root.findall("testsuite")] == ["x", "y"]
    error = root.find("testsuite[@name='x']/testcase[@name='(whole run)']/error")
    assert error is not None and (error.get("type"), error.get("message")) == (
        "vanished",
        "in A, not in B",
    )


SIX_WORSE = {f"c{i}": "failed" if i < 6 else "passed" for i in range(10)}
JUNIT_SCENARIOS = [
    pytest.param(
        {"m": results("m", EIGHT)},
        {"m": results("m", {**EIGHT, "c1": "failed", "c3": "errored"})},
        None,
        0,
        (0, 1),
        id="flip-is-noise-and-errored",
    ),
    pytest.param(
        {"m": results("m", EIGHT)},
        {"m": results("m", {**EIGHT, "c1": "failed", "c3": "errored"})},
        None,
        0,
        (1, 1),
        id="strict-flip-and-errored",
    ),
    pytest.param(
        {"m": results("m", dict.fromkeys(SIX_WORSE, "passed"))},
        {"m": results("m", SIX_WORSE)},
        None,
        0,
        (1, 0),
        id="paired-test",
    ),
    pytest.param(
        {"m": results("m", dict.fromkeys(SIX_WORSE, "passed"))},
        {"m": results("m", SIX_WORSE)},
        None,
        0,
        (7, 0),
        id="strict-paired-test",
    ),
    pytest.param(
        {"m": results("m", dict.fromkeys(SIX_WORSE, "passed"))},
        {"m": results("m", {**SIX_WORSE, "c9": "errored"})},
        None,
        0,
        (1, 1),
        id="paired-test-and-lost",
    ),
    pytest.param(
        {"m": results("m", EIGHT)},
        {"m": results("m", dict.fromkeys(EIGHT, "errored"))},
        None,
        0,
        (0, 9),
        id="all-errored",
    ),
    pytest.param(
        {"m": results("m", EIGHT)},
        {"m": results("m", dict.fromkeys(EIGHT, "errored"))},
        None,
        8,
        (0, 1),
        id="all-errored-allowed",
    ),
    pytest.param(
        {"m": results("m", EIGHT)}, {"m": results("m", {})}, None, 0, (0, 9), id="results-empty"
    ),
    pytest.param(
        {"m": results("m", {})}, {"m": results("m", {})}, None, 0, (0, 1), id="both-empty"
    ),
    pytest.param(
        {"m": results("m", EIGHT)}, {"m": results("m", EIGHT)}, None, 0, (0, 0), id="identical"
    ),
    pytest.param(
        {"m": results("m", EIGHT, overall=60.0)},
        {"m": results("m", {**EIGHT, "c1": "failed"}, overall=40.0)},
        10.0,
        0,
        (1, 0),
        id="dropped",
    ),
    pytest.param(load_run(BASE), load_run(CAND), None, 0, (0, 3), id="fixture-runs"),
    pytest.param(load_run(BASE), load_run(CAND), None, 0, (2, 3), id="strict-fixture-runs"),
    pytest.param(load_run(BASE), load_run(CAND), 16.0, 0, (1, 3), id="fixture-runs-max-drop"),
    pytest.param(
        load_run(BASE), load_run(RUNS / "edited"), None, 0, (0, 1), id="fixture-model-vanished"
    ),
]


@pytest.mark.parametrize(("a", "b", "max_drop", "allow", "counts"), JUNIT_SCENARIOS)
def test_junit_failures_and_errors_are_the_gates_regressions(
    request: pytest.FixtureRequest,
    a: dict[str, Any],
    b: dict[str, Any],
    max_drop: float | None,
    allow: int,
    counts: tuple[int, int],
) -> None:
    """JUnit's failures and errors are exactly the gate's regressions: as many, and green exactly
    when it is."""
    diff = compare(a, b)
    decision = decide(diff, max_drop, allow, strict=request.node.callspec.id.startswith("strict-"))
    root = _junit(diff, decision)
    failures, errors = int(root.get("failures", "")), int(root.get("errors", ""))
    assert (failures, errors) == counts
    assert failures + errors == len(decision.regressions)
    assert decision.regression is (failures + errors > 0)
    assert failures == len(root.findall(".//failure")) and errors == len(root.findall(".//error"))


# --- CLI end to end -------------------------------------------------------------------------------

N = str(BASE / "ref_noisy" / "results.json")
CLI = [
    pytest.param(
        [str(BASE), str(CAND), "--strict", "--fail-on-regression"],
        1,
        "regression: 2 cases flipped",
        id="report-strict",
    ),
    pytest.param(
        [str(BASE), str(CAND), "--fail-on-regression", "--allow-errored", "2"],
        0,
        "no regression: paired test",
        id="flips-noise",
    ),
    pytest.param(
        [str(BASE), str(CAND), "--fail-on-regression"],
        1,
        "regression: 3 cases scored in A errored",
        id="flips-noise-lost-cases-fail",
    ),
    pytest.param(
        [str(BASE), str(CAND), "--fail-on-regression", "--strict"],
        1,
        "regression: 2 cases",
        id="strict",
    ),
    pytest.param(
        [N, str(CAND / "ref_noisy"), "--allow-errored", "2"],
        0,
        "no regression: paired test",
        id="file-vs-dir",
    ),
    pytest.param([str(BASE), str(BASE), "--fail-on-regression"], 0, "no regression", id="same-run"),
    pytest.param(
        [str(CAND), str(BASE), "--fail-on-regression", "--strict"],
        1,
        "regression: 1 case flipped to failed (ref/noisy: selection-01)",
        id="reversed",
    ),
    pytest.param(
        [str(BASE), str(CAND), "--fail-on-regression", "--max-drop", "20", "--allow-errored", "2"],
        0,
        "no regression: paired test",
        id="max-drop-within",
    ),
    pytest.param(
        [str(BASE), str(CAND), "--fail-on-regression", "--max-drop", "20"],
        1,
        "regression: 3 cases scored in A",
        id="max-drop-within-but-lost",
    ),
    pytest.param(
        [str(BASE), str(CAND), "--fail-on-regression", "--max-drop", "10"],
        1,
        "regression: Overall dropped",
        id="max-drop-over",
    ),
    pytest.param(
        [
            str(BASE),
            str(RUNS / "v110"),
            "--allow-suite-mismatch",
            "--fail-on-regression",
            "--strict",
        ],
        1,
        "regression: 2 cases",
        id="mismatch-allowed",
    ),
    pytest.param(
        [str(BASE / "ref_noisy"), str(RUNS / "edited")], 0, "no regression", id="sha-only"
    ),
    pytest.param(
        [str(BASE), str(RUNS / "edited"), "--fail-on-regression"],
        1,
        "regression: models in A missing from B (ref/oracle)",
        id="model-missing-from-b",
    ),
    pytest.param(
        [str(BASE), str(CAND), "--model", "ref/oracle", "--fail-on-regression"],
        1,
        "regression: 1 case scored in A errored or vanished in B (ref/oracle: no_call-01)",
        id="one-model",
    ),
    pytest.param(
        [
            str(BASE),
            str(CAND),
            "--model",
            "ref/oracle",
            "--fail-on-regression",
            "--allow-errored",
            "1",
        ],
        0,
        "no regression: paired test: B is not worse at --alpha 0.05 (ref/oracle: one-sided p = 1); "
        "1 case errored or vanished in B, within --allow-errored 1",
        id="one-model-allowed",
    ),
]


@pytest.mark.parametrize(("args", "code", "last"), CLI)
def test_cli_exit_code_and_last_line(
    capsys: pytest.CaptureFixture[str], args: list[str], code: int, last: str
) -> None:
    """Exit code and the decision on the last line."""
    assert main(["diff", "runs", *args]) == code
    out = capsys.readouterr().out
    assert out.splitlines()[0].startswith(last)


def test_cli_text_mentions_warnings(capsys: pytest.CaptureFixture[str]) -> None:
    """A suite mismatch allowed, and a same-version sha change, are both said out loud."""
    main(["diff", "runs", str(BASE), str(RUNS / "v110"), "--allow-suite-mismatch"])
    out = capsys.readouterr().out
    assert (
        "model ref/noisy (suite lobstack-tool-calling 1.0.0 -> lobstack-tool-calling 1.1.0)" in out
    )
    assert "warning: different suite versions; scores are not comparable" in out
    main(["diff", "runs", str(BASE), str(RUNS / "edited")])
    assert "warning: same suite version but different suite sha256" in capsys.readouterr().out


CLI_ERRORS = [
    pytest.param(
        [str(BASE), str(RUNS / "v110")],
        1,
        "suite lobstack-tool-calling 1.0.0, B with",
        id="suite-mismatch",
    ),
    pytest.param([str(BASE), str(RUNS / "nope")], 1, "no such file or directory", id="missing"),
    pytest.param(
        [str(BASE), str(CAND), "--max-drop", "-1", "--fail-on-regression"],
        2,
        "got '-1'",
        id="negative",
    ),
    pytest.param(
        [str(BASE), str(CAND), "--max-drop", "5"],
        2,
        "only applies with --fail-on-regression",
        id="max-drop-alone",
    ),
    pytest.param(
        [str(BASE), str(CAND), "--max-drop", "lots"], 2, "got 'lots'", id="max-drop-not-a-number"
    ),
    pytest.param(
        [str(BASE), str(CAND), "--model", "ref/none"],
        1,
        "model 'ref/none' is not in both",
        id="no-model",
    ),
    pytest.param(
        [str(BASE), str(CAND / "ref_abstain")], 1, "no model appears in both", id="disjoint"
    ),
    pytest.param(
        [str(BASE), str(CAND), "--html", "x.html"],
        2,
        "--html needs one model",
        id="html-many-models",
    ),
    pytest.param(
        [str(BASE), str(CAND), "--alpha", "1.5"],
        2,
        "--alpha: expected a number between 0 and 1, got '1.5'",
        id="alpha-too-big",
    ),
    pytest.param([str(BASE), str(CAND), "--alpha", "no"], 2, "got 'no'", id="alpha-not-a-number"),
    pytest.param(
        [str(BASE), str(CAND), "--detect", "0"],
        2,
        "--detect: expected points between 0 and 100",
        id="detect-zero",
    ),
    pytest.param(
        [str(BASE), str(CAND), "--strict"],
        2,
        "--strict only applies with --fail-on-regression",
        id="strict-alone",
    ),
    pytest.param(
        [str(BASE), str(CAND), "--allow-errored", "-1"],
        2,
        "error: --allow-errored -1: must be at least 0\n",
        id="allow-negative",
    ),
    pytest.param(
        [str(BASE), str(CAND), "--allow-errored", "two"],
        2,
        "error: --allow-errored: expected a whole number >= 0, got 'two'\n",
        id="allow-text",
    ),
    pytest.param(
        [str(BASE), str(CAND), "--max-drop", "inf", "--fail-on-regression"],
        2,
        "--max-drop: expected a finite number of points >= 0, got 'inf'",
        id="max-drop-inf",
    ),
    pytest.param(
        [str(BASE), str(CAND), "--max-drop", "nan", "--fail-on-regression"],
        2,
        "got 'nan'",
        id="max-drop-nan",
    ),
    pytest.param(
        [str(BASE), str(CAND), "--junit", str(RUNS)],
        2,
        f"--junit {RUNS}: is a directory, not a file",
        id="junit-is-a-dir",
    ),
    pytest.param(
        [str(BASE), str(CAND), "--junit", str(RUNS / "no" / "j.xml")],
        2,
        f"--junit {RUNS / 'no' / 'j.xml'}: no such directory {RUNS / 'no'}",
        id="junit-no-dir",
    ),
    pytest.param(
        [str(BASE), str(CAND), "--html", "/proc/x.html"],
        2,
        "--html /proc/x.html: cannot write there",
        id="html-unwritable",
    ),
]


@pytest.mark.parametrize(("args", "code", "message"), CLI_ERRORS)
def test_cli_errors(
    capsys: pytest.CaptureFixture[str], args: list[str], code: int, message: str
) -> None:
    """User errors are one ``error:`` line on stderr with exit 1 (or 2 for usage), never
    a traceback."""
    assert main(["diff", "runs", *args]) == code
    err = capsys.readouterr().err
    assert err.startswith("error: ")
    assert message in err
    assert "Traceback" not in err


def test_cli_a_missing_run_is_named_by_its_side(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """`nosuch: no such file or directory` does not say which run is missing: the side says it,
    and a missing --history run names the option."""
    monkeypatch.chdir(tmp_path)
    assert main(["diff", "runs", "nosuch", str(CAND)]) == 1
    assert (
        capsys.readouterr().err == "error: run A (the baseline) nosuch: no such file or directory\n"
    )
    assert main(["diff", "runs", str(BASE), "nosuch"]) == 1
    assert capsys.readouterr().err == (
        "error: run B (the candidate) nosuch: no such file or directory\n"
    )
    assert main(["diff", "runs", str(BASE), str(CAND), "--history", "old"]) == 1
    assert capsys.readouterr().err == "error: --history old: no such file or directory\n"


def test_cli_bad_json_names_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A corrupt results file is an error naming it."""
    bad = _write(tmp_path / "results.json", "{")
    assert main(["diff", "runs", str(bad), str(CAND)]) == 1
    err = capsys.readouterr().err
    assert err.startswith(f"error: {bad}: the results file is not valid JSON")


def test_cli_names_every_bad_results_file(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Several unreadable results files, in A and in B: one ``error:`` line each, in order (A's,
    then B's), nothing compared, and the exit code of one bad file (1); the last is the CLI
    handler's own line, so one bad file reads as before."""
    import shutil

    a, b = tmp_path / "a", tmp_path / "b"
    shutil.copytree(BASE, a)
    shutil.copytree(CAND, b)
    bad_a = _write(a / "ref_oracle" / "results.json", "{")
    bad_b1 = _write(b / "ref_abstain" / "results.json", "[1, 2]")
    bad_b2 = _write(b / "ref_oracle" / "results.json", json.dumps({**_valid(), "results": None}))
    for gate in ([], ["--fail-on-regression"]):
        assert main(["diff", "runs", str(a), str(b), *gate]) == 1
        captured = capsys.readouterr()
        assert captured.err.splitlines() == [
            f"error: {bad_a}: the results file is not valid JSON (Expecting property name enclosed "
            "in double quotes at line 1)",
            f"error: {bad_b1}: not a results object",
            f"error: {bad_b2}: missing list field 'results'",
        ]
        assert captured.out == ""
    shutil.copy(
        BASE / "ref_oracle" / "results.json", bad_a
    )  # one bad file left: one line, the same exit code
    assert main(["diff", "runs", str(a), str(b / "ref_abstain")]) == 1
    assert capsys.readouterr().err.splitlines() == [f"error: {bad_b1}: not a results object"]


def test_cli_writes_junit(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """--junit writes the same bytes as to_junit, and the gate still decides the exit code."""
    out = tmp_path / "junit.xml"
    assert (
        main(
            [
                "diff",
                "runs",
                str(BASE),
                str(CAND),
                "--junit",
                str(out),
                "--fail-on-regression",
                "--strict",
            ]
        )
        == 1
    )
    diff = compare(load_run(BASE), load_run(CAND))
    assert out.read_bytes() == to_junit(diff, decide(diff, strict=True))
    capsys.readouterr()


def test_cli_html_written_by_renderer(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """With a renderer, --html passes it the two results dicts of the one model and writes what
    it returns."""
    seen: list[tuple[str, str, object]] = []
    fake = types.ModuleType("replay.html")

    def render_run_diff(a: dict, b: dict, suite: dict | None, judged: object) -> str:
        seen.append((a["metrics"]["overall"]["rate"], b["metrics"]["overall"]["rate"], suite))
        return "<html>diff</html>"

    fake.render_run_diff = render_run_diff  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "replay.html", fake)
    out = tmp_path / "diff.html"
    assert (
        main(["diff", "runs", str(BASE), str(CAND), "--model", "ref/noisy", "--html", str(out)])
        == 0
    )
    assert out.read_text() == "<html>diff</html>"
    assert seen == [(66.66666666666667, 50.0, None)]
    capsys.readouterr()


def test_cli_html_passes_suite(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """--suite hands the suite object to the renderer (for case order and requests); a suite
    other than the one the runs were scored with is a warning, as report --suite says it (the
    one model of A and B named once)."""
    seen: list[object] = []
    fake = types.ModuleType("replay.html")
    fake.render_run_diff = lambda a, b, suite, judged: seen.append(suite) or "x"  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "replay.html", fake)
    suite = Path(__file__).parent / "fixtures" / "suites" / "v1.0.0.json"
    out = tmp_path / "diff.html"
    assert main(["diff", "runs", N, N, "--html", str(out), "--suite", str(suite)]) == 0
    assert seen == [json.loads(suite.read_text())]
    assert capsys.readouterr().err == (
        "warning: ref_noisy was scored with suite lobstack-tool-calling 1.0.0; the page shows the "
        f"cases of diff-fixture 1.0.0 ({suite})\n"
    )
    # A run scored with the suite file's name and version: no warning; an older version: named.
    run = json.loads(Path(N).read_text(encoding="utf-8"))
    scored = tmp_path / "results.json"
    for version, err in (
        ("1.0.0", ""),
        (
            "0.9.0",
            "warning: ref_noisy was scored with suite 0.9.0; the page shows the cases of 1.0.0 "
            f"({suite})\n",
        ),
    ):
        document = {**run, "suite": {**run["suite"], "name": "diff-fixture", "version": version}}
        scored.write_text(json.dumps(document), encoding="utf-8")
        args = ["diff", "runs", str(scored), str(scored), "--html", str(out), "--suite", str(suite)]
        assert main(args) == 0
        assert capsys.readouterr().err == err


def test_cli_html_real_renderer(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """With the real replay.html the page is written and names the flipped cases."""
    out = tmp_path / "diff.html"
    assert main(["diff", "runs", N, str(CAND / "ref_noisy"), "--html", str(out)]) == 0
    page = out.read_text()
    assert page.lstrip().lower().startswith("<!doctype html")
    assert "ref/noisy" in page and "parallel-02" in page and "chains-03" in page
    capsys.readouterr()


@pytest.mark.parametrize(("max_drop", "regression"), [(10.0, False), (9.5, True), (0.0, True)])
def test_max_drop_boundary(max_drop: float, regression: bool) -> None:
    """A drop of exactly PCT points is within the tolerance; more than PCT is a regression."""
    diff = compare(
        {"m": results("m", {"a": "passed"}, overall=60.0)},
        {"m": results("m", {"a": "passed"}, overall=50.0)},
    )
    assert decide(diff, max_drop).regression is regression


def test_overall_rise_never_trips_max_drop() -> None:
    """An Overall that went up is not a drop, even with a zero tolerance."""
    diff = compare(
        {"m": results("m", {"a": "passed"}, overall=40.0)},
        {"m": results("m", {"a": "passed"}, overall=50.0)},
    )
    assert decide(diff, 0.0).line == (
        "no regression: paired test: B is not worse at --alpha 0.05 (m: one-sided p = 1); Overall "
        "within --max-drop 0"
    )


def test_verdict_lists_at_most_ten_ids_per_model() -> None:
    """Twelve flips: the first ten ids, then how many more."""
    ids = [f"c{i:02d}" for i in range(12)]
    diff = compare(
        {"m": results("m", dict.fromkeys(ids, "passed"))},
        {"m": results("m", dict.fromkeys(ids, "failed"))},
    )
    assert decide(diff, strict=True).line == (
        "regression: 12 cases flipped to failed (m: c00, c01, c02, c03, c04, c05, c06, c07, c08, "
        "c09, +2 more); paired test: B is worse than A at --alpha 0.05 (m: McNemar exact one-sided "
        "p = 0.0002441 < 0.05, mean change -100.00 points)"
    )


def test_alpha_decides_the_paired_test(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Six cases flipped to failed and none back: one-sided McNemar p = 1/64, a regression at
    0.05, not at 0.01."""
    ids = [f"c{i}" for i in range(10)]
    a = _write(tmp_path / "a.json", json.dumps(results("m", dict.fromkeys(ids, "passed"))))
    b_statuses = dict.fromkeys(ids, "passed") | dict.fromkeys(ids[:6], "failed")
    b = _write(tmp_path / "b.json", json.dumps(results("m", b_statuses)))
    assert main(["diff", "runs", str(a), str(b), "--fail-on-regression"]) == 1
    assert capsys.readouterr().out.splitlines()[0] == (
        "regression: paired test: B is worse than A at --alpha 0.05 (m: McNemar exact one-sided p "
        "= 0.01562 < 0.05, mean change -60.00 points)"
    )
    assert main(["diff", "runs", str(a), str(b), "--fail-on-regression", "--alpha", "0.01"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert (
        lines[0]
        == "no regression: paired test: B is not worse at --alpha 0.01 (m: one-sided p = 0.01562)"
    )
    assert lines[1].startswith(
        "note: m: 6 cases flipped to failed, but with one sample per case the paired test"
    )
    assert "--repeats" in lines[1]


def test_cli_html_for_a_model_change(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """``diff runs reports/ref_oracle reports/ref_noisy --html X``: two different models, one
    page naming both."""
    reports = Path(__file__).resolve().parents[1] / "reports"
    out = tmp_path / "diff.html"
    assert (
        main(
            [
                "diff",
                "runs",
                str(reports / "ref_oracle"),
                str(reports / "ref_noisy"),
                "--html",
                str(out),
            ]
        )
        == 0
    )
    page = out.read_text()
    assert "Run diff: ref/oracle" in page and "ref/noisy" in page
    assert "worse (counted in the paired test)" in page and "<strong>Regression</strong>" in page
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].startswith(
        "regression: paired test: B is worse than A at --alpha 0.05 (ref/oracle -> ref/noisy"
    )
    assert lines[2].startswith(
        "model ref/oracle -> ref/noisy (suite lobstack-tool-calling 1.2.0): Overall 100.00 ->"
    )
