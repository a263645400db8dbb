"""drift's check for runs that vary together (scorer/drift/dispersion.py) on histories small enough
to work out by hand: the successive variance, the ratio, which runs and cases the check keeps, the
permutation p (exact where every shuffle gives the observed ratio; otherwise the reference
benchmarks/day_effect.py's with the same seed), stopping early, the running sums and the
inflation. Milliseconds each, so the mutation benchmark can run them for every mutant."""

from __future__ import annotations

import math
import warnings

import numpy as np
import pytest

import scorer.drift.dispersion as module
from benchmarks.day_effect import dispersion_p as reference_p
from scorer.drift.dispersion import (
    Dispersion,
    dispersion,
    inflation,
    ratio,
    running_sums,
    successive_variance,
)


def _same(got: object, want: object) -> None:
    """Exact shape and values (NaN equal to NaN), to 1e-12; a tuple part by part."""
    if isinstance(got, tuple):
        assert len(got) == len(want), (got, want)  # type: ignore[arg-type]
        for part, wanted in zip(got, want, strict=True):  # type: ignore[call-overload]
            _same(part, wanted)
        return
    assert np.asarray(got).dtype == np.float64, got
    arr = np.asarray(got, dtype=float)
    assert arr.shape == np.asarray(want).shape, (arr, want)
    assert np.allclose(arr, want, rtol=1e-12, atol=1e-12, equal_nan=True), (arr, want)


def test_noted_below_one_percent_only() -> None:
    assert Dispersion(2.0, 0.0099, 10, 3).noted
    assert not Dispersion(2.0, 0.01, 10, 3).noted
    assert not Dispersion(2.0, 0.5, 10, 3).noted
    assert Dispersion(2.0, 0.001, 10, 3).complete  # complete unless said


def test_the_successive_variance_by_hand() -> None:
    # 1 3 2 6: steps 2 -1 4, squares 4 1 16, mean 7, half 3.5
    _same(successive_variance(np.array([1.0, 3.0, 2.0, 6.0])), 3.5)
    grid = np.array([[1.0, 3.0], [2.0, 6.0], [0.0, 0.0]])
    _same(successive_variance(grid), [2.0, 8.0, 0.0])  # along each row: 2^2 / 2, 4^2 / 2, 0
    # down each column: 1 2 0 (steps 1 -2: mean 2.5, half 1.25); 3 6 0 (3 -6: 22.5, 11.25)
    _same(successive_variance(grid, axis=-2), [1.25, 11.25])
    _same(successive_variance(grid, axis=0), [1.25, 11.25])


SHARES = np.array([[1.0, 0.5], [0.0, 1.0], [0.5, 0.5]])
# three runs, two cases (1 0.5, 0 1, 0.5 0.5): sums 1.5 1 1 -> steps -0.5 0 -> 0.25 / 2 / 2 =
# 0.0625; case 0 steps -1 0.5 -> 1.25 / 2 / 2 = 0.3125, case 1 0.5 -0.5 -> 0.125: 0.0625 / 0.4375
SHARES_RATIO = 0.0625 / 0.4375


def test_the_ratio_by_hand() -> None:
    # both cases together (1 1, 0 0, 1 1): sums 2 0 2, successive variance (4 + 4) / 2 / 2 = 2;
    # each case 1 0 1: 0.5, summed 1: a ratio of 2
    _same(ratio(np.array([[1.0, 1.0], [0.0, 0.0], [1.0, 1.0]])), 2.0)
    # apart (1 0, 0 1, 1 0): the sums never move: 0
    _same(ratio(np.array([[1.0, 0.0], [0.0, 1.0], [1.0, 0.0]])), 0.0)
    _same(ratio(SHARES), SHARES_RATIO)


