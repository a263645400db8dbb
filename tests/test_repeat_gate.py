"""The noise-aware gate on real recordings of the whole suite: two recordings of ref/flaky x5 pass
it, a worse model fails it, and a scoring change on the same answers fails it (with repeats
and without)."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from lobstack_eval.main import main
from recorder.files import read_suite
from recorder.record import record
from recorder.repeats import CaseRun
from recorder.settings import RecordSettings
from replay.rescore import rescore
from tests.conftest import ROOT

SUITE_PATH = ROOT / "evals" / "suite.json"
SUITE = read_suite(SUITE_PATH)
ALL = [case.id for case in SUITE.cases]


@pytest.fixture(scope="module")
def runs(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Two separate recordings of ref/flaky x5 (the second from a gateway of another seed: a
    recording is reproducible from its seed, so a re-run of the model is another seed's draws) and
    ref/first-tool, each rescored into ``<root>/<name>/reports``."""
    from standin import GatewayConfig, StandInGateway

    root = tmp_path_factory.mktemp("gate")
    for name, model, repeats, seed in (
        ("a", "ref/flaky", 5, 0),
        ("b", "ref/flaky", 5, 1),
        ("worse", "ref/first-tool", 3, 0),
    ):
        with StandInGateway(GatewayConfig(suite_path=SUITE_PATH, seed=seed)) as gateway:
            todo = [CaseRun(case_id, n) for n in range(1, repeats + 1) for case_id in ALL]
            record(
                SUITE_PATH,
                model,
                root / name / "cassettes",
                gateway.url,
                todo,
                RecordSettings(concurrency=4),
            )
        rescore(
            root / name / "cassettes",
            SUITE_PATH,
            root / name / "reports",
            workers=1,
            html=False,
        )
    return root


def diff(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, list[str]]:
    code = main(["diff", "runs", *args, "--fail-on-regression"])
    return code, capsys.readouterr().out.splitlines()


