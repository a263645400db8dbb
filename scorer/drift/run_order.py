"""A run's place in a history: by recorded date, then by id with its digit runs compared as numbers
(``r9`` before ``r10``), the one order of ``drift`` and ``report --history``'s timeline.

A digit run is compared without turning it into an ``int``: a run id is text from a results.json or
a rows partition's folder name, and ``int()`` refuses digit strings longer than 4,300 characters
(``sys.get_int_max_str_digits``) and turns characters Python calls digits but the splitter does not
(``²``, ``٣``) into errors or surprises. Only ASCII ``0``-``9`` make a digit run; its number is
compared as (count of significant digits, the digits), which is numeric order for any length, in
time linear in the id (docs/FORMATS.md, "Histories").
"""

from __future__ import annotations

import re

_DIGITS = re.compile(r"([0-9]+)")

# (0, significant digits, digits) for a digit run, (1, 0, text) for the rest: a number sorts before
# text at the same place, as it did when digit runs were ints.
Part = tuple[int, int, str]


def natural_key(run_id: str) -> tuple[Part, ...]:
    """A run id's sort key with its ASCII digit runs compared as numbers (``r9`` before ``r10``,
    any length); the whole id breaks ties (``r01`` before ``r1``) so the order is total."""
    parts: list[Part] = []
    for number, part in enumerate(_DIGITS.split(run_id)):
        if not part:
            continue
        if number % 2:  # re.split with a group: the odd places are the digit runs it matched
            significant = part.lstrip("0") or "0"
            parts.append((0, len(significant), significant))
        else:
            parts.append((1, 0, part))
    return (*parts, (2, 0, run_id))


def run_order(date: str, run_id: str) -> tuple[str, tuple[Part, ...]]:
    """A run's place in a history: by recorded date, then id (``natural_key``)."""
    return date, natural_key(run_id)
