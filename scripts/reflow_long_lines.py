"""Bring .py lines to <= 100 columns where ``ruff format`` cannot: comments, docstrings, strings.

A dev tool (issue 34), re-runnable on any tree: ``uv run python scripts/reflow_long_lines.py``. Each
pass edits what the formatter cannot wrap, then runs ``ruff format``; passes repeat until nothing
changes. Every edit is kept only when the file's AST is unchanged (docstrings compared with their
whitespace normalized, adjacent f-string parts merged) and its comments hold the same words in the
same order; a file that fails the check as a whole is left as it was and reported. Never touched:
the text inside triple-quoted strings that are not docstrings (templates, expected outputs), a
literal's value, indented or bulleted lines (lists, tables, code) joined to others. What is left is
listed by kind.
"""

from __future__ import annotations

import argparse
import ast
import io
import re
import subprocess
import sys
import tokenize
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

WIDTH = 100
# the project's pinned ruff, beside this interpreter (uv run), else the one on PATH
RUFF = next((str(p) for p in [Path(sys.executable).parent / "ruff"] if p.exists()), "ruff")
PRAGMA = re.compile(r"#\s*(noqa\b|type:\s*ignore|pragma\b|pyright:|ruff:|fmt:|mypy:|pylint:)")
DIRECTIVE = re.compile(
    r"#\s*(fmt|ruff|pyright|mypy|pylint|isort|type):|#\s*(noqa|pragma)\b|#!|#.*coding[:=]"
)
BULLET = re.compile(r"(?:[-*+•]|\d+[.)]|\(\w\)|\w[.)])\s+")
RULE = re.compile(r"([-=#*~_])\1{3,}")
VERBATIM_LINE = re.compile(r"(>>>|\.\.\.\s|\||\+-|={3,}|-{3,}|\S+\s*:{2}$)")


@dataclass(frozen=True)
class Edit:
    """Replace source lines ``first``..``last`` (1-based, inclusive) with ``text``."""

    first: int
    last: int
    text: str
    kind: str


# ---------------------------------------------------------------- the safety check


def _docstring_nodes(tree: ast.AST) -> list[ast.Constant]:
    kinds = (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)
    found = []
    for node in ast.walk(tree):
        body = getattr(node, "body", None)
        if isinstance(node, kinds) and body and isinstance(body[0], ast.Expr):
            value = body[0].value
            if isinstance(value, ast.Constant) and isinstance(value.value, str):
                found.append(value)
    return found


def normalized_ast(source: str) -> str | None:
    """``ast.dump`` with docstring whitespace collapsed and adjacent f-string parts merged."""
    try:
        tree = ast.parse(source)
    except SyntaxError:
        return None
    for doc in _docstring_nodes(tree):
        doc.value = " ".join(doc.value.split())
    for node in ast.walk(tree):
        if isinstance(node, ast.JoinedStr):
            merged: list[ast.expr] = []
            for part in node.values:
                if isinstance(part, ast.Constant) and part.value == "":
                    continue
                if (
                    merged
                    and isinstance(part, ast.Constant)
                    and isinstance(merged[-1], ast.Constant)
                ):
                    merged[-1] = ast.Constant(merged[-1].value + part.value)
                else:
                    merged.append(part)
            node.values = merged
    return ast.dump(tree)


def comment_words(source: str) -> list[str]:
    """Every comment's words, sorted (re-wrapping keeps them; a pragma's free text may move
    above)."""
    words: list[str] = []
    for tok in tokenize.generate_tokens(io.StringIO(source).readline):
        if tok.type == tokenize.COMMENT and not re.fullmatch(
            r"#\s*fmt:\s*(off|on|skip)\s*", tok.string
        ):
            # a rule (# ---- name ----) may be cut to the width: its dashes are not words
            words.extend(RULE.sub(r"\1\1\1", tok.string).replace("#", " ").split())
    return sorted(words)


def meaning(source: str) -> tuple[str | None, list[str]]:
    """What the safety check compares: the normalized AST and the comments' words."""
    return normalized_ast(source), comment_words(source)


