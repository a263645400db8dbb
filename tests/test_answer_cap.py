"""The answer size cap (decision ``METHOD.md#answer-size-cap``): one capped read
(``recorder.transport.read_capped``) on every path, and the one decoder of a gzip or deflate answer
(``recorder.final_response.decode_capped``).

Under vcrpy every gzip or deflate answer is decoded by ``final_response`` before urllib3 or the
cassette hook see it; the stand-in's gzip kinds cover that wire (tests/test_hostile_record.py,
tests/test_hostile_bomb.py), the codings it does not send are decoded here. A plain answer is capped
by the cassette hook while recording (vcrpy's stub has read it whole) and by the transport's own
read without vcrpy.
"""

from __future__ import annotations

import gzip
import itertools
import zlib
from collections.abc import Iterator
from pathlib import Path

import pytest

from recorder.final_response import decode_capped
from recorder.manifest_read import read_manifest
from recorder.record import record
from recorder.transport import (
    AnswerTooLarge,
    HttpRequest,
    RequestsTransport,
    TransportFailure,
    read_capped,
)
from tests.conftest import MINI_SUITE, interactions

BODY = b'{"choices": [{"message": {"role": "assistant", "content": "hi"}}]}'


def _raw_deflate(data: bytes) -> bytes:
    deflate = zlib.compressobj(6, zlib.DEFLATED, -15)
    return deflate.compress(data) + deflate.flush()


@pytest.mark.parametrize(
    ("encoding", "wire"),
    [
        ("gzip", gzip.compress(BODY, mtime=0)),
        ("x-gzip", gzip.compress(BODY, mtime=0)),
        (" GZIP ", gzip.compress(BODY, mtime=0)),  # as the header may spell it
        ("deflate", zlib.compress(BODY)),  # zlib-wrapped, as RFC 9110 means deflate
        ("deflate", _raw_deflate(BODY)),  # raw deflate, as some servers send it
    ],
    ids=["gzip", "x-gzip", "case-and-spaces", "deflate-zlib", "deflate-raw"],
)
def test_each_coding_decodes_to_the_body(encoding: str, wire: bytes) -> None:
    assert decode_capped(wire, encoding, len(BODY)) == BODY  # exactly at the cap is kept


@pytest.mark.parametrize(
    ("encoding", "wire"),
    [("br", b"\x0b\x02\x80hi\x03"), ("identity", BODY), ("gzip", BODY), ("deflate", BODY)],
    ids=["unknown-coding", "identity", "not-gzip", "not-deflate"],
)
def test_what_does_not_decode_is_left_as_received(encoding: str, wire: bytes) -> None:
    assert decode_capped(wire, encoding, 1024) is None


@pytest.mark.parametrize("encoding", ["gzip", "deflate"])
def test_one_byte_past_the_cap_is_too_large(encoding: str) -> None:
    decoded = b" " * (300 * 1024)  # several output chunks of 64 KiB
    wire = gzip.compress(decoded, mtime=0) if encoding == "gzip" else zlib.compress(decoded)
    assert decode_capped(wire, encoding, len(decoded)) == decoded
    with pytest.raises(AnswerTooLarge) as raised:
        decode_capped(wire, encoding, len(decoded) - 1)
    assert raised.value.limit == len(decoded) - 1


def test_the_capped_read_stops_at_the_chunk_that_passes_the_cap() -> None:
    pulled: list[int] = []

    def endless() -> Iterator[bytes]:
        for n in itertools.count(1):
            pulled.append(n)
            yield b"x" * 10

    with pytest.raises(AnswerTooLarge) as raised:
        read_capped(endless(), 25)
    assert raised.value.limit == 25 and pulled == [1, 2, 3]  # 30 bytes: no fourth chunk asked for


def test_the_capped_read_keeps_a_body_of_exactly_the_cap() -> None:
    # an empty chunk is not the end (zlib may give one before more output)
    assert read_capped([b"ab", b"", b"cd"], 4) == b"abcd"
    assert read_capped((b"abcd",), 4) == b"abcd"  # a whole body is one chunk
    with pytest.raises(AnswerTooLarge):
        read_capped((b"abcde",), 4)


ORACLE = {"model": "ref/oracle", "messages": [{"role": "user", "content": "hi"}], "temperature": 0}
TOO_LARGE_START = "the answer is larger than "
TOO_LARGE_END = " MiB once decoded; raise --max-answer-mb to keep it"


def test_a_plain_answer_over_the_cap_is_too_large_without_vcrpy(gateway) -> None:
    request = HttpRequest(f"{gateway.url}/chat/completions", ORACLE)
    whole = RequestsTransport(None).send(request)
    assert whole.status == 200 and len(whole.body) > 100
    with pytest.raises(TransportFailure) as raised:
        RequestsTransport(None, max_bytes=100).send(request)
    failure = raised.value
    assert failure.kind == "network_error"
    assert failure.detail.startswith(TOO_LARGE_START) and failure.detail.endswith(TOO_LARGE_END)


def test_a_plain_answer_over_the_cap_is_too_large_while_recording(gateway, tmp_path: Path) -> None:
    case = "selection-01"
    cap_mb = 100 / 1024 / 1024  # 100 bytes: less than any answer
    summary = record(
        MINI_SUITE,
        "ref/oracle",
        tmp_path,
        gateway.url,
        [case],
        concurrency=1,
        backoff_scale=0.0,
        max_answer_mb=cap_mb,
    )
    entry = read_manifest(summary.model_dir).cases[case]
    assert [a.outcome for a in entry.attempts] == ["network_error"] * 4
    assert entry.status == "errored" and entry.reason is not None
    assert TOO_LARGE_START in entry.reason and entry.reason.endswith(TOO_LARGE_END)
    assert interactions(summary.model_dir / f"{case}.json") == []  # nothing of it is kept
    assert len(gateway.requests_seen) == 4
