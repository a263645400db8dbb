"""The scrubber (recorder/secrets.py), value by value: where a known secret is found in each form
(raw, a space as ``+``, base64 at each of its three offsets, standard or URL-safe, under nested
HTML/JSON/URL escapes), what the text, headers, bodies and URLs become, each expected value written
by hand from the module's rules (decision METHOD.md#scrub-secrets-not-text)."""

from __future__ import annotations

import base64

from recorder.secrets import (
    REDACTED,
    public_url,
    scrub_body,
    scrub_headers,
    scrub_known,
    scrub_shapes,
    scrub_text,
    secret_spans,
)

KEY = "abcdefghijkl"  # 12 characters: searched (8 or more), and a leak only whole (under 16)
SECRETS = (KEY,)


def test_a_key_at_the_very_start_and_again_later() -> None:
    # the next search starts one past the first find: from 0 + 1, not from 0 - 1 (the end)
    assert secret_spans("abcdefghijkl, abcdefghijkl", SECRETS) == [(0, 12), (14, 26)]


def test_a_raw_secret_and_one_with_its_spaces_as_plus() -> None:
    assert secret_spans("no key here at all", SECRETS) == []  # a list, empty
    assert secret_spans("x abcdefghijkl y", SECRETS) == [(2, 14)]
    assert secret_spans("q=my+secret+key&x", ("my secret key",)) == [(2, 15)]
    assert secret_spans("my secret key", ("my secret key",)) == [(0, 13)]
    # eight characters are searched, seven are not (ordinary words)
    assert secret_spans("is abcdefgh.", ("abcdefgh",)) == [(3, 11)]
    assert secret_spans("is abcdefg.", ("abcdefg",)) == []
    assert secret_spans(base64.b64encode(b"abcdefg").decode(), ("abcdefg",)) == []
    assert secret_spans("", SECRETS) == [] and secret_spans("abcdefghijkl", ()) == []
    assert secret_spans("abcdefghijkl", ("", "abcdefghijkl", "abcdefghijkl")) == [(0, 12)]


def test_base64_of_a_text_holding_the_secret_at_each_offset() -> None:
    # 12 bytes at offset 0, 1 or 2 of the encoded text: the characters they alone decide are
    # [0, 16), [2, 17) and [3, 18) of its base64, as 6-bit groups fall
    for prefix, (start, end) in ((b"", (0, 16)), (b"X", (2, 17)), (b"XY", (3, 18))):
        encoded = base64.b64encode(prefix + KEY.encode() + b"!?").decode()
        assert secret_spans("auth=" + encoded, SECRETS) == [(5 + start, 5 + end)], prefix
    # URL-safe: a key whose base64 holds + and /
    key = "a>>>b???c>>>d"
    standard = base64.b64encode(key.encode()).decode()
    assert "+" in standard and "/" in standard
    urlsafe = base64.urlsafe_b64encode(key.encode()).decode()
    assert secret_spans(urlsafe, (key,)) == [(0, 17)]
    assert secret_spans(standard, (key,)) == [(0, 17)]


def test_escapes_are_undone_layer_by_layer_and_the_span_covers_them() -> None:
    assert secret_spans("&#x61;bcdefghijkl!", SECRETS) == [(0, 17)]
    assert secret_spans("&#X0061;bcdefghijkl", SECRETS) == [(0, 19)]
    assert secret_spans("&#97;bcdefghijkl", SECRETS) == [(0, 16)]
    assert secret_spans("&#097bcdefghijkl", SECRETS) == [(0, 16)]  # no semicolon
    assert secret_spans("\\u0061bcdefghijk\\u006C.", SECRETS) == [(0, 22)]
    assert secret_spans("%61bcdefghijk%6c", SECRETS) == [(0, 16)]
    assert secret_spans("%2561bcdefghijkl", SECRETS) == [(0, 16)]  # %25 is %: two layers
    assert secret_spans("ab&AMP;cdefghij", ("ab&cdefghij",)) == [(0, 15)]
    assert secret_spans("ab&amp;cdefghij", ("ab&cdefghij",)) == [(0, 15)]
    assert secret_spans('a\\/b\\\\c\\"defgh', ('a/b\\c"defgh',)) == [(0, 14)]
    # a percent byte of UTF-8 and a code point past Unicode are no characters: nothing undone
    assert secret_spans("%C3%A9abcdefghijkl", SECRETS) == [(6, 18)]
    assert secret_spans("&#1114112;abcdefghijkl", SECRETS) == [(10, 22)]
    assert secret_spans("&nosuch;abcdefghijkl", SECRETS) == [(8, 20)]


