"""Do a history's runs vary together more than independent runs would? The check behind drift's
day-effect note (docs/decisions/drift.md, "What the calibration does not cover: a day effect").

drift's threshold is calibrated for exchangeable runs: each run's cases independent draws at their
fixed rates. A day effect (every case's pass probability moving together for a run, with no change
of model) breaks that calibration. Its trace: the run-to-run variance of a run's passes exceeds the
sum of the cases' own run-to-run variances (their covariances are 0 when runs are independent).
The *dispersion* is that ratio, each variance half the mean squared difference of successive runs
(date order), so a real change (a level that steps once) adds one difference, not a day effect.

Its p-value is a permutation test: each case's runs shuffled on their own keep what the case did
and break only what the runs share (exact given the cases' outcomes when the runs are exchangeable).
The draws come from a fixed seed, so one history always gets one p. The reference implementation
is benchmarks/day_effect.py's ``dispersion`` / ``dispersion_p``; tests/test_drift_dispersion.py
checks this one against it.

Pure: counts in, a frozen dataclass out.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

PERMUTATIONS = 999  # p = (1 + count) / (1 + 999): 0.001 at the least, so p < 0.01 is resolvable
NOTE_BELOW = 0.01  # drift notes the history when p is below this (docs/decisions/drift.md)
SEED = 0  # the permutations' seed: the same history always gives the same p
CHUNK_CELLS = 1 << 21  # permuted values between two checks of the early stop (16 MiB of floats)
# permuted values held at once, whatever the suite's size: 1 MiB of floats, so a block and its steps
# stay in a core's cache (16 MiB at once took twice the CPU; docs/decisions/testing.md#dispersion)
BLOCK_CELLS = 1 << 17
MIN_RUNS = 3  # two successive differences at the least
# n pairs of successive runs estimate the ratio with a variance of about 3 / n when runs are
# independent (von Neumann: successive differences overlap; the plain variance's would be 2 / n)
NULL_VARIANCE = 3.0


@dataclass(frozen=True)
class Dispersion:
    """The check over one history: the ratio (about 1 for independent runs), its one-sided
    permutation p-value, and the runs and cases it used (cases scored in every run that scored
    anything; cases that never varied add nothing and are left out)."""

    ratio: float
    p: float
    runs: int
    cases: int
    # False when the permutations stopped once p could no longer fall below NOTE_BELOW (``early``):
    # ``p`` is then a lower bound at or above it, enough for the note, which shows p only below.
    complete: bool = True

    @property
    def noted(self) -> bool:
        """Whether drift notes it: the runs vary together beyond chance at p < NOTE_BELOW."""
        return self.p < NOTE_BELOW


def successive_variance(values: np.ndarray, axis: int = -1) -> np.ndarray:
    """Half the mean squared difference of successive values along ``axis``."""
    steps = np.diff(values, axis=axis)
    return (steps * steps).mean(axis) / 2


def ratio(share: np.ndarray, steps: np.ndarray | None = None) -> np.ndarray:
    """The dispersion of pass shares of shape (..., runs, cases): the successive variance of each
    run's summed shares over the sum of the cases' successive variances (NaN when none varies).
    ``steps``, a buffer of shape (..., runs - 1, cases), takes the cases' successive differences
    (the permutations' chunks reuse one): the same values as without it."""
    total = successive_variance(share.sum(-1))
    # successive_variance(share, axis=-2) written out, so that its steps can go to the buffer
    steps = np.subtract(share[..., 1:, :], share[..., :-1, :], out=steps)
    np.multiply(steps, steps, out=steps)
    with np.errstate(invalid="ignore", divide="ignore"):
        cases = (steps.sum(-2) / steps.shape[-2] / 2).sum(-1)
        return total / cases


def dispersion(
    passes: np.ndarray, trials: np.ndarray, permutations: int = PERMUTATIONS, early: bool = False
) -> Dispersion | None:
    """The check over one history's counts, shape (runs, cases), runs in drift's order. None when
    there is nothing to check: fewer than MIN_RUNS runs that scored anything, or no case scored in
    all of them that varied. A run that scored nothing is left out (it says nothing of the cases);
    so is a case not scored in every other run (a gap would need its own null). With ``early``,
    the permutations stop as soon as the count of ratios at least the observed one rules out p <
    NOTE_BELOW: whether the history is noted, and p when it is, are those of the full test (the
    same draws in the same order), at a fraction of the cost for the usual independent runs
    (the count is checked after each chunk of CHUNK_CELLS permuted values)."""
    passes = np.asarray(passes, dtype=float)
    trials = np.asarray(trials, dtype=float)
    scored_runs = trials.sum(-1) > 0
    passes, trials = passes[scored_runs], trials[scored_runs]
    if len(trials) < MIN_RUNS:
        return None
    every_run = (trials > 0).all(0)
    share = passes[:, every_run] / trials[:, every_run]
    share = share[:, (share != share[:1]).any(0)]  # a case that never varies adds 0 to both
    if share.shape[1] == 0:
        return None
    observed = float(ratio(share))
    rng = np.random.default_rng(SEED)
    at_least = 0
    # no more shuffles a chunk than the test makes, nor a block than a chunk: the buffers below
    # are sized by them
    per_chunk = max(1, min(permutations, CHUNK_CELLS // share.size))
    per_block = max(1, min(per_chunk, BLOCK_CELLS // share.size))
    # p = (1 + at_least) / (1 + permutations) < NOTE_BELOW holds only while at_least < this
    enough = NOTE_BELOW * (1 + permutations) - 1
    # One buffer for every block's shuffles, in C order (numpy's own copy of the broadcast share
    # puts the permutations innermost, so each shuffle strode across the whole block), and one for
    # their steps. numpy shuffles the slices in C order: the blocks draw as one block would.
    shuffled = np.empty((per_block, *share.shape))
    steps = np.empty_like(shuffled[:, 1:])
    for chunk in range(0, permutations, per_chunk):
        end = min(chunk + per_chunk, permutations)
        for start in range(chunk, end, per_block):
            block = shuffled[: min(per_block, end - start)]
            rng.permuted(np.broadcast_to(share, block.shape), axis=1, out=block)
            at_least += int((ratio(block, steps[: len(block)]) >= observed - 1e-12).sum())
        if early and at_least >= enough and end < permutations:
            p = (1 + at_least) / (1 + permutations)
            return Dispersion(observed, p, len(share), share.shape[1], complete=False)
    return Dispersion(observed, (1 + at_least) / (1 + permutations), len(share), share.shape[1])


def running_sums(passes: np.ndarray, trials: np.ndarray) -> tuple[np.ndarray, ...]:
    """The ratio's parts up to each run, for the score's allowance (cusum.py ``watch``): counts of
    shape (..., runs, cases) -> three arrays of shape (..., runs), entry r summing over the pairs
    of successive runs among runs 0..r the squared sum of a pair's differences of pass shares, the
    sum of its squared differences (so the ratio of runs 0..r is the first over the second, as
    ``ratio``'s) and the pairs counted. A pair uses the cases scored in both of its runs; a pair
    with none is not counted."""
    passes = np.asarray(passes, dtype=float)
    trials = np.asarray(trials, dtype=float)
    scored = trials > 0
    if scored.all() and passes.shape[-1]:  # the usual history: a mask would copy its array
        step = np.diff(passes / trials, axis=-2)
        pairs = np.ones(step.shape[:-1])
    else:
        both = scored[..., 1:, :] & scored[..., :-1, :]
        step = np.where(both, np.diff(passes / np.where(scored, trials, 1.0), axis=-2), 0.0)
        pairs = both.any(-1).astype(float)
    parts = (step.sum(-1) ** 2, np.square(step, out=step).sum(-1), pairs)
    # each part's running sum after a 0 for run 0, which closes no pair
    sums = np.zeros((3, *step.shape[:-2], step.shape[-2] + 1))
    for part, out in zip(parts, sums, strict=True):
        np.cumsum(part, -1, out=out[..., 1:])
    return tuple(sums)


def inflation(
    together: np.ndarray, apart: np.ndarray, pairs: np.ndarray, margin: float
) -> np.ndarray:
    """The factor a run's score variance is taken to be inflated by, from ``running_sums``' parts
    at its reference's end: the ratio less ``margin`` times its sd with independent runs (about
    sqrt(NULL_VARIANCE / pairs)), never below 1. So only the dispersion the runs show beyond their
    own noise counts: independent runs get 1 nearly always (docs/decisions/drift.md#day-effect)."""
    with np.errstate(invalid="ignore", divide="ignore"):
        estimate = np.where(apart > 0, together / apart, 1.0)
        noise = np.sqrt(NULL_VARIANCE / np.maximum(pairs, 1.0))
    return np.maximum(1.0, estimate - margin * noise)