def same_meaning(before: str, after: str) -> bool:
    """The safety check: same AST (docstring whitespace aside) and the same comment words."""
    reference = meaning(before)
    return reference[0] is not None and meaning(after) == reference


# ---------------------------------------------------------------- filling words


def _units(text: str) -> list[str]:
    """Words, with a backquoted span (``a b`` or `a b`) kept whole with what touches it."""
    units: list[str] = []
    current, i = "", 0
    while i < len(text):
        if text.startswith("``", i):
            end = text.find("``", i + 2)
            end = len(text) if end < 0 else end + 2
            current, i = current + text[i:end], end
        elif text[i] == "`":
            end = text.find("`", i + 1)
            end = len(text) if end < 0 else end + 1
            current, i = current + text[i:end], end
        elif text[i].isspace():
            if current:
                units.append(current)
            current, i = "", i + 1
        else:
            current, i = current + text[i], i + 1
    if current:
        units.append(current)
    return units


def fill(words: list[str], first_width: int, width: int) -> list[str]:
    """Greedy fill; a word longer than the width gets a line of its own."""
    lines: list[str] = []
    current = ""
    for word in words:
        limit = first_width if not lines else width
        if current and len(current) + 1 + len(word) > limit:
            head, _, last = current.rpartition(" ")
            if BULLET.fullmatch(word + " ") and head:
                # a line must not start with what reads as a list bullet: take the word before along
                lines.append(head)
                current = f"{last} {word}"
            else:
                lines.append(current)
                current = word
        else:
            current = f"{current} {word}" if current else word
    if current or not lines:
        lines.append(current)
    if len(lines) > 1 and " " not in lines[-1] and len(lines[-1]) <= 12:
        # no lone short word on the last line: the word before it comes along when it fits
        head, _, last = lines[-2].rpartition(" ")
        room = width if len(lines) > 2 else first_width
        fits = len(last) + 1 + len(lines[-1]) <= width
        if head and fits and len(head) <= room and not BULLET.fullmatch(last + " "):
            lines[-2:] = [head, f"{last} {lines[-1]}"]
    return lines


def _paragraphs(texts: list[str], keep_first: bool = False) -> list[tuple[str, list[int]]]:
    """Group line texts (indent already removed) into ("prose"|"bullet"|"keep"|"blank", indices)."""
    groups: list[tuple[str, list[int]]] = []
    hang = -1  # the text column of the current bullet's continuation lines
    verbatim_block = False
    for i, text in enumerate(texts):
        lead = len(text) - len(text.lstrip())
        body = text.strip()
        if not body:
            groups.append(("blank", [i]))
            hang, verbatim_block = -1, False
            continue
        if (
            verbatim_block
            or VERBATIM_LINE.match(body)
            or DIRECTIVE.match(body)
            or (keep_first and not i)
        ):
            groups.append(("keep", [i]))
            verbatim_block = verbatim_block or body.startswith(">>>")
            continue
        bullet = BULLET.match(body)
        if bullet:
            groups.append(("bullet", [i]))
            hang = lead + bullet.end()
        elif groups and (
            (hang >= 0 and lead == hang and groups[-1][0] == "bullet")
            or (lead == 0 and groups[-1][0] == "prose")
        ):
            groups[-1][1].append(i)
        elif lead == 0:
            groups.append(("prose", [i]))
            hang = -1
        else:
            groups.append(("keep", [i]))
    return groups


