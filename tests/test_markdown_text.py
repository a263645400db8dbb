"""``markdown_text`` escapes no further than its cut (a 20,000-character reason costs what its
first ``limit`` characters do) and still gives what escaping the whole text and then cutting it
gives: the escape maps each character on its own, so the cut text's escape is a prefix of the whole
text's."""

from __future__ import annotations

import re

from hypothesis import given
from hypothesis import strategies as st

from scorer.safe_text import for_terminal, markdown_text, without_mentions

# Controls, bidi controls, a lone surrogate, whitespace, markdown specials, an @ and plain letters.
CHARACTERS = st.sampled_from(list("\x00\x1b\t\n \x85\u202e\u2066\ud800|\\*&@abé"))


def escaped_then_cut(value: str, limit: int) -> str:
    """The definition: collapse, escape all of it, cut to ``limit``, then markdown-escape."""
    flat = for_terminal(" ".join(value.split()), one_line=True)
    if len(flat) > limit:
        flat = flat[: limit - 1] + "…"
    return without_mentions(re.sub(r"([\\`*_\[\]|<>#~])", r"\\\1", flat.replace("&", "&amp;")))


@given(st.lists(CHARACTERS, max_size=400).map("".join), st.integers(min_value=-2, max_value=120))
def test_cutting_before_escaping_gives_the_same_text(value: str, limit: int) -> None:
    assert markdown_text(value, limit) == escaped_then_cut(value, limit)


def test_a_cut_falls_inside_an_escape() -> None:
    # Ten ESC characters escape to 40 characters; 7 are kept, then the ellipsis, and each kept
    # backslash is escaped for markdown.
    assert markdown_text("\x1b" * 10, 8) == "\\\\x1b\\\\x1…"
    assert markdown_text("\x1b", 4) == "\\\\x1b"  # exactly the limit: not cut
