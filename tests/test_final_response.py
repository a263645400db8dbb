"""The one decoder of a gzip or deflate answer (``recorder.final_response.decode_capped``): every
coding urllib3 would apply to a single ``Content-Encoding``, under the cap.

Under vcrpy every such answer is decoded here before urllib3 or the cassette hook see it (the hook
``recorder.answer_body.capped_response`` no longer decodes); the stand-in's gzip kinds cover the
wire (tests/test_hostile_record.py, tests/test_hostile_bomb.py), these the codings it does not send.
"""

from __future__ import annotations

import gzip
import zlib

import pytest

from recorder.final_response import decode_capped
from recorder.transport import AnswerTooLarge

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
