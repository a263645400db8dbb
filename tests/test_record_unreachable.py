"""`record` against a base URL where no gateway answers (nothing listening: a common first slip)
stops after the first 3 case-runs, each after its full retries, with one error line naming the URL
(docs/decisions/recording.md#stop-when-unreachable); a gateway that accepts and never answers (a
timeout) is not that, and a run with nothing but transport errors exits 1
(docs/decisions/recording.md#a-run-with-only-transport-errors-fails)."""

from __future__ import annotations

import json
import socket
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
import requests
import urllib3
from urllib3.exceptions import MaxRetryError, NewConnectionError

from lobstack_eval.main import main
from recorder.files import read_suite
from recorder.futile import FutileWatch
from recorder.manifest import RecordedAttempt, RecordedCase
from recorder.unreachable import no_connection_cause, no_connection_text
from replay.rescore import rescore_model
from tests.conftest import MINI_SUITE
from tests.record_helpers import record_args

SUITE = read_suite(MINI_SUITE)
ALL = [case.id for case in SUITE.cases]


def closed_port() -> int:
    """A loopback port with nothing listening: bound by the kernel's choice, then closed."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


@contextmanager
def never_answers() -> Iterator[int]:
    """A loopback port that accepts connections (the kernel's backlog) and never answers."""
    with socket.socket() as listener:
        listener.bind(("127.0.0.1", 0))
        listener.listen(64)
        yield listener.getsockname()[1]


def _record(url: str, cassettes: Path, *extra: str, model: str = "ref/oracle") -> int:
    return main(["record", *record_args(model, cassettes, url, "--concurrency", "3", *extra)])


def _progress(err: str) -> list[str]:
    return [line for line in err.splitlines() if line.startswith("[")]


def test_no_gateway_at_the_base_url_stops_after_three_case_runs_and_leaves_nothing(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    port = closed_port()
    url = f"http://127.0.0.1:{port}/v1"
    cassettes = tmp_path / "cas"
    assert _record(url, cassettes) == 1
    err = capsys.readouterr().err
    last = err.strip().splitlines()[-1]
    assert last == (
        f"error: no gateway answered at {url}: the first 3 case-runs for ref/oracle could not "
        "connect, each after its retries (connection refused); stopped before sending the rest. "
        "Is the gateway running? For the local stand-in, start it with `lobstack-eval gateway`; "
        f"else check --base-url ({cassettes / 'ref_oracle'} was made by this run and held only "
        "these transport errors, so it is removed)"
    )
    # Three workers, three case-runs: none other was started while the first were counted.
    lines = _progress(err)
    assert len(lines) == 3 < len(ALL)
    for line in lines:  # the reason says where and why, not urllib3's text cut at 200 characters
        assert line.endswith(
            f"errored: step 1: network_error after 4 attempt(s): could not connect to "
            f"127.0.0.1:{port}: connection refused"
        )
    assert not cassettes.exists()  # made by this run, nothing answered: nothing left behind


def test_an_unreachable_run_keeps_a_model_dir_that_was_there_and_resumes_cleanly(
    start_gateway, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    cassettes = tmp_path / "cas"
    model_dir = cassettes / "ref_oracle"
    first = start_gateway()
    assert _record(first.url, cassettes, "--case", ALL[0], "--case", ALL[1]) == 0
    before = {c: (model_dir / f"{c}.json").read_bytes() for c in ALL[:2]}
    capsys.readouterr()

    url = f"http://127.0.0.1:{closed_port()}/v1"
    assert _record(url, cassettes) == 1
    err = capsys.readouterr().err
    last = err.strip().splitlines()[-1]
    assert last.startswith(f"error: no gateway answered at {url}: the first 3 case-runs")
    assert last.endswith(
        "(the case-runs are kept as transport errors; the same command records them again)"
    )
    cases = json.loads((model_dir / "run.json").read_text(encoding="utf-8"))["cases"]
    assert len(cases) == 2 + 3
    failed = [c for c in cases if c not in ALL[:2]]
    assert all(cases[c]["status"] == "errored" for c in failed)
    assert all(
        [a["outcome"] for a in cases[c]["attempts"]] == ["network_error"] * 4 for c in failed
    )
    assert {c: (model_dir / f"{c}.json").read_bytes() for c in ALL[:2]} == before
    assert not (model_dir / ".partial").exists() and not (model_dir / ".lock").exists()

    # The gateway is up again (another port: a loopback endpoint is the same endpoint): the same
    # command records exactly what is missing, the transport errors included.
    again = start_gateway()
    assert _record(again.url, cassettes) == 0
    err = capsys.readouterr().err
    assert len(_progress(err)) == len(ALL) - 2
    statuses = {r["id"]: r["status"] for r in rescore_model(model_dir, SUITE)["results"]}
    assert set(statuses) == set(ALL) and set(statuses.values()) == {"passed"}


def test_a_gateway_that_never_answers_is_not_unreachable_and_a_run_of_timeouts_exits_1(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Connections are accepted, no answer comes: each attempt times out. That is a live (busy)
    gateway, so the run is not stopped: the fourth case is started after the first three are
    counted. Nothing of the run can be scored, so it exits 1."""
    cassettes = tmp_path / "cas"
    with never_answers() as port:
        url = f"http://127.0.0.1:{port}/v1"
        assert _record(url, cassettes, "--timeout", "0.5", *_cases(4)) == 1
    err = capsys.readouterr().err
    assert "no gateway answered" not in err
    assert len(_progress(err)) == 4
    assert all(" errored: step 1: timeout after 4 attempt(s)" in line for line in _progress(err))
    lines = err.strip().splitlines()
    assert (
        lines[-2].startswith("Recorded 4 case(s) of ref/oracle in ")
        and ": 0 passed, 0 failed, 4 errored (4 by transport errors: run the same command again"
        in (lines[-2])
    )
    assert lines[-1] == (
        f"error: nothing of this run can be scored: all 4 case(s) errored by transport errors at "
        f"{url} (no answer in time, no connection, or 429/502/503/504 after every retry); run the "
        "same command again to retry them"
    )
    # the model dir was made by this run, but the run was not stopped as futile: it is kept, and
    # the next run asks these cases again
    cases = json.loads((cassettes / "ref_oracle" / "run.json").read_text(encoding="utf-8"))
    assert sorted(cases["cases"]) == sorted(ALL[:4])


def _cases(n: int) -> list[str]:
    return [arg for case in ALL[:n] for arg in ("--case", case)]


# --- which failures are "no connection" -----------------------------------------------------------


def _as_requests_raises(reason: Exception) -> requests.ConnectionError:
    """``reason`` wrapped the way requests raises it (ConnectionError of a MaxRetryError)."""
    pool = urllib3.HTTPConnectionPool("gateway.example", 443)
    return requests.ConnectionError(MaxRetryError(pool, "/v1/chat/completions", reason))


def _raised_from(error: Exception, cause: BaseException) -> Exception:
    try:
        raise error from cause
    except Exception as caught:
        return caught


def test_a_refused_connection_a_failed_lookup_and_no_route_are_no_connection() -> None:
    conn = urllib3.connection.HTTPConnection("gateway.example", 443)
    refused = _raised_from(
        NewConnectionError(conn, "Failed to establish a new connection"),
        ConnectionRefusedError(111, "Connection refused"),
    )
    assert no_connection_cause(_as_requests_raises(refused)) == "connection refused"
    unroutable = _raised_from(
        NewConnectionError(conn, "Failed to establish a new connection"),
        OSError(113, "No route to host"),
    )
    assert no_connection_cause(_as_requests_raises(unroutable)) == "no route to host"
    lookup = _raised_from(
        NewConnectionError(conn, "Failed to resolve"),
        socket.gaierror(-2, "Name or service not known"),
    )
    assert no_connection_cause(_as_requests_raises(lookup)) == (
        "the host name did not resolve (Name or service not known)"
    )
    assert no_connection_text("https://gateway.example/api/v1/chat/completions", "x") == (
        "could not connect to gateway.example:443: x"
    )


def test_a_connection_that_was_opened_then_failed_is_not_no_connection() -> None:
    dropped = urllib3.exceptions.ProtocolError(
        "Connection aborted.", ConnectionResetError(104, "Connection reset by peer")
    )
    assert no_connection_cause(_as_requests_raises(dropped)) is None
    assert no_connection_cause(requests.exceptions.ChunkedEncodingError("cut short")) is None
    assert no_connection_cause(requests.ReadTimeout("read timed out")) is None


# --- the watch -----------------------------------------------------------------------------------


def _entry(outcome: str, status: int | None = None, result: str = "errored") -> RecordedCase:
    attempts = tuple(RecordedAttempt(0, n, outcome, status, 1.0, None) for n in range(1, 5))
    return RecordedCase(result, f"step 1: {outcome}", "1.0.0", attempts)


def test_only_three_unreachable_case_runs_in_a_row_make_the_run_futile() -> None:
    unreachable = _entry("network_error")
    watch = FutileWatch("m", "http://127.0.0.1:9/v1")
    for _ in range(3):
        assert watch.verdict is None
        watch.observe(unreachable, "connection refused")
    assert watch.verdict is not None and watch.unreachable
    assert watch.verdict.startswith("no gateway answered at http://127.0.0.1:9/v1: ")

    answered = RecordedCase("passed", None, "1.0.0", (RecordedAttempt(0, 1, "ok", 200, 1.0, None),))
    refused = _entry("http_404", 404)
    dropped = _entry("network_error")  # connected, then cut: no cause
    for third, cause in ((answered, None), (refused, None), (dropped, None)):
        watch = FutileWatch("m", "http://127.0.0.1:9/v1")
        watch.observe(unreachable, "connection refused")
        watch.observe(unreachable, "connection refused")
        watch.observe(third, cause)
        assert watch.settled and watch.verdict is None
        watch.observe(unreachable, "connection refused")  # only the first three count
        assert watch.verdict is None
    # settled as soon as one differs: freed workers need not wait for the first three
    watch = FutileWatch("m", "http://127.0.0.1:9/v1")
    watch.observe(unreachable, "connection refused")
    assert not watch.settled and watch.awaiting == 2
    watch.observe(answered)
    assert watch.settled and watch.awaiting == 0 and watch.verdict is None
    watch = FutileWatch("m", "http://127.0.0.1:9/v1")
    watch.observe(answered)
    assert watch.settled and watch.verdict is None
