"""What ``lobstack-eval pick`` claims, simulated: the error rates and power of its two tests.

Every run draws the suite's 80 cases at K repeats a side from per-case pass probabilities, and goes
through the real ``scorer.stats.front_paired`` (the tests) or ``scorer.front.front`` (the whole
pick). Profiles of the leader's per-case probabilities p_c:

- ``diffuse``: p_c ~ Beta(2, 0.6) (Overall ~77%); a worse model has p_c - gap (at least 0);
- ``high``: every p_c = 0.95, a worse model 0.95 - gap (skewed pass/fail differences);
- ``break``: the leader passes every case; a worse model fails a case outright with probability
  gap (the least favourable case for agreeing models: all-or-nothing cases).

Tables:

1. **Dominance** (``better_p`` < alpha, one comparison): false alarms when the two models are
   equal, power when the cheaper one is 5 or 10 points better.
2. **Non-inferiority** (one comparison, alpha 0.05): how often a model exactly delta worse is
   claimed within delta (error), and a model as good (gap 0) or 1 point worse is (power), for delta
   5 and 10.
3. **The pick with the leader from the data** (``front``; Hsu): k - 1 models equal (the best is a
   tie the data breaks), one cheaper model delta worse (error: it is picked) or equal (power), for
   k = 4 and 13 at delta 10.

Usage: ``uv run python benchmarks/pick_power.py [--runs N] [--seed S]`` (~4 min at 2,000 runs on a
quiet core; ``--runs 400`` ~1 min).
"""

from __future__ import annotations

import argparse
import math

import numpy as np

from scorer.front import front
from scorer.stats.front_paired import better_p, critical, lower_bound
from scorer.summarize import empty
from scorer.summary import CaseTally, Counts, ModelSummary, Rate

N = 80


def profile(name: str, rng: np.random.Generator) -> np.ndarray:
    if name == "diffuse":
        return rng.beta(2, 0.6, N)
    if name == "high":
        return np.full(N, 0.95)
    return np.ones(N)


def worse(name: str, base: np.ndarray, gap: float, rng: np.random.Generator) -> np.ndarray:
    """A model ``gap`` below ``base`` (negative: above), as the profile makes it."""
    if name == "break":
        return np.where(rng.random(N) < gap, 0.0, 1.0) if gap > 0 else base
    return np.clip(base - gap, 0, 1)


def rates(draw: np.ndarray, k: int) -> dict[str, tuple[int, int]]:
    return {f"c{i:03d}": (int(v), k) for i, v in enumerate(draw)}


def dominance(runs: int, rng: np.random.Generator) -> list[str]:
    lines = ["| profile | K | false alarms | power +5 | power +10 |", "|---|---:|---:|---:|---:|"]
    for name in ("diffuse", "high"):
        for k in (1, 3):
            found = []
            for gap in (0.0, 0.05, 0.10):
                hits = 0
                for _ in range(runs):
                    base = profile(name, rng)
                    m = rates(rng.binomial(k, base), k)
                    x = rates(rng.binomial(k, np.clip(base + gap, 0, 1)), k)
                    hits += better_p(m, x) < 0.05
                found.append(hits / runs)
            lines.append(f"| {name} | {k} | " + " | ".join(f"{100 * f:.1f}%" for f in found) + " |")
    return lines


def non_inferiority(runs: int, rng: np.random.Generator) -> list[str]:
    lines = [
        "| profile | K | delta | error at -delta | power at 0 | power at -1 |",
        "|---|---:|---:|---:|---:|---:|",
    ]
    z = critical(0.05, N)
    for name in ("diffuse", "high", "break"):
        for k in (1, 3):
            for delta in (0.05, 0.10):
                found = []
                for gap in (delta, 0.0, 0.01):
                    hits = 0
                    for _ in range(runs):
                        base = profile(name, rng)
                        lead = rng.binomial(k, base) / k
                        m = rng.binomial(k, worse(name, base, gap, rng)) / k
                        hits += (lower_bound(list(m - lead), z) or -1) > -delta
                    found.append(hits / runs)
                cells = " | ".join(f"{100 * f:.1f}%" for f in found)
                lines.append(f"| {name} | {k} | {100 * delta:.0f} | {cells} |")
    return lines


def summary(name: str, draw: np.ndarray, k: int, cost: float) -> ModelSummary:
    tallies = tuple(CaseTally(f"c{i:03d}", int(v), k, cost * k, (1.0,)) for i, v in enumerate(draw))
    rate = 100 * float(draw.sum()) / (N * k)
    return ModelSummary(
        **{
            **empty(name, name).__dict__,
            "repeats": k,
            "metrics": {"overall": Rate(int(draw.sum()), N * k, rate, None)},
            "case_runs": Counts(N * k, N * k, 0, 0),
            "cost_per_100_cases_usd": 100 * cost,
            "tallies": tallies,
        }
    )


def hsu(runs: int, rng: np.random.Generator) -> list[str]:
    lines = [
        "| profile | K | models | error (cheap one delta worse picked) | power (cheap one equal) |"
    ]
    lines.append("|---|---:|---:|---:|---:|")
    for name in ("diffuse", "break"):
        for k in (1, 3):
            for size in (4, 13):
                found = []
                for gap in (0.10, 0.0):
                    hits = 0
                    for _ in range(runs):
                        base = profile(name, rng)
                        board = [
                            summary(f"eq{i}", rng.binomial(k, base), k, 0.01 * (i + 2))
                            for i in range(size - 1)
                        ]
                        cheap = rng.binomial(k, worse(name, base, gap, rng))
                        board.append(summary("cheap", cheap, k, 0.001))
                        hits += front(board, delta=10, draws=10).pick.model == "cheap"
                    found.append(hits / runs)
                cells = " | ".join(f"{100 * f:.1f}%" for f in found)
                lines.append(f"| {name} | {k} | {size} | {cells} |")
    return lines


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=2000)
    parser.add_argument("--seed", type=int, default=44)
    args = parser.parse_args()
    rng = np.random.default_rng(args.seed)
    se = 100 * math.sqrt(0.05 * 0.95 / args.runs)
    print(f"{args.runs} runs a cell, seed {args.seed}; Monte Carlo SE at 5%: {se:.2f} points\n")
    print("Dominance (one-sided exact paired test, alpha 0.05):\n")
    print("\n".join(dominance(args.runs, rng)))
    print("\nNon-inferiority, one comparison (alpha 0.05):\n")
    print("\n".join(non_inferiority(args.runs, rng)))
    hsu_runs = max(args.runs // 4, 50)
    print(f"\nThe pick, leader from the data (Hsu, alpha 0.05, delta 10; {hsu_runs} runs):\n")
    print("\n".join(hsu(hsu_runs, rng)))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
