"""The gate's false alarms on simulated histories, through the real ``compare`` and ``decide``
(the benchmark's own run simulation: benchmarks/gate_power.py). Shared by the history gate's tests;
the slow table of every cell is cut by profile and history length over four test files
(tests/test_history_alpha_{noisy,near}{,_mid}.py) so that pytest-xdist's ``--dist loadfile`` can
balance its parts over the workers."""

from __future__ import annotations

import math
import random

from benchmarks.gate_power import BASE, NEAR, history_side, run
from replay.diff_runs import compare, decide

ALPHA = 0.05


def false_alarm_rate(
    base: list[float], b: list[float], runs: int, k: int, pairs: int, seed: int
) -> float:
    """The share of ``pairs`` simulated (history of ``runs`` runs, run B) pairs at ``k`` repeats a
    run that the gate calls a regression."""
    rng = random.Random(seed)
    fired = 0
    for _ in range(pairs):
        diff = compare({"m": history_side(base, runs, k, rng)}, {"m": run(b, k, rng)})
        fired += decide(diff, alpha=ALPHA).regression
    return fired / pairs


def assert_cell_holds_alpha(profile: str, k: int, runs: int) -> None:
    """One cell of the benchmark's table (benchmarks/gate_power.py --history): false alarms <=
    alpha + 3 simulation errors over 200 same-model pairs."""
    pairs = 200
    base = NEAR if profile == "near" else BASE
    rate = false_alarm_rate(base, base, runs, k, pairs, 1000 + 10 * k + runs)
    assert rate <= ALPHA + 3 * math.sqrt(ALPHA * (1 - ALPHA) / pairs), (
        f"{profile} K={k} H={runs}: {rate}"
    )
