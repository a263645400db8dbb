"""Recorded six ways (three dialects, streamed or not) through the stand-in: the oracle passes
everything, ref/noisy gets the same verdicts in all six, rescore agrees with the recorder, and
the streaming faults are decoded as meant (quirks) or named (transport anomalies)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from recorder.record import record
from recorder.settings import RecordSettings
from recorder.slug import checked_model_slug
from replay.score_models import rescore_model
from scorer.wire.settings import Wire
from tests.conftest import MINI_SUITE

WAYS = [Wire(d, s) for d in ("chat", "responses", "messages") for s in (False, True)]
CASES = ["selection-01", "arguments-01", "no_call-01", "parallel-01", "chains-01"]


def _record(url: str, model: str, wire: Wire, where: Path) -> dict[str, str]:
    """Record ``CASES`` and rescore them: each case's status (rescore's, checked against
    the recorder's)."""
    summary = record(MINI_SUITE, model, where, url, CASES, RecordSettings(concurrency=1, wire=wire))
    from recorder.files import read_suite

    results = rescore_model(where / checked_model_slug(model), read_suite(MINI_SUITE))
    rescored = {r["id"]: r["status"] for r in results["results"] if r["id"] in CASES}
    assert rescored == summary.statuses  # replay reads the stream as recording did
    return rescored


@pytest.fixture(scope="module")
def verdicts(tmp_path_factory) -> dict[tuple[str, Wire], dict[str, str]]:  # type: ignore[no-untyped-def]
    from standin.config import GatewayConfig
    from standin.server import StandInGateway

    gateway = StandInGateway(GatewayConfig(suite_path=MINI_SUITE)).start()
    try:
        root = tmp_path_factory.mktemp("ways")
        return {
            (model, wire): _record(gateway.url, model, wire, root / f"{model[4:]}-{wire.label()}")
            for model in ("ref/oracle", "ref/noisy")
            for wire in WAYS
        }
    finally:
        gateway.stop()


@pytest.mark.parametrize("wire", WAYS, ids=lambda w: w.label())
def test_the_oracle_passes_every_case_in_every_way(verdicts, wire: Wire) -> None:  # type: ignore[no-untyped-def]
    assert verdicts[("ref/oracle", wire)] == dict.fromkeys(CASES, "passed")


@pytest.mark.parametrize("wire", WAYS[1:], ids=lambda w: w.label())
def test_noisy_gets_the_same_verdicts_in_every_way(verdicts, wire: Wire) -> None:  # type: ignore[no-untyped-def]
    chat = verdicts[("ref/noisy", WAYS[0])]
    assert "failed" in chat.values() and "passed" in chat.values()  # the comparison can fail
    assert verdicts[("ref/noisy", wire)] == chat


