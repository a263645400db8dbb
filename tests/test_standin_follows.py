"""The stand-in follows its suite file: an edited suite is served from the next request on, every
answer names its suite, and ``record`` keeps nothing made from another suite (issue 40, part 6).
The pydantic-style suite (tests/fixtures/pydantic_mcp) scores 100% for ref/oracle before and after
its requests are edited while the gateway runs."""

from __future__ import annotations

import hashlib
import json
import re
import shutil
from pathlib import Path

import pytest
import requests

from lobstack_eval.main import main
from recorder.record import record
from recorder.settings import RecordSettings
from scorer.errors import GatewayError
from standin import GatewayConfig, StandInGateway
from standin.suite_follow import SuiteFollower
from tests.conftest import ROOT

FIXTURE = ROOT / "tests" / "fixtures" / "pydantic_mcp" / "suite.json"
REPORTS = ("index.html", "leaderboard.md", "leaderboard.csv")


def oracle_rate(
    suite: Path,
    cassettes: Path,
    out: Path,
    capsys: pytest.CaptureFixture[str],
    html: bool = False,
) -> float:
    args = ["rescore", str(cassettes), "--suite", str(suite), "--out", str(out)]
    assert main(args + ([] if html else ["--no-html"])) == 0
    said = capsys.readouterr().out
    # A report of one's own suite speaks of no Lobstack router, API or keys (issue 40, part 7).
    # (The tool's own name, lobstack-eval, and CSS's `auto` say nothing of them.)
    names = REPORTS if html else REPORTS[1:]
    for text in (said, *((out / n).read_text(encoding="utf-8") for n in names)):
        text = re.sub(r"lobstack-eval|: auto\b|\bauto;", "", text)
        found = re.findall(r".{0,40}(?:lobstack|\bnex\b|\bauto\b).{0,40}", text, re.I)
        assert found == [], found
    results = json.loads((out / "ref_oracle" / "results.json").read_text(encoding="utf-8"))
    return results["metrics"]["overall"]["rate"]


def edit_requests(suite: Path) -> None:
    """Every case's request reworded, as an author rewriting drafts does."""
    document = json.loads(suite.read_text(encoding="utf-8"))
    for case in document["cases"]:
        case["messages"][0]["content"] = "Please: " + case["messages"][0]["content"]
    suite.write_text(json.dumps(document, indent=1), encoding="utf-8")


