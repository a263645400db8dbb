"""What a green gate means, simulated: ``diff runs --fail-on-regression``'s false alarms and power.

Each pair is two runs of the suite's 80 cases with K repeats a side, drawn from per-case pass
probabilities, and goes through the real ``compare`` and ``decide`` (default options: alpha 0.05).
The base model is ref/flaky's probabilities (fixed by the case id: a fifth of the cases always pass,
a fifth never, the rest 1/4, 1/2, 3/4; Overall 50%). B is:

- the same model (false alarms); the row also gives the rate of the old "consistent failures" rule
  (3/3 -> 0/3), counted on the same pairs, for comparison;
- a diffuse drop of 5 or 10 points: every case that can drop loses the same amount of
  pass probability;
- a concentrated drop of 5 or 10 points: 4 or 8 cases that always passed break outright (pass
  probability 0).

With ``--history`` it prints the history table instead (issue 31): side A is H earlier runs of the
same model (H = 0: A is one run, the plain gate; H = 5, 10, 20: a history merged by
``replay.diff_runs.history``, tested by the history test), B one new run, at K = 1, 3, 5, for two
profiles: ``noisy`` (ref/flaky's probabilities, sd of Overall 4.0 points at K = 1) and ``near``
(near-deterministic: the flaky cases pulled to 0.05 / 0.85 / 0.95, sd 2.4 points). Columns: false
alarms (same model), a diffuse 5- and 10-point drop, 4 stable cases breaking.

With ``--families`` it prints the family table (issue 31 item 7): 12 models in one run at K = 1 and
3, 11 the same model and one with a diffuse 5-point drop, for ``--family model`` and
``--family run``: the share of runs with any false alarm among the 11, the mean false-alarm rate of
one unchanged model, and the changed model's power.

With ``--day-effect`` it prints the day-effect table: the history gate's false alarms at K = 1 with
20 earlier runs when every run (B's too) draws its own shift d ~ N(0, S^2) of every case's logit
pass probability (benchmarks/day_effect.py; cases at 0 or 1 stay put), S = 0, 0.1, 0.25, 0.5, on
the noisy, near and every-case-at-0.99 profiles, with the sd of a run's Overall each S gives.

Usage: ``uv run python benchmarks/gate_power.py [--pairs N] [--seed S] [--history | --families |
--day-effect]`` (~2 min at 200 pairs on a quiet core; ``--history`` ~10 min, ``--families`` ~3
min, ``--day-effect`` ~1 min per 100 pairs).
"""

from __future__ import annotations

import argparse
import math
import random
import sys
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from benchmarks.day_effect import overall_sd, shifted  # noqa: E402
from recorder.files import read_suite  # noqa: E402
from replay.diff_runs import compare, decide  # noqa: E402
from replay.diff_runs.history import merge_history  # noqa: E402
from scorer.drift.window import window_cut  # noqa: E402
from scorer.repeats import aggregate_status  # noqa: E402
from scorer.stats.history_exact import CaseMargins, history_test  # noqa: E402
from scorer.summary import METRICS  # noqa: E402
from standin.flaky import flaky_probability  # noqa: E402

CASES = [case.id for case in read_suite(ROOT / "evals" / "suite.json").cases]
BASE = [flaky_probability(case_id) for case_id in CASES]
REPEATS = (1, 3, 5, 10)
# Near-deterministic: ref/flaky's always/never cases as they are, its flaky ones pulled towards
# an end.
NEAR = [{0.25: 0.05, 0.5: 0.85, 0.75: 0.95}.get(p, p) for p in BASE]
PROFILES = {"noisy": BASE, "near": NEAR}
HISTORY = (0, 5, 10, 20)
HISTORY_REPEATS = (1, 3, 5)