def test_the_ratio_with_a_buffer_for_its_steps() -> None:
    """The steps go to the buffer, squared (case 0 steps -1 0.5, case 1 0.5 -0.5), and the ratio
    is the one without it; two histories on a leading axis, each its own."""
    steps = np.full((1, 2, 2), 7.0)
    _same(ratio(SHARES[None], steps), [SHARES_RATIO])
    _same(steps, [[[1.0, 0.25], [0.25, 0.25]]])
    together = np.array([[1.0, 1.0], [0.0, 0.0], [1.0, 1.0]])
    steps = np.empty((2, 2, 2))
    _same(ratio(np.stack([together, SHARES]), steps), [2.0, SHARES_RATIO])
    _same(steps[1], [[1.0, 0.25], [0.25, 0.25]])


def test_the_ratio_of_one_history_on_a_leading_axis() -> None:
    _same(ratio(SHARES[None]), [SHARES_RATIO])


def test_the_ratio_of_as_many_histories_as_runs_or_cases() -> None:
    """Three histories of three runs (and two of two cases): each its own ratio; the third, in
    reverse order, has the same successive steps reversed."""
    apart = np.array([[1.0, 0.0], [0.0, 1.0], [1.0, 0.0]])
    _same(ratio(np.stack([SHARES, apart, SHARES[::-1]])), [SHARES_RATIO, 0.0, SHARES_RATIO])
    # 1 0 then 0 0: the sum steps -1 (0.5), case 0 steps -1 (0.5), case 1 none: 1; both: 2
    _same(ratio(np.array([[[1.0, 0.0], [0.0, 0.0]], [[1.0, 1.0], [0.0, 0.0]]])), [1.0, 2.0])


def test_the_ratio_over_two_leading_axes() -> None:
    together = np.array([[1.0, 1.0], [0.0, 0.0], [1.0, 1.0]])
    grid = np.stack([np.stack([SHARES, together]), np.stack([together, SHARES])])
    _same(ratio(grid), [[SHARES_RATIO, 2.0], [2.0, SHARES_RATIO]])


def test_the_ratio_of_shares_that_never_vary_is_nan_without_a_warning() -> None:
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        got = ratio(np.array([[1.0, 0.5], [1.0, 0.5], [1.0, 0.5]]))
    assert caught == []
    _same(got, math.nan)


# Five runs of five cases, one repeat each; the third (row 2) scored nothing and is left out. Over
# the four others: case 0: 1 0 1 0, case 1: 1 0 1 1 (both vary), case 2: 1 1 1 1 (never varies:
# left out), case 3: 1 0 - 1 (not scored in row 3: left out), case 4: 0 0 0 0.
# Sums 2 0 2 1: steps -2 2 -1, squares 4 4 1, successive variance 9 / 3 / 2 = 1.5; case 0 steps
# -1 1 -1: 0.5, case 1 -1 1 0: 1/3; a ratio of 1.5 / (5/6) = 1.8.
PASSES = np.array(
    [[1, 1, 1, 1, 0], [0, 0, 1, 0, 0], [0, 0, 0, 0, 0], [1, 1, 1, 0, 0], [0, 1, 1, 1, 0]]
)
TRIALS = np.array(
    [[1, 1, 1, 1, 1], [1, 1, 1, 1, 1], [0, 0, 0, 0, 0], [1, 1, 1, 0, 1], [1, 1, 1, 1, 1]]
)
KEPT = np.array([[1.0, 1.0], [0.0, 0.0], [1.0, 1.0], [0.0, 1.0]])


def test_the_check_keeps_scored_runs_and_cases_scored_in_each_that_vary() -> None:
    got = dispersion(PASSES, TRIALS)
    assert got is not None
    assert got.ratio == pytest.approx(1.8, rel=1e-12)
    assert (got.runs, got.cases, got.complete) == (4, 2, True)
    want = reference_p(KEPT, np.ones_like(KEPT), np.random.default_rng(0), 999)
    assert got.p == want
    assert type(got.ratio) is float
    # the same counts given as lists, shares of two repeats (2 of 2, 0 of 2 ...): the same check
    doubled = dispersion((2 * PASSES).tolist(), (2 * TRIALS).tolist())
    assert doubled == got
    # 99 permutations: p in hundredths, the reference's at its own count
    few = dispersion(PASSES, TRIALS, permutations=99)
    assert few is not None
    assert few.p == reference_p(KEPT, np.ones_like(KEPT), np.random.default_rng(0), 99)


