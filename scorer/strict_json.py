"""Strict JSON for what models send and for the files lobstack-eval reads: no NaN, no Infinity, no
number too large for a double, bounded nesting.

Python's ``json`` accepts ``NaN`` and ``Infinity`` and turns ``1e400`` into ``inf``; none of them is
JSON, and a non-finite float makes every output file unwritable. Answers are read strictly; when an
answer holds such a number it is read again with each one kept as a ``NonFinite`` marker (a ``str``
holding the literal), so the rest of the answer is still judged and the marker can only ever be
written out as a string. A file (``loads_file``) is refused whole instead, naming the field that
holds the bad number.
"""

from __future__ import annotations

import json
import math
from typing import Any

MAX_INT_DIGITS = 4300  # Python's int() refuses longer digit strings (sys.get_int_max_str_digits)
MAX_DEPTH = (
    100  # real answers nest a dozen levels; deeper is refused long before Python's recursion limit
)


class NonFinite(str):
    """A number strict JSON cannot hold (``NaN``, ``Infinity``, ``1e400``), kept as the text that
    was sent."""

    __slots__ = ()


class NotStrictJson(ValueError):
    """The text is JSON only to Python's lenient parser: it holds NaN, Infinity or a number
    beyond a double."""

    def __init__(self, literal: str) -> None:
        super().__init__(problem_text(literal))
        self.literal = literal


def problem_text(literal: str) -> str:
    """Why ``literal`` cannot be used as a number: ``NaN is not JSON``, or, for an integer of more
    than 4300 digits (valid JSON that Python's ``int`` refuses to parse),
    ``a number with more than 4300 digits``."""
    if len(literal.lstrip("-")) > MAX_INT_DIGITS and literal.lstrip("-").isdigit():
        return f"a number with more than {MAX_INT_DIGITS} digits"
    return f"{literal} is not JSON"


def _refuse_constant(literal: str) -> Any:
    raise NotStrictJson(literal)


def _finite_float(text: str) -> float:
    value = float(text)
    if not math.isfinite(value):
        raise NotStrictJson(text)
    return value


def _mark_float(text: str) -> Any:
    value = float(text)
    return value if math.isfinite(value) else NonFinite(text)


def _strict_int(text: str) -> int:
    if (
        len(text.lstrip("-")) > MAX_INT_DIGITS
    ):  # valid JSON, but beyond a double and beyond Python's int parsing
        raise NotStrictJson(text)
    return int(text)


def _mark_int(text: str) -> Any:
    return int(text) if len(text.lstrip("-")) <= MAX_INT_DIGITS else NonFinite(text)


# json.loads(**kw) would build a decoder per call; these are built once.
STRICT = json.JSONDecoder(
    parse_constant=_refuse_constant, parse_float=_finite_float, parse_int=_strict_int
)
_MARKING = json.JSONDecoder(parse_constant=NonFinite, parse_float=_mark_float, parse_int=_mark_int)


def loads(text: str | bytes) -> Any:
    """Parse strict JSON; ``NotStrictJson`` for NaN and friends, ``ValueError`` for anything else
    that is not JSON, ``RecursionError`` when it nests beyond what Python can parse."""
    if isinstance(text, bytes):
        text = text.decode("utf-8")
    return STRICT.decode(text)


def loads_marking(text: str | bytes) -> Any:
    """Parse JSON, keeping each non-finite number as a ``NonFinite`` marker."""
    if isinstance(text, bytes):
        text = text.decode("utf-8")
    return _MARKING.decode(text)


def position_text(exc: json.JSONDecodeError, column: bool = False) -> str:
    """``Expecting value at line 3`` (``... column 7``): the decoder's message and where. Some
    messages already end in "at" (``Unterminated string starting at``), which is not said twice."""
    where = f"line {exc.lineno}" + (f" column {exc.colno}" if column else "")
    return f"{exc.msg.removesuffix(' at')} at {where}"


def deeper_than(value: Any, limit: int = MAX_DEPTH) -> bool:
    """True when ``value`` nests objects and arrays more than ``limit`` levels deep (iterative:
    no recursion)."""
    level, depth = [value], 0
    while (
        level
    ):  # one nesting level at a time: no tuple per node, and the children go in with one C call
        depth += 1
        nested: list[Any] = []
        for item in level:
            if isinstance(item, dict):
                nested.extend(item.values())
            elif isinstance(item, list):
                nested.extend(item)
            else:
                continue
            if depth > limit:
                return True
        level = nested
    return False


def first_non_finite(value: Any) -> NonFinite | None:
    """A ``NonFinite`` marker found in ``value``, or None (iterative)."""
    stack = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, NonFinite):
            return item
        if isinstance(item, dict):
            stack.extend(item.values())
        elif isinstance(item, list):
            stack.extend(item)
    return None


