"""Which statistic for the history test: candidates compared by a seeded simulation, same pairs.

Issue 31; the choice and its reasons are in docs/decisions/history-gate.md.

Every candidate is the exact conditional test of ``scorer.stats.history_exact`` (per case, B's
failures
given the case's margins over all runs are hypergeometric; the cases are convolved), with another
weight of a failure in B:

- ``sum``: every failure counts 1 (the plain sum of B's failures; with one earlier run it is
  one-sided McNemar);
- ``score``: about 1 / (f (1 - f)), f the case's failure share over all runs (the score test of a
  drop in pass rate): a failure in a case that rarely fails counts more (the one shipped);
- ``log``: about -log f (the surprise of a failure): between the two.

Each pair is a history of H earlier runs and one new run at K repeats, drawn with
``benchmarks/gate_power.py``'s run simulation and merged and paired by the real ``merge_history``
and ``compare``; only the statistic differs. Usage:
``uv run python benchmarks/history_test_choice.py [--pairs N] [--seed S]`` (~3 min at 200 pairs).
"""

from __future__ import annotations

import argparse
import math
import random
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from benchmarks.gate_power import PROFILES, concentrated, diffuse, history_side, run  # noqa: E402
from replay.diff_runs import compare  # noqa: E402
from scorer.stats.history_exact import CaseMargins, history_test, score_weight  # noqa: E402

ALPHA = 0.05
CELLS = ((1, 5), (1, 20), (3, 10))  # (K, earlier runs)


def _log_weight(failed: int, scored: int) -> int:
    return max(1, round(4 * math.log((scored + 1) / (failed + 0.5))))


CANDIDATES = {"sum": lambda failed, scored: 1, "score": score_weight, "log": _log_weight}


def margins(history: dict, new: dict) -> list[CaseMargins]:
    """Each paired case's failures and scored samples in the history and in B."""
    out = []
    for c in compare({"m": history}, {"m": new}).models[0].cases:
        if c.paired:
            (pa, sa), (pb, sb) = c.counts("a"), c.counts("b")
            out.append(CaseMargins(sa - pa, sa, sb - pb, sb))
    return out


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pairs", type=int, default=200)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    print(
        f"{args.pairs} pairs per cell, one-sided at alpha {ALPHA}; cells: share of pairs with p < "
        "alpha"
    )
    print(
        f"{'profile':>7}  {'K':>2}  {'H':>3}  {'scenario':>13}  "
        + "  ".join(f"{n:>6}" for n in CANDIDATES)
    )
    for name, base in PROFILES.items():
        scenarios = {
            "same model": base,
            "diffuse 5": diffuse(5, base),
            "diffuse 10": diffuse(10, base),
            "4 cases break": concentrated(5, base),
        }
        for k, runs in CELLS:
            for label, b in scenarios.items():
                hits = dict.fromkeys(CANDIDATES, 0)
                for _ in range(args.pairs):
                    cases = margins(history_side(base, runs, k, rng), run(b, k, rng))
                    for cand, weight in CANDIDATES.items():
                        hits[cand] += history_test(cases, weight).p < ALPHA
                cells = "  ".join(f"{hits[c] / args.pairs:>6.1%}" for c in CANDIDATES)
                print(f"{name:>7}  {k:>2}  {runs:>3}  {label:>13}  {cells}", flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