def test_two_recordings_of_a_flaky_model_pass_the_gate(
    runs: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    a, b = (runs / name / "reports" / "ref_flaky" / "results.json" for name in ("a", "b"))
    assert (
        json.loads(a.read_text())["results"] != json.loads(b.read_text())["results"]
    )  # they did differ
    code, lines = diff(capsys, str(a), str(b))
    assert code == 0
    assert lines[0].startswith(
        "no regression: paired test: B is not worse at --alpha 0.05 (ref/flaky: one-sided p = "
    )
    assert any(" [noise]: " in line for line in lines)
    assert (
        lines[1].startswith("note: ref/flaky: ") and "got worse in flaky cases: noise" in lines[1]
    )
    assert lines[2].startswith("summary: 1 model, 80 cases: 0 regressions, ")
    code, verbose = diff(capsys, str(a), str(b), "--verbose")
    assert any(line.startswith("  power: detects an Overall drop of") for line in verbose)
    # --strict still fails on the noise, as it always did on any flip.
    assert main(["diff", "runs", str(a), str(b), "--fail-on-regression", "--strict"]) == 1
    assert capsys.readouterr().out.splitlines()[0].startswith("regression: ")


def test_a_worse_model_fails_the_gate(runs: Path, capsys: pytest.CaptureFixture[str]) -> None:
    a = runs / "a" / "reports" / "ref_flaky" / "results.json"
    worse = runs / "worse" / "reports" / "ref_first-tool" / "results.json"
    code, lines = diff(capsys, str(a), str(worse))
    assert code == 1
    verdict = lines[0]
    assert verdict.startswith(
        "regression: paired test: B is worse than A at --alpha 0.05 (ref/flaky -> ref/first-tool"
    )
    # A case that went 5 of 5 -> 0 of 3 is not a regression on its own (Fisher p = 1/56 before Holm
    # over 80 cases): the paired test over the cases decides, and counts them.
    assert "broken cases" not in verdict
    assert any(
        " [counted in the paired test]: 5 of 5 scored repeats passed in A, 0 of 3" in line
        for line in lines
    )


def test_the_junit_of_a_worse_model_is_the_gates_decision(runs: Path, tmp_path: Path) -> None:
    """JUnit of the same comparison: one (whole run) failure for the paired test, every case that
    got worse skipped as counted in the paired test; failures + errors = the gate's regressions."""
    import xml.etree.ElementTree as ET

    from replay.diff_runs import compare, decide, load_run

    a = runs / "a" / "reports" / "ref_flaky" / "results.json"
    worse = runs / "worse" / "reports" / "ref_first-tool" / "results.json"
    junit = tmp_path / "junit.xml"
    assert (
        main(["diff", "runs", str(a), str(worse), "--junit", str(junit)]) == 0
    )  # no gate asked: exit 0
    diff = compare(load_run(a), load_run(worse))
    decision = decide(diff)
    root = ET.parse(junit).getroot()
    cases = list(root.iter("testcase"))
    failures = [c for c in cases if c.find("failure") is not None]
    assert (
        int(root.get("failures", "")) + int(root.get("errors", ""))
        == len(decision.regressions)
        == len(failures)
    )
    whole = [c.find("failure") for c in failures if c.get("name") == "(whole run)"]
    assert [f.get("type") for f in whole if f is not None] == ["paired_test"]
    assert [c.get("name") for c in failures] == ["(whole run)"]
    counted = [
        c
        for c in cases
        if (
            c.find("skipped") is not None
            and "counted in the paired test" in (c.find("skipped").get("message") or "")
        )
    ]  # type: ignore[union-attr]
    worse_ids = {c.case_id for c in diff.models[0].with_change("worse")}
    assert {c.get("name") for c in counted} == worse_ids


def _plain_string_arg(doc: dict, case: dict) -> str | None:
    """A checked argument of the case's first call whose schema takes any string (so "changed"
    stays valid)."""
    call = case["steps"][0].get("calls", [{}])[0]
    properties = (
        doc["tools"]
        .get(call.get("name"), {})
        .get("function", {})
        .get("parameters", {})
        .get("properties", {})
    )
    for arg in call.get("args", {}):
        schema = properties.get(arg, {})
        if schema.get("type") == "string" and not set(schema) & {
            "enum",
            "pattern",
            "const",
            "maxLength",
        }:
            return arg
    return None


def _changed_check(tmp_path: Path, case_id: str) -> Path:
    """The suite with one check of ``case_id`` changed (same version): the recorded answers stay
    valid requests."""
    doc = json.loads(SUITE_PATH.read_text())
    case = next(c for c in doc["cases"] if c["id"] == case_id)
    call, name = case["steps"][0]["calls"][0], _plain_string_arg(doc, case)
    assert name is not None
    call["args"][name] = {"eq": "changed"}
    call["reference"][name] = "changed"
    path = tmp_path / "suite.json"
    path.write_text(json.dumps(doc, indent=2))
    return path


def test_a_scoring_change_on_the_same_answers_fails_the_gate(
    runs: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    baseline = json.loads((runs / "a" / "reports" / "ref_flaky" / "results.json").read_text())
    doc = json.loads(SUITE_PATH.read_text())
    plain = {
        c["id"]
        for c in doc["cases"]
        if c["steps"][0]["expect"] == "call" and _plain_string_arg(doc, c)
    }
    target = next(
        r["id"] for r in baseline["results"] if r["id"] in plain and 2 <= r["passed_repeats"] < 5
    )
    suite = _changed_check(tmp_path, target)
    rescore(runs / "a" / "cassettes", suite, tmp_path / "new", workers=1, html=False)
    code, lines = diff(capsys, str(runs / "a" / "reports"), str(tmp_path / "new"))
    assert code == 1
    assert lines[0].startswith(
        "regression: scoring change: 1 case got another verdict on the same model answers "
        f"(ref/flaky: {target})"
    )
    assert [line for line in lines if line.startswith(f"  {target} ")] == [
        f"  {target} [regression]: scoring change: the same answers got another verdict "
        + next(line for line in lines if line.startswith(f"  {target} ")).split(
            "another verdict ", 1
        )[1]
    ]  # listed once, as a regression
    assert "  warning: same suite version but different suite sha256" in lines
    # No alpha makes it pass: a scoring change is never noise.
    code, lines = diff(
        capsys, str(runs / "a" / "reports"), str(tmp_path / "new"), "--alpha", "0.0001"
    )
    assert code == 1 and lines[0].startswith("regression: scoring change")


def test_a_scoring_change_fails_the_gate_with_one_sample_per_case(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    cassettes = tmp_path / "cassettes"
    shutil.copytree(ROOT / "cassettes" / "ref_oracle", cassettes / "ref_oracle")
    doc = json.loads(SUITE_PATH.read_text())
    target = next(
        c["id"]
        for c in doc["cases"]
        if c["steps"][0]["expect"] == "call" and _plain_string_arg(doc, c)
    )
    suite = _changed_check(tmp_path, target)
    rescore(cassettes, suite, tmp_path / "new", workers=1, html=False)
    code, lines = diff(
        capsys, str(ROOT / "reports" / "ref_oracle"), str(tmp_path / "new" / "ref_oracle")
    )
    assert code == 1
    assert lines[0].startswith(
        "regression: scoring change: 1 case got another verdict on the same model answers "
        f"(ref/oracle: {target})"
    )
    listed = (
        f"  {target} [regression]: scoring change: the same answers got another verdict "
        "(passed in A, failed in B)"
    )
    assert listed in lines


# --- the gate's broken-run rules hold with repeats (unit, on hand-made results) -------------------


def repeated(model: str, statuses: dict[str, list[str]]) -> dict:
    """A minimal repeated results document: per case its repeats' statuses (``runs``) and
    their aggregate."""
    from scorer.repeats import aggregate_status
    from scorer.summary import METRICS

    metric = {"count": 1, "of": 2, "rate": 50.0, "ci": [10.0, 90.0]}
    return {
        "model": model,
        "repeats": max(len(s) for s in statuses.values()),
        "suite": {"name": "s", "version": "1.0.0", "sha256": "0" * 64},
        "metrics": {name: dict(metric) for name in METRICS},
        "results": [
            {
                "id": cid,
                "group": "g",
                "status": aggregate_status(runs),
                "reason": None
                if aggregate_status(runs) == "passed"
                else f"{cid} {aggregate_status(runs)}",
                "runs": [{"status": s, "repeat": n} for n, s in enumerate(runs, 1)],
            }
            for cid, runs in statuses.items()
        ],
    }


TEN = [f"c{i}" for i in range(10)]


def _gate(  # type: ignore[no-untyped-def]
    a: dict[str, list[str]],
    b: dict[str, list[str]],
    **options,
):
    import xml.etree.ElementTree as ET

    from replay.diff_runs import compare, decide
    from replay.junit import to_junit

    diff = compare({"m": repeated("m", a)}, {"m": repeated("m", b)})
    decision = decide(diff, options.pop("max_drop", None), options.pop("allow", 0), **options)
    root = ET.fromstring(to_junit(diff, decision))
    failures, errors = int(root.get("failures", "")), int(root.get("errors", ""))
    assert failures + errors == len(
        decision.regressions
    )  # JUnit shows exactly the gate's regressions
    assert decision.regression is bool(decision.regressions)
    return decision, root, (failures, errors)


def test_a_case_with_no_scored_repeat_in_b_is_lost_whatever_else_is_asked() -> None:
    a = dict.fromkeys(TEN, ["passed"] * 3)
    b = {
        **a,
        "c0": ["errored"] * 3,
        "c1": ["errored", "errored", "passed"],
    }  # c1 still scored: not lost
    for options in ({}, {"strict": True}, {"max_drop": 50.0}, {"alpha": 0.5}):
        decision, root, counts = _gate(a, b, **dict(options))
        assert decision.line.startswith(
            "regression: 1 case scored in A errored or vanished in B (m: c0)"
        ), options
        assert decision.rules == ("errored or vanished",) and counts == (0, 1)
        error = next(c for c in root.iter("testcase") if c.get("name") == "c0").find("error")
        assert error is not None and error.get("type") == "lost"
        assert (
            error.get("message")
            == "3 of 3 scored repeats passed in A, no scored repeat of 3 in B: c0 errored"
        )
        assert error.text == "3 of 3 scored repeats passed in A, no scored repeat of 3 in B"
    decision, _, counts = _gate(a, b, allow=1)
    assert not decision.regression and counts == (0, 0)
    assert decision.line.endswith("; 1 case errored or vanished in B, within --allow-errored 1")


def test_a_repeated_b_with_no_score_fails_and_broken_cases_count_per_case() -> None:
    a = dict.fromkeys(TEN, ["passed"] * 3)
    decision, _, counts = _gate(a, dict.fromkeys(TEN, ["errored"] * 3), allow=10)
    assert decision.line == "regression: no scored case in B (m)" and counts == (0, 1)
    # Two cases broke in every repeat at K = 3 and one case vanished: 3/3 -> 0/3 is p = 0.05 before
    # any correction, so the broken cases are not regressions by themselves (the paired test cannot
    # see 2 of 9 either); the lost case is.
    b = {**{c: a[c] for c in TEN[1:]}, "c1": ["failed"] * 3, "c2": ["failed"] * 3}
    decision, root, counts = _gate(a, b)
    assert decision.rules == ("errored or vanished",) and counts == (0, 1)
    # At K = 10 the same two cases are: 10/10 -> 0/10 has p = 1/184756, far below 0.025 after Holm
    # over 9 cases.
    a10 = dict.fromkeys(TEN, ["passed"] * 10)
    b10 = {**{c: a10[c] for c in TEN[1:]}, "c1": ["failed"] * 10, "c2": ["failed"] * 10}
    decision, root, counts = _gate(a10, b10)
    assert decision.rules == ("broken cases", "errored or vanished")
    assert counts == (2, 1)
    failure = next(c for c in root.iter("testcase") if c.get("name") == "c1").find("failure")
    assert failure is not None and failure.get("type") == "broke"
    assert failure.get("message") == (
        "broke (10 of 10 scored repeats passed in A, 0 of 10 scored repeats passed in B; Fisher "
        "exact, Holm-adjusted p = 4.87e-05): c1 failed"
    )
