"""The exact McNemar test against p-values worked out by hand from binomial coefficients."""

from __future__ import annotations

import pytest
from hypothesis import assume, given
from hypothesis import strategies as st

from scorer.paired import mcnemar_exact

# Each expected value: 2 * sum_{k<=min(b,c)} C(b+c, k) / 2^(b+c), capped at 1, written out by hand.
HAND = [
    pytest.param(0, 0, 1.0, id="no-discordant-pairs"),
    pytest.param(0, 5, 2 * 1 / 32, id="0-vs-5"),  # 0.0625
    pytest.param(5, 0, 2 * 1 / 32, id="5-vs-0"),
    pytest.param(1, 9, 2 * (1 + 10) / 1024, id="1-vs-9"),  # 22/1024 = 0.021484375
    pytest.param(2, 1, 1.0, id="2-vs-1-capped"),  # 2 * (1 + 3) / 8 = 1.0
    pytest.param(3, 3, 1.0, id="tie-capped"),  # 2 * 42/64 > 1
    pytest.param(0, 1, 1.0, id="single-pair"),  # 2 * 1/2
    pytest.param(2, 8, 2 * (1 + 10 + 45) / 1024, id="2-vs-8"),  # 0.109375
    pytest.param(0, 20, 2 / 2**20, id="0-vs-20"),
]


@pytest.mark.parametrize(("b", "c", "expected"), HAND)
def test_hand_computed_values(b: int, c: int, expected: float) -> None:
    """Matches the hand-computed exact binomial tail."""
    assert mcnemar_exact(b, c) == expected


def test_known_decimal_values() -> None:
    """The two values quoted in the brief, as decimals."""
    assert mcnemar_exact(0, 5) == 0.0625
    assert mcnemar_exact(1, 9) == 0.021484375


def test_large_counts_stay_exact() -> None:
    """Exact integers until the one final rounding: no overflow from 2**n or C(n, k) for large n."""
    assert mcnemar_exact(0, 60) == 2 / 2**60
    assert mcnemar_exact(500, 500) == 1.0
    assert mcnemar_exact(10, 1000) < 1e-250


@pytest.mark.parametrize(("b", "c"), [(-1, 2), (2, -1)])
def test_negative_counts_rejected(b: int, c: int) -> None:
    """Counts are non-negative."""
    with pytest.raises(ValueError, match="non-negative"):
        mcnemar_exact(b, c)


@pytest.mark.parametrize(("b", "c"), [(1.0, 2), (True, 2), ("1", 2)])
def test_non_integer_counts_rejected(b: object, c: int) -> None:
    """Counts are ints (a float count is a caller bug)."""
    with pytest.raises(TypeError):
        mcnemar_exact(b, c)  # type: ignore[arg-type]


@given(st.integers(0, 300), st.integers(0, 300))
def test_symmetric_and_in_unit_interval(b: int, c: int) -> None:
    """Swapping the discordant counts gives the same p; p is in (0, 1]."""
    p = mcnemar_exact(b, c)
    assert p == mcnemar_exact(c, b)
    assert 0.0 < p <= 1.0


@given(st.integers(0, 200), st.integers(0, 200))
def test_more_lopsided_is_not_less_significant(b: int, c: int) -> None:
    """Moving one discordant pair from the smaller side to the larger never raises p."""
    assume(min(b, c) > 0)
    small, large = min(b, c), max(b, c)
    assert mcnemar_exact(small - 1, large + 1) <= mcnemar_exact(small, large)
