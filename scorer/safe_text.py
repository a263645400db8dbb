"""What a model or a gateway wrote, made safe for each output that cannot hold it as it is
(issue 28).

One function per output kind, each the only place that kind is made safe:

- ``utf8``: formats that must be UTF-8 (parquet rows, RE2's input) get U+FFFD for each lone
  surrogate (valid JSON as ``"\\udc80"``, not UTF-8). JSON files keep the surrogate exactly, as its
  escape (scorer/json_text.py).
- ``for_terminal``: text printed on a terminal shows every control character (C0, DEL, C1) and every
  bidi control escaped (``\\x1b``, ``\\u202e``), so nothing the model wrote is interpreted: no
  colour, no retitled window, no line rewritten, no text reordered.
- ``for_xml``: XML 1.0 cannot hold NUL, most C0 controls, lone surrogates or U+FFFE/U+FFFF at all,
  even escaped, and discourages DEL and C1; each is written as its ``\\xNN``/``\\uXXXX`` text, as
  are the bidi controls (a CI page or terminal showing the message must not reorder it), so a JUnit
  report is always well-formed and still says what was there. (``<``, ``&`` and quotes are the XML
  writer's to escape.)
- ``without_mentions``: markdown a person reads on GitHub (the pull-request comment, the step
  summary, leaderboard.md) gets a zero-width space after each ``@`` that would start a mention
  (``@user``, ``@org/team``), written ``&#8203;`` as Renovate does: the text reads the same and
  nobody a model named is notified.
"""

from __future__ import annotations

import re

_SURROGATE = re.compile("[\ud800-\udfff]")
# C0 but tab and line breaks, DEL, C1, and the bidi controls (embeddings, overrides,
# isolates, marks).
_TERMINAL = re.compile(
    "[\x00-\x08\x0b-\x1f\x7f-\x9f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069\ud800-\udfff]"
)
_TERMINAL_LINE = re.compile(
    "[\x00-\x1f\x7f-\x9f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069\ud800-\udfff]"
)
# Not a Char of XML 1.0 (https://www.w3.org/TR/xml/#charsets), discouraged there (DEL, C1), a bidi
# control or a carriage return (it rewrites the line on a terminal showing the message).
_NOT_XML = re.compile(
    "[\x00-\x08\x0b-\x1f\x7f-\x9f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069\ud800-\udfff\ufffe\uffff]"
)


def _escape(match: re.Match[str]) -> str:
    code = ord(match.group())
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"


def utf8(text: str) -> str:
    """``text`` with each lone surrogate replaced by U+FFFD: encodable as UTF-8."""
    if text.isascii():
        return text
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return _SURROGATE.sub("\ufffd", text)
    return text


def for_terminal(text: str, one_line: bool = False) -> str:
    """``text`` with every control and bidi character escaped (tabs and line breaks kept unless
    ``one_line``)."""
    return (_TERMINAL_LINE if one_line else _TERMINAL).sub(_escape, text)


def for_xml(text: str) -> str:
    """``text`` with every character XML 1.0 cannot hold written as its escape text."""
    return _NOT_XML.sub(_escape, text)


# An @ GitHub would read as a mention: not inside a word (an e-mail address is not one), before a
# user or org name.
_MENTION = re.compile(r"(?<![A-Za-z0-9_.@`/-])@(?=[A-Za-z0-9])")


def without_mentions(text: str) -> str:
    """Markdown ``text`` with each would-be ``@mention`` broken by a zero-width space
    (``@&#8203;user``)."""
    return _MENTION.sub("@&#8203;", text) if "@" in text else text


# What markdown (and GitHub's HTML) would act on in a table cell or a line of a comment.
_MARKDOWN_SPECIAL = re.compile(r"([\\`*_\[\]|<>#~])")


def markdown_text(value: str, limit: int) -> str:
    """Plain text for one markdown line or table cell, as every comment this tool writes shows a
    model's or gateway's words: whitespace collapsed, controls and bidi shown (never acted on),
    cut to ``limit`` characters, markdown and HTML escaped, and no ``@mention`` (GitHub would
    notify whoever a model named)."""
    collapsed = " ".join(value.split())
    # The escape maps each character on its own to one or more, so the escaped text's first
    # ``limit`` characters are those of its first ``limit`` characters' escape: a 20,000-character
    # reason is escaped no further than its cut.
    flat = for_terminal(collapsed[:limit] if limit > 0 else collapsed, one_line=True)
    if len(flat) > limit or len(collapsed) > limit:
        flat = flat[: limit - 1] + "…"
    return without_mentions(_MARKDOWN_SPECIAL.sub(r"\\\1", flat.replace("&", "&amp;")))