def reflow_texts(
    texts: list[str], room: list[int], keep_first: bool = False
) -> tuple[list[str], bool]:
    """Re-fill the paragraphs of ``texts`` holding a line longer than its ``room``; the rest as is.

    Returns the new lines and whether a too-long line was left (a kept one, or a word too long).
    """
    out: list[str] = []
    left = False
    for kind, idx in _paragraphs(texts, keep_first):
        too_long = any(len(texts[i].rstrip()) > room[i] for i in idx)
        if not too_long or kind in ("blank", "keep"):
            out.extend(texts[i] for i in idx)
            left = left or too_long
            continue
        first = texts[idx[0]]
        lead = len(first) - len(first.lstrip())
        words = _units(" ".join(texts[i] for i in idx))
        if kind == "bullet":
            marker = BULLET.match(first.strip())
            assert marker is not None
            hang = " " * (lead + marker.end())
            head = " " * lead + first.strip()[: marker.end()]
            words = _units(" ".join(texts[i] for i in idx)[lead + marker.end() :])
            lines = fill(words, room[idx[0]] - len(head), room[idx[0]] - len(hang))
            new = [head + lines[0]] + [hang + line for line in lines[1:]]
        else:
            lines = fill(words, room[idx[0]], min(room[i] for i in idx[1:] or idx[:1]))
            new = lines
        left = left or any(len(line) > room[idx[0]] for line in new)
        out.extend(new)
    return out, left


# ---------------------------------------------------------------- edits by kind


def _line_of(lines: list[str], n: int) -> str:
    return lines[n - 1].rstrip("\n") if n <= len(lines) else ""


def _cut_rule(text: str, room: int) -> str:
    """A rule line (``--- name -----``) cut to the room, keeping at least three of its dashes."""
    rule = re.search(r"([-=#*~_])\1{3,}$", text)
    if rule and len(text) > room and len(rule.group(0)) - (len(text) - room) >= 3:
        return text[:room]
    return text


def comment_block_edits(
    tokens: list[tokenize.TokenInfo], lines: list[str], width: int
) -> list[Edit]:
    """Runs of whole-line comments at one column, re-filled where a line is too long."""
    runs: list[list[tokenize.TokenInfo]] = []
    for tok in tokens:
        if tok.type != tokenize.COMMENT or lines[tok.start[0] - 1][: tok.start[1]].strip():
            continue
        if DIRECTIVE.match(tok.string):
            runs.append([])  # a directive ends a run and joins none
            continue
        if (
            runs
            and runs[-1]
            and runs[-1][-1].start[0] == tok.start[0] - 1
            and runs[-1][-1].start[1] == tok.start[1]
        ):
            runs[-1].append(tok)
        else:
            runs.append([tok])
    edits = []
    for run in filter(None, runs):
        if not any(tok.end[1] > width for tok in run) or (
            run[0].start[0] <= 2 and run[0].string.startswith("#!")
        ):
            continue
        column = run[0].start[1]
        if not all(tok.string.startswith("# ") or tok.string == "#" for tok in run):
            continue
        texts = [_cut_rule(tok.string[2:], width - column - 2) for tok in run]
        new, _ = reflow_texts(texts, [width - column - 2] * len(texts))
        prefix = " " * column + "#"
        text = "".join(f"{prefix} {line}".rstrip() + "\n" for line in new)
        edits.append(Edit(run[0].start[0], run[-1].start[0], text, "comment"))
    return edits


def _starts_clean(tokens: list[tokenize.TokenInfo], row: int) -> bool:
    """No token (a multi-line string) runs into line ``row`` from above."""
    return not any(t.start[0] < row <= t.end[0] and t.type == tokenize.STRING for t in tokens)


def trailing_comment_edits(
    tokens: list[tokenize.TokenInfo], lines: list[str], width: int
) -> list[Edit]:
    """A too-long line's trailing comment moves above it (a pragma stays; its free text moves)."""
    edits = []
    for tok in tokens:
        row = tok.start[0]
        line = _line_of(lines, row)
        code = line[: tok.start[1]]
        if tok.type != tokenize.COMMENT or not code.strip() or len(line) <= width:
            continue
        if not _starts_clean(tokens, row) or code.rstrip().endswith("\\"):
            continue
        comment = tok.string
        pragma = PRAGMA.match(comment)
        keep = ""
        if pragma:
            # A pragma's own codes stay on the line; only free text after them (two spaces or "#")
            # moves.
            codes = re.match(r"#[^#(]*?(?=\s{2,}|\s*#|\s*\(|$)", comment)
            if codes is None or codes.end() == len(comment.rstrip()):
                continue
            keep, moved = (
                codes.group(0).rstrip(),
                comment[codes.end() :].strip().lstrip("#").strip(),
            )
        else:
            moved = comment[1:].strip()
        indent = len(line) - len(line.lstrip())
        room = width - indent - 2
        new = fill(_units(moved), room, room)
        above = "".join(" " * indent + f"# {part}\n" for part in new)
        rest = code.rstrip() + (f"  {keep}" if keep else "")
        edits.append(Edit(row, row, above + rest + "\n", "trailing comment"))
    return edits


