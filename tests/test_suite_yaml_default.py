"""A project's default suite may be YAML: without ``--suite`` every command uses the one of
``evals/suite.json``, ``evals/suite.yaml`` and ``evals/suite.yml`` that exists where it runs (the
bundled suite when none does); two of them is one ``error:`` line naming both, exit 2, never a
silent choice (docs/commands/README.md, decision 108)."""

from __future__ import annotations

import json
import shutil
from collections.abc import Callable
from pathlib import Path

import pytest

import recorder.bundled_suite
from lobstack_eval.main import main
from standin import StandInGateway
from tests.conftest import FIXTURES, MINI_SUITE, ROOT

OWN = FIXTURES / "own_tools" / "suite.yaml"  # notes-assistant 0.1.0: five cases
OWN_CASES = ["find-budget", "remind-dentist", "small-talk", "two-searches", "open-offsite"]
TWO = (
    "error: two default suites here, evals/suite.json and evals/suite.yaml: pass --suite with "
    "the one to use (or remove the other)"
)


@pytest.fixture
def yaml_project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A project whose only suite is the hand-written evals/suite.yaml, as the working dir."""
    (tmp_path / "evals").mkdir()
    shutil.copy(OWN, tmp_path / "evals" / "suite.yaml")
    monkeypatch.chdir(tmp_path)
    return tmp_path


def test_a_yaml_only_project_records_rescores_and_checks_without_suite(
    yaml_project: Path,
    start_gateway: Callable[..., StandInGateway],
    capsys: pytest.CaptureFixture[str],
) -> None:
    gateway = start_gateway(yaml_project / "evals" / "suite.yaml")
    for model in ("ref/oracle", "ref/noisy"):
        args = ["record", "--model", model, "--base-url", gateway.url, "--concurrency", "1"]
        assert main(args) == 0
    err = capsys.readouterr().err
    assert "Recording 5 case(s) of notes-assistant 0.1.0 for ref/oracle via" in err
    assert "bundled" not in err and "error:" not in err
    # The cassettes are of the YAML suite's cases: the stand-in answered from the same file.
    assert sorted(p.stem for p in (yaml_project / "cassettes" / "ref_oracle").glob("*-*.json")) == (
        sorted(OWN_CASES)
    )
    assert main(["rescore", "--out", "reports", "--no-html", "-q"]) == 0
    out, err = capsys.readouterr()
    assert "bundled" not in out + err
    oracle = json.loads((yaml_project / "reports" / "ref_oracle" / "results.json").read_text())
    assert (oracle["suite"]["name"], oracle["suite"]["version"]) == ("notes-assistant", "0.1.0")
    assert [r["id"] for r in oracle["results"]] == OWN_CASES
    assert oracle["metrics"]["overall"]["rate"] == 100.0
    assert main(["suite", "check"]) == 0
    out, err = capsys.readouterr()
    assert out.startswith("evals/suite.yaml: notes-assistant 0.1.0 (2026-12-05) is valid: 5 cases")
    assert err == ""
    assert main(["report", "reports"]) == 0
    assert "bundled" not in capsys.readouterr().err
    assert (
        "Open my note about the offsite." in (yaml_project / "reports" / "index.html").read_text()
    )


def test_the_rescore_hint_leaves_a_yaml_default_out(
    yaml_project: Path,
    start_gateway: Callable[..., StandInGateway],
    capsys: pytest.CaptureFixture[str],
) -> None:
    """The record command rescore suggests finds evals/suite.yaml by itself, as rescore did."""
    gateway = start_gateway(yaml_project / "evals" / "suite.yaml")
    args = ["record", "--model", "ref/oracle", "--base-url", gateway.url, "--concurrency", "1"]
    assert main([*args, "--case", "small-talk"]) == 0
    capsys.readouterr()
    assert main(["rescore", "--out", "reports", "--no-html", "-q"]) == 0
    err = capsys.readouterr().err
    assert "4 case(s) of ref/oracle need recording: lobstack-eval record --model ref/oracle" in err
    assert "--suite" not in err


@pytest.mark.parametrize("name", ["suite.yaml", "suite.yml"])
def test_either_yaml_name_is_the_default(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], name: str
) -> None:
    (tmp_path / "evals").mkdir()
    shutil.copy(OWN, tmp_path / "evals" / name)
    monkeypatch.chdir(tmp_path)
    assert main(["suite", "audit"]) == 0
    out, err = capsys.readouterr()
    assert "find-budget" in out and err == ""
    assert main(["suite", "check"]) == 0
    assert capsys.readouterr().out.startswith(f"evals/{name}: notes-assistant 0.1.0")


LOOPBACK = "http://127.0.0.1:9/v1"  # never asked: every command stops before any request


@pytest.mark.parametrize(
    "command",
    [
        ["rescore", "--out", "reports"],
        ["record", "--model", "ref/oracle", "--base-url", LOOPBACK],
        ["report", "reports"],
        ["merge", "cassettes", "--out", "merged"],
        ["suite", "check"],
        ["suite", "audit"],
        ["gateway", "--port", "0"],
    ],
    ids=lambda c: " ".join(c[:2]),
)
def test_a_json_and_a_yaml_default_is_one_error_line(
    yaml_project: Path, capsys: pytest.CaptureFixture[str], command: list[str]
) -> None:
    shutil.copy(MINI_SUITE, yaml_project / "evals" / "suite.json")
    shutil.copytree(ROOT / "cassettes" / "ref_oracle", yaml_project / "cassettes" / "ref_oracle")
    shutil.copytree(ROOT / "reports" / "ref_oracle", yaml_project / "reports" / "ref_oracle")
    assert main(command) == 2
    out, err = capsys.readouterr()
    assert err == TWO + "\n" and "bundled" not in out
    assert not (yaml_project / "merged").exists()
    assert not (yaml_project / "reports" / "index.html").exists()
    assert not (yaml_project / "cassettes" / "ref_oracle" / "results.json").exists()


def test_naming_one_of_two_defaults_uses_it(
    yaml_project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    shutil.copy(MINI_SUITE, yaml_project / "evals" / "suite.json")
    assert main(["suite", "check", "evals/suite.yaml"]) == 0
    assert capsys.readouterr().out.startswith("evals/suite.yaml: notes-assistant")
    assert main(["suite", "check", "evals/suite.json"]) == 0
    assert capsys.readouterr().out.startswith("evals/suite.json: ")


def test_three_defaults_are_named_in_order(
    yaml_project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    shutil.copy(MINI_SUITE, yaml_project / "evals" / "suite.json")
    shutil.copy(OWN, yaml_project / "evals" / "suite.yml")
    assert main(["suite", "check"]) == 2
    assert capsys.readouterr().err == (
        "error: three default suites here, evals/suite.json, evals/suite.yaml and "
        "evals/suite.yml: pass --suite with the one to use (or remove the others)\n"
    )


def test_a_broken_yaml_default_is_reported_not_replaced(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """A dangling evals/suite.yaml is the project's file gone wrong: not the bundled suite."""
    (tmp_path / "evals").mkdir()
    (tmp_path / "evals" / "suite.yaml").symlink_to(tmp_path / "gone.yaml")
    monkeypatch.chdir(tmp_path)
    assert main(["suite", "check"]) == 1
    assert capsys.readouterr().err == "error: evals/suite.yaml: no such suite file\n"


