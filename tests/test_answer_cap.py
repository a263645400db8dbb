"""The answer size cap (decision ``METHOD.md#answer-size-cap``): one capped read
(``recorder.transport.read_capped``) on every path, and the one decoder of an answer's
``Content-Encoding`` list (``recorder.content_coding.decode_capped``).

Under vcrpy every encoded answer is decoded by ``final_response`` before urllib3 or the cassette
hook see it; the stand-in's coding kinds cover that wire (tests/test_hostile_record.py,
tests/test_hostile_bomb.py), the codings and shapes it does not send are decoded here. A plain
answer is read under the cap by the same reader, before vcrpy's stub reads it
(``recorder.bounded_read``; tests/test_bounded_read.py at real size).
"""

from __future__ import annotations

import gzip
import itertools
import zlib
from collections.abc import Iterator
from pathlib import Path

import pytest

from recorder.answer_limits import AnswerTooLarge, UndecodableAnswer, read_capped
from recorder.content_coding import decode_capped
from recorder.manifest_read import read_manifest
from recorder.record import record
from recorder.settings import RecordSettings
from recorder.transport import HttpRequest, RequestsTransport, TransportFailure
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


def _gzip(data: bytes) -> bytes:
    return gzip.compress(data, mtime=0)


@pytest.mark.parametrize(
    ("encoding", "wire"),
    [
        ("gzip, gzip", _gzip(_gzip(BODY))),
        ("gzip, deflate", zlib.compress(_gzip(BODY))),  # deflate applied last: undone first
        ("deflate, x-gzip", _gzip(zlib.compress(BODY))),
        ("identity, gzip, identity", _gzip(BODY)),
        ("gzip,, deflate ,", zlib.compress(_gzip(BODY))),  # empty list elements
        ("identity", BODY),
        ("", BODY),  # a Content-Encoding header with no coding
        ("gzip", _gzip(BODY[:9]) + _gzip(BODY[9:30]) + _gzip(BODY[30:])),  # three members
        ("gzip", _gzip(BODY) + b"\0\0\0 trailing"),  # bytes after the last member: ignored
        ("gzip", _gzip(b"") * 1000 + _gzip(BODY)),  # many empty members
    ],
    ids=[
        "gzip-gzip",
        "gzip-deflate",
        "deflate-gzip",
        "identity-around",
        "empty-elements",
        "identity",
        "empty",
        "multi-member",
        "trailing-bytes",
        "empty-members",
    ],
)
def test_every_listed_coding_is_undone_last_applied_first(encoding: str, wire: bytes) -> None:
    assert decode_capped(wire, encoding, 1024) == BODY


@pytest.mark.parametrize(
    ("encoding", "wire", "reason"),
    [
        ("br", b"\x0b\x02\x80hi\x03", "content-encoding: br, which the recorder does not decode"),
        ("gzip, zstd", _gzip(BODY), "content-encoding: gzip, zstd, which the recorder does not"),
        ("gzip", BODY, "content-encoding: gzip, but failed to decode it (gzip did not decode)"),
        ("deflate", BODY, "content-encoding: deflate, but failed to decode it (deflate did not"),
        ("gzip, gzip", _gzip(BODY), "content-encoding: gzip, gzip, but failed to decode it"),
        ("gzip\x1b[31m", BODY, "content-encoding: 'gzip\\x1b[31m', which the recorder"),
    ],
    ids=["unknown", "unknown-in-list", "not-gzip", "not-deflate", "one-layer-short", "escape"],
)
def test_a_coding_that_cannot_be_undone_is_one_line(
    encoding: str, wire: bytes, reason: str
) -> None:
    with pytest.raises(UndecodableAnswer) as raised:
        decode_capped(wire, encoding, 1024)
    assert reason in str(raised.value) and "\n" not in str(raised.value)


def test_every_layer_is_capped() -> None:
    decoded = b" " * (2 * 1024 * 1024)
    inner = _gzip(decoded)  # a few kB: the outer layer alone is far under the cap
    assert len(inner) < 10_000
    assert decode_capped(_gzip(inner), "gzip, gzip", len(decoded)) == decoded
    with pytest.raises(AnswerTooLarge):
        decode_capped(_gzip(inner), "gzip, gzip", len(decoded) - 1)
    with pytest.raises(AnswerTooLarge):  # members count together
        decode_capped(inner + inner, "gzip", len(decoded) + 1)


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
        RecordSettings(concurrency=1, backoff_scale=0.0, max_answer_mb=cap_mb),
    )
    entry = read_manifest(summary.model_dir).cases[case]
    assert [a.outcome for a in entry.attempts] == ["network_error"] * 4
    assert entry.status == "errored" and entry.reason is not None
    assert TOO_LARGE_START in entry.reason and entry.reason.endswith(TOO_LARGE_END)
    assert interactions(summary.model_dir / f"{case}.json") == []  # nothing of it is kept
    assert len(gateway.requests_seen) == 4