def test_spans_are_merged_when_they_touch_or_overlap() -> None:
    assert secret_spans("abcdefghijklabcdefghijkl", SECRETS) == [(0, 24)]
    assert secret_spans("abcdefghijkl abcdefghijkl", SECRETS) == [(0, 12), (13, 25)]
    assert secret_spans("abcdefghijklmn", ("abcdefghijkl", "cdefghijklmn")) == [(0, 14)]
    assert secret_spans("abcdefghijklmn", ("cdefghijklmn", "abcdefghijkl")) == [(0, 14)]
    assert secret_spans("xxabcdefghijkl", ("abcdefghijkl", "xxabcdefgh")) == [(0, 14)]


def test_scrubbed_text_keeps_everything_but_the_secret() -> None:
    assert scrub_text("x abcdefghijkl y %61bcdefghijkl", SECRETS) == (f"x {REDACTED} y {REDACTED}")
    assert scrub_text("nothing here", SECRETS) == "nothing here"
    assert scrub_known("key abcdefghijkl", SECRETS) == f"key {REDACTED}"


def test_key_shapes_are_blanked_in_headers_and_urls_only() -> None:
    assert scrub_shapes("Bearer abcd1234", ()) == f"Bearer {REDACTED}"
    assert scrub_shapes("basic  YWxhZGRpbjpvcGVu", ()) == f"basic  {REDACTED}"
    assert scrub_shapes("Bearer short", ()) == "Bearer short"
    assert scrub_shapes("k=sk-abcdefghijkl&x=lsk_abcdefghijkl;lob-abcdefghijkl", ()) == (
        f"k={REDACTED}&x={REDACTED};{REDACTED}"
    )
    assert scrub_shapes("sk-abcdefghijk and task-abcdefghijklm", ()) == (
        "sk-abcdefghijk and task-abcdefghijklm"
    )
    assert scrub_shapes("token abcdefghijkl", SECRETS) == f"token {REDACTED}"
    assert scrub_text("Bearer abcd1234", ()) == "Bearer abcd1234"


def test_headers_lose_credential_names_and_keep_other_values_scrubbed() -> None:
    # every header dropped: an empty dict, not nothing
    assert scrub_headers({"Authorization": "Bearer abcdefghijkl"}, SECRETS) == {}
    assert scrub_headers({}, SECRETS) == {}
    headers = {
        "Authorization": "Bearer abcdefghijkl",
        "COOKIE": "a=b",
        "X-abcdefghijkl": "name holds it",
        "X-Echo": ["Bearer abcd1234", 7, "id abcdefghijkl"],
        "X-Key": "id abcdefghijkl",
        "X-Count": 3,
    }
    assert scrub_headers(headers, SECRETS) == {
        "X-Echo": [f"Bearer {REDACTED}", 7, f"id {REDACTED}"],
        "X-Key": f"id {REDACTED}",
        "X-Count": 3,
    }


def test_bodies_come_back_as_they_came_in() -> None:
    assert scrub_body("a abcdefghijkl b", SECRETS) == f"a {REDACTED} b"
    assert scrub_body(b"a abcdefghijkl \xc3\xa9", SECRETS) == f"a {REDACTED} é".encode()
    assert scrub_body(b"\xe9 abcdefghijkl \xff", SECRETS) == b"\xe9 " + REDACTED.encode() + b" \xff"
    clean = b"nothing here"
    assert scrub_body(clean, SECRETS) == clean
    body = {"not": "a body"}
    assert scrub_body(body, SECRETS) is body
    short = b"abcdefg"
    assert scrub_body(short, ("abcdefg",)) is short  # too short to search: not even decoded
    # a str body the gate refuses is its marker, as text
    hidden = base64.b64encode(base64.b64encode(KEY.encode("utf-16-le"))).decode()
    assert scrub_body(f"x {hidden}", SECRETS) == (
        "[removed: held a credential in UTF-16 in base64 in base64]"
    )
    assert scrub_body("caf\udce9", SECRETS) == "caf\udce9"


def test_a_public_url_shows_no_userinfo_query_value_nor_fragment() -> None:
    assert public_url("https://user:pw@h.example:8443/v1/chat?key=abc&x=&y#frag") == (
        f"https://h.example:8443/v1/chat?key={REDACTED}&x={REDACTED}&y={REDACTED}#{REDACTED}"
    )
    assert public_url("http://[::1]:9000/v1") == "http://[::1]:9000/v1"
    assert public_url("http://H.Example/v1?") == "http://h.example/v1"
    assert public_url("http://h.example/v1?&&") == f"http://h.example/v1?{REDACTED}"
    assert public_url("http://h.example/abcdefghijkl/x", SECRETS) == (
        f"http://h.example/{REDACTED}/x"
    )
    assert public_url("http://h.example/sk-abcdefghijkl") == f"http://h.example/{REDACTED}"
    # not a URL urlsplit reads: the userinfo and the query still go
    assert public_url("http://u:p@h.example:99999/v1?key=sk-abc") == "http://h.example:99999/v1"
    assert public_url("http://u@[::1/abcdefghijkl?k=v?w", SECRETS) == f"http://[::1/{REDACTED}"
    assert public_url("file:///etc/hosts") == "file:///etc/hosts"


