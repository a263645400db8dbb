"""Bipartite matching: exact, including where a greedy assignment fails."""

from itertools import permutations

from scorer.matching import max_matching


def test_greedy_fails_but_matching_succeeds() -> None:
    # Left 0 can take right 0 or 1, left 1 only right 0: greedy gives 0->0 and strands left 1.
    assert max_matching([[0, 1], [0]], 2) == [1, 0]


def test_no_perfect_matching() -> None:
    partner = max_matching([[0], [0]], 2)
    assert sorted(p for p in partner if p is not None) == [0]
    assert partner.count(None) == 1


def test_every_order_of_a_three_way_chain() -> None:
    edges = {0: [0, 1], 1: [1, 2], 2: [0]}
    for order in permutations(range(3)):
        partner = max_matching([edges[i] for i in order], 3)
        assert None not in partner and len(set(partner)) == 3