def pragma_line_edits(tokens: list[tokenize.TokenInfo], lines: list[str], width: int) -> list[Edit]:
    """A ``def`` or ``from .. import`` line too long with its pragma: the pragma goes after ``(``,
    and a magic trailing comma makes the formatter put one parameter or name a line."""
    edits = []
    for tok in tokens:
        if tok.type != tokenize.COMMENT or not PRAGMA.match(tok.string):
            continue
        row = tok.start[0]
        line = _line_of(lines, row)
        code = line[: tok.start[1]].rstrip()
        head = code.lstrip()
        if len(line) <= width or not re.match(r"(async\s+)?def\s|from\s\S+\simport\s", head):
            continue
        if "F401" in tok.string:
            # reported on each imported name's line: a wrapped import would need one per name
            continue
        on_line = [t for t in tokens if t.start[0] == row and t.type == tokenize.OP]
        if head.startswith("from"):
            names = code.index(" import ") + len(" import ")
            if "(" in code[names:]:
                continue
            inner = code[names:]
            text = f"{code[:names]}(  {tok.string}\n{inner},\n)\n"
        else:
            opens = [t for t in on_line if t.string == "("]
            if not opens:
                continue
            depth, close = 0, None
            for t in on_line:
                if t.start[1] < opens[0].start[1]:
                    continue
                depth += (t.string in "([{" and 1) or (-1 if t.string in ")]}" else 0)
                if depth == 0:
                    close = t
                    break
            if close is None:
                continue
            start, end = opens[0].end[1], close.start[1]
            inner = code[start:end].rstrip()
            if not inner:
                continue
            comma = "" if inner.endswith(",") else ","
            text = f"{code[:start]}  {tok.string}\n{inner}{comma}\n{code[end:]}\n"
        edits.append(Edit(row, row, text, "pragma line"))
    return edits


def docstring_edits(tree: ast.AST, lines: list[str], width: int) -> list[Edit]:
    """Docstrings' too-long paragraphs re-filled; indented blocks, lists and doctests kept."""
    edits = []
    body = getattr(tree, "body", [])
    module_doc = body[0].value if body and isinstance(body[0], ast.Expr) else None
    for node in _docstring_nodes(tree):
        first, last = node.lineno, node.end_lineno or node.lineno
        if not any(len(_line_of(lines, n)) > width for n in range(first, last + 1)):
            continue
        source = "".join(lines[first - 1 : last])
        lead = source[: node.col_offset]
        rest = source[node.col_offset :]
        match = re.match(r"([rRuU]?)(\"\"\"|''')", rest)
        if not match or lead.strip():
            continue
        quote = match.group(2)
        close = rest.rfind(quote)
        body, tail = rest[match.end() : close], rest[close:]
        if "\\N" in body or "\\\n" in body or tail.rstrip("\n") != quote:
            continue
        indent = node.col_offset
        body_lines = body.split("\n")
        texts = [body_lines[0]] + [
            text[indent:] if text[:indent].strip() == "" else text for text in body_lines[1:]
        ]
        room = [width - indent] * len(texts)
        room[0] -= len(match.group(0))
        if body_lines[-1].strip():
            room[-1] -= len(quote)
        if len(texts) > 1 and not texts[-1].strip():
            texts, closing = texts[:-1], "\n" + " " * indent
        else:
            closing = ""
        # A module docstring's first line read as a one-line summary (argparse descriptions) stays.
        keep_first = node is module_doc and "__doc__.split" in "".join(lines)
        new, _ = reflow_texts(texts, room, keep_first)
        pad = " " * indent
        joined = new[0] + "".join("\n" + (pad + t if t.strip() else "") for t in new[1:])
        text = lead + match.group(0) + joined + closing + tail
        edits.append(Edit(first, last, text, "docstring"))
    return edits