def test_each_case_s_share_is_its_passes_over_its_trials() -> None:
    """Case 0 in two repeats a run (2 0 2 0 of 2: shares 1 0 1 0), case 1 in one (1 0 1 1): the
    ratio 1.8 of the shares, not of the counts."""
    passes = np.array([[2, 1], [0, 0], [2, 1], [0, 1]])
    trials = np.array([[2, 1], [2, 1], [2, 1], [2, 1]])
    got = dispersion(passes, trials)
    assert got is not None and got.ratio == pytest.approx(1.8, rel=1e-12)
    assert (got.runs, got.cases) == (4, 2)


def test_a_case_missing_from_a_run_of_a_square_history_is_left_out() -> None:
    """Four runs of four cases, case 3 not scored in run 1: cases 0 and 1 as above (1 0 1 0 and
    1 0 1 1), case 2 never varies: the ratio 1.8 over two cases."""
    passes = np.array([[1, 1, 1, 1], [0, 0, 1, 0], [1, 1, 1, 0], [0, 1, 1, 1]])
    trials = np.ones((4, 4), dtype=int)
    trials[1, 3] = 0
    got = dispersion(passes, trials)
    assert got is not None and got.ratio == pytest.approx(1.8, rel=1e-12)
    assert (got.runs, got.cases) == (4, 2)


def test_no_permutation_gives_the_ratio_and_p_1() -> None:
    got = dispersion(PASSES, TRIALS, permutations=0)
    assert got is not None and got.ratio == pytest.approx(1.8, rel=1e-12)
    assert (got.p, got.runs, got.cases, got.complete) == (1.0, 4, 2, True)


def test_too_few_runs_or_nothing_that_varies_is_nothing_to_check() -> None:
    assert dispersion(PASSES[:3], TRIALS[:3]) is None  # two scored runs (run 2 scored nothing)
    three = dispersion(PASSES[:4], TRIALS[:4])  # three scored runs: enough
    # rows 0 1 3: cases 0 and 1 both 1 0 1 (sums 2 0 2: 2; each 0.5), case 3 (1 0 -) left out
    assert three is not None and (three.runs, three.cases) == (3, 2)
    assert three.ratio == pytest.approx(2.0, rel=1e-12)
    assert dispersion(np.ones((6, 3)), np.ones((6, 3))) is None  # nothing varies
    assert dispersion(PASSES[:, 2:], TRIALS[:, 2:]) is None  # only cases that never vary or gap


def test_a_single_varying_case_gives_a_ratio_of_1_whatever_the_shuffle() -> None:
    """One case that varies (a second that never does is left out): every shuffle's ratio is the
    observed 1, so every one counts and p = (1 + 999) / (1 + 999) = 1."""
    passes = np.array([[1, 1], [0, 1], [0, 1], [1, 1], [0, 1]])
    got = dispersion(passes, np.ones_like(passes))
    assert got == Dispersion(1.0, 1.0, 5, 1, True)
    few = dispersion(passes, np.ones_like(passes), permutations=9)
    assert few == Dispersion(1.0, 1.0, 5, 1, True)


