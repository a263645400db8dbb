"""Which actual call stands for which expected call: the names as a multiset (the judge's first
test and Right tool's one rule), then a maximum bipartite matching (augmenting paths)."""

from __future__ import annotations

from collections.abc import Iterable, Sequence


def same_names(called: Iterable[str], expected: Iterable[str]) -> bool:
    """The names called equal the names expected as a multiset (order free, repeats counted): a
    step with calls passes only then, and Right tool counts exactly this at a case's first call
    step (``scorer.metrics.right_tool``)."""
    return sorted(called) == sorted(expected)


def max_matching(edges: Sequence[Sequence[int]], right_size: int) -> list[int | None]:
    """``edges[i]`` lists the right nodes left node ``i`` may take; returns each left node's partner
    or None.

    Kuhn's augmenting-path algorithm: exact (unlike greedy), and O(V * E) is nothing for four calls.
    """
    owner: list[int | None] = [None] * right_size

    def augment(left: int, seen: list[bool]) -> bool:
        for right in edges[left]:
            if seen[right]:
                continue
            seen[right] = True
            holder = owner[right]
            if holder is None or augment(holder, seen):
                owner[right] = left
                return True
        return False

    for left in range(len(edges)):
        augment(left, [False] * right_size)
    partner: list[int | None] = [None] * len(edges)
    for right, left in enumerate(owner):
        if left is not None:
            partner[left] = right
    return partner
