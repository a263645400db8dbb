"""A string a schema's pattern matches (scorer/suite/draft/pattern_sample.py): the syntax it reads,
what it refuses (None), the counts it writes for each quantifier and its limits; expected strings
written by hand (where the generator chooses among several characters, the choice is checked by
Python's ``re``, and the one seeded example is docs/commands/suite-new.md's)."""

from __future__ import annotations

import re
import string

import pytest

from scorer.suite.draft.pattern_sample import pattern_example

pytestmark = pytest.mark.timeout(10)


def test_the_documented_example() -> None:
    # docs/commands/suite-new.md#real-values: seeded from the pattern and the argument's name.
    assert pattern_example("^evt_[0-9a-f]{8}$", "event_id") == "evt_5e37b364"
    other = pattern_example("^evt_[0-9a-f]{8}$", "other")
    assert other != "evt_5e37b364"
    assert re.fullmatch("evt_[0-9a-f]{8}", other or "")


@pytest.mark.parametrize(
    ("pattern", "expected"),
    [
        ("^abc$", "abc"),
        ("a|b", "a"),  # the first branch
        ("(?:ab|c)d", "abd"),
        ("(?P<x>ab)c", "abc"),
        ("(?<name>q)", "q"),
        ("(?<X>b)", "b"),  # a name is skipped whatever its letters
        ("(?<>a)", "a"),  # even an empty one: the validator's engine judges the pattern
        ("aXb", "aXb"),  # a letter is a literal, not an anchor or a quantifier
        ("(a)(b)", "ab"),
        ("a{3}", "aaa"),
        ("a{2}?", "aa"),  # lazy
        ("a{2,}", "aaa"),  # at least 3 when it may
        ("a{5,}", "aaaaa"),
        ("a{0,1}", "a"),
        ("a{1,5}", "aaa"),
        ("a{4,6}", "aaaa"),
        ("a{0}", ""),
        ("a?", "a"),
        ("a*", "aaa"),
        ("a+", "aaa"),
        ("a++", "aaa"),  # possessive
        ("a*?b", "aaab"),
        ("a{,3}", "a{,3}"),  # a literal brace, as RE2 reads it
        ("a{+", "a{{{"),  # a literal brace can be repeated
        ("{x}", "{x}"),
        ("a{x}", "a{x}"),
        ("a{3", "a{3"),
        ("a{2,x}", "a{2,x}"),
        ("{x}a{3}{y}", "{x}aaa{y}"),  # the bounds end at the first "}" after their "{"
        ("x{", "x{"),
        ("\\.", "."),
        ("\\n\\t\\r\\f\\v\\0", "\n\t\r\f\v\0"),
        ("\\u00e9\\x41", "éA"),
        ("\\x41", "A"),  # the parse goes on past the escape's digits
        ("\\u0041", "A"),
        ("\\s", " "),
        ("\\W", "-"),
        ("a\\bc\\Ad\\Z\\z", "acd"),  # anchors write nothing
        ("\\-\\/", "-/"),
        ("[a]", "a"),
        ("[]a]", "a"),  # "]" first is a member; "a" is the preferred one
        ("[a-]", "a"),
        ("[-a]", "a"),
        ("[a-]b", "ab"),  # "-" before "]" is a member, and the class ends there
        ("[é a]", "a"),  # a letter or digit when there is one
        ("[\\x41-\\x41]", "A"),
        ("[\\.]", "."),
        ("[\\n]", "\n"),
        ("\ud800", "\ud800"),  # a lone surrogate still seeds the generator
        ("", ""),
    ],
)
def test_pattern_example(pattern: str, expected: str) -> None:
    assert pattern_example(pattern) == expected


