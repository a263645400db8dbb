"""The JUnit XML of `diff runs --junit` is valid against a published schema: Jenkins' junit-10.xsd
(the xUnit plugin's, tests/fixtures/junit-10.xsd with its source and licence), for a diff with
failures, errors and skips, a diff of identical runs, and runs that could not be compared. The
root used to carry ``skipped``, which the schema does not allow there."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from lxml import etree

from lobstack_eval.main import main
from tests.conftest import ROOT

RUNS = ROOT / "tests" / "fixtures" / "runs"
SCHEMA = etree.XMLSchema(etree.parse(str(ROOT / "tests" / "fixtures" / "junit-10.xsd")))


def _broken(tmp_path: Path) -> Path:
    broken = tmp_path / "broken"
    shutil.copytree(RUNS / "cand", broken)
    (broken / "ref_noisy" / "results.json").write_text("{not json", encoding="utf-8")
    return broken


@pytest.mark.parametrize(
    ("a", "b", "strict"),
    [
        (RUNS / "base", RUNS / "cand", True),  # failures, errors and skipped cases
        (RUNS / "base", RUNS / "base", False),  # nothing changed
        (RUNS / "base", None, False),  # a results file that cannot be read: (not compared)
    ],
    ids=["regressions", "same-run", "not-compared"],
)
def test_diff_runs_junit_is_valid_against_jenkins_junit_10_xsd(
    tmp_path: Path, a: Path, b: Path | None, strict: bool
) -> None:
    junit = tmp_path / "junit.xml"
    args = ["diff", "runs", str(a), str(b or _broken(tmp_path)), "--junit", str(junit), "-q"]
    main([*args, "--fail-on-regression", "--strict"] if strict else args)
    document = etree.parse(str(junit))
    assert SCHEMA.validate(document), SCHEMA.error_log.filter_from_errors()
    assert document.getroot().tag == "testsuites" and len(document.getroot()) >= 1


def test_the_schema_refuses_what_the_root_used_to_carry() -> None:
    """The check can fail: the old root, with its ``skipped`` count, is invalid."""
    old = etree.fromstring(b'<testsuites tests="1" failures="0" errors="0" skipped="1"/>')
    assert not SCHEMA.validate(old)
    assert "skipped" in str(SCHEMA.error_log.last_error)