def _split_points(body: str, fstring: bool) -> list[int]:
    """Offsets in a literal's source body where a piece may end: after a space or a ``\\n`` escape,
    outside f-string fields and escapes."""
    points = []
    i, depth = 0, 0
    while i < len(body):
        char = body[i]
        if depth == 0 and char == "\\":
            if body.startswith("\\n", i):
                points.append(i + 2)
            i += (body.startswith("\\N{", i) and body.find("}", i) + 1 - i) or 2
            continue
        if fstring and char in "{}":
            if depth == 0 and body.startswith(char * 2, i):
                i += 2
                continue
            depth += 1 if char == "{" else -1
        elif depth == 0 and char == " " and i + 1 < len(body) and body[i + 1] != " ":
            points.append(i + 1)
        i += 1
    return points


def _has_field(piece: str) -> bool:
    return bool(re.search(r"(?<!\{)\{(?!\{)", piece.replace("{{", "")))


def split_literal(token: str, first_room: int, room: int, tail: int) -> list[str] | None:
    """``token`` as adjacent literals of the same value, each within its room (the last one also
    leaving ``tail`` columns for what follows it on its line), or None."""
    match = re.match(r"([a-zA-Z]*)('|\")", token)
    if not match or token[match.end() :].startswith(match.group(2) * 2):
        return None
    prefix, quote = match.groups()
    body = token[match.end() : -1]
    fstring = "f" in prefix.lower()
    points = _split_points(body, fstring)
    pieces, start = [], 0
    while True:
        limit = (first_room if not pieces else room) - len(prefix) - 2
        if len(body) - start <= limit - tail:
            pieces.append(body[start:])
            break
        fits = [p for p in points if start < p <= start + limit and p < len(body)]
        if not fits:
            return None
        pieces.append(body[start : fits[-1]])
        start = fits[-1]
    out = []
    for piece in pieces:
        own = prefix
        if fstring and not _has_field(piece):
            own = re.sub("[fF]", "", prefix)
            piece = piece.replace("{{", "{").replace("}}", "}")
        out.append(f"{own}{quote}{piece}{quote}")
    return out


def unformatted_rows(tokens: list[tokenize.TokenInfo]) -> set[int]:
    """Rows the formatter leaves alone: ``# fmt: off`` .. ``# fmt: on``, and ``# fmt: skip``
    statements."""
    rows: set[int] = set()
    off_from, statement = 0, 1
    for tok in tokens:
        text = tok.string.replace(" ", "") if tok.type == tokenize.COMMENT else ""
        if text == "#fmt:off" and not off_from:
            off_from = tok.start[0]
        elif text == "#fmt:on" and off_from:
            rows |= set(range(off_from, tok.start[0] + 1))
            off_from = 0
        elif text.startswith("#fmt:skip"):
            rows |= set(range(statement, tok.start[0] + 1))
        if tok.type == tokenize.NEWLINE:
            statement = tok.end[0] + 1
        elif tok.type in (tokenize.INDENT, tokenize.DEDENT):
            statement = tok.start[0]
    if off_from:
        rows |= set(range(off_from, tokens[-1].end[0] + 1))
    return rows