@pytest.mark.parametrize(
    ("cells", "permutations", "p", "complete"),
    [
        # 4 shuffles a chunk: 4, 8, 12 >= 0.01 * 1000 - 1 = 9 counted: stop at 13 / 1000
        (20, 999, 13 / 1000, False),
        (5, 999, 10 / 1000, False),  # one a chunk: stops at 9 counted
        (1, 999, 10 / 1000, False),  # fewer cells than one shuffle holds: still one a chunk
        (20, 12, 5 / 13, False),  # 0.01 * 13 - 1 < 0: the first chunk decides
        (20, 4, 1.0, True),  # the first chunk is the last: the full test
        (1 << 21, 999, 1.0, True),  # one chunk of every shuffle: the full test
    ],
)
def test_stopping_early_once_p_cannot_fall_below_one_percent(
    monkeypatch: pytest.MonkeyPatch, cells: int, permutations: int, p: float, complete: bool
) -> None:
    """The single varying case of 5 runs (5 cells a shuffle): every shuffle counts."""
    monkeypatch.setattr(module, "CHUNK_CELLS", cells)
    passes = np.array([[1], [0], [0], [1], [0]])
    got = dispersion(passes, np.ones_like(passes), permutations, early=True)
    assert got == Dispersion(1.0, p, 5, 1, complete)
    full = dispersion(passes, np.ones_like(passes), permutations)
    assert full == Dispersion(1.0, 1.0, 5, 1, True)


@pytest.mark.parametrize("permutations", [999, 9, 4, 3])
def test_the_full_test_draws_exactly_its_permutations_in_chunks(
    monkeypatch: pytest.MonkeyPatch, permutations: int
) -> None:
    """Chunks of 4 shuffles (20 cells, 5 a shuffle), the last one shorter where 4 does not divide
    the permutations (999: 3, 9: 1): the single varying case of 5 runs, where every shuffle
    counts, gets p = (1 + permutations) / (1 + permutations) = 1, so the count is exactly the
    shuffles drawn, none more."""
    monkeypatch.setattr(module, "CHUNK_CELLS", 20)
    passes = np.array([[1], [0], [0], [1], [0]])
    got = dispersion(passes, np.ones_like(passes), permutations)
    assert got == Dispersion(1.0, 1.0, 5, 1, True)


