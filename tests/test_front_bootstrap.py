"""scorer/stats/front_bootstrap.py, value by value: the resample counts (numpy's seeded generator,
counted by a plain loop), each draw's weighted median worked by hand, the front share on boards of
one case (every draw is the board itself, so the front is read off by hand) and of three cases
(against a plain-Python recount of the same draws), and the percentile interval. Milliseconds."""

from __future__ import annotations

import math
import warnings

import numpy as np
import pytest

from scorer.stats import front_bootstrap
from scorer.stats.front_bootstrap import (
    Resampled,
    Sample,
    _median,
    counts,
    percentile_interval,
    resample,
)


def test_counts_are_the_seeded_generators_picks_counted() -> None:
    """Draw d picks ``cases`` case indices with numpy's PCG64 at the seed; the row counts them."""
    found = counts(4, draws=6, seed=3)
    picks = np.random.Generator(np.random.PCG64(3)).integers(0, 4, size=(6, 4))
    expected = [[list(row).count(c) for c in range(4)] for row in picks]
    assert found.tolist() == expected
    assert counts(4, draws=6, seed=3).tolist() == expected  # seeded
    default = counts(3)
    assert default.shape == (front_bootstrap.DRAWS, 3)
    again = np.random.Generator(np.random.PCG64(44)).integers(0, 3, size=(2000, 3))
    assert default.tolist() == [[list(row).count(c) for c in range(3)] for row in again]


WALLS = ((1.0, 8.0), (2.0,), (), (4.0, 5.0, 6.0))


@pytest.mark.parametrize(
    ("row", "median"),
    [
        ([1, 1, 0, 0], 2.0),  # 1 2 8
        ([2, 0, 0, 0], 4.5),  # 1 1 8 8: the middle two averaged
        ([0, 2, 0, 0], 2.0),  # 2 2
        ([1, 3, 0, 0], 2.0),  # 1 2 2 2 8
        ([3, 1, 0, 0], 2.0),  # 1 1 1 2 8 8 8
        ([1, 0, 0, 1], 5.0),  # 1 4 5 6 8
        ([0, 1, 5, 1], 4.5),  # 2 4 5 6: the case without times adds none
        ([0, 0, 1, 2], 5.0),  # 4 4 5 5 6 6
        ([1, 0, 0, 0], 4.5),  # 1 8
    ],
)
def test_the_weighted_median_by_hand(row: list[int], median: float) -> None:
    assert _median(np.array([row]), WALLS).tolist() == [median]


def test_the_median_of_a_draw_without_times_is_nan() -> None:
    found = _median(np.array([[0, 0, 3, 0], [0, 1, 0, 0]]), WALLS)
    assert math.isnan(found[0]) and found[1] == 2.0
    empty = _median(np.array([[1, 2], [3, 0], [0, 0]]), ((), ()))
    assert empty.shape == (3,) and np.isnan(empty).all()


def _one_case(passed: int, scored: int, cost: float, walls: tuple[float, ...] = ()) -> Sample:
    return Sample((passed,), (scored,), (cost,), (walls,))


def test_a_board_of_one_case_by_hand() -> None:
    """One case: every draw takes it once, so each draw is the board itself. A: 1 of 2 at 0.2 (q
    1/2, x = 100 * 0.2 / 2 = 10); B: 2 of 2 at 0.4 (q 1, x 20); C: 1 of 2 at 0.4 (q 1/2, x 20:
    A and B beat it); D: A's twin (a tie on both: both on the front); E: nothing scored (never on
    it, no interval)."""
    board = [
        _one_case(1, 2, 0.2),
        _one_case(2, 2, 0.4),
        _one_case(1, 2, 0.4),
        _one_case(1, 2, 0.2),
        _one_case(0, 0, 0.0),
    ]
    found = resample(board, "cost", draws=4)
    assert found == Resampled(
        (1.0, 1.0, 0.0, 1.0, 0.0),
        (
            (pytest.approx(10.0), pytest.approx(10.0)),
            (pytest.approx(20.0), pytest.approx(20.0)),
            (pytest.approx(20.0), pytest.approx(20.0)),
            (pytest.approx(10.0), pytest.approx(10.0)),
            None,
        ),
    )


