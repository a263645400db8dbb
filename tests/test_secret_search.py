"""The fail-closed search behind the scrubber (recorder/secret_search.py), finding by finding: which
decodings (outermost first) showed the credential, whole or a long part, and when a text is too
deep or too costly to check; each expected finding written by hand from the module's rules
(decision METHOD.md#scrub-fails-closed)."""

from __future__ import annotations

import base64
import codecs

import pytest

from recorder import secret_search
from recorder.secret_search import (
    TOO_COSTLY,
    TOO_DEEP,
    Finding,
    _char,
    _Needle,
    _needle,
    _table,
    _wide,
    examine,
)

KEY = "sk-proj-Tq84GvX2mPzL0aNcRw7YbE5uKdHs9FjQ1oVt"  # 44 characters: 16 in a row are a leak
SECRETS = (KEY,)
WHOLE = True


def _b64(data: bytes | str) -> bytes:
    return base64.b64encode(data.encode() if isinstance(data, str) else data)


def test_the_marker_says_what_was_found_and_where() -> None:
    assert Finding(("base64",), whole=True).marker == "[removed: held a credential in base64]"
    assert (
        Finding(("base64", "hex")).marker == "[removed: held part of a credential in hex in base64]"
    )
    assert Finding(()).marker == "[removed: held part of a credential in clear text]"
    assert Finding(("hex",), suspect=TOO_DEEP).marker == (
        "[removed: encoded too deeply to be checked for a credential]"
    )


def test_first_a_hex_reference_and_a_part_cut_short_before_the_key_ends() -> None:
    # first in the file: mutants that crash a later test are seen here by a failed assertion
    # &#x61; is "a" (0x61, not decimal 61, "="): the whole 12-letter key, only once undone
    assert examine(b"&#x61;bcdefghijkl", ("abcdefghijkl",)) == Finding(("escapes",), WHOLE)
    # nineteen letters of a 30-letter key, then "!!!": a long part (16 or more)
    long_key = "abcdefghijklmnopqrstuvwxyz0123"
    assert examine(b"bcdefghijklmnopqrst!!!", (long_key,)) == Finding(())
    # URL-safe base64 (- and _ for + and /) of a 13-character key: an 18-character run
    assert examine(b"x YT4-PmI_Pz9jPj4-ZA== y", ("a>>>b???c>>>d",)) == Finding(("base64",), WHOLE)


def test_the_whole_key_or_sixteen_characters_of_it_in_clear_text() -> None:
    assert examine(f"echo {KEY}!", SECRETS) == Finding((), whole=True)
    assert examine(f"echo {KEY}".encode(), SECRETS) == Finding((), whole=True)
    assert examine(KEY[:16], SECRETS) == Finding(())
    assert examine(KEY[-16:], SECRETS) == Finding(())
    assert examine("X" + KEY[1:17] + "Y", SECRETS) == Finding(())
    assert examine(KEY[20:36] + "?", SECRETS) == Finding(())
    assert examine(KEY[:15], SECRETS) is None
    assert examine(KEY[29:], SECRETS) is None
    assert examine(KEY[:8] + "#" + KEY[9:24], SECRETS) is None  # 8 and 15 in a row
    # a key shorter than 16 is a leak only whole
    assert examine("id abcdefghij.", ("abcdefghij",)) == Finding((), whole=True)
    assert examine("id abcdefghi.", ("abcdefghij",)) is None
    assert examine(KEY, ("short",)) is None  # under 8 characters: not searched
    assert examine("", SECRETS) is None and examine(KEY, ()) is None
    assert examine("ordinary answer text, nothing encoded", SECRETS) is None


