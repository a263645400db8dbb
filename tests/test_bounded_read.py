"""Every answer is read as raw bytes under the cap and the attempt's deadline before anything
decodes or buffers it (``recorder.bounded_read``; decisions ``METHOD.md#answer-size-cap`` and
``METHOD.md#timeout``), against the stand-in's streamed kinds (``standin.streamed``).

- A plain endless chunked body (no ``Content-Encoding``) used to be read whole by vcrpy's stub
  before ``--max-answer-mb`` applied: here the recorder runs in a subprocess whose ``RLIMIT_AS`` is
  1 GiB, far less than the body (it never ends), and the case errors with the cap's reason.
- A ``Content-Length`` of 1 TiB is refused before one byte of its body: the stand-in waits for the
  client to hang up before it sends any, and says whether it did.
- A body (or the headers) dripped a byte at a time stops at ``--timeout`` even in a thread other
  than the main one, where the ``SIGALRM`` limit does not reach.
"""

from __future__ import annotations

import json
import subprocess
import sys
import threading
from pathlib import Path

import pytest

from recorder.manifest_read import read_manifest
from recorder.record import record
from recorder.settings import RecordSettings
from recorder.transport import HttpRequest, RequestsTransport, TransportFailure
from standin.streamed import StreamEnd
from tests.conftest import MINI_SUITE, interactions
from tests.record_helpers import LoopbackServer, wait_until

ADDRESS_SPACE = 1024 * 1024 * 1024  # the recorder's own limit: enough for Python and requests
TOO_LARGE = "the answer is larger than 1 MiB once decoded; raise --max-answer-mb to keep it"
FOUR = lambda kind: "ref/oracle~" + ",".join([kind] * 4)  # noqa: E731 - every attempt
CASE = "selection-01"
RECORDER = """
import json, resource, sys
from pathlib import Path
limit = int(sys.argv[1])
resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
from recorder.endpoint import Endpoint
from recorder.manifest_read import read_manifest
from recorder.record import record
from recorder.settings import RecordSettings
summary = record(
    Path(sys.argv[2]), sys.argv[3], Path(sys.argv[4]), Endpoint(sys.argv[5], None), [sys.argv[6]],
    RecordSettings(concurrency=1, backoff_scale=0.0, max_answer_mb=1, timeout_s=60.0),
)
entry = read_manifest(summary.model_dir).cases[sys.argv[6]]
print(json.dumps([entry.status, entry.reason, [a.outcome for a in entry.attempts]]))
"""


def test_an_endless_plain_body_is_capped_under_an_address_space_limit(
    start_gateway, tmp_path: Path
) -> None:
    gateway = start_gateway()
    args = [str(ADDRESS_SPACE), str(MINI_SUITE), FOUR("endless"), str(tmp_path), gateway.url, CASE]
    done = subprocess.run(
        [sys.executable, "-c", RECORDER, *args], capture_output=True, text=True, timeout=110
    )
    assert done.returncode == 0, done.stderr[-2000:]
    assert "Traceback" not in done.stderr and "MemoryError" not in done.stderr
    status, reason, outcomes = json.loads(done.stdout.splitlines()[-1])
    assert status == "errored" and reason.endswith(TOO_LARGE), reason
    assert outcomes == ["network_error"] * 4  # the cap's outcome, retried as the method says
    ends = wait_until(lambda: len(gateway.stream_ends) == 4 and gateway.stream_ends, "4 ends")
    assert all(end.kind == "endless" and end.hung_up for end in ends)
    # the client hung up near the cap: what it read plus what the sockets' buffers held
    assert all(end.body_sent < 64 * 1024 * 1024 for end in ends), ends


def test_a_content_length_above_the_cap_is_refused_unread(start_gateway, tmp_path: Path) -> None:
    gateway = start_gateway()
    summary = record(
        MINI_SUITE,
        FOUR("hugelength"),
        tmp_path,
        gateway.url,
        [CASE],
        RecordSettings(concurrency=1, backoff_scale=0.0, max_answer_mb=1),
    )
    entry = read_manifest(summary.model_dir).cases[CASE]
    assert entry.status == "errored" and (entry.reason or "").endswith(TOO_LARGE), entry.reason
    assert [a.outcome for a in entry.attempts] == ["network_error"] * 4
    ends = wait_until(lambda: len(gateway.stream_ends) == 4 and gateway.stream_ends, "4 ends")
    # the gateway saw each connection closed before it sent one byte of the body
    assert ends == [StreamEnd("hugelength", 0, True)] * 4
    assert interactions(summary.model_dir / f"{CASE}.json") == []