def test_run_json_keeps_the_wire_and_the_default_writes_none(start_gateway, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    gateway = start_gateway()
    wire = Wire("messages", True, (("max_tokens", "512"),))
    record(
        MINI_SUITE,
        "ref/oracle",
        tmp_path / "m",
        gateway.url,
        ["no_call-01"],
        RecordSettings(concurrency=1, wire=wire),
    )
    record(
        MINI_SUITE,
        "ref/oracle",
        tmp_path / "c",
        gateway.url,
        ["no_call-01"],
        RecordSettings(concurrency=1),
    )
    kept = json.loads((tmp_path / "m/ref_oracle/run.json").read_text())
    assert (kept["dialect"], kept["stream"], kept["params"]) == (
        "messages",
        True,
        {"max_tokens": 512},
    )
    plain = json.loads((tmp_path / "c/ref_oracle/run.json").read_text())
    assert not {"dialect", "stream", "params"} & set(plain)
    [streamed] = kept["cases"]["no_call-01"]["attempts"]
    assert 0 < streamed["first_byte_ms"] <= streamed["wall_ms"]  # time to first byte, beside
    assert "first_byte_ms" not in plain["cases"]["no_call-01"]["attempts"][0]
    body = json.loads(gateway.requests_seen[0])
    assert body["max_tokens"] == 512 and body["stream"] is True


@pytest.mark.parametrize(
    ("fault", "dialect"),
    [
        ("stream-doneonly", "responses"),
        ("stream-index1", "chat"),
        ("stream-index0", "chat"),
        ("stream-emptyfrag", "chat"),
        ("stream-splitescape", "messages"),
        ("stream-emptyfrag", "messages"),
    ],
)
def test_stream_quirks_are_decoded_as_meant(start_gateway, tmp_path: Path, fault, dialect) -> None:  # type: ignore[no-untyped-def]
    gateway = start_gateway()
    model = f"ref/oracle~{fault}"
    statuses = _record(gateway.url, model, Wire(dialect, True), tmp_path)
    assert statuses == dict.fromkeys(CASES, "passed")


@pytest.mark.parametrize(
    ("fault", "dialect", "named"),
    [
        ("stream-dropcall", "chat", "the stop reason says calls, and no call came"),
        ("stream-dropcall", "messages", "the stop reason says calls, and no call came"),
        ("stream-noargs", "chat", "a call with a name and no arguments"),
        ("stream-noargs", "responses", "a call with a name and no arguments"),
    ],
)
def test_stream_anomalies_fail_and_are_named(
    start_gateway, tmp_path: Path, fault, dialect, named
) -> None:  # type: ignore[no-untyped-def]
    from recorder.files import read_suite

    gateway = start_gateway()
    model = f"ref/oracle~{fault}"
    record(
        MINI_SUITE,
        model,
        tmp_path,
        gateway.url,
        CASES,
        RecordSettings(concurrency=1, wire=Wire(dialect, True)),
    )
    results = rescore_model(tmp_path / checked_model_slug(model), read_suite(MINI_SUITE))
    by_id = {r["id"]: r for r in results["results"]}
    assert by_id["selection-01"]["status"] == "failed"
    assert f"(transport anomaly: {named})" in by_id["selection-01"]["reason"]
    assert results["transport_anomalies"]["kinds"][named] >= 1
    assert by_id["no_call-01"]["status"] == "passed"  # no call, nothing to lose


def test_an_error_event_mid_stream_errors_the_case(start_gateway, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    gateway = start_gateway()
    for dialect in ("chat", "responses", "messages"):
        where = tmp_path / dialect
        summary = record(
            MINI_SUITE,
            "ref/oracle~stream-error",
            where,
            gateway.url,
            ["selection-01"],
            RecordSettings(concurrency=1, wire=Wire(dialect, True)),
        )
        assert summary.statuses == {"selection-01": "errored"}, dialect


@pytest.mark.parametrize("dialect", ["chat", "responses", "messages"])
def test_a_cut_off_stream_is_judged_on_what_came_and_named(  # type: ignore[no-untyped-def]
    start_gateway, tmp_path: Path, dialect
) -> None:
    from recorder.files import read_suite

    gateway = start_gateway()
    model = "ref/oracle~stream-cut"
    record(
        MINI_SUITE,
        model,
        tmp_path,
        gateway.url,
        ["selection-01"],
        RecordSettings(concurrency=1, wire=Wire(dialect, True)),
    )
    results = rescore_model(tmp_path / checked_model_slug(model), read_suite(MINI_SUITE))
    assert results["transport_anomalies"] == {
        "cases": 1,
        "kinds": {"the stream was cut off before its last event": 1},
    }


@pytest.mark.parametrize(
    ("dialect", "stream", "why"),
    [
        ("chat", False, "finish_reason is length"),
        ("chat", True, "finish_reason is length"),
        ("responses", True, "status is incomplete (max_output_tokens)"),
        ("messages", True, "stop_reason is max_tokens"),
    ],
)
def test_arguments_cut_by_max_tokens_fail_and_say_why(  # type: ignore[no-untyped-def]
    start_gateway, tmp_path: Path, dialect, stream, why
) -> None:
    from recorder.files import read_suite

    gateway = start_gateway()
    model = "ref/oracle~cut-args"
    record(
        MINI_SUITE,
        model,
        tmp_path,
        gateway.url,
        ["selection-01"],
        RecordSettings(concurrency=1, wire=Wire(dialect, stream)),
    )
    results = rescore_model(tmp_path / checked_model_slug(model), read_suite(MINI_SUITE))
    case = next(r for r in results["results"] if r["id"] == "selection-01")
    assert case["status"] == "failed"
    assert case["reason"].endswith(f"not a JSON object (the answer was cut off: {why})")


@pytest.mark.parametrize("model", ["ref/reasoning", "ref/gemini-style"])
def test_a_streamed_chain_echoes_the_providers_own_fields(  # type: ignore[no-untyped-def]
    start_gateway, tmp_path: Path, model
) -> None:
    """reasoning_content/reasoning_details and Gemini's thought signatures come in the stream's
    deltas; the assembled answer keeps them, so the chain's follow-up is not refused."""
    gateway = start_gateway()
    summary = record(
        MINI_SUITE,
        model,
        tmp_path,
        gateway.url,
        ["chains-01"],
        RecordSettings(concurrency=1, wire=Wire("chat", True)),
    )
    assert summary.statuses == {"chains-01": "passed"}