def test_oracle_scores_all_before_and_after_an_edit_while_the_gateway_runs(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    suite = tmp_path / "suite.json"
    shutil.copyfile(FIXTURE, suite)
    said: list[str] = []
    with StandInGateway(GatewayConfig(suite_path=suite), on_change=said.append) as gateway:
        ids = [json.loads(suite.read_text())["cases"][i]["id"] for i in range(7)]
        record(
            suite,
            "ref/oracle",
            tmp_path / "before",
            gateway.url,
            ids,
            RecordSettings(concurrency=1),
        )
        assert oracle_rate(suite, tmp_path / "before", tmp_path / "r1", capsys, html=True) == 100.0
        edit_requests(suite)
        record(
            suite, "ref/oracle", tmp_path / "after", gateway.url, ids, RecordSettings(concurrency=1)
        )
        assert oracle_rate(suite, tmp_path / "after", tmp_path / "r2", capsys) == 100.0
    sha = hashlib.sha256(suite.read_bytes()).hexdigest()
    assert said == [f"suite file changed: now serving calendar-tools 0.1.0 (sha256 {sha[:12]})"]


def test_every_answer_names_the_suite_it_was_made_from(tmp_path: Path) -> None:
    suite = tmp_path / "suite.json"
    shutil.copyfile(FIXTURE, suite)
    with StandInGateway(GatewayConfig(suite_path=suite)) as gateway:
        first = requests.get(gateway.url + "/models", timeout=30).headers["X-Lobstack-Suite"]
        sha = hashlib.sha256(suite.read_bytes()).hexdigest()
        assert first == f"name=calendar-tools; version=0.1.0; sha256={sha}"
        suite.write_text("{ half written", encoding="utf-8")  # an editor mid-save: kept as it was
        assert (
            requests.get(gateway.url + "/models", timeout=30).headers["X-Lobstack-Suite"] == first
        )
        edit_requests_from(FIXTURE, suite)
        sha = hashlib.sha256(suite.read_bytes()).hexdigest()
        again = requests.get(gateway.url + "/models", timeout=30).headers["X-Lobstack-Suite"]
        assert again == f"name=calendar-tools; version=0.1.0; sha256={sha}"


def edit_requests_from(source: Path, suite: Path) -> None:
    shutil.copyfile(source, suite)
    edit_requests(suite)


def test_a_recording_from_another_suite_is_not_kept(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    served = tmp_path / "served.json"
    shutil.copyfile(FIXTURE, served)
    recorded = tmp_path / "recorded.json"
    edit_requests_from(FIXTURE, recorded)
    cassettes = tmp_path / "cassettes"
    with StandInGateway(GatewayConfig(suite_path=served)) as gateway:
        args = ["record", "--model", "ref/oracle", "--suite", str(recorded), "--case", "whats-on"]
        code = main([*args, "--base-url", gateway.url, "--cassettes", str(cassettes)])
    sha = hashlib.sha256(served.read_bytes()).hexdigest()[:12]
    mine = hashlib.sha256(recorded.read_bytes()).hexdigest()[:12]
    assert code == 1
    assert capsys.readouterr().err.splitlines()[-1] == (
        f"error: the gateway serves suite calendar-tools 0.1.0 (sha256 {sha}), not the recorded "
        f"calendar-tools 0.1.0 (sha256 {mine}); case whats-on was not kept: start the gateway with "
        "this suite (the stand-in reads an edited file at its next request) and record again"
    )
    assert not (cassettes / "ref_oracle").exists()  # the dir this run made is not left behind


def test_a_stale_suite_in_worker_processes_keeps_no_case(tmp_path: Path) -> None:
    served = tmp_path / "served.json"
    shutil.copyfile(FIXTURE, served)
    recorded = tmp_path / "recorded.json"
    edit_requests_from(FIXTURE, recorded)
    cassettes = tmp_path / "cassettes"
    (cassettes / "ref_oracle").mkdir(parents=True)  # made before: kept, with no case in it
    gateway = StandInGateway(GatewayConfig(suite_path=served))
    with gateway, pytest.raises(GatewayError, match=r"^the gateway serves suite calendar-tools"):
        record(
            recorded,
            "ref/oracle",
            cassettes,
            gateway.url,
            ["whats-on", "thanks"],
            RecordSettings(concurrency=2),
        )
    manifest = json.loads((cassettes / "ref_oracle" / "run.json").read_text(encoding="utf-8"))
    assert manifest["cases"] == {}
    assert sorted(p.name for p in (cassettes / "ref_oracle").iterdir()) == ["run.json"]


def test_the_follower_reads_a_file_only_when_it_changed(tmp_path: Path) -> None:
    suite = tmp_path / "suite.json"
    shutil.copyfile(FIXTURE, suite)
    follower = SuiteFollower(suite)
    first = follower.current()
    assert follower.current() is first  # unchanged: the same index, not read again
    edit_requests(suite)
    assert follower.current().sha256 == hashlib.sha256(suite.read_bytes()).hexdigest()


def test_the_banner_names_the_suite(tmp_path: Path) -> None:
    from standin import serve_forever

    suite = tmp_path / "suite.json"
    shutil.copyfile(FIXTURE, suite)
    lines: list[str] = []

    def announce(line: str) -> None:
        lines.append(line)
        if len(lines) == 2:  # both lines said: stop as Ctrl-C would
            raise KeyboardInterrupt

    serve_forever(GatewayConfig(suite_path=suite), 0, announce)
    sha = hashlib.sha256(suite.read_bytes()).hexdigest()
    assert lines[1] == (
        f"serving suite calendar-tools 0.1.0 (sha256 {sha[:12]}) from {suite}; read again when the "
        "file changes"
    )
