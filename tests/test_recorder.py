"""Recording against the stand-in gateway: requests, retries, errors, secrets,
atomicity, concurrency."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from lobstack_eval.main import main
from recorder.client import call_with_retries
from recorder.files import read_suite
from recorder.manifest_read import read_manifest
from recorder.record import record
from recorder.settings import RecordSettings
from recorder.transport import HttpRequest, RequestsTransport
from replay.rescore import rescore_model
from tests.conftest import MINI_SUITE, ROOT, interactions, request_json
from tests.record_helpers import live_members, wait_until

SUITE = read_suite(MINI_SUITE)
ALL = [case.id for case in SUITE.cases]
CHAIN = next(c for c in SUITE.cases if len(c.steps) >= 3)


def run(  # type: ignore[no-untyped-def]
    gateway,
    tmp_path: Path,
    model: str,
    cases=None,
    **options,
) -> Path:
    options.setdefault("concurrency", 1)
    options.setdefault("sleep", lambda _s: None)
    fields = RecordSettings.__dataclass_fields__
    settings = RecordSettings(**{k: v for k, v in options.items() if k in fields})
    rest = {k: v for k, v in options.items() if k not in fields}
    summary = record(
        MINI_SUITE, model, tmp_path / "cas", gateway.url, cases or ALL, settings, **rest
    )
    return summary.model_dir


def test_oracle_records_every_case_and_scores_100(gateway, tmp_path: Path) -> None:
    model_dir = run(gateway, tmp_path, "ref/oracle", concurrency=4)
    assert sorted(p.stem for p in model_dir.glob("*.json") if p.name != "run.json") == sorted(ALL)
    results = rescore_model(model_dir, SUITE)
    assert results["metrics"]["overall"] == {
        "count": len(ALL),
        "of": len(ALL),
        "rate": 100.0,
        "ci": results["metrics"]["overall"]["ci"],
    }
    # The chain needed one request per step, each answered once.
    assert len(interactions(model_dir / f"{CHAIN.id}.json")) == len(CHAIN.steps)


def test_request_is_exactly_the_methods(gateway, tmp_path: Path) -> None:
    model_dir = run(gateway, tmp_path, "ref/oracle", [CHAIN.id])
    bodies = [request_json(i) for i in interactions(model_dir / f"{CHAIN.id}.json")]
    for body in bodies:
        assert set(body) == {"model", "messages", "tools", "temperature"}
        assert body["temperature"] == 0 and body["model"] == "ref/oracle"
        assert body["messages"][0] == {"role": "system", "content": SUITE.system_prompt}
        assert [t["function"]["name"] for t in body["tools"]] == list(CHAIN.tools)
    # Step 2 carries the model's own tool calls and the scripted results of the matched calls.
    second = bodies[1]["messages"]
    assistant, tool_messages = second[1 + len(CHAIN.messages)], second[2 + len(CHAIN.messages) :]
    assert assistant["role"] == "assistant" and len(assistant["tool_calls"]) == len(
        CHAIN.steps[0].calls
    )
    assert [m["content"] for m in tool_messages] == [c.result for c in CHAIN.steps[0].calls]
    assert [m["tool_call_id"] for m in tool_messages] == [c["id"] for c in assistant["tool_calls"]]


def test_429_then_200_is_retried_and_scored(gateway, tmp_path: Path) -> None:
    sleeps: list[float] = []
    model_dir = run(gateway, tmp_path, "ref/oracle~429,200", [ALL[0]], sleep=sleeps.append)
    entry = read_manifest(model_dir).cases[ALL[0]]
    assert [a.outcome for a in entry.attempts] == ["http_429", "ok"] and entry.status == "passed"
    assert sleeps == [1.0]
    assert rescore_model(model_dir, SUITE)["results"][0]["status"] == "passed"


def test_503_four_times_is_errored_after_exactly_four_attempts(gateway, tmp_path: Path) -> None:
    sleeps: list[float] = []
    model_dir = run(gateway, tmp_path, "ref/oracle~503,503,503,503", [ALL[0]], sleep=sleeps.append)
    entry = read_manifest(model_dir).cases[ALL[0]]
    assert [a.outcome for a in entry.attempts] == ["http_503"] * 4
    assert sleeps == [1.0, 2.0, 4.0]
    assert entry.status == "errored" and entry.errored_by_transport
    assert len(interactions(model_dir / f"{ALL[0]}.json")) == 4


def test_400_is_errored_after_one_attempt(gateway, tmp_path: Path) -> None:
    sleeps: list[float] = []
    model_dir = run(gateway, tmp_path, "ref/oracle~400", [ALL[0]], sleep=sleeps.append)
    entry = read_manifest(model_dir).cases[ALL[0]]
    assert [a.outcome for a in entry.attempts] == ["http_400"] and sleeps == []
    assert entry.status == "errored" and not entry.errored_by_transport
    assert rescore_model(model_dir, SUITE)["cases"]["errored"] == 1


@pytest.mark.parametrize("fault", ["drop", "timeout"])
def test_dropped_connection_and_timeout_are_retried(
    start_gateway, tmp_path: Path, fault: str
) -> None:
    gateway = start_gateway(timeout_sleep_s=2.0)
    model_dir = run(gateway, tmp_path, f"ref/oracle~{fault},200", [ALL[0]], timeout_s=0.5)
    entry = read_manifest(model_dir).cases[ALL[0]]
    expected = "timeout" if fault == "timeout" else "network_error"
    assert [a.outcome for a in entry.attempts] == [expected, "ok"] and entry.status == "passed"
    # Transport failures are not in the cassette; replay serves them from the manifest.
    assert len(interactions(model_dir / f"{ALL[0]}.json")) == 1
    result = rescore_model(model_dir, SUITE)["results"][0]
    assert result["status"] == "passed" and [a["outcome"] for a in result["attempts"]] == [
        expected,
        "ok",
    ]


def test_garbage_200_is_errored_as_malformed(gateway, tmp_path: Path) -> None:
    model_dir = run(gateway, tmp_path, "ref/oracle~garbage", [ALL[0]])
    entry = read_manifest(model_dir).cases[ALL[0]]
    assert len(entry.attempts) == 1 and entry.status == "errored"
    assert "malformed response" in (entry.reason or "")
    assert "malformed response" in rescore_model(model_dir, SUITE)["results"][0]["reason"]


def test_dropped_temperature_sets_temperature_ignored(gateway, tmp_path: Path) -> None:
    """results.json computes it from the answers' headers, and run.json, written at record time,
    says the same (it was written false for every run before)."""
    dropped = run(gateway, tmp_path, "ref/no-temperature", ALL[:2])
    assert rescore_model(dropped, SUITE)["temperature_ignored"] is True
    manifest = json.loads((dropped / "run.json").read_text(encoding="utf-8"))
    assert manifest["temperature_ignored"] is True
    assert all(a["temperature_dropped"] is True for a in manifest["cases"][ALL[0]]["attempts"])
    assert read_manifest(dropped).dropped_temperature() is True
    kept = run(gateway, tmp_path, "ref/oracle", ALL[:2])
    assert rescore_model(kept, SUITE)["temperature_ignored"] is False
    manifest = json.loads((kept / "run.json").read_text(encoding="utf-8"))
    assert manifest["temperature_ignored"] is False
    # only when true: an attempt of a run that kept temperature reads as it always did
    assert all("temperature_dropped" not in a for a in manifest["cases"][ALL[0]]["attempts"])


def test_no_secret_in_any_cassette(
    gateway, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    key = "sk-lobstack-test-0123456789abcdef"
    monkeypatch.setenv("LOBSTACK_API_KEY", key)
    run(gateway, tmp_path, "ref/oracle", ALL, concurrency=2)
    for path in (tmp_path / "cas").rglob("*"):
        if path.is_file():
            text = path.read_text(encoding="utf-8")
            assert key not in text and "0123456789abcdef" not in text, path
            assert "authorization" not in text.lower(), path


def test_concurrent_cassettes_hold_only_their_own_case(gateway, tmp_path: Path) -> None:
    model_dir = run(gateway, tmp_path, "ref/oracle", ALL, concurrency=4)
    for case in SUITE.cases:
        recorded = interactions(model_dir / f"{case.id}.json")
        assert recorded, case.id
        for interaction in recorded:
            messages = request_json(interaction)["messages"]
            assert messages[1 : 1 + len(case.messages)] == list(case.messages), case.id


def test_remote_url_without_key_fails_before_any_request(  # type: ignore[no-untyped-def]
    tmp_path: Path,
    capsys,
) -> None:
    code = main(
        [
            "record",
            "--model",
            "m",
            "--suite",
            str(MINI_SUITE),
            "--cassettes",
            str(tmp_path),
            "--base-url",
            "https://gateway.invalid/v1",
        ]
    )
    assert code == 1
    assert capsys.readouterr().err.strip() == (
        "error: LOBSTACK_API_KEY is not set; it is needed for https://gateway.invalid/v1 (a "
        "loopback URL needs no key)"
    )
    assert not any(tmp_path.iterdir())


def _committed_oracle(tmp_path: Path) -> tuple[Path, list[str]]:
    """A copy of the committed ref/oracle recordings and the record command on them (default
    gateway, no key)."""
    shutil.copytree(ROOT / "cassettes" / "ref_oracle", tmp_path / "cas" / "ref_oracle")
    suite = ROOT / "evals" / "suite.json"
    return tmp_path / "cas", [
        "record",
        "--model",
        "ref/oracle",
        "--suite",
        str(suite),
        "--cassettes",
        str(tmp_path / "cas"),
    ]


def _tree(root: Path) -> dict[str, bytes]:
    return {
        str(p.relative_to(root)): p.read_bytes() for p in sorted(root.rglob("*")) if p.is_file()
    }


def test_nothing_to_record_needs_no_key(  # type: ignore[no-untyped-def]
    tmp_path: Path,
    capsys,
) -> None:
    """Every case recorded: record plans first, says so and exits 0 without asking for
    LOBSTACK_API_KEY."""
    cassettes, args = _committed_oracle(tmp_path)
    before = _tree(cassettes)
    assert main(args) == 0
    model_dir = cassettes / "ref_oracle"
    assert capsys.readouterr().err.splitlines() == [
        f"Nothing to record: all 80 case(s) of ref/oracle are recorded in {model_dir}; --rerecord "
        "records them again.",
        f"next: lobstack-eval rescore {cassettes} --suite {ROOT / 'evals' / 'suite.json'}",
    ]
    assert main([*args, "--case", "selection-01", "--case", "chains-01", "--repeats", "1"]) == 0
    assert "all 2 selected case(s) of ref/oracle are recorded" in capsys.readouterr().err
    assert _tree(cassettes) == before  # nothing written, no lock file left


def test_something_to_record_still_needs_the_key(  # type: ignore[no-untyped-def]
    tmp_path: Path,
    capsys,
) -> None:
    """A missing cassette, or --rerecord, is something to record: the key error as before,
    nothing touched."""
    cassettes, args = _committed_oracle(tmp_path)
    (cassettes / "ref_oracle" / "selection-01.json").unlink()
    before = _tree(cassettes)
    key_line = (
        "error: LOBSTACK_API_KEY is not set; it is needed for "
        "https://www.lobstack.ai/api/gateway/v1 (a loopback URL needs no key)"
    )
    for extra in ([], ["--case", "chains-01", "--rerecord"]):
        assert main([*args, *extra]) == 1
        assert capsys.readouterr().err.strip() == key_line
    assert _tree(cassettes) == before


def test_resume_records_only_what_is_missing(  # type: ignore[no-untyped-def]
    gateway,
    tmp_path: Path,
    capsys,
) -> None:
    args = [
        "record",
        "--model",
        "ref/oracle",
        "--suite",
        str(MINI_SUITE),
        "--cassettes",
        str(tmp_path / "cas"),
        "--base-url",
        gateway.url,
        "--concurrency",
        "1",
    ]
    assert main([*args, "--case", ALL[0], "--case", ALL[1]]) == 0
    seen = len(gateway.requests_seen)
    assert main(args) == 0
    assert f"Recording {len(ALL) - 2} case(s)" in capsys.readouterr().err
    after = len(gateway.requests_seen)
    assert main(args) == 0
    assert "Nothing to record" in capsys.readouterr().err
    assert len(gateway.requests_seen) == after > seen
    assert main([*args, "--case", ALL[0], "--rerecord"]) == 0
    assert len(gateway.requests_seen) == after + len(SUITE.case(ALL[0]).steps)


def test_transport_errored_cases_are_recorded_again(gateway, tmp_path: Path) -> None:
    cassettes = tmp_path / "cas"
    record(
        MINI_SUITE,
        "ref/oracle~503,503,503,503",
        cassettes,
        gateway.url,
        [ALL[0]],
        RecordSettings(concurrency=1),
        sleep=lambda _s: None,
    )
    from replay.plan import cases_to_record

    assert cases_to_record(cassettes, "ref/oracle~503,503,503,503", SUITE) == ALL


def test_client_sends_no_extra_request(gateway) -> None:
    transport = RequestsTransport(None)
    body = {
        "model": "ref/oracle~400",
        "messages": [{"role": "user", "content": "hi"}],
        "tools": [],
        "temperature": 0,
    }
    result = call_with_retries(
        transport, HttpRequest(f"{gateway.url}/chat/completions", body), 0, lambda _s: None
    )
    assert result.failure is not None and result.failure.startswith("HTTP 400")
    assert len(gateway.requests_seen) == 1
    assert json.loads(gateway.requests_seen[0]) == body


def test_kill_9_then_resume_equals_an_uninterrupted_run(start_gateway, tmp_path: Path) -> None:
    import os
    import signal
    import subprocess
    import sys

    gateway = start_gateway(latency_ms=150)
    cassettes = tmp_path / "killed"
    command = [
        sys.executable,
        "-m",
        "lobstack_eval",
        "record",
        "--model",
        "ref/noisy",
        "--suite",
        str(MINI_SUITE),
        "--cassettes",
        str(cassettes),
        "--base-url",
        gateway.url,
        "--concurrency",
        "2",
    ]
    process = subprocess.Popen(
        command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True
    )
    manifest = cassettes / "ref_noisy" / "run.json"
    try:
        wait_until(
            lambda: (
                manifest.exists()
                and len(json.loads(manifest.read_text() or "{}").get("cases", {})) >= 2
            ),
            "two cases in the manifest",
        )
    finally:
        os.killpg(process.pid, signal.SIGKILL)  # the recorder and its workers, mid-run
        process.wait(timeout=30)
    wait_until(lambda: not live_members(process.pid), "the killed run's processes to end")
    killed = read_manifest(cassettes / "ref_noisy")
    assert 2 <= len(killed.cases) < len(ALL), "the kill should land mid-run"
    for case_id in killed.cases:  # whatever survived is whole and agrees with the manifest
        answered = sum(a.answered for a in killed.cases[case_id].attempts)
        assert len(interactions(cassettes / "ref_noisy" / f"{case_id}.json")) == answered

    record(
        MINI_SUITE,
        "ref/noisy",
        cassettes,
        gateway.url,
        _missing(cassettes),
        RecordSettings(concurrency=2),
    )
    whole = run(gateway, tmp_path, "ref/noisy", concurrency=2)
    resumed, reference = rescore_model(cassettes / "ref_noisy", SUITE), rescore_model(whole, SUITE)
    assert [r["status"] for r in resumed["results"]] == [r["status"] for r in reference["results"]]
    for case in SUITE.cases:
        entry = read_manifest(cassettes / "ref_noisy").cases[case.id]
        assert len(interactions(cassettes / "ref_noisy" / f"{case.id}.json")) == sum(
            a.answered for a in entry.attempts
        )
    assert not (cassettes / "ref_noisy" / ".partial").exists()


def _missing(cassettes: Path) -> list[str]:
    from replay.plan import cases_to_record

    return cases_to_record(cassettes, "ref/noisy", SUITE)


def test_record_prepares_the_model_dir_once_and_passes_on_what_it_adopted(  # type: ignore[no-untyped-def]
    gateway, tmp_path: Path, capsys, monkeypatch
) -> None:
    import recorder.record as recording

    prepared: list[list[object]] = []
    summaries = []
    prepare, record_cases = recording.prepare_model_dir, recording.record

    def counting_prepare(*args, **kwargs):  # type: ignore[no-untyped-def]
        model_dir, adopted = prepare(*args, **kwargs)
        prepared.append(adopted)
        return model_dir, adopted

    def keeping_record(*args, **kwargs):  # type: ignore[no-untyped-def]
        summaries.append(record_cases(*args, **kwargs))
        return summaries[-1]

    import recorder.model_dir as model_dirs

    monkeypatch.setattr(recording, "prepare_model_dir", counting_prepare)
    monkeypatch.setattr(model_dirs, "prepare_model_dir", counting_prepare)
    monkeypatch.setattr(recording, "record", keeping_record)
    args = ["record", "--model", "ref/oracle", "--suite", str(MINI_SUITE)]
    args += ["--cassettes", str(tmp_path / "cas"), "--base-url", gateway.url, "--case", ALL[0]]
    assert main([*args, "--concurrency", "1"]) == 0
    assert "Recording 1 case(s)" in capsys.readouterr().err
    assert prepared == [[]]  # once per record, by the CLI (before planning), not again inside
    assert [s.recorded for s in summaries] == [(ALL[0],)]
    assert summaries[0].adopted == ()
