"""``record --model A --model B``: each model recorded by its own process at once, one summary
(issue 40, part 8)."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from lobstack_eval.main import main
from standin import GatewayConfig, StandInGateway
from tests.conftest import ROOT

FIXTURE = ROOT / "tests" / "fixtures" / "pydantic_mcp" / "suite.json"


def test_two_models_at_once_with_one_summary(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    suite = tmp_path / "suite.json"
    shutil.copyfile(FIXTURE, suite)
    cassettes = tmp_path / "cassettes"
    with StandInGateway(GatewayConfig(suite_path=suite)) as gateway:
        args = ["record", "--model", "ref/oracle", "--model", "ref/abstain", "--suite", str(suite)]
        args += ["--base-url", gateway.url, "--cassettes", str(cassettes), "--concurrency", "1"]
        code = main(args)
    err = capsys.readouterr().err
    assert code == 0, err
    for slug in ("ref_oracle", "ref_abstain"):
        manifest = json.loads((cassettes / slug / "run.json").read_text(encoding="utf-8"))
        assert sorted(manifest["cases"]) == sorted(
            c["id"] for c in json.loads(suite.read_text())["cases"]
        )
    lines = err.splitlines()
    assert any(line.startswith("[ref/oracle] Recorded 7 case(s) of ref/oracle") for line in lines)
    assert any(line.startswith("[ref/abstain] Recorded 7 case(s) of ref/abstain") for line in lines)
    summary = lines[lines.index("Recorded 2 models at once: 2 done, 0 not") :]
    assert [line.split(": ")[0] for line in summary[1:]] == ["  ref/oracle", "  ref/abstain"]
    assert all(": done: Recorded 7 case(s)" in line for line in summary[1:])


def test_a_model_given_twice_is_one_usage_error(capsys: pytest.CaptureFixture[str]) -> None:
    code = main(
        ["record", "--model", "a/b", "--model", "a_b", "--base-url", "http://127.0.0.1:9/v1"]
    )
    assert code == 2
    assert capsys.readouterr().err.strip().splitlines() == [
        "error: --model 'a_b': its folder 'a_b' is also 'a/b''s; give each model once"
    ]


def test_a_failing_model_sets_the_exit_code(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    suite = tmp_path / "suite.json"
    shutil.copyfile(FIXTURE, suite)
    with StandInGateway(GatewayConfig(suite_path=suite)) as gateway:
        args = ["record", "--model", "ref/oracle", "--model", "no/such-model"]
        args += ["--suite", str(suite), "--base-url", gateway.url, "--case", "thanks"]
        code = main([*args, "--cassettes", str(tmp_path / "c"), "--concurrency", "1"])
    err = capsys.readouterr().err
    assert code == 1, err  # the gateway refuses the unknown model: that record fails alone
    assert "Recorded 2 models at once: 1 done, 1 not" in err
    assert "  ref/oracle: done: Recorded 1 case(s) of ref/oracle" in err
    assert "  no/such-model: exit 1: error: the gateway refused 1 case(s)" in err