def run(probabilities: list[float], k: int, rng: random.Random, day_sd: float = 0.0) -> dict:
    """One run's results document: each case's K repeats drawn with its pass probability.
    ``day_sd`` > 0: the run's probabilities first move together by one logit shift d ~ N(0,
    day_sd^2) (benchmarks/day_effect.py); 0 draws nothing more, so the run is the one without it."""
    if day_sd > 0:
        probabilities = shifted(np.array(probabilities), rng.gauss(0.0, day_sd)).tolist()
    metric = {"count": 1, "of": 2, "rate": 50.0, "ci": [10.0, 90.0]}
    # Every draw of the run at once, case by case and repeat by repeat (the order of one draw a
    # repeat): the simulation is most of a history cell's time, the draws are not.
    draw = rng.random
    draws = [draw() for _ in range(k * len(CASES))]
    if k == 1:  # one repeat: the case's status is the repeat's (aggregate_status of one status)
        results = [
            {"id": case_id, "group": "g", "status": "passed" if x < p else "failed", "reason": None}
            for case_id, p, x in zip(CASES, probabilities, draws, strict=True)
        ]
    else:
        results = _repeated(probabilities, k, draws)
    document = {
        "model": "m",
        "suite": {"name": "s", "version": "1", "sha256": "0" * 64},
        "metrics": {name: dict(metric) for name in METRICS},
        "results": results,
    }
    return document | ({"repeats": k} if k > 1 else {})


def _repeated(probabilities: list[float], k: int, draws: list[float]) -> list[dict]:
    """Each case's result at ``k`` > 1 repeats from its ``k`` draws (in the order of ``draws``)."""
    results = []
    for i, (case_id, p) in enumerate(zip(CASES, probabilities, strict=True)):
        statuses = ["passed" if x < p else "failed" for x in draws[i * k : i * k + k]]
        result = {"id": case_id, "group": "g", "status": aggregate_status(statuses), "reason": None}
        result["runs"] = [{"status": s, "repeat": n} for n, s in enumerate(statuses, 1)]
        results.append(result)
    return results


def diffuse(points: float, base: list[float] = BASE) -> list[float]:
    """Every case that can drop loses the same probability, so that the mean falls by ``points``."""
    low, high = 0.0, 1.0
    for _ in range(60):  # bisection on the per-case cut
        cut = (low + high) / 2
        drop = sum(p - max(0.0, p - cut) for p in base) / len(base)
        low, high = (cut, high) if drop < points / 100 else (low, cut)
    return [max(0.0, p - (low + high) / 2) for p in base]


def concentrated(points: float, base: list[float] = BASE) -> list[float]:
    """``points`` of the cases (4 of 80 for 5 points) that always passed now always fail."""
    count = round(points / 100 * len(base))
    broken = [i for i, p in enumerate(base) if p == 1.0][:count]
    return [0.0 if i in broken else p for i, p in enumerate(base)]


def history_side(
    base: list[float], runs: int, k: int, rng: random.Random, day_sd: float = 0.0
) -> dict:
    """Side A: one run (``runs`` 0, the plain gate) or ``runs`` earlier runs merged into
    a history; ``day_sd``: each run's day effect (0: none)."""
    if runs == 0:
        return run(base, k, rng, day_sd)
    return merge_history("m", [(f"run{i}", run(base, k, rng, day_sd)) for i in range(runs)])


def history_rate(
    base: list[float],
    b: list[float],
    runs: int,
    k: int,
    pairs: int,
    rng: random.Random,
    day_sd: float = 0.0,
) -> float:
    """The share of (history, new run) pairs the gate fails (default options, alpha 0.05); every
    run, B's too, with its own day effect of sd ``day_sd`` (0: none)."""
    fired = 0
    for _ in range(pairs):
        side_a = history_side(base, runs, k, rng, day_sd)
        diff = compare({"m": side_a}, {"m": run(b, k, rng, day_sd)})
        fired += decide(diff).regression
    return fired / pairs


