"""Plausible wrong values for one argument, from its reference value, its schema and the texts of
the case.

Nothing here reads the argument's checks: the checks are what the audit tests, so a check loosened
to ``present`` still faces the same wrong values. What the request "fixes" is read from the
reference, and which parts of a text the request names, from the request's messages (and, for a
chain's later step, the results the earlier steps sent back).
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from scorer.jsonvalue import is_number

GENERIC_TEXT = "Hello, just following up."
MAX_PER_ARG = (
    6  # parts or items dropped per argument: enough to find a loose check, few enough to read
)
_TOKEN = re.compile(r"[^\W_][\w./@#+:'-]*[^\W_]|[^\W_]")
_WORD_EDGE = ".,;:!?()[]{}\"'`“”‘’«»<>*"
_LEADING_EDGE = _WORD_EDGE.replace(".", "")


@dataclass(frozen=True)
class Sources:
    """The texts the reference's values come from: the request (its messages, then the system
    prompt), the messages alone (the user's own words), and earlier steps' results."""

    request: str
    results: str
    messages: str = ""


def wrong_values(
    value: Any, schema: Any, sources: Sources, path: tuple[str, ...]
) -> list[tuple[str, tuple[str, ...], Any]]:
    """``(kind, path, wrong value)`` for ``value`` at ``path``, a tuple of keys from the
    arguments object down; a nested object's fields get their own paths. A tuple, not a dotted
    string: a property name may itself hold a dot (``"user.name"``)."""
    schema = schema if isinstance(schema, dict) else {}
    if isinstance(value, bool):
        return [("flipped", path, not value)]
    if is_number(value):
        found = [("off_by_one", path, v) for v in (value + 1, value - 1) if _within(v, schema)]
        return found + [
            ("result_ignored", path, v)
            for v in _request_numbers(value, sources)
            if _within(v, schema)
        ]
    if isinstance(value, str):
        return [(kind, path, v) for kind, v in _string_values(value, schema, sources)]
    if isinstance(value, list):
        return [
            ("item_dropped", path, value[:i] + value[i + 1 :])
            for i in range(min(len(value), MAX_PER_ARG))
        ]
    if isinstance(value, dict):
        found: list[tuple[str, tuple[str, ...], Any]] = []
        properties = schema.get("properties") if isinstance(schema.get("properties"), dict) else {}
        for key, item in value.items():
            found.append(("field_dropped", (*path, key), None))
            found += wrong_values(item, properties.get(key), sources, (*path, key))
        return found
    return []


def _request_numbers(value: float, sources: Sources) -> list[int]:
    """When ``value`` came from an earlier step's result (not the request), the request's own
    numbers: what a step that ignores the result would send instead (the issue's number for the
    pull request's)."""
    if not isinstance(value, int):
        return []
    alone = re.compile(rf"(?<!\d){re.escape(str(value))}(?!\d)")
    if not alone.search(sources.results) or alone.search(sources.request):
        return []
    numbers = [int(n) for n in re.findall(r"(?<![\d.])\d+(?![\d.])", sources.messages)]
    return list(dict.fromkeys(n for n in numbers if n not in (value, value + 1, value - 1)))[:2]


def _within(number: float, schema: dict[str, Any]) -> bool:
    low, high = schema.get("minimum"), schema.get("maximum")
    return (not is_number(low) or number >= low) and (not is_number(high) or number <= high)


def _string_values(
    value: str, schema: dict[str, Any], sources: Sources
) -> Iterator[tuple[str, str]]:
    enum = schema.get("enum")
    seen = {value}
    if isinstance(enum, list) and value in enum:
        index = enum.index(value)
        for other in (
            enum[index - 1] if index else None,
            enum[index + 1] if index + 1 < len(enum) else None,
        ):
            if isinstance(other, str) and other not in seen:
                seen.add(other)
                yield "enum_neighbour", other
    for other in _offered_alike(value, sources)[:3]:
        if other not in seen:
            seen.add(other)
            yield "other_offered", other
    for kind, part in _named_parts(value, sources)[:MAX_PER_ARG]:
        dropped = _drop(value, part)
        if dropped and dropped not in seen:
            seen.add(dropped)
            yield kind, dropped
    if (
        " " in value.strip() and GENERIC_TEXT not in seen
    ):  # a text, not a handle: a message that says nothing
        yield "generic_text", GENERIC_TEXT


def _shape(text: str) -> str | None:
    """What kind of handle a string is, when it is one: a URL, an address, a channel, a path."""
    if " " in text.strip():
        return None
    if re.match(r"https?://", text):
        return "url"
    if re.fullmatch(r"[^@\s]+@[^@\s]+\.\w+", text):
        return "email"
    if re.fullmatch(r"#[A-Za-z][\w.-]*", text):
        return "channel"
    if "/" in text or re.search(r"\.[A-Za-z]\w{0,5}$", text):
        return "path"
    return None


def _norm(text: str) -> str:
    return text.removeprefix("./").rstrip("/")


def _offered_alike(value: str, sources: Sources) -> list[str]:
    """Other handles of the same shape that the request or an earlier result offers, in order
    of appearance."""
    shape = _shape(value)
    if shape is None:
        return []
    found: list[str] = []
    for word in (sources.request + "\n" + sources.results).split():
        # A leading dot is part of a path ("./docs/a.md", ".env.example"); a trailing one ends
        # the sentence.
        word = word.rstrip(_WORD_EDGE).lstrip(_LEADING_EDGE)
        if shape != "url":
            word = word.rstrip("/")
        if _shape(word) == shape and _norm(word) != _norm(value) and word not in found:
            found.append(word)
    return found


def _named_parts(value: str, sources: Sources) -> list[tuple[str, str]]:
    """Tokens of ``value`` that the request (``part_dropped``) or only an earlier result
    (``result_ignored``) names, when they are specific: a number, an identifier, a path, a
    version, a handle (a digit or a symbol in them). Plain words are left alone: a text says the
    same in other words, and the audit cannot tell which word carries the fact (METHOD.md,
    suite-audit); ``generic_text`` stands for the text that says nothing."""
    request, results = sources.request.casefold(), sources.results.casefold()
    seen: set[str] = set()
    parts: list[tuple[int, int, str, str]] = []
    for position, match in enumerate(_TOKEN.finditer(value)):
        token = match.group()
        key = token.casefold()
        if key in seen or token.strip() == value.strip():
            continue
        if not any(ch.isdigit() or ch in "_./@#+-" for ch in token):
            continue
        if key in request:
            kind = "part_dropped"
        elif key in results:
            kind = "result_ignored"
        else:
            continue
        seen.add(key)
        parts.append((-len(token), position, kind, token))
    return [(kind, token) for *_, kind, token in sorted(parts)]


def _drop(value: str, part: str) -> str:
    """``value`` without the first occurrence of ``part``, spaces around the gap closed."""
    index = value.find(part)
    out = value[:index] + value[index + len(part) :]
    out = re.sub(r"[ \t]{2,}", " ", out)
    return re.sub(r" ([,.;:!?])", r"\1", out).strip(" ")
