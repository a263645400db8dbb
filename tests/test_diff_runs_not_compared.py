"""``diff runs`` when the runs cannot be compared (an unreadable results file, no model in both,
suites that differ) still writes ``--junit``, ``--markdown`` and ``$GITHUB_STEP_SUMMARY``, saying
so (METHOD decision 111), so a CI step that uploads them shows why; the error lines and the exit
code are what they were (decision 93)."""

from __future__ import annotations

import json
import shutil
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from lobstack_eval.main import main
from tests.test_diff_runs import BASE, CAND


@pytest.fixture
def runs(tmp_path: Path) -> tuple[Path, Path]:
    a, b = tmp_path / "A", tmp_path / "B"
    shutil.copytree(BASE, a)
    shutil.copytree(CAND, b)
    return a, b


def errors_of(junit: Path) -> list[tuple[str, str, str, str]]:
    """(classname, name, type, message) of every testcase, after checking every one is an
    ``<error>`` and the counts add up."""
    root = ET.parse(junit).getroot()
    cases = root.findall("./testsuite/testcase")
    found = []
    for case in cases:
        assert [child.tag for child in case] == ["error"]
        error = case.find("error")
        assert error is not None
        found.append(
            (
                case.get("classname", ""),
                case.get("name", ""),
                error.get("type", ""),
                error.get("message", ""),
            )
        )
    assert root.get("name") == "lobstack-eval diff runs"
    assert {k: root.get(k) for k in ("tests", "failures", "errors", "skipped")} == {
        "tests": str(len(cases)), "failures": "0", "errors": str(len(cases)), "skipped": None
    }  # fmt: skip
    return found


def test_a_corrupt_results_file_in_b_still_writes_junit_and_the_comment(  # type: ignore[no-untyped-def]
    runs: tuple[Path, Path], tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys
) -> None:
    """The issue's repro: B/ref_oracle/results.json is ``{"trunc``; the gate exits 1 with the error
    line and, now, a junit.xml with that line as one ``<error>`` testcase and a comment saying
    the runs could not be compared."""
    a, b = runs
    bad = b / "ref_oracle" / "results.json"
    bad.write_text('{"trunc', encoding="utf-8")
    summary = tmp_path / "step-summary.md"
    summary.write_text("earlier step\n", encoding="utf-8")
    monkeypatch.setenv("GITHUB_STEP_SUMMARY", str(summary))
    junit, comment = tmp_path / "junit.xml", tmp_path / "comment.md"
    args = [
        "diff",
        "runs",
        str(a),
        str(b),
        "--fail-on-regression",
        "--junit",
        str(junit),
        "--markdown",
        str(comment),
    ]
    assert main(args) == 1
    captured = capsys.readouterr()
    line = f"{bad}: the results file is not valid JSON (Unterminated string starting at line 1)"
    assert captured.err == f"error: {line}\n"
    assert captured.out == ""
    assert errors_of(junit) == [("(not compared)", str(bad), "unreadable", line)]
    text = comment.read_text(encoding="utf-8")
    assert text.startswith("### lobstack-eval: runs not compared\n")
    assert "**Verdict:** the runs could not be compared (1 error); nothing was compared" in text
    assert f"- {line}".replace("_", "\\_") in text.splitlines()
    assert summary.read_text(encoding="utf-8") == "earlier step\n" + text + "\n"


def test_every_bad_file_of_both_runs_is_one_error_testcase_in_order(
    runs: tuple[Path, Path], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    a, b = runs
    bad_a = a / "ref_oracle" / "results.json"
    bad_a.write_text("{", encoding="utf-8")
    bad_b = b / "ref_abstain" / "results.json"
    bad_b.write_text("[1, 2]", encoding="utf-8")
    junit, comment = tmp_path / "junit.xml", tmp_path / "comment.md"
    assert (
        main(["diff", "runs", str(a), str(b), "--junit", str(junit), "--markdown", str(comment)])
        == 1
    )
    lines = [line.removeprefix("error: ") for line in capsys.readouterr().err.splitlines()]
    assert lines == [
        f"{bad_a}: the results file is not valid JSON (Expecting property name enclosed in double "
        "quotes at line 1)",
        f"{bad_b}: not a results object",
    ]
    assert errors_of(junit) == [
        ("(not compared)", str(bad_a), "unreadable", lines[0]),
        ("(not compared)", str(bad_b), "unreadable", lines[1]),
    ]
    assert "could not be compared (2 errors)" in comment.read_text(encoding="utf-8")


def test_runs_with_no_model_in_both_or_of_other_suites_write_why(
    runs: tuple[Path, Path], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    a, b = runs
    junit = tmp_path / "junit.xml"
    assert main(["diff", "runs", str(a), str(b / "ref_abstain"), "--junit", str(junit)]) == 1
    line = f"no model appears in both {a} and {b / 'ref_abstain'}"
    assert capsys.readouterr().err == f"error: {line}\n"
    assert errors_of(junit) == [("(not compared)", "(whole run)", "no_common_model", line)]
    for model in (
        "ref_noisy",
        "ref_oracle",
    ):  # B scored with another suite version: every model is named
        path = b / model / "results.json"
        path.write_text(
            json.dumps({**json.loads(path.read_text()), "suite": {"name": "s", "version": "9.0.0"}})
        )
    comment = tmp_path / "comment.md"
    assert (
        main(["diff", "runs", str(a), str(b), "--junit", str(junit), "--markdown", str(comment)])
        == 1
    )
    lines = [line.removeprefix("error: ") for line in capsys.readouterr().err.splitlines()]
    assert len(lines) == 2 and all(
        "pass --allow-suite-mismatch to compare anyway" in line for line in lines
    )
    assert [(c, n, t) for c, n, t, _m in errors_of(junit)] == [
        ("(not compared)", "ref/noisy", "suite_mismatch"),
        ("(not compared)", "ref/oracle", "suite_mismatch"),
    ]
    assert [m for *_rest, m in errors_of(junit)] == lines
    assert "could not be compared (2 errors)" in comment.read_text(encoding="utf-8")


def test_bad_usage_still_writes_nothing(  # type: ignore[no-untyped-def]
    runs: tuple[Path, Path],
    tmp_path: Path,
    capsys,
) -> None:
    """A bad option is the command's own mistake (exit 2), before any run is read: no file claims
    a verdict."""
    a, b = runs
    junit = tmp_path / "junit.xml"
    assert main(["diff", "runs", str(a), str(b), "--junit", str(junit), "--alpha", "2"]) == 2
    assert not junit.exists()
    capsys.readouterr()