@pytest.mark.parametrize(
    ("text", "chain"),
    [
        ("".join(f"&#x{ord(c):x};" for c in KEY), ("escapes",)),
        ("".join(f"&#{ord(c)}" for c in KEY), ("escapes",)),
        ("".join(f"\\u{ord(c):04X}" for c in KEY), ("escapes",)),
        ("".join(f"\\x{ord(c):02x}" for c in KEY), ("escapes",)),
        ("".join(f"%{ord(c):02X}" for c in KEY), ("escapes",)),
        ("".join(f"={ord(c):02X}" for c in KEY), ("escapes",)),
        # quoted-printable soft line breaks, no 16 characters of the key between them
        (KEY[:15] + "=\r\n" + KEY[15:30] + "=\n" + KEY[30:], ("escapes",)),
        (_b64(KEY).decode(), ("base64",)),
        (_b64("Bearer " + KEY).decode(), ("base64",)),
        (_b64("My " + KEY).decode(), ("base64",)),
        (base64.urlsafe_b64encode(b"\xfb\xff" + KEY.encode()).decode(), ("base64",)),
        (KEY.encode().hex(), ("hex",)),
        ("x" + KEY.encode().hex().upper(), ("hex",)),
        (KEY.encode("utf-16-le").decode("latin-1"), ("UTF-16",)),
        (KEY.encode("utf-16-be").decode("latin-1"), ("UTF-16",)),
        (KEY.encode("utf-32-le").decode("latin-1"), ("UTF-32",)),
        (KEY.encode("utf-32-be").decode("latin-1"), ("UTF-32",)),
        (_b64(KEY.encode().hex()).decode(), ("base64", "hex")),
        (_b64(_b64(_b64(_b64(KEY)))).decode(), ("base64",) * 4),
    ],
    ids=[
        "html-hex",
        "html-decimal",
        "json-u",
        "x-escapes",
        "percent",
        "quoted-printable",
        "soft-line-breaks",
        "base64",
        "base64-offset-1",
        "base64-offset-2",
        "base64-urlsafe",
        "hex",
        "hex-upper",
        "utf16-le",
        "utf16-be",
        "utf32-le",
        "utf32-be",
        "hex-in-base64",
        "four-layers",
    ],
)
def test_each_decoding_shows_the_whole_key(text: str, chain: tuple[str, ...]) -> None:
    found = examine(
        text.encode("latin-1") if chain and chain[0].startswith("UTF") else text, SECRETS
    )
    if chain is None:  # an entity between two halves: each half is over 16 characters
        assert found == Finding((), whole=False)
    else:
        assert found == Finding(chain, whole=True)


def test_json_and_named_escapes_are_read_as_their_characters() -> None:
    secret = (KEY[:14] + "&" + KEY[14:28],)  # 14 characters on each side: no part alone
    for entity in ("&amp;", "&AMP;", "&Amp;"):
        assert examine(KEY[:14] + entity + KEY[14:28], secret) == Finding(("escapes",), whole=True)
    assert examine(KEY[:14] + "&nosuch;" + KEY[14:28], secret) is None
    text = "a/b\\c\"d'e\ng\rh\ti-long-enough"  # \b and \f end a run: not text
    written = "a\\/b\\\\c\\\"d\\'e\\ng\\rh\\ti-long-enough"
    assert examine(written, (text,)) == Finding(("escapes",), whole=True)


