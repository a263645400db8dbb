"""Issue 40's "done when" for ``suite new``: an MCP server in the usual pydantic style (optional
nested models, Literal enums, an id pattern, email, date and date-time formats; it needs a token
in its environment to start) gives a suite with nothing left to decide, whose every reference
validates against the server's own inputSchema with formats checked, and which audits at 100%."""

from __future__ import annotations

import datetime
import json
import re
import sys
from pathlib import Path
from typing import Any

import pytest
from jsonschema import Draft202012Validator

from lobstack_eval.main import main
from tests.conftest import ROOT

pytestmark = [pytest.mark.slow, pytest.mark.timeout(120)]
SERVER = ROOT / "tests" / "fixtures" / "mcp_calendar" / "server.py"


def _checker() -> Any:
    """Draft 2020-12's format checker, plus date-time checked by the standard library (jsonschema
    checks it only with rfc3339-validator installed)."""
    from jsonschema import FormatChecker

    checker = FormatChecker(())
    checker.checkers = dict(Draft202012Validator.FORMAT_CHECKER.checkers)

    @checker.checks("date-time", raises=ValueError)
    def _date_time(value: object) -> bool:
        pattern = r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?(Z|[+-]\d\d:\d\d)"
        return not isinstance(value, str) or bool(
            re.fullmatch(pattern, value)
            and datetime.datetime.fromisoformat(value.replace("Z", "+00:00"))
        )

    return checker


@pytest.fixture(scope="module")
def drafted(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict[str, Any], str, str]:
    out = tmp_path_factory.mktemp("calendar") / "suite.json"
    capture = pytest.MonkeyPatch()
    capture.delenv("CALENDAR_TOKEN", raising=False)
    import contextlib
    import io

    said, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(said), contextlib.redirect_stderr(err):
        code = main(["suite", "new", str(out), "--mcp", f"{sys.executable} {SERVER}",
                     "--env", "CALENDAR_TOKEN=calendar-secret-42", "--released", "2026-12-05",
                     "--timeout", "60"])  # fmt: skip
    capture.undo()
    assert code == 0, err.getvalue()
    return out, json.loads(out.read_text(encoding="utf-8")), said.getvalue(), err.getvalue()


def test_nothing_is_left_to_decide(drafted: tuple[Path, dict[str, Any], str, str]) -> None:
    out, _, said, err = drafted
    assert "to decide" not in said + err
    assert said.splitlines()[-1].startswith("next: ")
    assert "calendar-secret-42" not in said + err + out.read_text(encoding="utf-8")
    assert "example-" not in out.read_text(encoding="utf-8")


def test_every_reference_validates_against_the_servers_schema_with_formats(
    drafted: tuple[Path, dict[str, Any], str, str],
) -> None:
    _, suite, _, _ = drafted
    schemas = {tool["name"]: tool["inputSchema"] for tool in suite["origin"]["tools"]}
    assert len(schemas) == 6
    checked = 0
    for case in suite["cases"]:
        for step in case["steps"]:
            for call in step.get("calls", []):
                validator = Draft202012Validator(schemas[call["name"]], format_checker=_checker())
                errors = [e.message for e in validator.iter_errors(call["reference"])]
                assert errors == [], (case["id"], call)
                checked += 1
    assert checked >= 11
    by_id = {case["id"]: case for case in suite["cases"]}
    full = by_id["args-create_event"]["steps"][0]["calls"][0]["reference"]
    assert full["attendees"][0]["email"] == "ana.silva@example.com"
    assert set(full["location"]) == {"room", "address", "online_url"}
    assert full["timezone"] == "Europe/Lisbon" and full["visibility"] in ("public", "private")
    event_id = by_id["select-get_event"]["steps"][0]["calls"][0]["reference"]["event_id"]
    assert re.fullmatch(r"evt_[0-9a-f]{8}", event_id)


def test_the_suite_checks_and_audits_at_100_percent(
    drafted: tuple[Path, dict[str, Any], str, str],
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    out = drafted[0]
    assert main(["suite", "check", str(out)]) == 0
    report = tmp_path / "audit.json"
    assert main(["suite", "audit", str(out), "--json", str(report)]) == 0
    capsys.readouterr()
    summary = json.loads(report.read_text(encoding="utf-8"))["summary"]
    assert summary["mutants_killed"] / summary["mutants_tried"] >= 0.9
    assert summary["rights_accepted"] == summary["rights_tried"] and summary["rejected"] == 0


def test_every_shape_is_drafted(drafted: tuple[Path, dict[str, Any], str, str]) -> None:
    groups = {case["group"] for case in drafted[1]["cases"]}
    assert groups == {"selection", "arguments", "near_misses", "parallel", "chains", "no_call"}


def test_a_chain_call_the_server_refuses_stops_unless_kept(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    command = f"{sys.executable} {SERVER}"
    args = ["suite", "new", "--mcp", command, "--env", "CALENDAR_TOKEN=calendar-secret-42",
            "--chain", 'get_event={"event_id": "nope"}', "--timeout", "60"]  # fmt: skip
    out = tmp_path / "a.json"
    assert main([*args[:2], str(out), *args[2:]]) == 1
    err = capsys.readouterr().err.splitlines()
    assert err[-1].startswith(
        f"error: --mcp {command}: --chain get_event: the server answered with an error: "
    )
    assert err[-1].endswith(
        "; nothing written (fix the arguments, or pass --keep-chain-errors to keep the error as "
        "the result)"
    )
    assert not out.exists()
    kept = tmp_path / "b.json"
    assert main([*args[:2], str(kept), *args[2:], "--keep-chain-errors"]) in (0, 1)
    capsys.readouterr()
    cases = {c["id"]: c for c in json.loads(kept.read_text(encoding="utf-8"))["cases"]}
    assert "event_id" in cases["chain-get_event"]["steps"][0]["calls"][0]["result"]


def test_ref_oracle_scores_100_percent_through_the_stand_in(
    drafted: tuple[Path, dict[str, Any], str, str],
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    """Every drafted shape (near misses, parallel, chains, no call) is answerable as written."""
    from recorder.record import record
    from recorder.settings import RecordSettings
    from standin import GatewayConfig, StandInGateway, parse_faults

    suite = drafted[0]
    ids = [case["id"] for case in drafted[1]["cases"]]
    with StandInGateway(GatewayConfig(suite_path=suite, faults=parse_faults(""))) as gateway:
        record(
            suite,
            "ref/oracle",
            tmp_path / "cassettes",
            gateway.url,
            ids,
            RecordSettings(concurrency=1),
        )
    reports = tmp_path / "reports"
    args = ["rescore", str(tmp_path / "cassettes"), "--suite", str(suite), "--out", str(reports)]
    assert main([*args, "-q"]) == 0
    capsys.readouterr()
    results = json.loads((reports / "ref_oracle" / "results.json").read_text(encoding="utf-8"))
    assert results["metrics"]["overall"]["rate"] == 100.0
    assert results["metrics"]["chains"]["count"] == results["metrics"]["chains"]["of"] >= 4