@pytest.mark.parametrize("block_cells", [5, 10, 15, 20])
def test_blocks_within_a_chunk_change_nothing(
    monkeypatch: pytest.MonkeyPatch, block_cells: int
) -> None:
    """Chunks of 4 shuffles (20 cells, 5 a shuffle) drawn in blocks of 1, 2, 3 (the last block of a
    chunk shorter) or 4: the early stop still comes only after a whole chunk, at 13 / 1000 (12
    counted after three chunks, as in one block), and the full test counts exactly its shuffles;
    the kept history's p is the reference's in blocks of 1 to 4 of its 8 cells a shuffle."""
    monkeypatch.setattr(module, "CHUNK_CELLS", 20)
    monkeypatch.setattr(module, "BLOCK_CELLS", block_cells)
    passes = np.array([[1], [0], [0], [1], [0]])
    ones = np.ones_like(passes)
    assert dispersion(passes, ones, 999, early=True) == Dispersion(1.0, 13 / 1000, 5, 1, False)
    assert dispersion(passes, ones, 999) == Dispersion(1.0, 1.0, 5, 1, True)
    assert dispersion(passes, ones, 9) == Dispersion(1.0, 1.0, 5, 1, True)
    monkeypatch.setattr(module, "CHUNK_CELLS", 4 * 8)
    monkeypatch.setattr(module, "BLOCK_CELLS", 8 * (block_cells // 5))
    got = dispersion(PASSES, TRIALS)
    want = reference_p(KEPT, np.ones_like(KEPT), np.random.default_rng(0), 999)
    assert got is not None and got.p == want


def test_a_history_that_is_noted_runs_every_permutation(monkeypatch: pytest.MonkeyPatch) -> None:
    """Twelve runs where three cases fail together on alternate days: no shuffle reaches the
    observed ratio often enough to stop, so the early check is the full one, chunk by chunk the
    same draws as the reference's in one block."""
    day = np.array([1, 0] * 6)
    passes = np.stack([day, day, day, 1 - day * 0], axis=1)
    passes[0, 3] = 0  # a fourth case that varies once
    trials = np.ones_like(passes)
    varying = passes.astype(float)
    want = reference_p(varying, np.ones_like(varying), np.random.default_rng(0), 999)
    assert want < 0.01
    full = dispersion(passes, trials)
    assert full is not None and full.p == want and full.noted and full.complete
    monkeypatch.setattr(module, "CHUNK_CELLS", 48 * 10)
    early = dispersion(passes, trials, early=True)
    assert early == full


# Running sums by hand: five runs of two cases, shares (trials 0: not scored)
#   run 0: 2/2 1/2 -> 1, 0.5;  run 1: 0/2 2/2 -> 0, 1;  run 2: 1/1 -  -> 1, -;  run 3: 0/1 1/2;
#   run 4: nothing scored.
# Pair 0-1: steps -1 0.5: squared sum 0.25, sum of squares 1.25; pair 1-2: case 0 alone, 1: 1, 1;
# pair 2-3: case 0 alone, -1: 1, 1 (case 1 was not scored in run 2); pair 3-4: no case scored in
# both: not counted.
SUM_PASSES = np.array([[2, 1], [0, 2], [1, 0], [0, 1], [0, 0]])
SUM_TRIALS = np.array([[2, 2], [2, 2], [1, 0], [1, 2], [0, 0]])
TOGETHER = [0.0, 0.25, 1.25, 2.25, 2.25]
APART = [0.0, 1.25, 2.25, 3.25, 3.25]
PAIRS = [0.0, 1.0, 2.0, 3.0, 3.0]


def test_the_running_sums_by_hand() -> None:
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        parts = running_sums(SUM_PASSES, SUM_TRIALS)
    assert caught == []  # the runs where a case was not scored divide nothing by 0
    _same(parts, (TOGETHER, APART, PAIRS))


def test_the_running_sums_of_lists_and_of_many_histories() -> None:
    """As lists, and two histories at once (the second the first's cases swapped: the same
    sums)."""
    stacked = running_sums(
        np.stack([SUM_PASSES, SUM_PASSES[:, ::-1]]).tolist(),
        np.stack([SUM_TRIALS, SUM_TRIALS[:, ::-1]]).tolist(),
    )
    _same(stacked, ([TOGETHER] * 2, [APART] * 2, [PAIRS] * 2))


def test_the_running_sums_of_a_square_history() -> None:
    """Two runs of two cases (1 1 then 0 1): one pair, steps -1 0: 1, 1, 1."""
    parts = running_sums(np.array([[1, 1], [0, 1]]), np.ones((2, 2)))
    _same(parts, ([0.0, 1.0], [0.0, 1.0], [0.0, 1.0]))
    parts = running_sums(np.array([[1, 1], [0, 0]]), np.ones((2, 2)))  # steps -1 -1: 4, 2, 1
    _same(parts, ([0.0, 4.0], [0.0, 2.0], [0.0, 1.0]))


TWO_BY_TWO = np.array([[[1, 1], [0, 1]], [[1, 1], [0, 0]]])  # the two square histories above
TWO_BY_TWO_PARTS = ([[0.0, 1.0], [0.0, 4.0]], [[0.0, 1.0], [0.0, 2.0]], [[0.0, 1.0], [0.0, 1.0]])


def test_the_running_sums_of_two_square_histories() -> None:
    _same(running_sums(TWO_BY_TWO, np.ones_like(TWO_BY_TWO)), TWO_BY_TWO_PARTS)


def test_the_running_sums_over_two_leading_axes() -> None:
    parts = running_sums(TWO_BY_TWO[None], np.ones_like(TWO_BY_TWO[None]))
    _same(parts, tuple([part] for part in TWO_BY_TWO_PARTS))
    swapped = np.stack([TWO_BY_TWO, TWO_BY_TWO[::-1]])
    parts = running_sums(swapped, np.ones_like(swapped))
    _same(parts, tuple([part, part[::-1]] for part in TWO_BY_TWO_PARTS))


def test_the_running_sums_of_a_share_of_a_repeat() -> None:
    """Weighted counts: 0.5 of 0.5 (a share of 1), then 0 of 1: a step of -1 (1, 1, 1)."""
    _same(
        running_sums(np.array([[0.5], [0.0]]), np.array([[0.5], [1.0]])), ([0, 1], [0, 1], [0, 1])
    )


def test_the_running_sums_with_no_pair_are_float_zeros() -> None:
    """Nothing scored twice in a row (a run of nothing, then one case): every part 0, in doubles
    as always (and, every case scored, the doubles of a history with no gap)."""
    _same(
        running_sums(np.array([[0, 0], [1, 0]]), np.array([[0, 0], [1, 0]])),
        ([0, 0], [0, 0], [0, 0]),
    )
    _same(running_sums(np.array([[1], [1]]), np.array([[1], [1]])), ([0, 0], [0, 0], [0, 1]))


def test_the_running_sums_of_a_history_with_nothing_scored_are_float_zeros() -> None:
    _same(running_sums(np.zeros((2, 2)), np.zeros((2, 2))), ([0, 0], [0, 0], [0, 0]))


@pytest.mark.parametrize(
    ("together", "apart", "pairs", "margin", "want"),
    [
        (30.0, 20.0, 12.0, 0.5, 1.5 - 0.5 * 0.5),  # ratio 1.5, sd sqrt(3 / 12)
        (8.0, 2.0, 3.0, 0.5, 4.0 - 0.5),  # sd sqrt(3 / 3) = 1
        (8.0, 2.0, 1.0, 0.25, 4.0 - 0.25 * math.sqrt(3)),
        (8.0, 2.0, 0.0, 0.25, 4.0 - 0.25 * math.sqrt(3)),  # no pair: counted as one
        (8.0, 2.0, 0.5, 0.25, 4.0 - 0.25 * math.sqrt(3)),
        (10.0, 20.0, 12.0, 0.5, 1.0),  # below 1: 1
        (5.0, 0.0, 0.0, 0.5, 1.0),  # nothing apart: the ratio taken as 1
        (0.0, 0.0, 4.0, 0.0, 1.0),
        (3.0, 2.0, 3.0, 0.0, 1.5),  # no margin: the ratio itself
        (1.5, 0.5, 3.0, 0.5, 3.0 - 0.5),  # less than one apart: still the ratio
    ],
)
def test_the_inflation_by_hand(
    together: float, apart: float, pairs: float, margin: float, want: float
) -> None:
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")  # the ratio's 0 / 0 where nothing moved apart is masked
        got = inflation(np.array([together]), np.array([apart]), np.array([pairs]), margin)
    assert caught == []
    _same(got, [want])  # a float64 array


def _exact(got: tuple[np.ndarray, ...], want: tuple[list[float], ...]) -> None:
    """Bit for bit, in doubles: the same shape and the very same values."""
    assert len(got) == len(want)
    for part, wanted in zip(got, want, strict=True):
        assert part.dtype == np.float64, part
        assert part.shape == np.shape(wanted) and np.array_equal(part, wanted), (part, wanted)


def test_the_running_sums_of_three_runs_of_two_cases() -> None:
    """Three runs of two cases, every case scored (shares 1 0, 0 0, 1 1): steps -1 0 (squared sum
    1, squares 1), then 1 1 (4, 2). Two pairs of two cases: the sums run over the cases of a pair,
    then over the pairs, not the other way round (over the runs: 0 1 and 2 1)."""
    passes = np.array([[1, 0], [0, 0], [1, 1]])
    want = ([0.0, 1.0, 5.0], [0.0, 1.0, 3.0], [0.0, 1.0, 2.0])
    _exact(running_sums(passes, np.ones((3, 2))), want)
    # one history, and two (the second the first's cases swapped), on a leading axis
    _exact(running_sums(passes[None], np.ones((1, 3, 2))), tuple([part] for part in want))
    stacked = np.stack([passes, passes[:, ::-1]])
    _exact(running_sums(stacked, np.ones((2, 3, 2))), tuple([part, part] for part in want))


def test_the_running_sums_count_a_pair_by_its_runs_not_by_a_case() -> None:
    """Three runs of two cases (trials 0 1, 0 1, 1 0): case 1 alone in the pair 0-1 (share 1 then
    0: a step of -1), no case scored in both runs of the pair 1-2 (not counted). A pair counts
    where any case was scored in both of its runs: pair 0-1 yes, 1-2 no (by case: case 0 no,
    case 1 yes, which would count the second pair and not the first)."""
    passes = np.array([[0, 1], [0, 0], [1, 0]])
    trials = np.array([[0, 1], [0, 1], [1, 0]])
    want = ([0.0, 1.0, 1.0], [0.0, 1.0, 1.0], [0.0, 1.0, 1.0])
    _exact(running_sums(passes, trials), want)
    _exact(running_sums(passes[None], trials[None]), tuple([part] for part in want))


def test_the_running_sums_of_two_runs_with_a_gap_on_a_leading_axis() -> None:
    """Two runs of two cases, case 1 not scored in run 1 (shares 1 0, then 0 -): one pair, case 0
    alone, a step of -1: 1, 1, 1; stacked with its cases swapped (the same), and with a second
    history of every case scored (0 0 then 1 1: steps 1 1, squared sum 4, squares 2)."""
    passes = np.array([[1, 0], [0, 0]])
    trials = np.array([[1, 1], [1, 0]])
    want = ([0.0, 1.0], [0.0, 1.0], [0.0, 1.0])
    _exact(running_sums(passes[None], trials[None]), tuple([part] for part in want))
    swapped = (np.stack([passes, passes[:, ::-1]]), np.stack([trials, trials[:, ::-1]]))
    _exact(running_sums(*swapped), tuple([part, part] for part in want))
    mixed = (np.stack([passes, [[0, 0], [1, 1]]]), np.stack([trials, np.ones((2, 2))]))
    _exact(running_sums(*mixed), ([[0.0, 1.0], [0.0, 4.0]], [[0.0, 1.0], [0.0, 2.0]], [[0, 1]] * 2))
    single = (passes[None, None, :1], trials[None, None, :1])  # one run: no pair
    _exact(running_sums(*single), ([[[0.0]]], [[[0.0]]], [[[0.0]]]))


def test_the_running_sums_of_no_case_count_no_pair() -> None:
    """A history of runs but no case (a suite with nothing scored in every run): every part 0,
    one entry a run, with and without a leading axis."""
    _exact(running_sums(np.zeros((3, 0)), np.zeros((3, 0))), ([0.0] * 3, [0.0] * 3, [0.0] * 3))
    _exact(running_sums(np.zeros((2, 3, 0)), np.zeros((2, 3, 0))), ([[0.0] * 3] * 2,) * 3)


@pytest.mark.parametrize("which", ["passes", "trials", "both"])
def test_the_running_sums_of_long_double_counts_are_computed_in_doubles(which: str) -> None:
    """Counts in long double are taken as doubles first: 1 of 5 then 0 of 5 is a step of -0.2 (the
    double), whose square in doubles is 0.04000000000000001 (in long double, rounded at the end,
    0.04)."""
    passes = np.array([[1.0], [0.0]], dtype=np.longdouble if which != "trials" else float)
    trials = np.array([[5.0], [5.0]], dtype=np.longdouble if which != "passes" else float)
    square = 0.2 * 0.2
    _exact(running_sums(passes, trials), ([0.0, square], [0.0, square], [0.0, 1.0]))