def unskip_edits(tokens: list[tokenize.TokenInfo], lines: list[str], width: int) -> list[Edit]:
    """``--unskip``: drop ``# fmt: off``/``on``/``skip`` around a too-long line, so the formatter
    lays that code out (hand-aligned tables become the formatter's layout)."""
    edits = []
    off_row, statement = 0, 1
    for tok in tokens:
        text = tok.string.replace(" ", "") if tok.type == tokenize.COMMENT else ""
        own_line = text and not _line_of(lines, tok.start[0])[: tok.start[1]].strip()
        if text == "#fmt:off" and own_line and not off_row:
            off_row = tok.start[0]
        elif text == "#fmt:on" and own_line and off_row:
            if any(len(_line_of(lines, n)) > width for n in range(off_row, tok.start[0])):
                edits += [
                    Edit(off_row, off_row, "", "fmt: off"),
                    Edit(tok.start[0], tok.start[0], "", "fmt: on"),
                ]
            off_row = 0
        elif (
            text == "#fmt:skip"
            and not own_line
            and any(len(_line_of(lines, n)) > width for n in range(statement, tok.start[0] + 1))
        ):
            line = _line_of(lines, tok.start[0])
            edits.append(
                Edit(
                    tok.start[0],
                    tok.start[0],
                    line[: tok.start[1]].rstrip() + "\n",
                    "fmt: skip",
                )
            )
        if tok.type == tokenize.NEWLINE:
            statement = tok.end[0] + 1
        elif tok.type in (tokenize.INDENT, tokenize.DEDENT):
            statement = tok.start[0]
    return edits


def _literal_runs(tokens: list[tokenize.TokenInfo]) -> list[tuple[list[tokenize.TokenInfo], int]]:
    """Implicitly concatenated one-line literals (only line breaks between), with their bracket
    depth."""
    runs: list[tuple[list[tokenize.TokenInfo], int]] = []
    depth, previous = 0, None
    for tok in tokens:
        if tok.type == tokenize.OP and tok.string in ("(", "[", "{"):
            depth += 1
        elif tok.type == tokenize.OP and tok.string in (")", "]", "}"):
            depth -= 1
        if tok.type == tokenize.STRING and tok.start[0] == tok.end[0]:
            if previous is not None and runs and previous is runs[-1][0][-1]:
                runs[-1][0].append(tok)
            else:
                runs.append(([tok], depth))
        if tok.type != tokenize.NL:
            previous = tok
    return runs


def _merged(run: list[tokenize.TokenInfo]) -> str | None:
    """One literal with the run's value (f-prefixed if any part is), or None if prefixes differ."""
    parts = [re.match(r"([a-zA-Z]*)(['\"])(.*)\2$", tok.string, re.S) for tok in run]
    if any(p is None or p.group(3).startswith(p.group(2) * 2) for p in parts):
        return None
    prefixes = {p.group(1).lower().replace("f", "").replace("u", "") for p in parts if p}
    quotes = {p.group(2) for p in parts if p}
    if len(prefixes) != 1 or len(quotes) != 1:
        return None
    fstring = any("f" in p.group(1).lower() for p in parts if p)
    body = ""
    for p in parts:
        assert p is not None
        text = p.group(3)
        if fstring and "f" not in p.group(1).lower():
            text = text.replace("{", "{{").replace("}", "}}")
        body += text
    prefix = prefixes.pop() + ("f" if fstring else "")
    quote = quotes.pop()
    return f"{prefix}{quote}{body}{quote}"


def string_edits(tokens: list[tokenize.TokenInfo], lines: list[str], width: int) -> list[Edit]:
    """Adjacent literals with a line over the limit, re-split at spaces (parenthesized when they
    stand outside brackets); the formatter then lays the pieces out."""
    edits = []
    unformatted = unformatted_rows(tokens)
    runs = _literal_runs(tokens)
    for run, depth in runs:
        if len(run) > 1 and _merged(run) is None:  # mixed quotes or prefixes: one literal at a time
            runs += [([tok], depth) for tok in run]
            continue
        rows = [tok.start[0] for tok in run]
        if not any(len(_line_of(lines, row)) > width for row in rows) or unformatted & set(rows):
            continue  # (a hand-made table under fmt: off/skip is left for hand work)
        if len(set(rows)) != len(rows):
            continue  # two literals on one line: left to the formatter or by hand
        first, last = run[0], run[-1]
        first_line, last_line = _line_of(lines, rows[0]), _line_of(lines, rows[-1])
        between = [_line_of(lines, tok.start[0])[tok.end[1] :].strip() for tok in run[:-1]]
        between += [_line_of(lines, tok.start[0])[: tok.start[1]].strip() for tok in run[1:]]
        tail = last_line[last.end[1] :].rstrip()
        if any(between) or "#" in tail:
            continue
        merged = _merged(run)
        if merged is None:
            continue
        indent = len(first_line) - len(first_line.lstrip())
        first_on_line = not first_line[: first.start[1]].strip()
        # continuation pieces go where the run's second piece is, else under the first
        # (or one indent in, for a literal the formatter will wrap in new parentheses)
        column = first.start[1] if first_on_line else indent + (0 if depth else 4)
        column = run[1].start[1] if len(run) > 1 else column
        nxt = " " * column
        wrap = depth == 0
        first_room = width - first.start[1] - (1 if wrap else 0)
        pieces = split_literal(merged, first_room, width - column, len(tail))
        if pieces is None or (len(pieces) == 1 and len(run) == 1):
            continue
        joined = ("\n" + nxt).join(pieces)
        if wrap and len(pieces) > 1:
            joined = f"({joined})"
        text = first_line[: first.start[1]] + joined + last_line[last.end[1] :] + "\n"
        edits.append(Edit(rows[0], rows[-1], text, "string"))
    return edits


