"""The plugin records with the wire ``record`` takes (``--lobstack-dialect``, ``--lobstack-stream``,
``--lobstack-param`` as ``--dialect``, ``--stream``, ``--param``), end to end against the stand-in
gateway (port 0): the requests go to the dialect's path, streamed and with the settings, run.json
keeps the wire, and the cases are judged from what was recorded."""

from __future__ import annotations

import json
import shutil

import pytest

from recorder.manifest_read import read_manifest
from scorer.wire.settings import Wire
from standin import StandInGateway
from tests.conftest import MINI_SUITE
from tests.test_pytest_plugin import INNER

CASES = "selection-01 or no_call-01"


def run(pytester: pytest.Pytester, *args: str) -> pytest.RunResult:
    return pytester.runpytest_subprocess(
        *INNER, "--lobstack-cassettes", "cassettes", *args, timeout=300
    )


def refused(pytester: pytest.Pytester, *args: str) -> pytest.RunResult:
    """A run stopped before collection, in this process (a usage error records nothing, so
    pytester's restored sys.modules do not matter; a subprocess costs seconds of CPU)."""
    return pytester.runpytest_inprocess(
        "-p", "no:cacheprovider", "--lobstack-cassettes", "cassettes", *args
    )


@pytest.fixture
def project(pytester: pytest.Pytester) -> pytest.Pytester:
    (pytester.path / "evals").mkdir()
    shutil.copy(MINI_SUITE, pytester.path / "evals" / "suite.json")
    return pytester


def test_a_record_mode_records_with_the_dialect_streaming_and_settings_given(  # type: ignore[no-untyped-def]
    project, gateway: StandInGateway
) -> None:
    wire = ["--lobstack-dialect", "messages", "--lobstack-stream"]
    wire += ["--lobstack-param", "tool_choice=auto", "--lobstack-param", "max_tokens=2048"]
    result = run(
        project,
        *("--lobstack-record-mode", "once", "--lobstack-model", "ref/oracle"),
        *("--lobstack-base-url", gateway.url, "-k", CASES, *wire),
    )
    result.assert_outcomes(passed=2)
    bodies = [json.loads(body) for body in gateway.requests_seen]
    assert len(bodies) == 2
    assert all(b["stream"] is True and b["max_tokens"] == 2048 for b in bodies)
    assert all(b["tool_choice"] == {"type": "auto"} for b in bodies)  # Anthropic's form of auto
    assert all("messages" in b and "input" not in b for b in bodies)
    manifest = read_manifest(project.path / "cassettes" / "ref_oracle")
    params = (("max_tokens", "2048"), ("tool_choice", '"auto"'))
    assert manifest.wire == Wire("messages", True, params)
    assert {entry.status for entry in manifest.cases.values()} == {"passed"}
    # Judged again without the network, with the wire run.json keeps
    again = run(project, "-k", CASES)
    again.assert_outcomes(passed=2)
    assert len(gateway.requests_seen) == 2


def test_no_wire_option_records_the_methods_request(  # type: ignore[no-untyped-def]
    project, gateway: StandInGateway
) -> None:
    options = ("--lobstack-record-mode", "once", "--lobstack-model", "ref/oracle")
    result = run(project, *options, "--lobstack-base-url", gateway.url, "-k", "selection-01")
    result.assert_outcomes(passed=1)
    [body] = [json.loads(body) for body in gateway.requests_seen]
    assert "stream" not in body and body["temperature"] == 0 and "messages" in body
    assert read_manifest(project.path / "cassettes" / "ref_oracle").wire == Wire()


@pytest.mark.parametrize(
    ("args", "line"),
    [
        (
            ["--lobstack-dialect", "grpc"],
            "ERROR: --lobstack-dialect: unknown API dialect 'grpc'; known: chat, messages, "
            "responses",
        ),
        (
            ["--lobstack-param", "header.Authorization=Bearer x"],
            "ERROR: --lobstack-param header.Authorization: a key never goes in "
            "--lobstack-param (run.json keeps it): set LOBSTACK_API_KEY",
        ),
    ],
)
def test_a_bad_wire_option_is_a_usage_error_before_anything_runs(  # type: ignore[no-untyped-def]
    project, gateway: StandInGateway, args: list[str], line: str
) -> None:
    options = ("--lobstack-record-mode", "once", "--lobstack-model", "ref/oracle")
    result = refused(project, *options, "--lobstack-base-url", gateway.url, *args)
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    assert line in result.stderr.lines
    assert gateway.requests_seen == []
    assert "Traceback" not in result.stderr.str()


def test_a_wire_option_without_a_record_mode_is_a_usage_error(project) -> None:  # type: ignore[no-untyped-def]
    result = refused(project, "--lobstack-stream")
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    assert (
        "ERROR: --lobstack-stream needs --lobstack-record-mode once, new_episodes or all (a "
        "cassette replays with the wire it was recorded with)"
    ) in result.stderr.lines
