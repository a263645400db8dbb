"""Bipartite matching: exact, including where a greedy assignment fails."""

from itertools import permutations

from scorer.matching import max_matching, same_names


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


# Exact partners, worked by hand through Kuhn's algorithm (left nodes in order, rights in
# list order).
def test_exact_partners() -> None:
    assert max_matching([], 3) == []
    assert max_matching([[]], 0) == [None]
    assert max_matching([[], [0]], 1) == [None, 0]
    assert max_matching([[2]], 3) == [2]
    # Left 1 cannot displace left 0 from right 0: left 0 has nowhere else to go.
    assert max_matching([[0], [0]], 2) == [0, None]
    # Left 2 displaces left 0 (to 1), which displaces left 1 (to 2): a two-step augmenting path
    # through a right node already seen on the way.
    assert max_matching([[0, 1], [1, 2], [0]], 3) == [1, 2, 0]
    # A right node seen on a failed path is not tried again in the same search.
    assert max_matching([[0], [0, 1], [0, 1], [2]], 3) == [0, 1, None, 2]


def test_same_names_is_a_multiset_equality() -> None:
    assert same_names(["b", "a"], ["a", "b"]) is True
    assert same_names([], []) is True
    assert same_names(["a", "a"], ["a"]) is False  # repeats count
    assert same_names(["a"], ["b"]) is False
    assert same_names([], ["a"]) is False