def test_a_fifth_decoding_is_too_deep_and_a_long_walk_too_costly(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    five = _b64(_b64(_b64(_b64(_b64(KEY)))))
    assert examine(five, SECRETS) == Finding(("base64",) * 5, suspect=TOO_DEEP)
    monkeypatch.setattr(secret_search, "BUDGET_FACTOR", 1)
    monkeypatch.setattr(secret_search, "BUDGET_FLOOR", 0)
    text = "a line of an ordinary answer\\n" * 20
    assert examine(text, SECRETS) == Finding(("escapes",), suspect=TOO_COSTLY)
    monkeypatch.setattr(secret_search, "BUDGET_FLOOR", len(text))
    assert examine(text, SECRETS) is None


def test_decoded_noise_and_short_runs_are_not_walked() -> None:
    noise = bytes(range(256)) * 4
    assert examine(noise, SECRETS) is None
    assert examine(codecs.encode(b"\x00" * 64, "hex"), SECRETS) is None
    assert examine("=\r\n" * 10, SECRETS) is None


def test_an_unknown_entity_name_is_ordinary_text() -> None:
    """``&foo;`` is no escape: undoing it changes nothing, so it is no layer of decoding (it was
    one, each layer the same, until the text read as nested too deeply and was removed)."""
    from recorder.secrets import scrub_text

    answer = "Tom&Jerry; went to the market, then used &foo; in a template"
    assert examine(answer, SECRETS) is None
    assert scrub_text(answer, SECRETS) == answer
    assert examine("&lt;b&gt; and &foo; " + KEY, SECRETS) == Finding((), whole=True)


def test_a_needle_anchors_every_long_part_with_one_find() -> None:
    # 21 bytes, a long part 16: anchors of 8 bytes every 9, so each 16 in a row holds one whole
    assert _needle("abcdefghijklmnopqrstu") == _Needle(
        b"abcdefghijklmnopqrstu", 16, ((0, b"abcdefgh"), (9, b"jklmnopq"))
    )
    assert _needle("abcdefghij") == _Needle(b"abcdefghij", 10, ((0, b"abcdefgh"),))
    assert _needle("abcdefgh") == _Needle(b"abcdefgh", 8, ((0, b"abcdefgh"),))
    assert _needle("abc\udc80defgh") == _Needle(
        b"abc\xed\xb2\x80defgh", 11, ((0, b"abc\xed\xb2\x80de"),)
    )


def test_a_character_reference_past_unicode_is_nothing() -> None:
    assert _char(0x41) == b"A"
    assert _char(0x10FFFF) == b"\xf4\x8f\xbf\xbf"
    assert _char(0xD800) == b"\xed\xa0\x80"  # a lone surrogate, kept as its bytes
    assert _char(0x110000) == b""


def test_a_translation_table_marks_its_alphabet() -> None:
    assert _table(b"ab") == b" " * 97 + b"aa" + b" " * 157


def test_wide_text_is_read_at_both_alignments() -> None:
    """Each run is read with its NULs after the characters (little-endian) and before them
    (big-endian): the text's own order gives it whole, the other one off by a character."""
    text = "KEY-0123456789abcdef"
    sep = b"\xff\xff"
    utf16, utf32 = _wide(2), _wide(4)
    little = b"KEY-0123456789abcdef" + sep + b"EY-0123456789abcdef"
    big = b"KEY-0123456789abcde" + sep + b"KEY-0123456789abcdef"
    assert utf16(text.encode("utf-16-le"), 16) == little
    assert utf16(text.encode("utf-16-be"), 16) == big
    assert utf32(text.encode("utf-32-le"), 16) == little
    assert utf32(text.encode("utf-32-be"), 16) == big
    two = "first run of text".encode("utf-16-le") + b"\xff\xfe"
    two += "second run of text".encode("utf-16-le")
    assert utf16(two, 16) == sep.join(
        [b"first run of text", b"irst run of text", b"second run of text", b"econd run of text"]
    )
    assert utf16("too short".encode("utf-16-le"), 16) == b""
    assert utf16(b"\x00" * 64, 16) == b""  # NULs alone are no text
    assert utf16(text.encode(), 16) == b""  # no NUL: not wide
    assert utf32("short".encode("utf-32-le"), 4) == b"short" + sep + b"hort"


def test_a_wide_run_of_one_repeated_letter_is_kept() -> None:
    # only NUL is stripped when a wide run is judged empty: a key of X's in UTF-16 is found
    key = "XXXXXXXXXXXX"
    assert examine(key.encode("utf-16-le"), (key,)) == Finding(("UTF-16",), whole=WHOLE)
    # the reader itself (examine's was made at import): the run of X's comes back
    assert _wide(2)(key.encode("utf-16-le"), 12) == key.encode()


def test_named_references_exact_name_first_then_lower_case() -> None:
    # "&Colon;" is the proportion sign, "&colon;" the colon; "&Excl;" is no name, "&excl;" is "!"
    assert examine(b"ab&colon;cdefghijkl", ("ab:cdefghijkl",)) == Finding(("escapes",), WHOLE)
    assert examine(b"ab&Colon;cdefghijkl", ("ab:cdefghijkl",)) is None
    assert examine(b"ab&Excl;cdefghijkl", ("ab!cdefghijkl",)) == Finding(("escapes",), WHOLE)


def test_kept_runs_need_a_quarter_of_part_besides_nul() -> None:
    four, three = b"abcd" + b"\x00" * 12, b"abc" + b"\x00" * 13
    assert secret_search._kept([four], 16) == four
    assert secret_search._kept([three], 16) == b""
    assert secret_search._kept([b"abc" + b"\x00" * 10], 13) == b"abc" + b"\x00" * 10


def test_a_match_is_measured_from_its_first_byte_to_its_last() -> None:
    key = "abcdefghijkl"
    # the byte before the key is its last letter: still the whole key, no longer
    assert examine(b"labcdefghijkl", (key,)) == Finding((), WHOLE)
    # fifteen letters of a 30-letter key, then its ninth: no long part (16)
    long_key = "abcdefghijklmnopqrstuvwxyz0123"
    assert examine(b"jklmnopqrstuvwxi", (long_key,)) is None
    assert examine(b"jklmnopqrstuvwxy", (long_key,)) == Finding(())


def test_each_place_a_key_starts_is_tried_once() -> None:
    key = "abcdefghijkl"
    # the first start is cut short; the whole key is the next (and the middle) one
    assert examine(b"abcdefghij!! abcdefghijkl", (key,)) == Finding((), WHOLE)
    assert examine(b"abcdefghij!! abcdefghijkl abcdefghij!!", (key,)) == Finding((), WHOLE)
    # the anchor (eight a's) found again one byte on is where the whole key starts
    assert examine(b"aaaaaaaaaaaab", ("aaaaaaaaaaab",)) == Finding((), WHOLE)


def test_base64_runs_as_short_as_the_key_are_read() -> None:
    # 12 bytes are 16 base64 characters, none of them padding: 16 is enough
    assert examine(b"k=YWJjZGVmZ2hpamts;", ("abcdefghijkl",)) == Finding(("base64",), WHOLE)


def test_an_unknown_entity_name_undoes_nothing() -> None:
    assert secret_search._escapes(b"Tom&Jerry; and their friends, &foo; too", 16) == b""


def test_keys_of_eight_characters_are_searched_and_shorter_ones_are_not() -> None:
    # MIN_SECRET_LENGTH is 8: a value of 8 is searched (whole: it is under 16), one of 5 or 7 not
    assert examine("id abcdefgh.", ("abcdefgh",)) == Finding((), WHOLE)
    assert examine("id abcdefg.", ("abcdefg",)) is None
    assert examine("a short answer", ("short",)) is None


def test_a_named_reference_in_lower_case_is_read_as_the_name() -> None:
    # HTML5 names "&Hat;" (^) but no "&hat;": the lower-case form of a name is read as that name
    assert examine(b"abcdef&hat;ghijkl", ("abcdef^ghijkl",)) == Finding(("escapes",), WHOLE)


def test_a_base64_run_is_read_to_its_last_character() -> None:
    # "YWJjZGVmZ2hpamtsbW5vcA==" is "abcdefghijklmnop"; cut to 21 characters it holds 15 whole
    # bytes and the top 6 bits of "p" (0x70, its low two bits 0): read with a tail of "A"s (zero
    # bits) the run gives "p" and two NULs. 21 characters are at least 4 * 12 / 3 (16), not 22.
    cut = b"YWJjZGVmZ2hpamtsbW5vc"
    assert secret_search._base64(cut, 12) == b"abcdefghijklmnop\x00\x00"
    assert secret_search._base64(cut, 16) == b""
    # a whole number of quanta: the letters alone; one byte short: a last NUL (the "A" tail)
    letters = b"abcdefghijklmnopqrstuvwx"
    assert secret_search._base64(base64.b64encode(letters), 16) == letters
    unpadded = base64.b64encode(letters[:23]).rstrip(b"=")
    assert secret_search._base64(unpadded, 16) == letters[:23] + b"\x00"


def test_url_safe_base64_characters_are_read_as_data() -> None:
    # four of its 22 characters are "-" or "_" (62 and 63): skipped, the rest would read askew
    text = b"x YT4-PmI_Pz9jPj4-ZD8_Pw== y"
    assert examine(text, ("a>>>b???c>>>d???",)) == Finding(("base64",), WHOLE)


def test_base64_with_line_breaks_and_runs_read_as_one_stream() -> None:
    plain = b"x" * 50 + KEY.encode()
    mime = base64.b64encode(plain)
    assert examine(mime[:76] + b"\r\n" + mime[76:], SECRETS) == Finding(("base64",), WHOLE)
    # the runs of a view are one stream: a run of whole quanta (76 characters, 57 bytes) goes on
    # in the next, so a key split 12 + 12 by a space at the wrap is still read whole
    key = "k9Vq2LmX7rTz4NwB8sYc1HdF"
    wrapped = base64.b64encode(b"x" * 45 + key.encode() + b"y" * 45)
    assert examine(wrapped[:76] + b" " + wrapped[76:], (key,)) == Finding(("base64",), WHOLE)


def test_hex_runs_as_short_as_twice_the_key_with_line_breaks_and_two_runs() -> None:
    # 13 characters are 26 hex digits (26 = 2 * 13): read at offset 0, whole
    assert examine(b"6162636465666768696a6b6c6d", ("abcdefghijklm",)) == Finding(("hex",), WHOLE)
    digits = KEY.encode().hex().encode()
    assert examine(digits[:40] + b"\r\n" + digits[40:], SECRETS) == Finding(("hex",), WHOLE)
    first = b"an ordinary line".hex().encode()  # 32 digits: a run of its own
    assert examine(first + b" " + digits, SECRETS) == Finding(("hex",), WHOLE)


def test_kept_runs_are_cut_at_each_byte_that_is_not_text() -> None:
    pieces = [b"first run of text", b"\x01", b"second run of text"]
    expected = b"first run of text\xff\xffsecond run of text"
    assert secret_search._kept(pieces, 16) == expected


def test_a_text_with_a_lone_surrogate_is_searched() -> None:
    # a str that is not valid UTF-8 (a lone surrogate) is read as its surrogatepass bytes
    assert examine("\udc80 " + KEY, SECRETS) == Finding((), WHOLE)


def test_a_credential_beyond_ascii_is_found_in_a_decoded_view() -> None:
    """A base URL's password may be any text: its UTF-8 bytes stay in a decoded view (a view kept
    only printable ASCII, so ``p\\u00e4sswort1234`` in hex or in wrapped base64 was found in none
    and stayed in the cassette)."""
    from recorder.secrets import scrub_text

    password = "p\u00e4sswort1234"  # 12 characters, 13 bytes: a leak only whole
    written = ("user:" + password).encode().hex()  # 757365723a70c3a4...
    assert examine(written, (password,)) == Finding(("hex",), WHOLE)
    assert scrub_text(written, (password,)) == "[removed: held a credential in hex]"
    # no 16 ASCII characters in a row; a line break inside its base64 (no known form matches)
    long = "Schl\u00fcssel-f\u00fcr-die-T\u00fcr-1234"
    mime = base64.b64encode(b"x" * 50 + long.encode())
    assert examine(mime[:80] + b"\r\n" + mime[80:], (long,)) == Finding(("base64",), WHOLE)
    # an HTML reference for it (the escapes view)
    assert examine("user:p&auml;sswort1234", (password,)) == Finding(("escapes",), WHOLE)
    # the alphabet grows by the credential's own bytes only: noise of other bytes stays noise
    text = b"\x00\t\n\r" + bytes(range(0x20, 0x7F))
    needles = secret_search._needles
    assert secret_search._textual(needles((password,))) == _table(text + b"\xa4\xc3")
    assert secret_search._textual(needles(("abc\x7fdefghij",))) == _table(text + b"\x7f")
    assert secret_search._textual(needles(SECRETS)) == secret_search._TEXTUAL