@pytest.mark.parametrize(
    ("pattern", "members"),
    [
        (".", string.ascii_letters + string.digits),
        ("\\d", string.digits),
        ("\\w", string.ascii_letters + string.digits),
        ("\\D", "ab"),
        ("\\S", "ab"),
        ("[A-\\x43]", "ABC"),
        ("[\\d]", string.digits),
        ("[0-9a-f]", "0123456789abcdef"),
        ("[^a-zA-Z0-9]", " -_."),  # none preferred is left: any that is left
        ("[^\\d\\w]", " -."),
        ("[^a-y]", "zABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"),
        ("[\\d-z]", string.digits + "z"),  # a class escape, then a literal "-"
    ],
)
def test_one_of_a_set(pattern: str, members: str) -> None:
    found = [pattern_example(pattern, seed) for seed in ("", "a", "b", "c")]
    assert all(value is not None and len(value) == 1 and value in members for value in found)


def test_a_wide_range_is_cut_at_256_characters() -> None:
    # U+0100 to U+10FFFF: only the first 256 are members, none of them preferred.
    value = pattern_example("[\\u0100-\\uffff]")
    assert value is not None and 0x100 <= ord(value) <= 0x1FF


@pytest.mark.parametrize(
    "pattern",
    [
        "(?=a)b",
        "(?!a)b",
        "(?<=a)b",
        "(?<!a)b",
        "(?i)a",
        "(?P=name)",
        "(?P=n>a)",  # not a named group: a back-reference
        "(?P<n>a)(?P=n)",
        "(a)\\1",
        "\\B",
        "\\k",
        "\\X41",  # not \\x: an unknown escape
        "a\\Xb",
        "[\\ba]",  # \\b is an anchor outside a class only
        "*a",
        "+a",
        "?a",
        "{3}",
        "a{3,2}",
        "[z-a]",
        "[b-\\x41]",
        "[a-\\z]",  # an anchor is no range's end
        "[a-\\d]",  # nor is a class escape (a TypeError before the fix)
        "[^" + string.ascii_letters + string.digits + " \\-_.]",  # nothing left
        "[",
        "[a",
        "(a",
        "(a]",
        "a)",
        "\\u00",
        "\\xzz",
        "a{10001}",
        "(ab){5001}",
        "a{10000}b",
        "(" * 50 + "a" + ")" * 50,
        # Depth is nesting: a closed group gives its level back, once.
        "(a)(b)" + "(" * 50 + "c" + ")" * 50,
        "(" * 40 + "(a)" + "(" * 20 + "b" + ")" * 60,
    ],
)
def test_unread_syntax_gives_none(pattern: str) -> None:
    assert pattern_example(pattern) is None


def test_a_range_is_cut_after_256_characters() -> None:
    # U+0100 to U+0200 is 257 characters: the last one is never drawn, whatever the seed.
    drawn = {pattern_example("[\\u0100-\\u0200]", str(seed)) for seed in range(2000)}
    assert "\u0200" not in drawn and drawn <= {chr(c) for c in range(0x100, 0x200)}


def test_a_negated_class_draws_its_members_alike() -> None:
    # Left by "[^b-zA-WYZ0-9]": "a", "X" (preferred) and " -_.": "a" and "X" equally likely.
    drawn = [pattern_example("[^b-zA-WYZ0-9]", str(seed)) for seed in range(200)]
    assert set(drawn) == {"a", "X"} and 70 <= drawn.count("a") <= 130


def test_the_default_seed_is_empty() -> None:
    assert pattern_example("[a-z]{12}") == pattern_example("[a-z]{12}", "")
    assert pattern_example("[a-z]{12}") != pattern_example("[a-z]{12}", "XXXX")


def test_siblings_do_not_add_to_the_depth() -> None:
    assert pattern_example("(a)" * 60) == "a" * 60


def test_limits_at_their_edge() -> None:
    assert pattern_example("a{10000}") == "a" * 10_000
    assert pattern_example("(ab){5000}") == "ab" * 5_000
    assert pattern_example("(" * 49 + "a" + ")" * 49) == "a"
