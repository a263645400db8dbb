"""The items of a drafted array after the first (``suite new``'s reference calls, issue 40 part 3),
each one the item's schema takes.

Item ``i`` (from 1) is the first of these that the item's schema takes (Draft 2020-12, formats
checked, ``pattern`` run by RE2, ``$ref`` into the whole schema) and no item before it equals: the
item numbered (``"finance 2"``, ``5 + i``: what a list of names or ids reads like), the item with
its tail replaced by the number (``"fin2"`` under a ``maxLength``, a date's day), the number below
(``5 - i``) or above (a float), the other boolean, each member of an ``enum`` in listed order, the
example of a ``pattern`` seeded with the name and the number. When none is, the item is repeated as
made: a valid array beats an undecided one, and under ``uniqueItems`` the array is left to decide.
"""

from __future__ import annotations

import json
import re
from typing import Any

from scorer.schema.formats import draft_format_checker
from scorer.schema.full import validator_class
from scorer.suite.draft.pattern_sample import pattern_example


def distinct_item(
    root: Any,
    part: Any,
    schema: dict[str, Any],
    value: Any,
    index: int,
    name: str,
    before: list[Any],
) -> Any:
    """Item ``index`` of an array whose item schema is ``part`` (``schema``: the same with its
    ``$ref`` and ``allOf`` folded in; ``root``: the document a ``$ref`` points into), made as
    ``value``: the first variant ``part`` takes that no item ``before`` it is, else ``value``."""
    variants = _variants(value, index, schema, name)
    if variants == [value]:  # an object, a list: nothing else to try (nor 100 lists to compare)
        return value
    validator = validator_class()(root, format_checker=draft_format_checker()).evolve(schema=part)
    for variant in variants:
        if not _taken(variant, before) and validator.is_valid(variant):
            return variant
    return value


def _taken(variant: Any, before: list[Any]) -> bool:
    """Whether an item ``before`` is ``variant`` as JSON text, as samples.py's ``uniqueItems`` check
    reads it (objects in another key order are the same; 1 and true are not). Python's ``==``
    first: 100 items are not each written out."""
    key = json.dumps(variant, sort_keys=True)
    return any(item == variant and json.dumps(item, sort_keys=True) == key for item in before)


def _variants(value: Any, index: int, schema: dict[str, Any], name: str) -> list[Any]:
    """The values tried for item ``index`` made as ``value``, in the order tried."""
    number = str(index + 1)
    found = [_numbered(value, index)]
    if isinstance(value, str):
        found.append(value[: max(0, len(value) - len(number))] + number)
    if isinstance(value, bool):
        found.append(not value)
    elif isinstance(value, int | float):
        found += [value - index, value + index]
    enum = schema.get("enum")
    found += enum if isinstance(enum, list) else []
    pattern = schema.get("pattern")
    if isinstance(pattern, str) and (example := pattern_example(pattern, name + number)):
        found.append(example)
    return found


def _numbered(item: Any, index: int) -> Any:
    """The ``index``-th item made distinct from the first (a list of ids, of numbers)."""
    if isinstance(item, str):
        return f"{item} {index + 1}" if not re.search(r"\d$", item) else f"{item}{index + 1}"
    if isinstance(item, int) and not isinstance(item, bool):
        return item + index
    return item
