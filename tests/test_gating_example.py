"""How to gate a prompt, suite or model change in your own CI with committed cassettes (an example
to copy).

The pattern: keep the cassettes and the reports they produce in the repository. In CI, re-score the
cassettes with the code and suite of the change (no API call, no key), then compare with the
committed reports with ``diff runs --fail-on-regression``. The build fails when a case's same
recorded answers now get another verdict (a scoring change), when the paired test over cases finds
the candidate worse, or (with ``--max-drop``) when Overall fell too far; ``--strict`` also fails on
any single flip. ``--junit`` shows each case in the CI's test view.
"""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET
from pathlib import Path

from lobstack_eval.main import main
from tests.conftest import ROOT


def test_scoring_change_does_not_regress_the_committed_baseline(tmp_path: Path) -> None:
    candidate = tmp_path / "reports"
    assert (
        main(
            [
                "rescore",
                str(ROOT / "cassettes"),
                "--suite",
                str(ROOT / "evals" / "suite.json"),
                "--out",
                str(candidate),
                "-q",
            ]
        )
        == 0
    )
    junit = tmp_path / "junit.xml"
    assert (
        main(
            [
                "diff",
                "runs",
                str(ROOT / "reports"),
                str(candidate),
                "--fail-on-regression",
                "--junit",
                str(junit),
            ]
        )
        == 0
    )
    suites = ET.parse(junit).getroot().iter("testsuite")
    assert sum(1 for _ in suites) == len(list((ROOT / "cassettes").glob("*/run.json")))


def test_a_model_change_that_loses_cases_fails_the_gate(  # type: ignore[no-untyped-def]
    tmp_path: Path,
    capsys,
) -> None:
    baseline = ROOT / "reports" / "ref_oracle" / "results.json"  # the model in production
    candidate = (
        ROOT / "reports" / "ref_noisy" / "results.json"
    )  # the model someone wants to switch to
    code = main(["diff", "runs", str(baseline), str(candidate), "--fail-on-regression"])
    out = capsys.readouterr().out
    assert code == 1
    assert out.splitlines()[2].startswith("model ref/oracle -> ref/noisy")
    assert out.splitlines()[0].startswith(
        "regression: paired test: B is worse than A at --alpha 0.05"
    )
    # --max-drop adds a rule on Overall; it does not replace the paired test, so a tolerance alone
    # cannot pass it.
    assert (
        main(
            [
                "diff",
                "runs",
                str(baseline),
                str(candidate),
                "--fail-on-regression",
                "--max-drop",
                "60",
            ]
        )
        == 1
    )
    assert (
        capsys.readouterr()
        .out.splitlines()[0]
        .startswith("regression: paired test: B is worse than A")
    )


def test_a_change_within_noise_passes_unless_strict(capsys) -> None:  # type: ignore[no-untyped-def]
    baseline = ROOT / "reports" / "auto" / "results.json"
    candidate = (
        ROOT / "reports" / "ref_noisy" / "results.json"
    )  # about as many cases flip either way
    statuses = [
        {r["id"]: r["status"] for r in json.loads(p.read_text())["results"]}
        for p in (baseline, candidate)
    ]
    flipped = sum(
        1 for c, s in statuses[0].items() if (s, statuses[1].get(c)) == ("passed", "failed")
    )
    assert main(["diff", "runs", str(baseline), str(candidate), "--fail-on-regression"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].startswith(
        "no regression: paired test: B is not worse at --alpha 0.05 (auto -> ref/noisy: one-sided "
        "p = "
    )
    assert "record both runs with --repeats 5" in lines[1]
    # Zero tolerance: any case flipped to failed fails the build, noise or not.
    assert (
        main(["diff", "runs", str(baseline), str(candidate), "--fail-on-regression", "--strict"])
        == 1
    )
    assert (
        capsys.readouterr()
        .out.splitlines()[0]
        .startswith(f"regression: {flipped} cases flipped to failed")
    )


def test_a_run_whose_every_case_errored_fails_the_gate(
    start_gateway, tmp_path: Path, capsys
) -> None:  # type: ignore[no-untyped-def]
    """End to end: the stand-in answers garbage to every request, so the candidate run errors on
    every case. The gate fails (exit 1) and its JUnit is red with one error per lost case, not
    green with 'skipped'."""
    from recorder.files import read_suite
    from recorder.record import record
    from recorder.settings import RecordSettings
    from tests.conftest import MINI_SUITE

    ids = [c.id for c in read_suite(MINI_SUITE).cases]
    # rescore writes both; it exits 1 on the candidate, which scored no case
    # (docs/commands/rescore.md#no-scored-case-fails).
    for name, faults, code in (("good", "", 0), ("garbage", "garbage:1", 1)):
        gateway = start_gateway(faults=faults)
        record(
            MINI_SUITE,
            "ref/oracle",
            tmp_path / name,
            gateway.url,
            ids,
            RecordSettings(concurrency=1),
            sleep=lambda _s: None,
        )
        args = [
            "rescore",
            str(tmp_path / name),
            "--suite",
            str(MINI_SUITE),
            "--out",
            str(tmp_path / f"{name}-out"),
        ]
        assert main([*args, "-q", "--no-html"]) == code
    junit = tmp_path / "junit.xml"
    base, cand = str(tmp_path / "good-out"), str(tmp_path / "garbage-out")
    assert main(["diff", "runs", base, cand, "--fail-on-regression", "--junit", str(junit)]) == 1
    last = capsys.readouterr().out.splitlines()[0]
    assert last.startswith(
        f"regression: {len(ids)} cases scored in A errored or vanished in B (ref/oracle: "
    )
    assert last.endswith("; no scored case in B (ref/oracle)")
    root = ET.parse(junit).getroot()
    # junit-10.xsd allows no `skipped` on the root: each <testsuite> carries its own.
    assert (root.get("failures"), root.get("errors"), root.get("skipped")) == (
        "0",
        str(len(ids) + 1),
        None,
    )
    assert [suite.get("skipped") for suite in root.iter("testsuite")] == ["0"]
    # Even tolerating every errored case, a run with no score at all never passes.
    allow = ["--allow-errored", str(len(ids))]
    assert main(["diff", "runs", base, cand, "--fail-on-regression", *allow]) == 1
    assert capsys.readouterr().out.splitlines()[0] == "regression: no scored case in B (ref/oracle)"