def test_a_secret_with_a_lone_surrogate_is_still_found() -> None:
    secret = "abc\udc80defghij"
    assert secret_spans(f"x {secret} y", (secret,)) == [(2, 13)]


def test_every_occurrence_is_found_not_only_the_first_and_last() -> None:
    text = "abcdefghijkl x abcdefghijkl y abcdefghijkl"
    assert secret_spans(text, SECRETS) == [(0, 12), (15, 27), (30, 42)]


def test_named_references_are_read_exactly_then_in_lower_case() -> None:
    # "&Aacute;" is a capital A acute (its lower-case name is another letter); "&Hellip;" is no
    # name but its lower case "&hellip;" is the ellipsis; neither has an upper-case form
    assert secret_spans("ab&Aacute;cdefghij", ("ab\u00c1cdefghij",)) == [(0, 18)]
    assert secret_spans("ab&Aacute;cdefghij", ("ab\u00e1cdefghij",)) == []
    assert secret_spans("ab&Hellip;cdefghij", ("ab\u2026cdefghij",)) == [(0, 18)]
    # HTML5 names "&Hat;" (^) and no "&hat;": the lower-case form of a name is read as that name
    assert secret_spans("x abcdef&hat;ghijkl", ("abcdef^ghijkl",)) == [(2, 19)]


def test_code_point_and_byte_bounds_of_an_escape() -> None:
    # the last code point of Unicode is a character; %80 and up are bytes of UTF-8, none
    assert secret_spans("ab&#x10FFFF;cdefghij", ("ab\U0010ffffcdefghij",)) == [(0, 20)]
    assert secret_spans("ab%80cdefghij", ("ab\x80cdefghij",)) == []
    assert secret_spans("ab%7Fcdefghij", ("ab\x7fcdefghij",)) == [(0, 13)]


def test_an_escape_that_is_no_character_does_not_stop_the_layer() -> None:
    # %FF is skipped, the %61 after it is still undone: the key is found
    assert secret_spans("%FF%61bcdefghijkl", SECRETS) == [(3, 17)]


def test_a_span_before_the_escapes_of_its_layer_maps_back_to_itself() -> None:
    # found raw and again in the undone layer; three escapes after it move nothing before them
    assert secret_spans("abcdefghijkl%41%42%43", SECRETS) == [(0, 12)]
    assert scrub_text("abcdefghijkl%41%42%43", SECRETS) == f"{REDACTED}%41%42%43"


def test_a_body_with_no_searchable_secret_is_the_same_object() -> None:
    short = b"abcdefg \xff"
    assert scrub_body(short, ("abcdefg",)) is short
    assert scrub_body(short, ()) is short


def test_an_ipv6_host_with_no_port_keeps_its_brackets() -> None:
    assert public_url("http://[::1]/v1") == "http://[::1]/v1"
    assert public_url("https://u:p@[2001:db8::1]/v1?key=sk-x") == (
        f"https://[2001:db8::1]/v1?key={REDACTED}"
    )


def test_spans_merge_into_the_last_one_even_after_several() -> None:
    # the long value holds the short one: its spans sit inside the third and are merged into it
    text = "abcdefghijkl x abcdefghijkl y XXabcdefghijklXX"
    long = "XXabcdefghijklXX"
    assert secret_spans(text, (KEY, long)) == [(0, 12), (15, 27), (30, 46)]


def test_overlapping_occurrences_are_all_covered() -> None:
    # a value found again one character on: nine a's hold eight a's twice, and both go
    assert secret_spans("aaaaaaaaa", ("aaaaaaaa",)) == [(0, 9)]


def test_four_layers_of_escapes_are_undone_and_a_fifth_is_left_to_the_gate() -> None:
    # each layer turns one %25 into %: "%2525252561" is four layers from "a", one more is five
    assert secret_spans("%25252561bcdefghijkl", SECRETS) == [(0, 20)]
    assert secret_spans("%2525252561bcdefghijkl", SECRETS) == []
    assert scrub_text("%2525252561bcdefghijkl", SECRETS) == (
        "[removed: encoded too deeply to be checked for a credential]"
    )