# --- files: suite, run.json, cassettes, results.json ----------------------------------------------
# A file lobstack-eval reads is refused whole when it is not strict JSON, with the path of the first
# bad field. It may nest deeper than an answer, because results.json holds answers (up to MAX_DEPTH)
# about ten levels down.
FILE_MAX_DEPTH = 2 * MAX_DEPTH


class NotStrictFile(ValueError):
    """A file that is not strict JSON within ``FILE_MAX_DEPTH``; ``str()`` says what and where
    (``cases.x.attempts[0].wall_ms: NaN is not JSON``)."""


class _Bad:
    """Where the file had NaN, Infinity, -Infinity or a number beyond a double, so the walk can
    name the field."""

    def __init__(self, problem: str) -> None:
        self.problem = problem


def _document_decoder(bad: list[_Bad]) -> json.JSONDecoder:
    """A decoder that keeps NaN, Infinity and out-of-range numbers as ``_Bad`` markers, each one
    also listed in ``bad`` (so a clean file, the usual case, needs no walk to prove it clean)."""

    def constant(literal: str) -> _Bad:
        bad.append(_Bad(f"{literal} is not JSON"))
        return bad[-1]

    def number(text: str) -> float | _Bad:
        value = float(text)
        if math.isfinite(value):
            return value
        bad.append(_Bad(f"{text} is out of range"))
        return bad[-1]

    def integer(text: str) -> int | _Bad:
        if len(text.lstrip("-")) <= MAX_INT_DIGITS:
            return int(text)
        bad.append(_Bad(problem_text(text)))
        return bad[-1]

    return json.JSONDecoder(parse_constant=constant, parse_float=number, parse_int=integer)


def _path(parts: tuple[Any, ...]) -> str:
    text = ""
    for part in parts:
        text += f"[{part}]" if isinstance(part, int) else (f".{part}" if text else str(part))
    return text or "the document"


def file_problem(value: Any, limit: int = FILE_MAX_DEPTH) -> str | None:
    """Why a decoded file is not strict JSON (a NaN/Infinity/out-of-range number, or nesting beyond
    ``limit``), or None; the first problem in document order, with its field path. Iterative:
    safe at any depth."""
    stack: list[tuple[Any, tuple[Any, ...]]] = [(value, ())]
    while stack:
        node, parts = stack.pop()
        if isinstance(node, _Bad):
            return f"{_path(parts)}: {node.problem}"
        if isinstance(node, dict | list):
            if len(parts) >= limit:
                return f"nested more than {limit} levels deep"
            children = node.items() if isinstance(node, dict) else enumerate(node)
            stack.extend((child, (*parts, key)) for key, child in reversed(list(children)))
    return None


def loads_file(text: str | bytes) -> Any:
    """Parse a file's text as strict JSON; ``NotStrictFile`` (a ValueError) for a
    NaN/Infinity/out-of-range number or nesting beyond ``FILE_MAX_DEPTH``. Syntax errors stay
    ``json.JSONDecodeError`` (line and column), bytes that are not UTF-8 raise
    ``UnicodeDecodeError``."""
    if isinstance(text, bytes):
        text = text.decode("utf-8")
    bad: list[_Bad] = []
    try:
        value = _document_decoder(bad).decode(text)
    except RecursionError:
        raise NotStrictFile(f"nested more than {FILE_MAX_DEPTH} levels deep") from None
    # A file nests at most as deep as it has opening brackets (some may be inside strings): with
    # fewer than the limit, and no bad number met while parsing, nothing needs walking.
    deep = text.count("{") + text.count("[") > FILE_MAX_DEPTH and deeper_than(value, FILE_MAX_DEPTH)
    if bad or deep:
        raise NotStrictFile(file_problem(value) or f"nested more than {FILE_MAX_DEPTH} levels deep")
    return value


def loads_file_or_error(raw: bytes, lead: str, error: type[Exception]) -> Any:
    """``loads_file`` for a file the tool reads (cassette, run.json, results.json): every way it is
    not strict JSON becomes one ``error`` line, ``f"{lead} not UTF-8 text"`` or
    ``f"{lead} not valid JSON (where: what)"`` (``lead`` names the file, e.g.
    ``"runs/x.json: the results file is"``)."""
    try:
        return loads_file(raw)
    except UnicodeDecodeError:
        raise error(f"{lead} not UTF-8 text") from None
    except json.JSONDecodeError as exc:
        raise error(f"{lead} not valid JSON ({position_text(exc)})") from None
    except NotStrictFile as exc:
        raise error(f"{lead} not valid JSON ({exc})") from None
