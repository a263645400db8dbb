"""Which rules a suite follows: a Lobstack suite (its name starts with ``lobstack-``) keeps the
method page's six groups, in the page's order; a suite of one's own lists its groups as they come.
Imported by the suite model and the suite rules alike, so neither imports the other."""

from __future__ import annotations

from collections.abc import Mapping

# The method page's group table, for every published version (the shape has not changed
# since 1.0.0).
SHAPE = {
    "selection": 14,
    "arguments": 16,
    "near_misses": 12,
    "no_call": 14,
    "parallel": 12,
    "chains": 12,
}


LOBSTACK_PREFIX = "lobstack-"


def is_lobstack(name: object) -> bool:
    """True for a Lobstack suite, one whose name starts with ``lobstack-`` (the published
    ``lobstack-tool-calling`` and the project's own test suites): the method page's group rules
    apply to it. The group counts apply to the published name and versions only
    (``count_problems``)."""
    return isinstance(name, str) and name.startswith(LOBSTACK_PREFIX)


def group_order(name: object, counts: Mapping[str, int]) -> dict[str, int]:
    """Cases per group as ``suite check`` and the reports list them: the Lobstack suite's six groups
    in the method page's order (an empty one too), another suite's groups in the order they
    first appear."""
    if is_lobstack(name):
        return {group: counts.get(group, 0) for group in SHAPE}
    return dict(counts)