def history_table(pairs: int, rng: random.Random) -> None:
    """The history table of the module docstring."""
    print(
        f"{len(CASES)} cases, {pairs} pairs per cell, alpha 0.05; history = earlier runs on side A"
    )
    print(f"{'profile':>7}  {'K':>2}  {'history':>7}  {'false alarm':>11}  {'diffuse 5':>9}  "
          f"{'diffuse 10':>10}  {'4 cases break':>13}")  # fmt: skip
    for name, base in PROFILES.items():
        scenarios = (base, diffuse(5, base), diffuse(10, base), concentrated(5, base))
        for k in HISTORY_REPEATS:
            for runs in HISTORY:
                cells = [history_rate(base, b, runs, k, pairs, rng) for b in scenarios]
                shown = "  ".join(
                    f"{p:>{w}.1%}" for p, w in zip(cells, (11, 9, 10, 13), strict=True)
                )
                print(f"{name:>7}  {k:>2}  {runs:>7}  {shown}", flush=True)


DAY_SDS = (0.0, 0.1, 0.25, 0.5)  # the day effect's sd on the logit scale, --day-effect's columns
DAY_RUNS = 20  # earlier runs in --day-effect's histories
# all 0.99: drift's worst profile at K = 1 (benchmarks/drift.py), for the same three as drift's
DAY_PROFILES = {"noisy": BASE, "near": NEAR, "all 0.99": [0.99] * len(CASES)}


def day_effect_table(pairs: int, rng: random.Random) -> None:
    """The history gate's false alarms at K = 1 with 20 earlier runs when every run (B's too) has a
    day effect of sd S (logit scale), with what S does to the sd of a run's Overall (points)."""
    print(f"history gate, {DAY_RUNS} earlier runs, same model, {pairs} pairs a cell")
    print("  S (logit sd): Overall sd independent -> with S; false alarms (SE); K = 3: B's three")
    print("  repeats (and each earlier run's) share their run's day (issue 41)")
    for k in (1, 3):
        for name, base in DAY_PROFILES.items():
            for day_sd in DAY_SDS:
                rate = history_rate(base, base, DAY_RUNS, k, pairs, rng, day_sd)
                independent, total = overall_sd(np.array(base), k, day_sd)
                print(
                    f"  K={k} {name:<8} S={day_sd:<4}  sd {independent:4.2f} -> {total:4.2f}  "
                    f"{rate:6.1%} ({math.sqrt(rate * (1 - rate) / pairs):4.1%})",
                    flush=True,
                )


def better(points: float, base: list[float]) -> list[float]:
    """Every case that can rise gains the same probability, so that the mean rises by ``points``
    (the mirror of ``diffuse``)."""
    low, high = 0.0, 1.0
    for _ in range(60):
        cut = (low + high) / 2
        gain = sum(min(1.0, p + cut) - p for p in base) / len(base)
        low, high = (cut, high) if gain < points / 100 else (low, cut)
    return [min(1.0, p + (low + high) / 2) for p in base]


def window_rate(
    early: list[float], base: list[float], b: list[float], k: int, pairs: int, rng: random.Random,
    check: bool, early_runs: int = 10, late_runs: int = 10,
) -> tuple[float, float]:  # fmt: skip
    """(share of pairs the gate fails, share of windows cut): a window of ``early_runs`` runs of
    ``early`` then ``late_runs`` of ``base``, and B one run of ``b``; with ``check`` the window is
    cut first by ``scorer.drift.window.window_cut`` (what ``diff runs --history`` runs), else
    it is tested whole (the gate before issue 41). The gate here is its whole-run rule, the
    history test at alpha 0.05 (``scorer.stats.history_exact``, as ``decide`` calls it; numpy
    draws, so thousands of pairs take seconds)."""
    gen = np.random.default_rng(rng.getrandbits(64))
    fired = cut = 0
    for _ in range(pairs):
        window = np.concatenate([gen.binomial(k, early, size=(early_runs, len(base))),
                                 gen.binomial(k, base, size=(late_runs, len(base)))])  # fmt: skip
        first = window_cut(window, np.full_like(window, k)).first_kept if check else 0
        cut += first > 0
        kept, new = window[first:], gen.binomial(k, b)
        n = len(kept) * k
        margins = [CaseMargins(int(n - kept[:, c].sum()), n, int(k - new[c]), k)
                   for c in range(len(base))]  # fmt: skip
        fired += history_test(margins).p <= 0.05
    return fired / pairs, cut / pairs