# ---------------------------------------------------------------- one file, one pass


def reflow_source(source: str, width: int = WIDTH, unskip: bool = False) -> tuple[str, list[str]]:
    """One pass over a file: every kind of edit, each kept only if it passes the safety check.

    Returns the new source and the kinds of the edits refused by the check.
    """
    try:
        tree = ast.parse(source)
        tokens = list(tokenize.generate_tokens(io.StringIO(source).readline))
    except (SyntaxError, tokenize.TokenError):
        return source, ["unparsable"]
    lines = source.splitlines(keepends=True)
    candidates = (
        docstring_edits(tree, lines, width)
        + comment_block_edits(tokens, lines, width)
        + pragma_line_edits(tokens, lines, width)
        + trailing_comment_edits(tokens, lines, width)
        + string_edits(tokens, lines, width)
        + (unskip_edits(tokens, lines, width) if unskip else [])
    )
    reference = meaning(source)
    taken: set[int] = set()
    accepted: list[Edit] = []
    refused: list[str] = []
    for edit in candidates:
        span = set(range(edit.first, edit.last + 1))
        if span & taken:
            continue  # the next pass gets it
        trial = "".join(lines[: edit.first - 1]) + edit.text + "".join(lines[edit.last :])
        if meaning(trial) == reference:
            accepted.append(edit)
            taken |= span
        else:
            refused.append(edit.kind)
    for edit in sorted(accepted, key=lambda e: -e.first):
        lines[edit.first - 1 : edit.last] = [edit.text]
    result = "".join(lines)
    if not same_meaning(source, result):
        return source, [*refused, "whole file"]
    return result, refused


# ---------------------------------------------------------------- what is left


def long_line_kinds(source: str, width: int = WIDTH) -> Counter[str]:
    """Lines over ``width``, counted by what makes them long (what is left for hand work)."""
    return Counter(long_lines(source, width).values())


def long_lines(source: str, width: int = WIDTH) -> dict[int, str]:
    """Each line over ``width`` (1-based) and what makes it long."""
    lines = source.splitlines()
    kinds: dict[int, str] = {}
    if not any(len(line) > width for line in lines):
        return kinds
    try:
        tree = ast.parse(source)
    except SyntaxError:
        return {n: "unparsable" for n, line in enumerate(lines, 1) if len(line) > width}
    docs = {
        n for d in _docstring_nodes(tree) for n in range(d.lineno, (d.end_lineno or d.lineno) + 1)
    }
    what: dict[int, str] = {}
    tokens = list(tokenize.generate_tokens(io.StringIO(source).readline))
    unformatted = unformatted_rows(tokens)
    for tok in tokens:
        for row in range(tok.start[0], tok.end[0] + 1):
            if tok.type == tokenize.COMMENT:
                what[row] = "pragma" if PRAGMA.match(tok.string) else "comment"
            elif tok.type == tokenize.STRING and what.get(row) not in ("comment", "pragma"):
                if tok.start[0] != tok.end[0]:
                    what[row] = "triple-quoted content"
                elif what.get(row) != "triple-quoted content":
                    f = "f" in tok.string.split(tok.string[-1], 1)[0].lower()  # the prefix
                    what[row] = "f-string" if f else "string"
    for n, line in enumerate(lines, 1):
        if len(line) > width:
            kind = "docstring" if n in docs else what.get(n, "code")
            if kind not in ("docstring", "comment") and n in unformatted:
                kind = "under fmt: off/skip"
            kinds[n] = kind
    return kinds