def test_a_dripped_body_stops_at_the_timeout_while_recording(start_gateway, tmp_path: Path) -> None:
    gateway = start_gateway(drip_ms=50)  # the oracle's answer (hundreds of bytes) takes seconds
    summary = record(
        MINI_SUITE,
        FOUR("drip"),
        tmp_path,
        gateway.url,
        [CASE],
        RecordSettings(concurrency=1, backoff_scale=0.0, timeout_s=0.5),
    )
    entry = read_manifest(summary.model_dir).cases[CASE]
    assert [a.outcome for a in entry.attempts] == ["timeout"] * 4
    assert entry.status == "errored" and "no whole answer within 0.5 s" in (entry.reason or "")
    assert interactions(summary.model_dir / f"{CASE}.json") == []


ORACLE = {"model": "", "messages": [{"role": "user", "content": "hi"}], "temperature": 0}


@pytest.mark.parametrize("kind", ["drip", "driphead"])
def test_a_drip_stops_at_the_timeout_in_any_thread(start_gateway, kind: str) -> None:
    """Off the main thread no ``SIGALRM`` bounds the attempt: only the reader's deadline does."""
    gateway = start_gateway(drip_ms=50)
    request = HttpRequest(
        f"{gateway.url}/chat/completions", {**ORACLE, "model": f"ref/oracle~{kind}"}
    )
    outcome: list[object] = []

    def send() -> None:
        try:
            outcome.append(RequestsTransport(None, timeout_s=0.5).send(request))
        except TransportFailure as failure:
            outcome.append(failure)

    worker = threading.Thread(target=send, name="not-main")
    worker.start()
    worker.join(timeout=60)
    assert not worker.is_alive()
    (failure,) = outcome
    assert isinstance(failure, TransportFailure), failure
    assert failure.kind == "timeout" and failure.detail == "no whole answer within 0.5 s"
    end = wait_until(lambda: gateway.stream_ends, "the drip's end")[0]
    assert end.kind == kind and end.hung_up


def _chunked_500(handler, number: int, body: bytes) -> None:  # type: ignore[no-untyped-def]
    handler.send_response(500)
    handler.send_header("Content-Type", "application/json")
    handler.send_header("Transfer-Encoding", "chunked")
    handler.end_headers()
    for piece in (b'{"error": {"mess', b'age": "boom"}}'):
        handler.wfile.write(b"%x\r\n%s\r\n" % (len(piece), piece))
    handler.wfile.write(b"0\r\n\r\n")


def test_a_chunked_answer_is_stored_de_chunked_and_replays_the_same(tmp_path: Path) -> None:
    from recorder.files import read_suite
    from replay.rescore import rescore_model

    with LoopbackServer(_chunked_500) as server:
        summary = record(
            MINI_SUITE,
            "m",
            tmp_path,
            server.url,
            [CASE],
            RecordSettings(concurrency=1, backoff_scale=0.0),
        )
    entry = read_manifest(summary.model_dir).cases[CASE]
    assert entry.status == "errored" and entry.reason == "step 1: HTTP 500: boom"
    (stored,) = interactions(summary.model_dir / f"{CASE}.json")
    body = b'{"error": {"message": "boom"}}'
    assert stored["response"]["body"] == {"string": body.decode()}
    headers = {name.lower(): value for name, value in stored["response"]["headers"].items()}
    assert "transfer-encoding" not in headers and headers["content-length"] == [str(len(body))]
    (result,) = [
        r
        for r in rescore_model(summary.model_dir, read_suite(MINI_SUITE))["results"]
        if r["id"] == CASE
    ]
    assert (result["status"], result["reason"]) == ("errored", entry.reason)
