"""What ``lobstack-eval drift`` sees, simulated: false alarms over 180 daily runs, detection delay.

A history is T daily runs of the suite's 80 cases, K repeats a case, each drawn with the case's pass
probability; from a chosen run on (the change) the probabilities drop. Every history goes through
the real test (``scorer.drift``: scores, CUSUM, first alarm), many at once. Profiles (per-case pass
probabilities):

- noisy: ref/flaky's (fixed by the case id: a fifth of the cases always pass, a fifth never, the
  rest 1/4, 1/2, 3/4; sd of a run's Overall 3.8 points at K = 1);
- near-deterministic: by the case id, 3/5 always pass, 1/5 never, 1/5 pass 3 times in 4 (sd
  2.2 points);
- for the false-alarm calibration also every case at 0.6, 0.8, 0.9, 0.95, 0.97, 0.99, 0.995, 0.999;
  76 cases at 1 and 4 at 0.99; half the cases at 1 and half at 0.95; a mix of 1, 0, 0.25, 0.5, 0.75,
  0.9, 0.97, 0.99: a model whose failures are rare and spread over many cases skews a run's score
  downwards (a failure is a rare, large step) and raises the most false alarms.

A drop is diffuse (every case that can drop loses the same probability, as in gate_power.py) or
concentrated (cases that always passed break outright: 4 for 5 points, 8 for 10). The delay is
counted in runs: 1 means the alarm came on the first changed run. Histories that alarmed before the
change are counted apart (false alarms).

Usage: ``uv run python benchmarks/drift.py [--histories N] [--seed S] [--calibrate]`` (~4 min at
2,000). ``--calibrate`` prints the threshold that holds every profile's P(any false alarm in 180
runs) at 4.5%.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from benchmarks.gate_power import BASE, CASES  # noqa: E402
from scorer.drift import DEFAULT, DriftSettings, cusum, first_alarm, scores  # noqa: E402
from standin.hashing import pick  # noqa: E402

NOISY = np.array(BASE)
NEAR = np.array([(1.0, 1.0, 1.0, 0.0, 0.75)[pick(5, "near-deterministic", c)] for c in CASES])
CALIBRATION = {
    "noisy": NOISY,
    "near-deterministic": NEAR,
    **{f"all {q}": np.full(len(CASES), q) for q in (0.6, 0.8, 0.9, 0.95, 0.97, 0.99, 0.995, 0.999)},
    "76 at 1, 4 at 0.99": np.array([0.99 if i % 20 == 0 else 1.0 for i in range(len(CASES))]),
    "half 1, half 0.95": np.array([(1.0, 0.95)[i % 2] for i in range(len(CASES))]),
    "mix": np.array([(1, 0, 0.25, 0.5, 0.75, 0.9, 0.97, 0.99)[i % 8] for i in range(len(CASES))]),
}
DAYS = 180
CHANGE = 30  # the first changed run (1-based: runs 1..29 are the old model)
CHUNK = 500  # histories simulated at once (memory: CHUNK x T x 80 counts)


def diffuse(base: np.ndarray, points: float) -> np.ndarray:
    """Every case that can drop loses the same probability, so that the mean falls by ``points``."""
    low, high = 0.0, 1.0
    for _ in range(60):  # bisection on the per-case cut
        cut = (low + high) / 2
        drop = float((base - np.maximum(0.0, base - cut)).mean())
        low, high = (cut, high) if drop < points / 100 else (low, cut)
    return np.maximum(0.0, base - (low + high) / 2)


def concentrated(base: np.ndarray, points: float) -> np.ndarray:
    """``points`` of the cases (4 of 80 for 5 points) that always passed now always fail."""
    broken = np.flatnonzero(base == 1.0)[: round(points / 100 * len(base))]
    out = base.copy()
    out[broken] = 0.0
    return out


def histories(
    before: np.ndarray,
    after: np.ndarray,
    change: int | None,
    runs: int,
    k: int,
    count: int,
    rng: np.random.Generator,
) -> tuple[np.ndarray, np.ndarray]:
    """``count`` histories of ``runs`` runs: (passes, trials), each of shape (count, runs, cases).
    Runs from ``change`` on (1-based) draw from ``after``; ``change`` None: never."""
    first = runs if change is None else change - 1
    probability = np.stack([before if t < first else after for t in range(runs)])
    passes = rng.binomial(k, probability, size=(count, runs, len(before)))
    return passes, np.full_like(passes, k)


def peak_statistics(
    probability: np.ndarray,
    k: int,
    count: int,
    rng: np.random.Generator,
    settings: DriftSettings = DEFAULT,
) -> np.ndarray:
    """The largest CUSUM of each of ``count`` same-model histories of 180 runs: P(false alarm) =
    P(peak > h)."""
    peaks = []
    for start in range(0, count, CHUNK):
        passes, trials = histories(
            probability, probability, None, DAYS, k, min(CHUNK, count - start), rng
        )
        peaks.append(cusum(scores(passes, trials, settings), settings).max(-1))
    return np.concatenate(peaks)


def delays(
    before: np.ndarray,
    after: np.ndarray,
    k: int,
    count: int,
    rng: np.random.Generator,
    settings: DriftSettings = DEFAULT,
    horizon: int = 120,
) -> tuple[np.ndarray, int]:
    """(the delay of each history that alarmed on or after the change, how many alarmed before it);
    a history with no alarm within ``horizon`` runs of the change counts as ``horizon + 1``."""
    out, early = [], 0
    for start in range(0, count, CHUNK):
        n = min(CHUNK, count - start)
        passes, trials = histories(before, after, CHANGE, CHANGE - 1 + horizon, k, n, rng)
        alarm = first_alarm(cusum(scores(passes, trials, settings), settings), settings) + 1
        early += int(((alarm > 0) & (alarm < CHANGE)).sum())
        late = alarm[(alarm == 0) | (alarm >= CHANGE)]
        out.append(np.where(late == 0, horizon + 1, late - CHANGE + 1))
    return np.concatenate(out), early


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--histories", type=int, default=2000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--calibrate", action="store_true")
    parser.add_argument("--threshold", type=float, default=DEFAULT.threshold)
    parser.add_argument("--kappa", type=float, default=DEFAULT.kappa)
    parser.add_argument("--ridge", type=float, default=DEFAULT.ridge)
    args = parser.parse_args()
    settings = DriftSettings(threshold=args.threshold, kappa=args.kappa, ridge=args.ridge)
    rng = np.random.default_rng(args.seed)
    n = args.histories
    print(
        f"{len(CASES)} cases, {n} histories a cell, {DAYS} runs; change at run {CHANGE}; "
        f"baseline {settings.baseline_runs} runs, kappa {settings.kappa}, threshold "
        f"{settings.threshold}, ridge {settings.ridge}"
    )
    print("P(any false alarm in 180 runs), same model:")
    worst = 0.0
    for name, probability in CALIBRATION.items():
        sd = 100 * np.sqrt((probability * (1 - probability)).sum()) / len(probability)
        cells = []
        for k in (1, 3):
            peaks = peak_statistics(probability, k, n, rng, settings)
            cells.append(f"K={k} {np.mean(peaks > settings.threshold):6.1%}")
            worst = max(worst, float(np.quantile(peaks, 0.955)))
        mean = 100 * probability.mean()
        print(f"  {name:<20} Overall {mean:5.1f}%  sd {sd:3.1f}  " + "  ".join(cells))
    if args.calibrate:
        print(f"threshold holding every profile at 4.5%: {worst:.2f}")
        return 0
    print("Delay in runs after the change, median / 90th percentile (early: alarms before it):")
    for name, base in (("noisy", NOISY), ("near-deterministic", NEAR)):
        for kind, drop in (("diffuse", diffuse), ("concentrated", concentrated)):
            for points in (5, 10):
                cells = []
                for k in (1, 3):
                    late, early = delays(base, drop(base, points), k, n, rng, settings)
                    cells.append(
                        f"K={k} {np.median(late):3.0f} / {np.percentile(late, 90):3.0f} "
                        f"(early {early / n:4.1%})"
                    )
                print(f"  {name:<19} {kind:<12} -{points:<2} " + "  ".join(cells))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