def test_a_board_of_one_case_on_latency_by_hand() -> None:
    """x is the case's median wall time: A 1 of 1 at (3, 5) -> 4; B 1 of 1 at (2,) -> 2 beats A
    (as good, faster); C 0 of 1 at (1,) -> 1, worse but faster: on the front; D 1 of 1 and no
    time: never on it, no interval."""
    board = [
        _one_case(1, 1, 9.0, (3.0, 5.0)),
        _one_case(1, 1, 9.0, (2.0,)),
        _one_case(0, 1, 9.0, (1.0,)),
        _one_case(1, 1, 9.0, ()),
    ]
    found = resample(board, "latency", draws=3)
    assert found == Resampled((0.0, 1.0, 1.0, 0.0), ((4.0, 4.0), (2.0, 2.0), (1.0, 1.0), None))


def test_nothing_to_resample() -> None:
    assert resample([], "cost") == Resampled((), ())


def _recount(board: list[Sample], weights: np.ndarray) -> list[float]:
    """The front share recomputed draw by draw in plain Python (a second implementation)."""
    on = [0] * len(board)
    for row in weights.tolist():
        points = []
        for s in board:
            scored = sum(w * n for w, n in zip(row, s.scored, strict=True))
            passed = sum(w * p for w, p in zip(row, s.passed, strict=True))
            cost = sum(w * c for w, c in zip(row, s.cost, strict=True))
            points.append(None if scored == 0 else (passed / scored, 100 * cost / scored))
        for m, point in enumerate(points):
            if point is None:
                continue
            beaten = any(
                other is not None
                and other[1] <= point[1]
                and other[0] >= point[0]
                and (other[1] < point[1] or other[0] > point[0])
                for other in points
            )
            on[m] += not beaten
    return [k / len(weights) for k in on]


def test_a_board_of_three_cases_is_the_plain_recount_of_its_draws() -> None:
    """Three models over three cases, 40 seeded draws: the share on the front is what a plain loop
    over the same draws finds; the x interval is numpy's linear percentile of the draws' x."""
    board = [
        Sample((1, 0, 1), (1, 1, 1), (0.1, 0.2, 0.1), ((),) * 3),
        Sample((1, 1, 0), (1, 1, 1), (0.3, 0.1, 0.2), ((),) * 3),
        Sample((0, 1, 1), (1, 1, 0), (0.1, 0.1, 0.0), ((),) * 3),
    ]
    weights = counts(3, draws=40, seed=7)
    found = resample(board, "cost", draws=40, seed=7)
    assert found.on_front == pytest.approx(_recount(board, weights), abs=1e-15)
    xs = [
        100
        * (weights @ np.array(s.cost))[weights @ np.array(s.scored) > 0]
        / (weights @ np.array(s.scored))[weights @ np.array(s.scored) > 0]
        for s in board
    ]
    for interval, x in zip(found.x_interval, xs, strict=True):
        assert interval == pytest.approx(tuple(np.percentile(x, [2.5, 97.5])), rel=1e-12, abs=0)


def test_the_percentile_interval_by_hand() -> None:
    """1..5 at 95%: positions 4 * 0.025 = 0.1 and 4 * 0.975 = 3.9, so 1.1 and 4.9; at 50%,
    positions 1 and 3: 2 and 4; one value: itself; none: None."""
    assert percentile_interval([5, 3, 1, 2, 4]) == pytest.approx((1.1, 4.9), rel=1e-15, abs=0)
    assert percentile_interval([7.0]) == (7.0, 7.0)
    assert percentile_interval([]) is None


@pytest.mark.parametrize(
    ("values", "level", "expected"),
    [
        ([1, 2, 3, 4, 5], 0.5, (2.0, 4.0)),  # positions 4 * 0.25 = 1 and 4 * 0.75 = 3
        ([0.0, 10.0], 0.95, (0.25, 9.75)),  # positions 0.025 and 0.975
        # 40 values 0..39: positions 39 * 0.025 = 0.975 and 39 * 0.975 = 38.025
        (list(range(40)), 0.95, (0.975, 38.025)),
        # int8 values are read as floats: 100 - (-100) is 200, not int8's wrapped -56
        (np.array([100, -100], dtype=np.int8), 0.95, (-95.0, 95.0)),
    ],
    ids=["level-half", "two-values", "forty-values", "int8"],
)
def test_the_percentile_interval_one_design_at_a_time(
    values: object, level: float, expected: tuple[float, float]
) -> None:
    """One design per test, so a mutant that raises on one cannot hide a wrong value on another."""
    if level == 0.95:
        found = percentile_interval(values)  # the default level
    else:
        found = percentile_interval(values, level=level)
    assert found == pytest.approx(expected, rel=1e-13, abs=0)


