"""The pytest plugin on models recorded with repeats: still one item per case, judged over its
repeats (a case that passed every scored repeat passes, one that failed every one fails, a flaky
case is an xfail), and a record mode records the missing case-runs of every repeat the model
dir has."""

from __future__ import annotations

import json
import shutil
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from lobstack_eval.main import main
from recorder.manifest_read import read_manifest
from standin import StandInGateway
from tests.conftest import MINI_SUITE
from tests.test_pytest_plugin import copy_project, run


@pytest.fixture(scope="module")
def template(tmp_path_factory: pytest.TempPathFactory, repeat_cassettes: Path) -> Path:
    """The mini suite as evals/suite.json and the repeat recordings (ref/oracle x3, ref/flaky x5,
    ref/first-tool x1), rescored into reports/ (once, outside pytester: it restores sys.modules
    after each test)."""
    root = tmp_path_factory.mktemp("project")
    (root / "evals").mkdir()
    shutil.copy(MINI_SUITE, root / "evals" / "suite.json")
    shutil.copytree(repeat_cassettes, root / "cassettes")
    args = ["rescore", str(root / "cassettes"), "--suite", str(root / "evals" / "suite.json")]
    assert main([*args, "--out", str(root / "reports"), "--no-html", "-q"]) == 0
    return root


@pytest.fixture
def project(template: Path, pytester: pytest.Pytester) -> Path:
    return copy_project(template, pytester)


def expected_outcome(result: dict) -> str:
    """The rule of docs/METHOD.md, written out from the repeats' statuses."""
    statuses = result.get("repeat_statuses", [result["status"]])
    passed, failed = statuses.count("passed"), statuses.count("failed")
    if passed + failed == 0:
        return "error" if "errored" in statuses else "skipped"
    if failed == 0:
        return "passed"
    return "failed" if passed == 0 else "xfailed"


def junit_outcomes(path: Path) -> dict[tuple[str, str], str]:
    found = {}
    for case in ET.parse(path).getroot().iter("testcase"):
        children = {child.tag: child for child in case}
        if "failure" in children:
            outcome = "failed"
        elif "error" in children:
            outcome = "error"
        elif "skipped" in children:
            outcome = "xfailed" if children["skipped"].get("type") == "pytest.xfail" else "skipped"
        else:
            outcome = "passed"
        found[(case.get("classname", "").rsplit(".", 1)[-1], case.get("name", ""))] = outcome
    return found


def test_each_case_is_judged_over_its_repeats(project: Path, pytester: pytest.Pytester) -> None:
    result = run(pytester, "--lobstack-cassettes", "cassettes", "--junitxml=junit.xml", "-rfx")
    documents = {
        p.parent.name: json.loads(p.read_text())
        for p in sorted((project / "reports").glob("*/results.json"))
    }
    expected = {
        (slug, r["id"]): expected_outcome(r)
        for slug, doc in documents.items()
        for r in doc["results"]
    }
    assert junit_outcomes(project / "junit.xml") == expected
    flaky = {case: outcome for (slug, case), outcome in expected.items() if slug == "ref_flaky"}
    # ref/flaky x5 has cases of every kind (checked, so that the rule is really exercised).
    assert {"passed", "failed", "xfailed"} <= set(flaky.values())
    assert all(
        o == "passed" for (slug, _), o in expected.items() if slug == "ref_oracle"
    )  # x3, never flaky
    counts = {o: list(expected.values()).count(o) for o in ("passed", "failed", "xfailed")}
    result.assert_outcomes(
        passed=counts["passed"], failed=counts["failed"], xfailed=counts["xfailed"]
    )
    assert result.ret == 1  # cases that failed every repeat fail the run
    out = result.stdout.str()
    doc = documents["ref_flaky"]
    shaky = next(r for r in doc["results"] if 0 < r["passed_repeats"] < r["scored_repeats"])
    assert (
        f"XFAIL cassettes/ref_flaky::{shaky['id']} - flaky: passed {shaky['passed_repeats']} of 5 "
        f"scored repeats (noise, not a regression); {shaky['reason']}"
    ) in out
    broken = next(r for r in doc["results"] if r["passed_repeats"] == 0)
    assert (
        f"failed all 5 scored repeats; {broken['reason']}" in result.stdout.lines
    )  # its failure section
    assert "Traceback" not in out


def test_once_records_every_missing_repeat(
    project: Path, pytester: pytest.Pytester, gateway: StandInGateway
) -> None:
    model_dir = project / "cassettes" / "ref_oracle"
    data = json.loads((model_dir / "run.json").read_text())
    del data["repeat_cases"]["2"][
        "no_call-01"
    ]  # repeat 2 of one case, and repeat 3's cassette of another
    (model_dir / "run.json").write_text(json.dumps(data))
    (model_dir / "repeat-3" / "selection-01.json").unlink()
    before = len(gateway.requests_seen)
    options = [
        "--lobstack-cassettes",
        "cassettes",
        "--lobstack-record-mode",
        "once",
        "--lobstack-model",
        "ref/oracle",
    ]
    result = run(pytester, *options, "--lobstack-base-url", gateway.url, "-k", "ref_oracle")
    cases = len(read_manifest(model_dir).cases)
    result.assert_outcomes(passed=cases)
    assert (
        f"lobstack: recording 2 case-run(s) of ref/oracle via {gateway.url}" in result.stdout.lines
    )
    assert len(gateway.requests_seen) - before == 2  # two one-step cases, one request each
    manifest = read_manifest(model_dir)
    assert (
        manifest.entry("no_call-01", 2) is not None
        and manifest.entry("selection-01", 3) is not None
    )
    assert (model_dir / "repeat-2" / "no_call-01.json").is_file()
    assert (model_dir / "repeat-3" / "selection-01.json").is_file()
