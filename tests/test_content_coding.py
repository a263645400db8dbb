"""An answer's ``Content-Encoding`` undone (recorder/content_coding.py): the codings a header
lists, how an error quotes the header, each coding's body and its edges (members, trailing bytes,
a body cut off, a stream longer than one slice of input), each expected value written by hand (RFC
9110 section 8.4, RFC 1952 section 2.2; decision METHOD.md#answer-size-cap)."""

from __future__ import annotations

import gzip
import hashlib
import zlib

import pytest

from recorder.answer_limits import UndecodableAnswer
from recorder.content_coding import codings, decode_capped, shown_codings, undecoded_note

BODY = b'{"choices": [{"message": {"role": "assistant", "content": "hi"}}]}'
# 12,800 bytes no coder can shrink: several 4 KiB slices of input, whatever the coding
NOISE = b"".join(hashlib.sha256(str(i).encode()).digest() for i in range(400))


def _gzip(data: bytes) -> bytes:
    return gzip.compress(data, mtime=0)


def _decoded(wire: bytes, coding: str, limit: int) -> bytes | str:
    """The body, or the one line that says why it did not decode: a body that should decode
    and does not is a wrong answer, checked as one."""
    try:
        return decode_capped(wire, coding, limit)
    except UndecodableAnswer as exc:
        return str(exc)


def test_the_codings_a_header_lists_in_the_order_applied() -> None:
    assert codings("gzip, deflate") == ["gzip", "deflate"]
    assert codings(" GZip ,, X-Gzip ,") == ["gzip", "x-gzip"]
    assert codings("") == []
    assert codings(" , ") == []


def test_a_header_is_quoted_on_one_printable_line_of_at_most_40_characters() -> None:
    assert shown_codings("gzip,\n  br") == "gzip, br"
    assert shown_codings("gzip, " * 10) == "gzip, gzip, gzip, gzip, gzip, gzip, gzi\\u2026"
    assert shown_codings("g" * 40) == "g" * 40
    assert shown_codings("gzip\x1b[31m") == "'gzip\\x1b[31m'"
    assert shown_codings("gzïp") == "gz\\xefp"


def test_an_undecoded_body_is_named_in_the_reason() -> None:
    assert undecoded_note(None) == ""
    assert (
        undecoded_note("br")
        == " (its body did not decode as content-encoding: br; kept as received)"
    )
    assert (
        undecoded_note("") == " (its body did not decode as content-encoding: ; kept as received)"
    )


def test_a_coding_the_recorder_does_not_decode_is_refused_in_one_line() -> None:
    with pytest.raises(UndecodableAnswer) as raised:
        decode_capped(_gzip(BODY), "gzip, br", 1024)
    assert str(raised.value) == (
        "received an answer with content-encoding: gzip, br, which the recorder does not decode "
        "(it decodes gzip, deflate and identity)"
    )
    with pytest.raises(UndecodableAnswer) as raised:
        decode_capped(BODY, "x-gzip", 1024)
    assert str(raised.value) == (
        "received an answer with content-encoding: x-gzip, but failed to decode it (x-gzip did not "
        "decode)"
    )
    with pytest.raises(UndecodableAnswer) as raised:
        decode_capped(BODY, "deflate", 1024)
    assert str(raised.value) == (
        "received an answer with content-encoding: deflate, but failed to decode it (deflate did "
        "not decode)"
    )


def test_identity_is_no_coding_and_a_long_stream_is_read_whole() -> None:
    assert _decoded(b"\x1f\x8b not gzip", "identity", 1024) == b"\x1f\x8b not gzip"
    assert _decoded(_gzip(NOISE), "gzip", len(NOISE)) == NOISE
    assert _decoded(zlib.compress(NOISE), "deflate", len(NOISE)) == NOISE
    raw = zlib.compressobj(6, zlib.DEFLATED, -15)
    assert _decoded(raw.compress(NOISE) + raw.flush(), "deflate", len(NOISE)) == NOISE
    assert _decoded(_gzip(NOISE) + _gzip(BODY), "gzip", 20_000) == NOISE + BODY
    assert _decoded(_gzip(BODY), "gzip", 1024) == BODY
    assert _decoded(b"", "gzip", 1024) == b""


def test_one_deflate_stream_is_the_whole_body_and_gzip_members_follow_each_other() -> None:
    # a second zlib stream after the first is not read; a second gzip member is
    assert _decoded(zlib.compress(BODY) + zlib.compress(b"more"), "deflate", 1024) == BODY
    assert _decoded(_gzip(BODY) + _gzip(b"more"), "gzip", 1024) == BODY + b"more"
    assert _decoded(_gzip(BODY) + b"trailing, no member", "gzip", 1024) == BODY


def test_a_body_cut_off_inside_a_member_gives_what_it_holds() -> None:
    assert _decoded(_gzip(BODY)[:-8], "gzip", 1024) == BODY  # no CRC and size trailer
    cut = _decoded(_gzip(NOISE)[:6000], "gzip", len(NOISE))
    assert isinstance(cut, bytes) and 4096 < len(cut) < 6000 and NOISE.startswith(cut)
    # one more byte than an output chunk of 64 KiB: zlib holds it until the stream is flushed
    run = b"a" * (64 * 1024 + 3)
    assert _decoded(_gzip(run)[:-8], "gzip", len(run)) == run


def test_a_member_is_inflated_a_chunk_of_64_kib_at_a_time() -> None:
    """Nothing is inflated beyond what is asked for: a bomb stops at the cap, not once whole."""
    from recorder.content_coding import _inflated

    spaces = b" " * (3 * 64 * 1024 + 5)
    # three full chunks, the rest, then the empty flush of the next member's inflater
    assert [len(chunk) for chunk in _inflated(_gzip(spaces), 31)] == [65536, 65536, 65536, 5, 0]
    run = b"a" * 200_000
    assert _decoded(_gzip(run), "gzip", len(run)) == run


def test_the_inflated_chunks_end() -> None:
    """A body gives its chunks and one flush, then the generator ends: taken at most five, a
    loop that never ends shows as more chunks."""
    from itertools import islice

    from recorder.content_coding import _inflated

    assert list(islice(_inflated(_gzip(BODY), 31), 5)) == [BODY, b""]
    assert list(islice(_inflated(b"", 31), 5)) == [b""]