def test_counts_of_one_draw_keep_two_axes() -> None:
    """PCG64(6) picks case 1 three times in its one draw of 3 cases: the row [0, 3, 0], as a
    (1 x 3) array, with the count of case 2 (never picked) still there."""
    assert np.random.Generator(np.random.PCG64(6)).integers(0, 3, size=(1, 3)).tolist() == [
        [1, 1, 1]
    ]
    assert counts(3, draws=1, seed=6).tolist() == [[0, 3, 0]]


def test_counts_of_one_case_keep_two_axes() -> None:
    """One case: every draw picks it once, a (draws x 1) array of ones."""
    assert counts(1, draws=3, seed=5).tolist() == [[1], [1], [1]]


def test_the_weighted_median_of_several_draws_at_once() -> None:
    """Each row is its own draw (WALLS sorted: 1 2 4 5 6 8): [1, 1, 0, 0] -> 1 2 8: 2; [0, 0, 0, 1]
    -> 4 5 6: 5; [2, 0, 0, 0] -> 1 1 8 8: 4.5; [0, 0, 2, 0]: no time, NaN."""
    found = _median(np.array([[1, 1, 0, 0], [0, 0, 0, 1], [2, 0, 0, 0], [0, 0, 2, 0]]), WALLS)
    assert found.dtype == np.float64
    assert repr(found.tolist()) == "[2.0, 5.0, 4.5, nan]"


def test_the_median_with_no_time_at_all_is_a_float_nan_per_draw() -> None:
    found = _median(np.array([[1, 2], [3, 0]]), ((), ()))
    assert found.dtype == np.float64
    assert repr(found.tolist()) == "[nan, nan]"


def test_a_board_of_one_case_in_one_draw() -> None:
    """draws=1: the one draw is the board itself (A 1 of 2 at 0.2: q 1/2, x 10; B 2 of 2 at 0.4:
    q 1, x 20; both on the front)."""
    board = [_one_case(1, 2, 0.2), _one_case(2, 2, 0.4)]
    assert resample(board, "cost", draws=1) == Resampled((1.0, 1.0), ((10.0, 10.0), (20.0, 20.0)))


def test_as_costly_and_better_beats_as_draws_as_models() -> None:
    """Three models, three draws of one case: A 1 of 2 at 0.2 (x 10), B 2 of 2 at 0.2 (x 10, as
    costly and better: beats A), C 0 of 2 at 0.1 (x 5, cheapest: on the front)."""
    board = [_one_case(1, 2, 0.2), _one_case(2, 2, 0.2), _one_case(0, 2, 0.1)]
    found = resample(board, "cost", draws=3)
    assert found.on_front == (0.0, 1.0, 1.0)
    assert found.x_interval == ((10.0, 10.0), (10.0, 10.0), (5.0, 5.0))


def test_a_model_billed_on_a_case_it_never_scored() -> None:
    """F scored nothing but was billed 0.5 (errors cost money): no x (not 100 * 0.5 / 0 = inf), no
    interval, never on the front; and the 0 / 0 and 0.5 / 0 raise no numpy warning."""
    board = [_one_case(1, 2, 0.2), _one_case(0, 0, 0.5), _one_case(0, 0, 0.0)]
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        found = resample(board, "cost", draws=2)
    assert [str(w.message) for w in caught] == []
    assert found == Resampled((1.0, 0.0, 0.0), ((10.0, 10.0), None, None))


def test_the_resample_table_is_counts_read_only() -> None:
    """resample's table is ``counts``' own (kept for the process, so shared by every board of
    that size and seed): the same values, and never writable (a caller writing into it would
    change every later board's draws)."""
    table = front_bootstrap._shared_counts(3, 40, 7)
    assert table.tolist() == counts(3, draws=40, seed=7).tolist()
    assert not table.flags.writeable
    with pytest.raises(ValueError, match="read-only"):
        table[0, 0] = 1
