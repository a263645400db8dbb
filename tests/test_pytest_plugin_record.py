"""The pytest plugin's record modes against the stand-in gateway (port 0): pytest-recording's names
and meaning at the grain of a case. ``none`` never touches the network; ``once`` records cases
with no cassette; ``new_episodes`` also what the suite now asks differently; ``all`` re-records
the selected cases."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from recorder.manifest_read import read_manifest
from standin import GatewayConfig, StandInGateway, parse_faults
from tests.conftest import MINI_SUITE
from tests.test_pytest_plugin import INNER

MODEL = "ref/oracle"
MISSING = "arguments-02"
CASES = [c["id"] for c in json.loads(MINI_SUITE.read_text(encoding="utf-8"))["cases"]]


@pytest.fixture(scope="module")
def recorded(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """ref/oracle of the mini suite recorded for every case but one, once a module by the CLI
    against a stand-in of its own (read only: ``project`` copies it). A recording is the same
    whatever the gateway's port (tests/test_record_safety.py), so each test's copy is what its
    own recording was."""
    root = tmp_path_factory.mktemp("recorded")
    (root / "evals").mkdir()
    shutil.copy(MINI_SUITE, root / "evals" / "suite.json")
    cases = [arg for case in CASES if case != MISSING for arg in ("--case", case)]
    config = GatewayConfig(suite_path=MINI_SUITE, faults=parse_faults(""))
    with StandInGateway(config) as gateway:
        # The CLI in a subprocess: pytester restores sys.modules after each test, which in-process
        # recording trips on.
        command = [
            sys.executable,
            "-m",
            "lobstack_eval",
            "record",
            "--model",
            MODEL,
            "--base-url",
            gateway.url,
            *cases,
        ]
        subprocess.run(command, cwd=root, check=True, capture_output=True, timeout=300)
    return root / "cassettes"


@pytest.fixture
def project(pytester: pytest.Pytester, recorded: Path) -> Path:
    """The mini suite as evals/suite.json and ref/oracle recorded for every case but one."""
    (pytester.path / "evals").mkdir()
    shutil.copy(MINI_SUITE, pytester.path / "evals" / "suite.json")
    shutil.copytree(recorded, pytester.path / "cassettes")
    return pytester.path


def run(
    pytester: pytest.Pytester, gateway: StandInGateway, mode: str, *args: str
) -> pytest.RunResult:
    options = ["--lobstack-cassettes", "cassettes", "--lobstack-record-mode", mode]
    if mode != "none":
        options += ["--lobstack-model", MODEL, "--lobstack-base-url", gateway.url]
    return pytester.runpytest_subprocess(*INNER, "-rs", *options, *args, timeout=300)


def requests_for(gateway: StandInGateway, seen_before: int) -> int:
    return len(gateway.requests_seen) - seen_before


def test_none_never_touches_the_network_and_skips_with_the_record_command(
    project: Path, pytester, gateway
) -> None:  # type: ignore[no-untyped-def]
    before = len(gateway.requests_seen)
    result = run(pytester, gateway, "none")
    result.assert_outcomes(passed=len(CASES) - 1, skipped=1)
    assert result.ret == 0
    assert requests_for(gateway, before) == 0
    result.stdout.fnmatch_lines(
        [
            f"SKIPPED [1] cassettes/ref_oracle/{MISSING}.json:1: not recorded yet; record it: "
            f"lobstack-eval record --model ref/oracle --cassettes cassettes --case {MISSING}"
        ]
    )


def test_once_records_the_missing_case_then_judges_it(  # type: ignore[no-untyped-def]
    project: Path,
    pytester,
    gateway,
) -> None:
    before = len(gateway.requests_seen)
    result = run(pytester, gateway, "once")
    result.assert_outcomes(passed=len(CASES))
    assert result.ret == 0
    assert (
        requests_for(gateway, before) == 1
    )  # arguments-02 is one step: one request, nothing else re-asked
    assert (project / "cassettes" / "ref_oracle" / f"{MISSING}.json").is_file()
    assert read_manifest(project / "cassettes" / "ref_oracle").cases[MISSING].status == "passed"
    assert f"lobstack: recording 1 case(s) of ref/oracle via {gateway.url}" in result.stdout.lines
    again = run(pytester, gateway, "once")
    again.assert_outcomes(passed=len(CASES))
    assert requests_for(gateway, before) == 1  # nothing is missing any more


def test_once_keeps_a_cassette_the_suite_now_asks_differently_new_episodes_records_it(  # type: ignore[no-untyped-def]
    project: Path, pytester, start_gateway
) -> None:
    suite_path = project / "evals" / "suite.json"
    suite = json.loads(suite_path.read_text(encoding="utf-8"))
    changed = next(c for c in suite["cases"] if c["id"] == "no_call-01")
    changed["messages"][0]["content"] += " Thanks!"
    suite_path.write_text(json.dumps(suite, indent=2), encoding="utf-8")
    # A gateway serving the edited suite: record keeps no answer a gateway made from another
    # suite (docs/commands/record.md, the suite the gateway serves).
    gateway = start_gateway(suite_path)
    before = len(gateway.requests_seen)

    once = run(pytester, gateway, "once")
    once.assert_outcomes(
        passed=len(CASES) - 1, skipped=1
    )  # arguments-02 recorded; no_call-01 has a cassette
    assert requests_for(gateway, before) == 1
    assert any("no_call-01" in line and line.startswith("SKIPPED") for line in once.stdout.lines)

    new_episodes = run(pytester, gateway, "new_episodes")
    new_episodes.assert_outcomes(passed=len(CASES))
    assert requests_for(gateway, before) == 2


def test_all_rerecords_only_the_selected_cases(  # type: ignore[no-untyped-def]
    project: Path,
    pytester,
    gateway,
) -> None:
    other = project / "cassettes" / "ref_oracle" / "selection-01.json"
    kept = other.read_bytes()
    before = len(gateway.requests_seen)
    result = run(pytester, gateway, "all", "-k", "arguments-01")
    result.assert_outcomes(passed=1)
    assert requests_for(gateway, before) == 1
    assert other.read_bytes() == kept


def test_a_new_model_is_recorded_from_nothing(
    pytester: pytest.Pytester, gateway: StandInGateway
) -> None:
    (pytester.path / "evals").mkdir()
    shutil.copy(MINI_SUITE, pytester.path / "evals" / "suite.json")
    result = run(pytester, gateway, "once", "-k", "selection-01 or no_call-01")
    result.assert_outcomes(passed=2)
    assert sorted(read_manifest(pytester.path / "cassettes" / "ref_oracle").cases) == [
        "no_call-01",
        "selection-01",
    ]


# never reached: with nothing to record, or no key, no request is sent
REMOTE = "https://gateway.invalid/v1"
NO_KEY = f"LOBSTACK_API_KEY is not set; it is needed for {REMOTE} (a loopback URL needs no key)"


def run_remote(pytester: pytest.Pytester, mode: str, *args: str) -> pytest.RunResult:
    options = [
        "--lobstack-cassettes",
        "cassettes",
        "--lobstack-record-mode",
        mode,
        "--lobstack-model",
        MODEL,
    ]
    return pytester.runpytest_subprocess(
        *INNER, *options, "--lobstack-base-url", REMOTE, *args, timeout=300
    )


@pytest.mark.parametrize("mode", ["once", "new_episodes"])
def test_a_record_mode_with_nothing_to_record_needs_no_key(
    project: Path, pytester, mode: str
) -> None:  # type: ignore[no-untyped-def]
    """As `record` (METHOD decision 91): every selected case is recorded, so nothing is sent and no
    key is asked for (LOBSTACK_API_KEY is unset in every test); the cases are judged from
    their cassettes."""
    result = run_remote(pytester, mode, "-k", f"not {MISSING}")
    result.assert_outcomes(passed=len(CASES) - 1)
    assert result.ret == 0
    assert not [line for line in result.stdout.lines if line.startswith("lobstack: recording")]


@pytest.mark.parametrize("mode", ["once", "new_episodes", "all"])
def test_a_record_mode_with_something_to_record_needs_the_key_before_any_test(
    project: Path, pytester, mode: str
) -> None:  # type: ignore[no-untyped-def]
    """Something to record and no key for a remote URL: the same line as before, and as `record`'s,
    once the plan is known and before any test runs or any request is sent (a usage error, exit
    4, as it was)."""
    selected = ["-k", MISSING] if mode != "all" else ["-k", "selection-01"]
    result = run_remote(pytester, mode, *selected)
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    assert f"ERROR: {NO_KEY}" in result.stderr.lines
    assert "Traceback" not in result.stderr.str() + result.stdout.str()
    assert not (project / "cassettes" / "ref_oracle" / f"{MISSING}.json").exists()


def test_a_new_model_without_the_key_leaves_no_folder(pytester: pytest.Pytester) -> None:
    (pytester.path / "evals").mkdir()
    shutil.copy(MINI_SUITE, pytester.path / "evals" / "suite.json")
    result = run_remote(pytester, "once", "-k", "selection-01")
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    assert f"ERROR: {NO_KEY}" in result.stderr.lines
    assert not (pytester.path / "cassettes").exists()


def test_collect_only_needs_no_key(project: Path, pytester) -> None:  # type: ignore[no-untyped-def]
    result = run_remote(pytester, "once", "--collect-only", "-q")
    assert result.ret == 0
    assert f"cassettes/ref_oracle::{MISSING}" in result.stdout.lines