def test_no_default_and_no_bundled_suite_is_one_line_naming_every_default(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """A wheel built without its suite, in a project with none: the existing error, naming the
    three names looked for."""
    monkeypatch.setattr(recorder.bundled_suite, "PACKAGED", tmp_path / "none.json")
    monkeypatch.setattr(recorder.bundled_suite, "_CHECKOUT", tmp_path / "no-checkout")
    monkeypatch.chdir(tmp_path)
    assert main(["suite", "check"]) == 1
    assert capsys.readouterr().err == (
        "error: no evals/suite.json, .yaml or .yml here, and this install of lobstack-eval has no "
        f"bundled suite ({tmp_path / 'none.json'} is missing): pass --suite FILE, or reinstall "
        "lobstack-eval\n"
    )


def test_export_and_new_never_write_a_second_default(
    yaml_project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    tools = yaml_project / "tools.json"
    tools.write_text(json.dumps([_tool("search_notes")]), encoding="utf-8")
    for command, target in (
        (["suite", "export"], "evals/suite.json"),
        (["suite", "new", "--tools", str(tools)], "evals/suite.json"),
        (["suite", "new", "evals/suite.yml", "--tools", str(tools)], "evals/suite.yml"),
    ):
        assert main(command) == 2
        assert capsys.readouterr().err == (
            f"error: {target}: not written: evals/suite.yaml is the default suite there, and with "
            "two every command would refuse to choose; remove evals/suite.yaml first, or write "
            "another file\n"
        )
        assert sorted(p.name for p in (yaml_project / "evals").iterdir()) == ["suite.yaml"]
    # Another file, or the default itself (--force), is written as before.
    assert main(["suite", "new", "evals/other.json", "--tools", str(tools)]) == 0
    assert main(["suite", "new", "evals/suite.yaml", "--tools", str(tools), "--force"]) == 0
    capsys.readouterr()
    assert main(["suite", "check"]) == 0
    assert capsys.readouterr().out.startswith("evals/suite.yaml: tools 0.1.0")


def _tool(name: str) -> dict[str, object]:
    return {
        "type": "function",
        "function": {
            "name": name,
            "description": "Search the notes.",
            "parameters": {
                "type": "object",
                "properties": {"query": {"type": "string"}},
                "required": ["query"],
            },
        },
    }


def test_the_plugin_finds_a_yaml_default_and_refuses_two(
    pytester: pytest.Pytester,
    start_gateway: Callable[..., StandInGateway],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Where pytest runs: evals/suite.yaml is the suite (the record hint leaves it out); with a
    JSON one beside it, a usage error naming both and the plugin's own flag."""
    (pytester.path / "evals").mkdir()
    shutil.copy(OWN, pytester.path / "evals" / "suite.yaml")
    monkeypatch.chdir(pytester.path)
    gateway = start_gateway(pytester.path / "evals" / "suite.yaml")
    args = ["record", "--model", "ref/oracle", "--base-url", gateway.url, "--case", "find-budget"]
    assert main(args) == 0
    found = pytester.runpytest_subprocess(
        "-p", "no:cacheprovider", "-rs", "cassettes", "--lobstack-cassettes", "cassettes"
    )
    # One case recorded (it passes); each other is skipped with the command that records it.
    found.assert_outcomes(passed=1, skipped=len(OWN_CASES) - 1)
    found.stdout.fnmatch_lines(
        [
            "lobstack: cassettes with evals/suite.yaml; record mode none",
            "*lobstack-eval record --model ref/oracle --cassettes cassettes --case two-searches*",
        ]
    )
    assert not any("bundled" in line for line in found.outlines + found.errlines)
    assert not any("--suite" in line for line in found.outlines)
    shutil.copy(MINI_SUITE, pytester.path / "evals" / "suite.json")
    two = pytester.runpytest_subprocess(
        "-p", "no:cacheprovider", "cassettes", "--lobstack-cassettes", "cassettes"
    )
    assert two.ret == pytest.ExitCode.USAGE_ERROR
    assert f"ERROR: {_plugin_two(pytester.path)}" in two.errlines


def _plugin_two(start: Path) -> str:
    return (
        f"two default suites here, {start / 'evals/suite.json'} and "
        f"{start / 'evals/suite.yaml'}: pass --lobstack-suite with the one to use (or remove the "
        "other)"
    )


def test_the_plugins_copy_of_the_default_names_is_the_recorders() -> None:
    """The plugin writes the default suite names out (it imports nothing of lobstack-eval's at
    load, so a project's own ``scorer`` package is not shadowed): its help says what the rule
    chooses."""
    from pytest_lobstack.options import DEFAULT_SUITES
    from recorder.bundled_suite import DEFAULT_NAMES

    assert DEFAULT_SUITES == DEFAULT_NAMES == "evals/suite.json, .yaml or .yml"
