"""A string that matches a schema's ``pattern``, generated from the pattern itself (issue 40,
part 3).

Why our own generator: Python's regex parser is private (``re._parser``; ``sre_parse`` is its
deprecated alias), hypothesis is a test library that would become a runtime dependency, and tool
schemas use a small part of the syntax (``^evt_[0-9a-f]{8}$``, ``^[A-Z]{1,5}$``). This reads that
part: literals and escapes (``\\d \\w \\s``, ``\\.``, ``\\uXXXX``), ``.``, classes with ranges and
negation, groups (plain, ``(?:``, named), alternation, anchors and the quantifiers
``? * + {n} {n,} {n,m}`` (lazy or possessive too). Anything else (lookaround, back-references) gives
None: the value is left to decide. Output is deterministic (a ``random.Random`` seeded from the
pattern); the caller checks the result with the validator's own engine, so a bug here can only leave
a value undecided, never make a wrong one.
"""

from __future__ import annotations

import random
import string
import zlib
from typing import Any

_MAX_OUT = 10_000
_WORD = string.ascii_letters + string.digits + "_"
_PREFERRED = string.ascii_lowercase + string.ascii_uppercase + string.digits
_CLASS_ESCAPES = {"d": string.digits, "w": _WORD, "s": " ", "D": "ab", "W": "-", "S": "ab"}
_CHAR_ESCAPES = {"n": "\n", "t": "\t", "r": "\r", "f": "\f", "v": "\v", "0": "\0"}


class _Unsupported(Exception):
    pass


def pattern_example(pattern: str, seed: str = "") -> str | None:
    """A string ``pattern`` matches (by search), or None when the pattern uses syntax this
    generator does not read."""
    rng = random.Random(zlib.crc32(f"{seed}\0{pattern}".encode("utf-8", "surrogatepass")))
    try:
        parser = _Parser(pattern)
        tree = parser.alternation()
        if parser.pos != len(pattern):
            return None
        out = _emit(tree, rng)
    except (_Unsupported, IndexError, ValueError, RecursionError):
        return None
    return out if len(out) <= _MAX_OUT else None


def _code(char: str) -> int:
    """The code point of a range's end; a class escape (``[a-\\d]``) or an anchor is no end."""
    if len(char) != 1:
        raise _Unsupported
    return ord(char)


class _Parser:
    def __init__(self, text: str) -> None:
        self.text, self.pos, self.depth = text, 0, 0

    def peek(self) -> str:
        return self.text[self.pos] if self.pos < len(self.text) else ""

    def take(self) -> str:
        char = self.text[self.pos]
        self.pos += 1
        return char

    def alternation(self) -> Any:
        self.depth += 1
        if self.depth > 50:
            raise _Unsupported
        branches = [self.sequence()]
        while self.peek() == "|":
            self.take()
            branches.append(self.sequence())
        self.depth -= 1
        return ("alt", branches)

    def sequence(self) -> Any:
        items: list[Any] = []
        while self.peek() not in ("", "|", ")"):
            atom = self.atom()
            items.append(self.quantified(atom))
        return ("seq", items)

    def atom(self) -> Any:
        char = self.take()
        if char in "^$":
            return ("lit", "")
        if char == ".":
            return ("set", _PREFERRED)
        if char == "[":
            return ("set", self.char_class())
        if char == "(":
            if self.peek() == "?":
                self.take()
                kind = self.take()
                if (kind == "P" and self.peek() == "<") or (
                    kind == "<" and self.peek() not in "=!"
                ):
                    if kind == "P":
                        self.take()
                    while self.take() != ">":
                        pass
                elif kind != ":":
                    raise _Unsupported  # lookaround, flags, conditionals
            inner = self.alternation()
            if self.take() != ")":
                raise _Unsupported
            return inner
        if char == "\\":
            return self.escape(in_class=False)
        if char in "*+?" or (char == "{" and self.brace(self.pos - 1) is not None):
            raise _Unsupported  # a quantifier with nothing before it
        return ("lit", char)

    def escape(self, in_class: bool) -> Any:
        char = self.take()
        if char in _CLASS_ESCAPES:
            return ("set", _CLASS_ESCAPES[char])
        if char in _CHAR_ESCAPES:
            return ("lit", _CHAR_ESCAPES[char])
        if char in "bBAzZ" and not in_class:
            if char == "B":
                raise _Unsupported
            return ("lit", "")
        if char in "ux":
            width = 4 if char == "u" else 2
            code = self.text[self.pos : self.pos + width]
            self.pos += width
            return ("lit", chr(int(code, 16)))
        if char.isdigit() or char.isalpha():
            raise _Unsupported  # a back-reference or a class we do not know
        return ("lit", char)

    def char_class(self) -> str:
        negated = self.peek() == "^"
        if negated:
            self.take()
        members: list[str] = []
        first = True
        while first or self.peek() != "]":
            first = False
            char = self.take()
            if char == "\\":
                kind, value = self.escape(in_class=True)
                if kind == "set":
                    members.append(value)
                    continue
                char = value
            if self.peek() == "-" and self.text[self.pos + 1 : self.pos + 2] not in ("]", ""):
                self.take()
                end = self.take()
                if end == "\\":
                    end = self.escape(in_class=True)[1]
                low, high = _code(char), _code(end)
                if high < low:
                    raise _Unsupported
                members.append("".join(chr(c) for c in range(low, min(high, low + 255) + 1)))
            else:
                members.append(char)
        self.take()
        chosen = "".join(dict.fromkeys("".join(members)))
        if negated:
            chosen = "".join(c for c in _PREFERRED + " -_." if c not in chosen)
        if not chosen:
            raise _Unsupported
        return chosen

    def brace(self, at: int) -> tuple[int, int | None, int] | None:
        """The bounds of the ``{n}``, ``{n,}`` or ``{n,m}`` at ``at`` and the position past it;
        None for a literal brace (``a{x}``, ``a{,3}``), as RE2, the validator's engine, reads it."""
        end = self.text.find("}", at)
        body = self.text[at + 1 : end] if end > at else ""
        low_text, comma, high_text = body.partition(",")
        if not low_text.isdigit() or (high_text and not high_text.isdigit()):
            return None
        high = int(high_text) if high_text else (None if comma else int(low_text))
        return int(low_text), high, end + 1

    def quantified(self, atom: Any) -> Any:
        char = self.peek()
        if char == "{":
            bounds = self.brace(self.pos)
            if bounds is None:
                return atom  # a literal brace: the next atom
            low, high, self.pos = bounds
        elif char in ("?", "*", "+"):
            self.take()
            low, high = {"?": (0, 1), "*": (0, None), "+": (1, None)}[char]
        else:
            return atom
        if self.peek() in ("?", "+"):
            self.take()
        if low > _MAX_OUT or (high is not None and high < low):
            raise _Unsupported
        return ("rep", atom, low, high)


def _emit(node: Any, rng: random.Random) -> str:
    kind = node[0]
    if kind == "lit":
        return node[1]
    if kind == "set":
        members = node[1]
        nice = [c for c in members if c in _PREFERRED]
        return rng.choice(nice or list(members))
    if kind == "seq":
        return "".join(_emit(item, rng) for item in node[1])
    if kind == "alt":
        return _emit(node[1][0], rng)  # the first branch: usually the plainest
    _, atom, low, high = node
    count = low if high == low else min(high if high is not None else low + 3, max(low, 3))
    out, size = [], 0
    for _ in range(count):
        out.append(_emit(atom, rng))
        size += len(out[-1])  # a running total: summing the list each time was quadratic
        if size > _MAX_OUT:
            raise _Unsupported
    return "".join(out)
