"""scripts/reflow_long_lines.py: long comments, docstrings and literals brought to the width,
meaning kept."""

from __future__ import annotations

import ast
import importlib.util
import sys
import textwrap

import pytest

from tests.conftest import ROOT

_SPEC = importlib.util.spec_from_file_location(
    "reflow_long_lines", ROOT / "scripts" / "reflow_long_lines.py"
)
assert _SPEC is not None and _SPEC.loader is not None
reflow = importlib.util.module_from_spec(_SPEC)
sys.modules["reflow_long_lines"] = reflow
_SPEC.loader.exec_module(reflow)

W = 40  # a small width keeps the cases readable; the tool's default is 100


def run(source: str) -> str:
    new, refused = reflow.reflow_source(textwrap.dedent(source), W)
    assert refused == []
    return new


CASES = [
    pytest.param(
        """\
        # one two three four five six seven eight nine ten
        # eleven
        x = 1
        """,
        """\
        # one two three four five six seven
        # eight nine ten eleven
        x = 1
        """,
        id="comment-block-refilled",
    ),
    pytest.param(
        """\
        # Steps, one a line:
        #   do_this(a, b, c, d, e, f, g, h, i, j)
        # - first item of the list, which is long enough
        x = 1
        """,
        """\
        # Steps, one a line:
        #   do_this(a, b, c, d, e, f, g, h, i, j)
        # - first item of the list, which is
        #   long enough
        x = 1
        """,
        id="comment-code-kept-bullet-hangs",
    ),
    pytest.param(
        """\
        y = 2  # a trailing comment far too long to stay
        """,
        """\
        # a trailing comment far too long
        # to stay
        y = 2
        """,
        id="trailing-comment-moved-above",
    ),
    pytest.param(
        '''\
        def f():
            """Summary of the function that is long.

            - item one that goes past the width here
            >>> f(1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11)
            """
        ''',
        '''\
        def f():
            """Summary of the function that
            is long.

            - item one that goes past the
              width here
            >>> f(1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11)
            """
        ''',
        id="docstring-paragraph-list-doctest",
    ),
    pytest.param(
        """\
        def g(x):
            return f"value {x!r} is out of its range {{0}}"
        """,
        """\
        def g(x):
            return (f"value {x!r} is out of "
                "its range {0}")
        """,
        id="f-string-split-and-parenthesized",
    ),
    pytest.param(
        """\
        call(
            help="the first piece is short "
            "and the second one runs well past the width.",
        )
        """,
        """\
        call(
            help="the first piece is short and "
            "the second one runs well past the "
            "width.",
        )
        """,
        id="concatenation-re-split",
    ),
    pytest.param(
        """\
        call(
            "a first piece "
            'with "quotes" that runs well past the width',
        )
        """,
        """\
        call(
            "a first piece "
            'with "quotes" that runs well past '
            'the width',
        )
        """,
        id="mixed-quotes-split-one-by-one",
    ),
    pytest.param(
        """\
        def h(a: int, b: int) -> int:  # type: ignore[x]
            return a
        """,
        """\
        def h(  # type: ignore[x]
        a: int, b: int,
        ) -> int:
            return a
        """,
        id="pragma-stays-on-the-def-line",
    ),
    pytest.param(
        """\
        import os  # noqa: F401  (kept on its line though long)
        """,
        """\
        # (kept on its line though long)
        import os  # noqa: F401
        """,
        id="pragma-free-text-moves-above",
    ),
    pytest.param(
        '''\
        TEMPLATE = """a triple-quoted template is content, never reflowed"""
        x = "https://example.com/a/long/url/without/spaces"
        ''',
        '''\
        TEMPLATE = """a triple-quoted template is content, never reflowed"""
        x = "https://example.com/a/long/url/without/spaces"
        ''',
        id="content-and-unbreakable-left",
    ),
]


@pytest.mark.parametrize(("before", "after"), CASES)
def test_reflow(before: str, after: str) -> None:
    new = run(before)
    assert new == textwrap.dedent(after)
    assert reflow.same_meaning(textwrap.dedent(before), new)


def test_a_value_change_is_refused() -> None:
    before = 'x = "one two"\n'
    assert reflow.same_meaning(before, 'x = ("one " "two")\n')
    assert not reflow.same_meaning(before, 'x = ("one" "two")\n')
    assert not reflow.same_meaning("x = 1  # a b\n", "x = 1  # a\n")


def test_docstring_words_and_literal_values_survive() -> None:
    source = textwrap.dedent(
        '''\
        """Module docstring with ``a code span that must stay whole`` inside it."""
        MESSAGE = f"{1 + 1} apples and {{braces}} and \\N{BULLET} and tabs\\tand more words"
        '''
    )
    new = run(source)
    assert "``a code span that must stay whole``" in new
    namespace: dict[str, object] = {}
    exec(compile(new, "<new>", "exec"), namespace)  # the value as Python computes it
    assert namespace["MESSAGE"] == "2 apples and {braces} and \N{BULLET} and tabs\tand more words"
    assert ast.get_docstring(ast.parse(new)).split() == ast.get_docstring(ast.parse(source)).split()


def test_long_lines_are_counted_by_kind() -> None:
    source = textwrap.dedent(
        '''\
        """A docstring line that is far longer than forty."""
        # a comment line that is far longer than forty columns
        x = f"{1} an f-string that is far longer than forty"  # type: ignore[x]
        TEMPLATE = """
        content line that is far longer than forty columns
        """
        '''
    )
    kinds = reflow.long_line_kinds(source, W)
    assert kinds == {"docstring": 1, "comment": 1, "pragma": 1, "triple-quoted content": 1}


def test_fmt_off_tables_are_left_unless_unskip() -> None:
    source = textwrap.dedent(
        """\
        # fmt: off
        TABLE = [("a", "one two three four five six seven")]
        # fmt: on
        """
    )
    assert reflow.reflow_source(source, W) == (source, [])
    assert reflow.long_line_kinds(source, W) == {"under fmt: off/skip": 1}
    unskipped, refused = reflow.reflow_source(source, W, unskip=True)
    assert refused == []
    assert "fmt:" not in unskipped
    assert reflow.normalized_ast(unskipped) == reflow.normalized_ast(source)


def test_a_summary_read_by_argparse_stays_one_line() -> None:
    source = textwrap.dedent(
        '''\
        """A summary line that is longer than forty columns.

        More words in a paragraph that is longer than forty columns.
        """
        DESCRIPTION = __doc__.splitlines()[0]
        '''
    )
    new = run(source)
    assert new.splitlines()[0] == '"""A summary line that is longer than forty columns.'
    assert new.splitlines()[2] == "More words in a paragraph that is longer"


def test_no_line_starts_like_a_bullet_or_ends_a_paragraph_alone() -> None:
    assert reflow.fill(["aaaa", "bbbb", "cccc", "-", "dd"], 14, 14) == ["aaaa bbbb", "cccc - dd"]
    assert reflow.fill(["aaaa", "bbbb", "cccc", "dd"], 14, 14) == ["aaaa bbbb", "cccc dd"]