def python_files(paths: list[str]) -> list[Path]:
    if paths:
        found = [Path(p) for p in paths if p.endswith(".py")]
        found += [f for p in paths if Path(p).is_dir() for f in sorted(Path(p).rglob("*.py"))]
        return found
    listed = subprocess.run(
        ["git", "ls-files", "*.py"], capture_output=True, text=True, check=True
    ).stdout
    return [Path(p) for p in listed.split()]


def set_pyproject_limit() -> bool:
    """Drop pyproject's E501 override (120), so ``ruff check`` holds lines to line-length (100)."""
    path = Path("pyproject.toml")
    text = path.read_text()
    new = re.sub(
        r"(#[^\n]*\n)*\[tool\.ruff\.lint\.pycodestyle\]\nmax-line-length = \d+\n\n?", "", text
    )
    path.write_text(new)
    return new != text


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("paths", nargs="*", help="files or folders (default: git ls-files '*.py')")
    parser.add_argument("--width", type=int, default=WIDTH)
    parser.add_argument("--passes", type=int, default=4, help="edit + format rounds at most")
    parser.add_argument(
        "--unskip",
        action="store_true",
        help="also drop fmt: off/skip around too-long lines, for the formatter to lay them out",
    )
    parser.add_argument("--no-format", action="store_true", help="skip ruff format between passes")
    parser.add_argument(
        "--set-pyproject", action="store_true", help="drop the E501 override, then ruff check"
    )
    parser.add_argument(
        "--max-module-lines",
        type=int,
        default=300,
        help="name the product modules (outside tests/, benchmarks/, scripts/) this pushes past N "
        "lines",
    )
    args = parser.parse_args(argv)
    files = python_files(args.paths)
    before: Counter[str] = Counter()
    sizes: dict[Path, int] = {}
    for path in files:
        source = path.read_text()
        before += long_line_kinds(source, args.width)
        sizes[path] = len(source.splitlines())
    refused: dict[Path, list[str]] = {}
    for round_ in range(1, args.passes + 1):
        changed = 0
        for path in files:
            source = path.read_text()
            new, problems = reflow_source(source, args.width, args.unskip)
            if problems:
                refused[path] = problems
            if new != source:
                path.write_text(new)
                changed += 1
        if not args.no_format:
            subprocess.run([RUFF, "format", "-q", *map(str, files)], check=False)
        print(f"pass {round_}: {changed} files edited", file=sys.stderr)
        if not changed:
            break
    after: Counter[str] = Counter()
    for path in files:
        source = path.read_text()
        for row, kind in sorted(long_lines(source, args.width).items()):
            after[kind] += 1
            print(f"left for hand work: {path}:{row}: {kind}")
        lines = len(source.splitlines())
        product = path.parts[0] not in ("tests", "benchmarks", "scripts")
        if product and lines > args.max_module_lines >= sizes[path]:
            print(f"pushed over {args.max_module_lines} lines: {path} ({sizes[path]} -> {lines})")
    for path, problems in sorted(refused.items()):
        print(f"refused by the safety check: {path}: {dict(Counter(problems))}")
    print(f"lines over {args.width} before: {sum(before.values())} {dict(before.most_common())}")
    print(f"lines over {args.width} after:  {sum(after.values())} {dict(after.most_common())}")
    if args.set_pyproject:
        set_pyproject_limit()
        return subprocess.run([RUFF, "check", "."], check=False).returncode
    return 0


if __name__ == "__main__":
    sys.exit(main())
