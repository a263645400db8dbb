"""scorer/safe_text.py by exact value: each output kind's characters, one by one at the edges of
each range (issue 28's lists, written by hand), and what is kept."""

from __future__ import annotations

import pytest

from scorer.safe_text import for_terminal, for_xml, markdown_text, utf8

# Escaped on a terminal whatever the mode: C0 but tab and line feed, DEL, C1, bidi controls, lone
# surrogates.
ALWAYS = (
    "\x00\x08\x0b\x0c\x0d\x1b\x1f\x7f\x80\x9f\u061c\u200e\u200f\u202a\u202e\u2066\u2069\ud800\udfff"
)
ALWAYS_TEXT = (
    "\\x00\\x08\\x0b\\x0c\\x0d\\x1b\\x1f\\x7f\\x80\\x9f\\u061c\\u200e\\u200f\\u202a\\u202e"
    "\\u2066\\u2069\\ud800\\udfff"
)
KEPT = "a \xa0\xe9\u061b\u061d\u200d\u2010\u2029\u202f\u2065\u206a\ufffd\ufffe\U0001f600"


def test_for_terminal_escapes_controls_and_bidi_and_keeps_the_rest() -> None:
    assert for_terminal(ALWAYS) == ALWAYS_TEXT
    assert for_terminal(KEPT) == KEPT
    assert for_terminal("a\tb\nc") == "a\tb\nc"
    assert for_terminal("a\tb\nc", one_line=True) == "a\\x09b\\x0ac"
    assert for_terminal(ALWAYS, one_line=True) == ALWAYS_TEXT


def test_for_xml_escapes_what_xml_cannot_hold() -> None:
    assert for_xml(ALWAYS + "\ufffe\uffff") == ALWAYS_TEXT + "\\ufffe\\uffff"
    assert for_xml("a\tb\nc \xa0\xe9\ufffd\ufffc<&>\U0001f600") == (
        "a\tb\nc \xa0\xe9\ufffd\ufffc<&>\U0001f600"
    )


@pytest.mark.parametrize(
    ("text", "safe"),
    [
        ("abc", "abc"),
        ("\xe9\U0001f600", "\xe9\U0001f600"),
        ("a\udc80b", "a\ufffdb"),
        ("\ud800\xe9\udfff", "\ufffd\xe9\ufffd"),
    ],
    ids=["ascii", "utf8", "one-surrogate", "two-surrogates"],
)
def test_utf8(text: str, safe: str) -> None:
    assert utf8(text) == safe
    safe.encode("utf-8")


def test_markdown_text_exact() -> None:
    assert markdown_text("  a\n\tb  *c*  ", 20) == "a b \\*c\\*"
    assert markdown_text("a & <b> | `c` #1 ~ [d](e) _f_ \\", 80) == (
        "a &amp; \\<b\\> \\| \\`c\\` \\#1 \\~ \\[d\\](e) \\_f\\_ \\\\"
    )
    assert markdown_text("abcdef", 6) == "abcdef"
    assert markdown_text("abcdefg", 6) == "abcde\u2026"
    assert markdown_text("hi @ann", 80) == "hi @&#8203;ann"
    assert markdown_text("abc", 1) == "\u2026"  # room for the ellipsis alone
