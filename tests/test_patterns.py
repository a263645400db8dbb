"""Patterns run by RE2 (scorer/patterns.py, METHOD.md#patterns-run-by-re2): search semantics, the
case option, lone surrogates, and a refusal as one line with RE2's reason (nothing on stderr)."""

from __future__ import annotations

from typing import Any

import pytest
import re2

from scorer.patterns import PatternError, compile_pattern, pattern_search


@pytest.mark.parametrize(
    ("pattern", "value", "ignore_case", "found"),
    [
        ("b", "abc", False, True),  # anywhere, as re.search
        ("^b", "abc", False, False),
        ("A", "a", False, False),
        ("A", "a", True, True),
        ("a", "A", True, True),
        ("^.$", "\udc80", False, True),  # a lone surrogate reads as U+FFFD: one character
        ("^[^a]$", "\ud800", False, True),
        ("\udc80", "\ufffd", False, True),  # in the pattern too
        ("^\u00e9$", "\u00e9", False, True),
    ],
    ids=["anywhere", "anchored", "case", "ignore-case", "ignore-case-upper", "surrogate-dot",
         "surrogate-class", "surrogate-pattern", "non-ascii"],
)  # fmt: skip
def test_pattern_search(pattern: str, value: str, ignore_case: bool, found: bool) -> None:
    assert pattern_search(pattern, value, ignore_case) is found


def test_a_refused_pattern_is_one_line_with_the_engines_reason(
    capfd: pytest.CaptureFixture[str],
) -> None:
    with pytest.raises(PatternError) as caught:
        compile_pattern("(x)\\1 patterns test")  # not compiled elsewhere: not cached
    assert str(caught.value) == (
        "the linear-time engine (RE2) cannot run it: invalid escape sequence: \\1"
    )
    with pytest.raises(PatternError) as caught:
        compile_pattern("(?=x) patterns test")
    assert str(caught.value) == (
        "the linear-time engine (RE2) cannot run it: invalid perl operator: (?="
    )
    assert capfd.readouterr().err == ""  # RE2's own log line is turned off


def test_compiled_patterns_are_cached_per_case_option() -> None:
    assert compile_pattern("q+", False) is compile_pattern("q+", False)
    assert compile_pattern("q+", True) is not compile_pattern("q+", False)


def test_case_matters_by_default() -> None:
    assert pattern_search("A", "a") is False and pattern_search("a", "a") is True


@pytest.mark.parametrize(
    ("raised", "reason"),
    [
        (re2.error(), "refused"),  # no reason given
        (re2.error("a str reason"), "a str reason"),  # a binding that gives text
        (re2.error(b"missing ): caf\xc3\xa9("), "missing ): caf\u00e9("),  # UTF-8 bytes, decoded
        (re2.error(b"cut in a character: \xc3"), "cut in a character: \ufffd"),  # bad bytes
    ],
    ids=["no-args", "str", "utf8-bytes", "bad-bytes"],
)
def test_every_shape_of_an_re2_refusal_reads_as_one_line(
    monkeypatch: pytest.MonkeyPatch, raised: Exception, reason: str
) -> None:
    def refuse(*_: Any) -> Any:
        raise raised

    monkeypatch.setattr(re2, "compile", refuse)
    pattern = f"never-compiled-before-{reason!r}"  # not in compile_pattern's cache
    # Any exception is caught and checked by value: a refusal read wrongly must fail an assertion.
    caught: Exception | None = None
    try:
        compile_pattern(pattern)
    except Exception as exc:
        caught = exc
    assert (type(caught), str(caught)) == (
        PatternError,
        f"the linear-time engine (RE2) cannot run it: {reason}",
    )


def test_a_compiled_pattern_is_case_sensitive_unless_asked() -> None:
    assert compile_pattern("abc").search("xABCx") is None
    assert compile_pattern("abc", True).search("xABCx") is not None