def window_table(pairs: int, rng: random.Random, profiles: str | None = None) -> None:
    """Issue 41: the history gate when its window holds an older change (10 runs of a model 5
    points better, then 10 of B's own), with and without the window check, at K = 1 and 3; and
    what the check costs on a window of 20 runs of B's own model (false alarms, power against a
    5-point drop of both definitions and 4 broken stable cases). ``profiles``: comma-separated
    names of PROFILES (default: both)."""
    print(f"history gate, window of 20 runs, {pairs} pairs a cell, alpha 0.05 (SE in brackets)")
    chosen = profiles.split(",") if profiles else list(PROFILES)
    for name, base in ((n, PROFILES[n]) for n in chosen):
        drops = {"additive -5": diffuse(5, base), "logit -5": logit_drop(5, base),
                 "4 break": concentrated(5, base)}  # fmt: skip
        for k in (1, 3):
            cells = []
            for check in (False, True):
                rate, cut = window_rate(better(5, base), base, base, k, pairs, rng, check)
                se = math.sqrt(rate * (1 - rate) / pairs)
                cells.append(
                    f"{'check' if check else 'whole'} {rate:5.1%} ({se:4.1%}) cut {cut:4.0%}"
                )
            same = [window_rate(base, base, b, k, pairs, rng, True)[0]
                    for b in (base, *drops.values())]  # fmt: skip
            shown = "  ".join(f"{n} {r:5.1%}" for n, r in zip(("same", *drops), same, strict=True))
            print(f"  {name:<5} K={k}  better then same: " + "  ".join(cells)
                  + f"  | unchanged window, checked: {shown}", flush=True)  # fmt: skip


def day_repeats_table(pairs: int, rng: random.Random) -> None:
    """Issue 41 item 4: the history gate's false alarms with a day effect when B has K = 3 repeats
    that share one day (so do each earlier run's), against K = 1; 20 earlier runs, the history
    test at alpha 0.05 on numpy draws (``window_rate``'s gate, no window check)."""
    print(
        f"history gate, 20 earlier runs, day effect shared by a run's repeats, {pairs} pairs a cell"
    )
    gen = np.random.default_rng(rng.getrandbits(64))
    for name, base in PROFILES.items():
        for k in (1, 3):
            cells = []
            for day_sd in (0.0, 0.25, 0.5):
                fired = 0
                for _ in range(pairs):
                    days = gen.normal(0.0, day_sd, size=(21, 1)) if day_sd else np.zeros((21, 1))
                    p = shifted(np.tile(base, (21, 1)), days)
                    draws = gen.binomial(k, p)
                    kept, new = draws[:20], draws[20]
                    n = 20 * k
                    margins = [CaseMargins(int(n - kept[:, c].sum()), n, int(k - new[c]), k)
                               for c in range(len(base))]  # fmt: skip
                    fired += history_test(margins).p <= 0.05
                rate = fired / pairs
                cells.append(
                    f"S={day_sd:<4} {rate:6.1%} ({math.sqrt(rate * (1 - rate) / pairs):4.1%})"
                )
            print(f"  {name:<5} K={k}  " + "  ".join(cells), flush=True)


def logit_drop(points: float, base: list[float]) -> list[float]:
    """The flaky cases (0 < p < 1) move by one logit shift so the mean falls by ``points``."""
    from benchmarks.drift_designs import logit_shift

    return logit_shift(np.array(base), points).tolist()


