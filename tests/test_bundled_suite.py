"""Without ``--suite``, every command uses ``evals/suite.json`` where it runs (or a YAML one:
tests/test_suite_yaml_default.py), else the suite bundled with lobstack-eval, and says so once on
stderr; a ``--suite`` that does not exist is an
error, never a fallback. ``suite export`` writes the bundled suite for a project to commit.

These run in this checkout's environment, whose bundled suite is the checkout's ``evals/suite.json``
(an editable install has no packaged copy); tests/test_wheel.py runs the same commands from the
built wheel."""

from __future__ import annotations

import json
import shutil
import subprocess
from importlib.metadata import version
from pathlib import Path

import pytest

from lobstack_eval.main import main
from tests.conftest import MINI_SUITE, ROOT

SUITE = ROOT / "evals" / "suite.json"
_DOC = json.loads(SUITE.read_text(encoding="utf-8"))
NOTICE = (
    f"using the suite bundled with lobstack-eval {version('lobstack-eval')}: {_DOC['name']} "
    f"{_DOC['version']} (no evals/suite.json, .yaml or .yml here; lobstack-eval suite export "
    "writes evals/suite.json)"
)
MODELS = ("ref_noisy", "ref_oracle")


@pytest.fixture
def empty(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """An empty project dir (no evals/) as the working dir, holding only two models'
    committed cassettes."""
    for model in MODELS:
        shutil.copytree(ROOT / "cassettes" / model, tmp_path / "cassettes" / model)
    monkeypatch.chdir(tmp_path)
    return tmp_path


def said_once(err: str) -> None:
    assert err.splitlines().count(NOTICE) == 1, err
    assert err.count("bundled") == 1, err


def test_no_second_copy_of_the_suite_is_committed() -> None:
    """evals/suite.json is the one copy: the wheel takes it from there (pyproject.toml's
    force-include)."""
    listed = subprocess.run(
        ["git", "ls-files", "-s"], cwd=ROOT, capture_output=True, text=True, check=True
    ).stdout
    blobs: dict[str, list[str]] = {}
    for line in listed.splitlines():
        meta, path = line.split("\t", 1)
        blobs.setdefault(meta.split()[1], []).append(path)
    (blob,) = [b for b, paths in blobs.items() if "evals/suite.json" in paths]
    assert blobs[blob] == ["evals/suite.json"]
    assert "recorder/bundled_suite.json" not in listed


def test_rescore_with_the_bundled_suite_gives_the_committed_results(  # type: ignore[no-untyped-def]
    empty: Path,
    capsys,
) -> None:
    assert main(["rescore", "--out", "reports", "--no-html", "-q"]) == 0
    said_once(capsys.readouterr().err)
    for model in MODELS:
        written = (empty / "reports" / model / "results.json").read_bytes()
        assert written == (ROOT / "reports" / model / "results.json").read_bytes(), model


def test_suite_check_checks_the_bundled_suite(  # type: ignore[no-untyped-def]
    empty: Path,
    capsys,
) -> None:
    assert main(["suite", "check"]) == 0
    out, err = capsys.readouterr()
    said_once(err)
    assert f"is valid: {len(_DOC['cases'])} cases" in out


def test_a_project_suite_wins_and_nothing_is_said(  # type: ignore[no-untyped-def]
    empty: Path,
    capsys,
) -> None:
    (empty / "evals").mkdir()
    shutil.copy(MINI_SUITE, empty / "evals" / "suite.json")
    assert main(["suite", "check"]) == 0
    out, err = capsys.readouterr()
    assert out.startswith("evals/suite.json: ") and "bundled" not in out + err


def test_a_broken_project_suite_is_not_replaced_by_the_bundled_one(  # type: ignore[no-untyped-def]
    empty: Path,
    capsys,
) -> None:
    (empty / "evals").mkdir()
    (empty / "evals" / "suite.json").symlink_to(
        empty / "gone.json"
    )  # a dangling link: the project's file gone wrong
    assert main(["suite", "check"]) == 1
    assert capsys.readouterr().err == "error: evals/suite.json: no such suite file\n"


NO_SUCH = "error: evals/suite.json: no such suite file"
LOOPBACK = "http://127.0.0.1:9/v1"  # never asked: nothing is recorded in these tests


@pytest.mark.parametrize(
    ("command", "said"),
    [
        (["rescore", "--suite", "evals/suite.json"], NO_SUCH),
        (
            [
                "record",
                "--model",
                "ref/oracle",
                "--base-url",
                LOOPBACK,
                "--suite",
                "evals/suite.json",
            ],
            NO_SUCH,
        ),
        (["report", "reports", "--suite", "evals/suite.json"], NO_SUCH),
        (["merge", "cassettes", "--out", "merged", "--suite", "evals/suite.json"], NO_SUCH),
        (["suite", "check", "evals/suite.json"], NO_SUCH),
        (
            ["gateway", "--port", "0", "--suite", "evals/suite.json"],
            "error: evals/suite.json: suite file not found",
        ),
    ],
    ids=["rescore", "record", "report", "merge", "suite check", "gateway"],
)
def test_a_named_suite_that_does_not_exist_is_an_error_not_a_fallback(  # type: ignore[no-untyped-def]
    empty: Path, command: list[str], said: str, capsys
) -> None:
    shutil.copytree(ROOT / "reports" / "ref_oracle", empty / "reports" / "ref_oracle")
    assert main(command) == 1
    out, err = capsys.readouterr()
    assert "bundled" not in out + err
    assert err.splitlines()[-1] == said, err
    assert not (empty / "merged").exists() and not (empty / "reports" / "index.html").exists()


def test_report_draws_the_cases_of_the_bundled_suite(  # type: ignore[no-untyped-def]
    empty: Path,
    capsys,
) -> None:
    shutil.copytree(ROOT / "reports" / "ref_oracle", empty / "reports" / "ref_oracle")
    assert main(["report"]) == 0
    said_once(capsys.readouterr().err)
    page = (empty / "reports" / "index.html").read_text(encoding="utf-8")
    assert _DOC["cases"][-1]["messages"][0]["content"][:40] in page


def test_merge_says_so_only_when_it_reads_the_suite(  # type: ignore[no-untyped-def]
    empty: Path,
    capsys,
) -> None:
    for index in (1, 2):
        assert main(["rescore", "--out", f"r{index}", "--shard", f"{index}/2", "--no-html"]) == 0
    capsys.readouterr()
    assert main(["merge", "r1", "r2", "--out", "plain", "--no-html"]) == 0
    assert "bundled" not in capsys.readouterr().err  # reports without HTML never read the suite
    assert (
        main(["merge", "r1", "r2", "--out", "html"]) == 0
    )  # the page needs the suite the shards were scored with
    said_once(capsys.readouterr().err)
    assert (empty / "html" / "index.html").is_file()
    for model in MODELS:
        assert (empty / "html" / model / "results.json").read_bytes() == (
            ROOT / "reports" / model / "results.json"
        ).read_bytes()
    shutil.copytree(ROOT / "cassettes" / "ref_first-tool", empty / "more" / "ref_first-tool")
    assert main(["merge", "cassettes", "more", "--out", "all"]) == 0
    said_once(capsys.readouterr().err)


def test_record_plans_with_the_bundled_suite(  # type: ignore[no-untyped-def]
    empty: Path,
    capsys,
) -> None:
    """Every case of the bundled suite is recorded already: nothing to record, no key,
    no network."""
    assert main(["record", "--model", "ref/oracle", "--base-url", LOOPBACK]) == 0
    err = capsys.readouterr().err
    said_once(err)
    assert f"Nothing to record: all {len(_DOC['cases'])} case(s) of ref/oracle are recorded" in err


def test_rescore_hints_leave_the_bundled_suite_out(  # type: ignore[no-untyped-def]
    empty: Path,
    capsys,
) -> None:
    """The record command rescore suggests finds the bundled suite by itself: no install path
    in it."""
    run_json = empty / "cassettes" / "ref_oracle" / "run.json"
    manifest = json.loads(run_json.read_text(encoding="utf-8"))
    del manifest["cases"]["arguments-03"]
    run_json.write_text(json.dumps(manifest), encoding="utf-8")
    assert main(["rescore", "--out", "reports", "--no-html", "-q"]) == 0
    err = capsys.readouterr().err
    said_once(err)
    assert (
        "1 case(s) of ref/oracle need recording: lobstack-eval record --model ref/oracle --base-url"
        in err
    )
    assert "--suite" not in err


def test_export_writes_the_bundled_suite_byte_for_byte(  # type: ignore[no-untyped-def]
    empty: Path,
    capsys,
) -> None:
    assert main(["suite", "export"]) == 0
    title = f"{_DOC['name']} {_DOC['version']}"
    wheel = f"the suite bundled with lobstack-eval {version('lobstack-eval')}"
    assert capsys.readouterr().out == f"wrote evals/suite.json: {title}, {wheel}; commit it\n"
    assert (empty / "evals" / "suite.json").read_bytes() == SUITE.read_bytes()
    assert main(["suite", "export"]) == 0  # the same bytes: left alone
    assert capsys.readouterr().out == f"evals/suite.json already holds {wheel}: {title}\n"
    assert main(["suite", "check"]) == 0
    assert "bundled" not in capsys.readouterr().err  # the project's own file from now on
    assert main(["suite", "export", "elsewhere/mine.json"]) == 0
    assert (empty / "elsewhere" / "mine.json").read_bytes() == SUITE.read_bytes()


def test_export_keeps_a_different_file_unless_forced(  # type: ignore[no-untyped-def]
    empty: Path,
    capsys,
) -> None:
    (empty / "evals").mkdir()
    shutil.copy(ROOT / "evals" / "suite-1.0.0.json", empty / "evals" / "suite.json")
    old = json.loads((ROOT / "evals" / "suite-1.0.0.json").read_text(encoding="utf-8"))
    assert main(["suite", "export"]) == 1
    out, err = capsys.readouterr()
    assert out == "" and err == (
        f"error: evals/suite.json: exists and differs from the bundled suite ({old['name']} "
        f"{old['version']} there, {_DOC['name']} {_DOC['version']} bundled); --force overwrites "
        "it\n"
    )
    assert (empty / "evals" / "suite.json").read_bytes() == (
        ROOT / "evals" / "suite-1.0.0.json"
    ).read_bytes()
    assert main(["suite", "export", "--force"]) == 0
    assert f"(it replaced {old['name']} {old['version']})" in capsys.readouterr().out
    assert (empty / "evals" / "suite.json").read_bytes() == SUITE.read_bytes()


def test_export_to_a_directory_is_one_line(  # type: ignore[no-untyped-def]
    empty: Path,
    capsys,
) -> None:
    assert main(["suite", "export", "cassettes"]) == 1
    assert capsys.readouterr().err == (
        "error: cassettes: is a directory; name the suite file to write, e.g. "
        "cassettes/suite.json\n"
    )
    (empty / "afile").write_text("x", encoding="utf-8")
    assert (
        main(["suite", "export", "afile/suite.json"]) == 1
    )  # a parent that is a file: the disk's one line
    err = capsys.readouterr().err
    assert err.startswith("error: ") and err.count("\n") == 1 and "Traceback" not in err


def test_pytest_plugin_uses_the_bundled_suite_and_says_so(pytester: pytest.Pytester) -> None:
    shutil.copytree(ROOT / "cassettes" / "ref_oracle", pytester.path / "cassettes" / "ref_oracle")
    result = pytester.runpytest_subprocess(
        "-p", "no:cacheprovider", "cassettes", "--lobstack-cassettes", "cassettes"
    )
    result.assert_outcomes(passed=len(_DOC["cases"]))
    assert result.errlines.count(NOTICE) == 1
    assert (
        "lobstack: cassettes with the suite bundled with lobstack-eval; record mode none"
        in result.outlines
    )
    missing = pytester.runpytest_subprocess(
        "-p",
        "no:cacheprovider",
        "cassettes",
        "--lobstack-cassettes",
        "cassettes",
        "--lobstack-suite",
        "nope.json",
    )
    assert missing.ret != 0 and NOTICE not in missing.errlines
    missing.stdout.fnmatch_lines([f"*error: {pytester.path / 'nope.json'}: no such suite file*"])
