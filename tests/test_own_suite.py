"""A new user's own suite (tests/fixtures/own_tools/suite.yaml: three tools, five cases, one of each
shape, own groups and ids) through every command; and docs/guide-own-tools.md's commands, run
as written."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from lobstack_eval.main import main
from standin import GatewayConfig, StandInGateway, parse_faults
from tests.conftest import FIXTURES, ROOT, outside_env

OWN = FIXTURES / "own_tools" / "suite.yaml"
GUIDE = ROOT / "docs" / "guide-own-tools.md"
GROUPS = ["lookup", "reminders", "chat", "fan-out", "follow-up"]
TIMEOUT_S = 600


def _env() -> dict[str, str]:
    """A child's environment: this checkout's virtualenv first, nothing of this pytest or the
    user's key."""
    env = outside_env()
    return env | {
        "VIRTUAL_ENV": sys.prefix,
        "PATH": str(Path(sys.executable).parent) + os.pathsep + env.get("PATH", ""),
    }


def results(reports: Path, slug: str) -> dict[str, Any]:
    return json.loads((reports / slug / "results.json").read_text(encoding="utf-8"))


@pytest.fixture(scope="module")
def project(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The suite, and ref/oracle and ref/noisy recorded against the stand-in with the
    `record` command."""
    root = tmp_path_factory.mktemp("own")
    (root / "evals").mkdir()
    suite = root / "evals" / "suite.yaml"
    shutil.copy(OWN, suite)
    with StandInGateway(GatewayConfig(suite_path=suite, faults=parse_faults(""))) as gateway:
        for model in ("ref/oracle", "ref/noisy"):
            args = ["record", "--model", model, "--suite", str(suite), "--base-url", gateway.url]
            assert main([*args, "--cassettes", str(root / "cassettes"), "--concurrency", "1"]) == 0
    rescore = ["rescore", str(root / "cassettes"), "--suite", str(suite)]
    assert main([*rescore, "--out", str(root / "reports"), "--rows", str(root / "rows"), "-q"]) == 0
    return root


def test_check_and_audit(project: Path, capsys: pytest.CaptureFixture[str]) -> None:
    suite = project / "evals" / "suite.yaml"
    assert main(["suite", "check", str(suite)]) == 0
    out = capsys.readouterr().out
    assert "notes-assistant 0.1.0 (2026-12-05) is valid: 5 cases, 3 tools" in out
    assert "cases per group: lookup 1, reminders 1, chat 1, fan-out 1, follow-up 1" in out
    assert main(["suite", "audit", str(suite)]) == 0
    assert "mutation score 39/39 killed (100.0%)" in capsys.readouterr().out


def test_rescore_counts_each_metric_by_the_shape_of_the_steps(project: Path) -> None:
    reports = project / "reports"
    oracle, noisy = results(reports, "ref_oracle"), results(reports, "ref_noisy")
    metrics = oracle["metrics"]
    # Right tool: 4 cases with a call step; Chains: the one two-step case; Parallel: the one step of
    # two calls; No call needed: the one case whose first step expects none. No group is named so.
    assert {
        k: (metrics[k]["count"], metrics[k]["of"])
        for k in ("overall", "right_tool", "chains", "parallel", "no_call_needed")
    } == {
        "overall": (5, 5),
        "right_tool": (4, 4),
        "chains": (1, 1),
        "parallel": (1, 1),
        "no_call_needed": (1, 1),
    }
    assert sorted(oracle["groups"]) == sorted(GROUPS)  # results.json writes keys sorted
    assert noisy["metrics"]["overall"]["rate"] < 100.0
    html = (reports / "index.html").read_text(encoding="utf-8")
    assert all(f">{group}<" in html for group in GROUPS)


def test_diff_runs_rows_report_and_diff_suites(
    project: Path, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    reports = project / "reports"
    suite = project / "evals" / "suite.yaml"
    code = main(["diff", "runs", str(reports / "ref_oracle"), str(reports / "ref_noisy")])
    out = capsys.readouterr().out
    assert code in (0, 1) and "Overall" in out
    assert main(["leaderboard", str(reports), "--group", "follow-up"]) == 0
    board = capsys.readouterr().out
    assert "ref/oracle" in board and "ref/noisy" in board
    assert main(["leaderboard", str(project / "rows"), "--group", "chat"]) == 0
    assert "notes-assistant 0.1.0, group chat" in capsys.readouterr().out
    assert main(["leaderboard", str(reports), "--group", "selection"]) == 1
    assert "no group 'selection'" in capsys.readouterr().err
    copy = tmp_path / "reports"
    shutil.copytree(reports, copy)
    (copy / "index.html").unlink()
    assert main(["report", str(copy), "--suite", str(suite)]) == 0
    assert "follow-up" in (copy / "index.html").read_text(encoding="utf-8")
    changed = tmp_path / "suite.yaml"
    changed.write_text(
        suite.read_text(encoding="utf-8")
        .replace("version: 0.1.0", "version: 0.2.0")
        .replace("id: {eq: n-42}", "id: {regex: '^n-42$'}"),
        encoding="utf-8",
    )
    capsys.readouterr()
    main(["diff", "suites", str(suite), str(changed), "--cassettes", str(project / "cassettes")])
    assert "open-offsite" in capsys.readouterr().out


def test_the_plugin_runs_the_own_suite(project: Path, tmp_path: Path) -> None:
    for name in ("evals", "cassettes"):
        shutil.copytree(project / name, tmp_path / name)
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "pytest",
            "-p",
            "no:cacheprovider",
            "-p",
            "no:randomly",
            "-q",
            "cassettes/",
            "--lobstack-cassettes",
            "cassettes/",
            "--lobstack-suite",
            "evals/suite.yaml",
        ],
        cwd=tmp_path,
        env=_env(),
        capture_output=True,
        text=True,
        timeout=TIMEOUT_S,
    )
    noisy = results(project / "reports", "ref_noisy")["results"]
    passed = 5 + sum(r["status"] == "passed" for r in noisy)  # ref/oracle passes all 5
    summary = done.stdout.splitlines()[-1]
    assert re.search(rf"\b{10 - passed} failed, {passed} passed\b", summary), done.stdout[-2000:]


def _guide_blocks(fence: str) -> list[str]:
    text = GUIDE.read_text(encoding="utf-8")
    return [block.split("```", 1)[0] for block in text.split(f"```{fence}\n")[1:]]


def test_the_guide_shows_the_tested_yaml_suite() -> None:
    assert _guide_blocks("yaml") == [OWN.read_text(encoding="utf-8")]


@pytest.mark.slow
def test_the_guides_commands_run_as_written(tmp_path: Path) -> None:
    """Each command of the guide's first block, in an empty project, with the stand-in as the
    gateway (started on the suite the first command writes, as the guide says) and a real MCP
    server over stdio."""
    commands = [line.split("  #")[0].strip() for line in _guide_blocks("sh")[0].splitlines()]
    # This checkout's environment is on PATH: `uv run` would look for a project above the
    # temporary folder.
    assert len(commands) == 7 and commands[0].startswith("uv run lobstack-eval suite new")
    env = _env()
    gateway: StandInGateway | None = None
    try:
        for command in commands:
            if " record " in command and gateway is None:
                config = GatewayConfig(
                    suite_path=tmp_path / "evals" / "suite.json", faults=parse_faults("")
                )
                gateway = StandInGateway(config)
                gateway.start()
                env["LOBSTACK_BASE_URL"] = gateway.url
            done = subprocess.run(
                ["bash", "-c", command.removeprefix("uv run ")],
                cwd=tmp_path,
                env=env,
                capture_output=True,
                text=True,
                timeout=TIMEOUT_S,
            )
            assert done.returncode == 0, f"{command}\n{done.stdout[-3000:]}\n{done.stderr[-3000:]}"
    finally:
        if gateway is not None:
            gateway.stop()
    oracle = results(tmp_path / "reports", "ref_oracle")["metrics"]["overall"]["rate"]
    noisy = results(tmp_path / "reports", "ref_noisy")["metrics"]["overall"]["rate"]
    assert oracle == 100.0 and noisy < 100.0


def test_every_shard_lists_the_suites_groups(project: Path, tmp_path: Path) -> None:
    """A shard holds some cases (or none) but lists every group of the suite, as the whole
    run does."""
    suite = project / "evals" / "suite.yaml"
    for index in (1, 8):
        out = tmp_path / f"shard{index}"
        args = ["rescore", str(project / "cassettes"), "--suite", str(suite), "--out", str(out)]
        assert main([*args, "--shard", f"{index}/8", "--no-html", "-q"]) == 0
        groups = results(out, "ref_oracle")["groups"]
        assert sorted(groups) == sorted(GROUPS)
    assert results(tmp_path / "shard8", "ref_oracle")["results"] == []  # 5 cases, 8 shards


def test_a_yaml_suite_recorded_as_a_history_is_scored_by_the_hint_record_prints(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """record --run-id of an own YAML suite prints the rescore command with its --suite (without it
    rescore read the bundled suite and refused the run); that command, run as printed, scores
    each run, and drift, the rows root's leaderboard and the timeline read the history."""
    import shlex

    suite = tmp_path / "notes.yaml"
    shutil.copy(OWN, suite)
    cassettes, reports = tmp_path / "cassettes", tmp_path / "reports"
    with StandInGateway(GatewayConfig(suite_path=suite, faults=parse_faults(""))) as gateway:
        for run in ("r1", "r2"):
            args = ["record", "--model", "ref/noisy", "--suite", str(suite), "--run-id", run]
            args += ["--base-url", gateway.url, "--cassettes", str(cassettes), "--concurrency", "1"]
            assert main(args) == 0
            hint = capsys.readouterr().err.split("the scores come from: ")[1].strip()
            assert hint == f"lobstack-eval rescore {cassettes / 'history' / run} --suite {suite}"
            out = ["--out", str(reports / run), "--rows", str(tmp_path / "rows"), "-q"]
            assert main([*shlex.split(hint)[1:], *out]) == 0
    assert main(["drift", str(reports)]) == 0
    assert capsys.readouterr().out.startswith("drift: not tested yet: 2 runs since ")
    assert main(["leaderboard", str(tmp_path / "rows")]) == 0
    assert "ref/noisy" in capsys.readouterr().out
    assert main(["report", str(reports / "r2"), "--history", str(reports)]) == 0
    # the bundled suite is another suite: the error says which flag fixes it
    assert main(["rescore", str(cassettes / "history" / "r1"), "--out", str(tmp_path / "x")]) == 1
    assert "; pass --suite with the file it was recorded with" in capsys.readouterr().err