def rates(b: list[float], k: int, pairs: int, rng: random.Random) -> tuple[float, float]:
    """(share of pairs the gate fails, share the old consistent-failures rule would have failed)."""
    fired = old = 0
    for _ in range(pairs):
        diff = compare({"m": run(BASE, k, rng)}, {"m": run(b, k, rng)})
        fired += decide(diff).regression
        old += any(
            min(c.counts("a")[1], c.counts("b")[1]) >= 3
            and c.counts("a")[0] == c.counts("a")[1]
            and not c.counts("b")[0]
            for c in diff.models[0].cases
        )
    return fired / pairs, old / pairs


def _consistent_failure(a: tuple[int, int], b: tuple[int, int]) -> bool:
    """The old rule: passed every repeat in A, failed every repeat in B, at least 3 scored
    repeats each side."""
    return min(a[1], b[1]) >= 3 and a[0] == a[1] and b[0] == 0


def family_table(pairs: int, rng: random.Random) -> None:
    """The family table of the module docstring."""
    print(
        f"12 models (11 unchanged, 1 diffuse -5), ref/flaky profile, {pairs} runs per cell, alpha "
        "0.05"
    )
    print(f"{'K':>2}  {'family':>6}  {'any false alarm':>15}  {'per model':>9}  {'power':>6}")
    drop = diffuse(5)
    for k in (1, 3):
        counts = {"model": [0, 0, 0], "run": [0, 0, 0]}
        for _ in range(pairs):
            names = [f"m{i:02d}" for i in range(12)]
            a = {n: run(BASE, k, rng) | {"model": n} for n in names}
            b = {n: run(drop if n == "m00" else BASE, k, rng) | {"model": n} for n in names}
            diff = compare(a, b)
            for family, tally in counts.items():
                failed = {r.model for r in decide(diff, family=family).regressions}
                unchanged = len(failed - {"m00"})
                tally[0] += unchanged > 0
                tally[1] += unchanged
                tally[2] += "m00" in failed
        for family, (anyone, each, power) in counts.items():
            print(
                f"{k:>2}  {family:>6}  {anyone / pairs:>15.1%}  {each / pairs / 11:>9.1%}  "
                f"{power / pairs:>6.1%}",
                flush=True,
            )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pairs", type=int, default=200)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--history", action="store_true", help="the history table (issue 31)")
    parser.add_argument("--families", action="store_true", help="the family table (issue 31)")
    parser.add_argument("--window", action="store_true", help="the window check (issue 41)")
    parser.add_argument("--profiles", help="--window: noisy, near or both (comma-separated)")
    parser.add_argument(
        "--day-repeats", action="store_true", help="day effect at K = 1 and 3 (issue 41)"
    )
    parser.add_argument(
        "--day-effect", action="store_true", help="history false alarms with a day effect"
    )
    args = parser.parse_args()
    rng = random.Random(args.seed)
    if args.day_effect:
        day_effect_table(args.pairs, rng)
        return 0
    if args.history:
        history_table(args.pairs, rng)
        return 0
    if args.window:
        window_table(args.pairs, rng, args.profiles)
        return 0
    if args.day_repeats:
        day_repeats_table(args.pairs, rng)
        return 0
    if args.families:
        family_table(args.pairs, rng)
        return 0
    print(
        f"{len(CASES)} cases, base Overall {100 * sum(BASE) / len(BASE):.1f}%, {args.pairs} pairs "
        "per cell, alpha 0.05"
    )
    print(
        f"{'K':>3}  {'false alarm':>11}  {'(old rule)':>10}  {'diffuse 5':>9}  {'diffuse 10':>10}  "
        f"{'4 cases break':>13}  {'8 cases break':>13}"
    )
    for k in REPEATS:
        same, old = rates(BASE, k, args.pairs, rng)
        power = [
            rates(b, k, args.pairs, rng)[0]
            for b in (diffuse(5), diffuse(10), concentrated(5), concentrated(10))
        ]
        cells = "  ".join(f"{p:>{w}.1%}" for p, w in zip(power, (9, 10, 13, 13), strict=True))
        print(f"{k:>3}  {same:>11.1%}  {old:>10.1%}  {cells}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
