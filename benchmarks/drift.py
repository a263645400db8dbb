"""What ``lobstack-eval drift`` sees, simulated: false alarms over 180 daily runs, detection delay.

A history is T daily runs of the suite's 80 cases, K repeats a case, each drawn with the case's pass
probability; from a chosen run on (the change) the probabilities drop. Every history goes through
the real test (``scorer.drift.cusum``: scores, CUSUM, first alarm), many at once. Profiles
(per-case pass probabilities):

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

Each false-alarm rate is printed with its one-sided 95% upper confidence bound (Clopper-Pearson):
the calibration rule is that this bound, not only the estimate, is <= 5% on every profile at K = 1
and K = 3, so that "at most 5% over 180 runs" is a claim at 95% confidence, not a coin flip on the
worst profile.

Usage: ``uv run python benchmarks/drift.py [--histories N] [--seed S] [--calibrate] [--day-sd S]
[--day-effect]`` (~4 min at 2,000). ``--day-sd S`` gives every history a day effect (each run's
pass probabilities shifted together by d ~ N(0, S^2) on the logit scale, benchmarks/day_effect.py;
0, the default, draws nothing more). ``--day-effect`` prints instead the false alarms at K = 1 on
the noisy, near-deterministic and worst (every case at 0.99) profiles for S = 0, 0.1, 0.25, 0.5,
with the sd of a run's Overall each S gives; ``--dispersion`` the proposed check for a day effect
in a history (benchmarks/day_effect.py ``dispersion``) on 20- and 60-run histories.
``--design`` picks the statistic: ``adaptive`` (the default, drift's rule since round 3 of issue
41: ``--threshold`` is its constant c, and a peak is the largest critical c, benchmarks/
drift_designs.py), ``frozen`` (the constant-threshold CUSUM before it) or ``pooled`` (before 41).
``--between`` runs the profiles between the calibration ones (``BETWEEN``) instead.
``--margin M`` sets the allowance for runs that vary together (``DriftSettings.dispersion_margin``,
docs/decisions/drift.md#allowance; ``off``: none, the rule's thresholds alone).
``--calibrate`` prints, per profile and K, the smallest threshold (c) that meets that rule (the
(1 - x/n) quantile of the peak statistic, x the most alarms out of n whose upper bound is <= 5%) and
their maximum: the threshold to ship, rounded up to 0.1 and then checked on another seed; with the
adaptive design also the floor, the share of histories that alarm whatever c is (the first CUSUM
above the clip's top, 8, or the second CUSUM above its threshold).
"""

from __future__ import annotations

import argparse
import math
import sys
from dataclasses import replace
from pathlib import Path

import numpy as np
from scipy.stats import beta

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from benchmarks.day_effect import dispersion, dispersion_p, overall_sd, shifted  # noqa: E402
from benchmarks.drift_designs import ADAPTIVE, ALWAYS, DESIGNS, POOLED, logit_shift  # noqa: E402
from benchmarks.gate_power import BASE, CASES  # noqa: E402
from scorer.drift.cusum import DEFAULT, DriftSettings, first_alarm  # noqa: E402
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
# profiles between the calibration ones that drift's adaptive rule must also hold (issue 41,
# round 3, benchmarks/drift_adaptive.py): near-deterministic models whose flaky cases fail
# rarely, a few rare-failure cases among deterministic ones, every case at 0.85 or 0.998
BETWEEN = {
    "near, flaky at 0.97": np.where(NEAR == 0.75, 0.97, NEAR),
    "near, flaky at 0.9": np.where(NEAR == 0.75, 0.9, NEAR),
    "76 at 1, 4 at 0.95": np.array([0.95 if i % 20 == 0 else 1.0 for i in range(len(CASES))]),
    "60 at 1, 20 at 0.99": np.array([0.99 if i % 4 == 0 else 1.0 for i in range(len(CASES))]),
    "half 1, half 0.99": np.array([(1.0, 0.99)[i % 2] for i in range(len(CASES))]),
    "noisy, flaky at 0.9-0.97": np.where(
        (NOISY > 0) & (NOISY < 1), np.interp(NOISY, (0.25, 0.75), (0.9, 0.97)), NOISY
    ),
    "all 0.85": np.full(len(CASES), 0.85),
    "all 0.998": np.full(len(CASES), 0.998),
}
DAYS = 180
CHANGE = 30  # the first changed run (1-based: runs 1..29 are the old model)
CHUNK = 500  # histories drawn at once (memory: CHUNK x T x 80 counts)
# ... and put through the test this many at a time: the same values (each history's statistic is
# its own), about a quarter less CPU than 500 at once, whose temporaries of 500 x 180 x 80 doubles
# (115 MB) went to memory and back at every step; the draws stay CHUNK at a time, so the seeded
# histories (normal and binomial draws interleaved by chunk with --day-sd) are the same
BATCH = 100
ALPHA = 0.05  # the false-alarm rate promised over DAYS runs
CONFIDENCE = 0.95  # ... with this confidence (one-sided upper bound)


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
    day_sd: float = 0.0,
) -> tuple[np.ndarray, np.ndarray]:
    """``count`` histories of ``runs`` runs: (passes, trials), each of shape (count, runs, cases),
    trials a read-only view (copy it to change it). Runs from ``change`` on (1-based) draw from
    ``after``; ``change`` None: never. ``day_sd`` > 0: each run's probabilities move together by
    its own logit shift (benchmarks/day_effect.py); 0 draws nothing more, so the histories are
    those without the option."""
    first = runs if change is None else change - 1
    probability = np.stack([before if t < first else after for t in range(runs)])
    if day_sd > 0:
        probability = shifted(probability, rng.normal(0.0, day_sd, size=(count, runs, 1)))
    if (probability == probability.flat[0]).all():
        # one p for every cell (every case at 0.9, say): given as a number, the same draws (numpy
        # draws each cell in turn from the same generator with its p either way), without walking
        # an array of p's: about 60% less time (docs/decisions/testing.md#drift-speed)
        probability = probability.flat[0]
    passes = rng.binomial(k, probability, size=(count, runs, len(before)))
    # every trial count is k: a read-only view of one k, not an array of as many bytes as passes
    return passes, np.broadcast_to(np.asarray(k, dtype=passes.dtype), passes.shape)


def peak_statistics(
    probability: np.ndarray,
    k: int,
    count: int,
    rng: np.random.Generator,
    settings: DriftSettings = DEFAULT,
    day_sd: float = 0.0,
    design: str = "frozen",
) -> np.ndarray:
    """The largest CUSUM of each of ``count`` same-model histories of 180 runs: P(false alarm) =
    P(peak > h). ``day_sd``: the day effect's sd on the logit scale (0: none)."""
    peaks = []
    for start in range(0, count, CHUNK):
        passes, trials = histories(
            probability, probability, None, DAYS, k, min(CHUNK, count - start), rng, day_sd
        )
        peaks.append(batched(design, passes, trials, settings).max(-1))
    return np.concatenate(peaks)


def batched(
    design: str, passes: np.ndarray, trials: np.ndarray, settings: DriftSettings
) -> np.ndarray:
    """``DESIGNS[design]`` of histories (count, runs, cases), ``BATCH`` histories at a time: the
    same array as all at once (every statistic is per history), with temporaries that stay in
    the processor's caches."""
    if trials.size and not any(trials.strides):
        # one k for every cell (histories'): a view of it as the float each design converts the
        # trials to, so that no design copies them into an array as large as the draws
        trials = np.broadcast_to(np.asarray(trials.flat[0], dtype=float), trials.shape)
    parts = [
        DESIGNS[design](passes[start : start + BATCH], trials[start : start + BATCH], settings)
        for start in range(0, len(passes), BATCH)
    ]
    return np.concatenate(parts)


def upper_bound(alarms: int, count: int, confidence: float = CONFIDENCE) -> float:
    """The one-sided ``confidence`` upper bound (Clopper-Pearson) of a rate seen ``alarms`` times in
    ``count`` histories."""
    return 1.0 if alarms >= count else float(beta.ppf(confidence, alarms + 1, count - alarms))


def calibrated_threshold(
    peaks: np.ndarray, alpha: float = ALPHA, confidence: float = CONFIDENCE
) -> float:
    """The smallest threshold whose false-alarm rate over these peaks has its upper bound <= alpha:
    the (n - x)-th smallest peak, x the most alarms whose bound is <= alpha (at most x peaks lie
    strictly above it)."""
    count = len(peaks)
    allowed = 0
    while upper_bound(allowed + 1, count, confidence) <= alpha:
        allowed += 1
    return float(np.sort(peaks)[count - allowed - 1])


def delays(
    before: np.ndarray,
    after: np.ndarray,
    k: int,
    count: int,
    rng: np.random.Generator,
    settings: DriftSettings = DEFAULT,
    horizon: int = 150,
    day_sd: float = 0.0,
    design: str = "frozen",
) -> tuple[np.ndarray, int]:
    """(the delay of each history that alarmed on or after the change, how many alarmed before it);
    a history with no alarm within ``horizon`` runs of the change counts as ``horizon + 1``."""
    out, early = [], 0
    for start in range(0, count, CHUNK):
        n = min(CHUNK, count - start)
        passes, trials = histories(before, after, CHANGE, CHANGE - 1 + horizon, k, n, rng, day_sd)
        alarm = first_alarm(batched(design, passes, trials, settings), settings) + 1
        early += int(((alarm > 0) & (alarm < CHANGE)).sum())
        late = alarm[(alarm == 0) | (alarm >= CHANGE)]
        out.append(np.where(late == 0, horizon + 1, late - CHANGE + 1))
    return np.concatenate(out), early


DAY_SDS = (0.0, 0.1, 0.25, 0.5)  # the day effect's sd on the logit scale, --day-effect's columns
DAY_PROFILES = ("noisy", "near-deterministic", "all 0.99")  # all 0.99: the worst at K = 1


def day_effect_table(
    count: int, rng: np.random.Generator, settings: DriftSettings, design: str = "adaptive"
) -> None:
    """P(any false alarm in 180 runs) at K = 1 when same-model runs share a day effect of sd S
    (logit scale), with what S does to the sd of a run's Overall (points: independent -> with S)."""
    print(
        f"P(any false alarm in 180 runs), same model, K = 1, {count} histories a cell, day effect"
    )
    print("  S (logit sd): Overall sd independent -> with S; rate (SE) [95% upper bound]")
    for name in DAY_PROFILES:
        probability = CALIBRATION[name]
        for day_sd in DAY_SDS:
            peaks = peak_statistics(probability, 1, count, rng, settings, day_sd, design)
            alarms = int((peaks > settings.threshold).sum())
            rate = alarms / count
            independent, total = overall_sd(probability, 1, day_sd)
            print(
                f"  {name:<19} S={day_sd:<4}  sd {independent:4.2f} -> {total:4.2f}  "
                f"{rate:6.2%} ({np.sqrt(rate * (1 - rate) / count):5.2%}) "
                f"[{upper_bound(alarms, count):5.2%}]",
                flush=True,
            )


DISPERSION_RUNS = (20, 60)  # history lengths --dispersion checks


def dispersion_table(count: int, rng: np.random.Generator) -> None:
    """The proposed history check (benchmarks/day_effect.py ``dispersion``): per profile, S and
    history length, the mean ratio of Overall's run-to-run variance to what the cases' own
    variances explain, and the share of same-model histories whose permutation p-value is < 0.05."""
    print(f"dispersion check, K = 1, {count} histories a cell, 200 permutations, flag at p < 0.05")
    print("  profile S: per history length, mean ratio, share flagged (SE)")
    for name in DAY_PROFILES:
        probability = CALIBRATION[name]
        for day_sd in DAY_SDS:
            cells = []
            for runs in DISPERSION_RUNS:
                passes, trials = histories(
                    probability, probability, None, runs, 1, count, rng, day_sd
                )
                ratio = float(np.nanmean(dispersion(passes, trials)))
                flagged = np.mean(
                    [dispersion_p(passes[i], trials[i], rng) < 0.05 for i in range(count)]
                )
                se = np.sqrt(flagged * (1 - flagged) / count)
                cells.append(f"{runs} runs {ratio:4.2f} {flagged:6.1%} ({se:4.1%})")
            print(f"  {name:<19} S={day_sd:<4}  " + "  ".join(cells), flush=True)


DROPS = {"additive": diffuse, "logit": logit_shift, "4 or 8 stable break": concentrated}
NEVER_WITHIN = 150  # runs after the change: a history not alarmed by then counts as never detected


def delay_table(
    count: int, rng: np.random.Generator, settings: DriftSettings, design: str, day_sd: float
) -> None:
    """Delay in runs after the change (median / 90th percentile) and the share never detected
    within NEVER_WITHIN runs, for both drop definitions and broken stable cases."""
    print(
        f"Delay in runs after the change ({design}), median / 90th percentile; never: no alarm "
        f"within {NEVER_WITHIN} runs (early: alarms before the change)"
    )
    for name, base in (("noisy", NOISY), ("near-deterministic", NEAR)):
        for kind, drop in DROPS.items():
            for points in (5, 10):
                cells = []
                for k in (1, 3):
                    late, early = delays(
                        base, drop(base, points), k, count, rng, settings, NEVER_WITHIN, day_sd,
                        design,
                    )  # fmt: skip
                    never = float(np.mean(late > NEVER_WITHIN))
                    cells.append(
                        f"K={k} {np.median(late):3.0f} / {np.percentile(late, 90):3.0f} "
                        f"never {never:5.1%} [{upper_bound(round(never * count), count):5.1%}] "
                        f"(early {early / count:4.1%})"
                    )
                print(f"  {name:<19} {kind:<19} -{points:<2} " + "  ".join(cells), flush=True)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--histories", type=int, default=2000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--calibrate", action="store_true")
    parser.add_argument(
        "--design",
        choices=sorted(DESIGNS),
        default="adaptive",
        help="adaptive: drift's rule, --threshold its c; frozen: before round 3; pooled: before 41",
    )
    parser.add_argument("--delays", action="store_true", help="only the delay table")
    parser.add_argument(
        "--profiles", help="comma-separated profile names (default: every one of CALIBRATION)"
    )
    parser.add_argument(
        "--between", action="store_true", help="the profiles between (BETWEEN) instead"
    )
    parser.add_argument("--threshold", type=float)
    parser.add_argument("--kappa", type=float)
    parser.add_argument("--ridge", type=float)
    parser.add_argument("--prior", type=float)
    parser.add_argument(
        "--margin",
        help="the allowance for runs that vary together: its margin in null sds, or 'off'",
    )
    parser.add_argument(
        "--day-sd", type=float, default=0.0, help="day effect's sd (logit scale) in every history"
    )
    parser.add_argument(
        "--day-effect", action="store_true", help="the day-effect table (K = 1, three profiles)"
    )
    parser.add_argument(
        "--dispersion", action="store_true", help="the proposed day-effect check's table"
    )
    args = parser.parse_args()
    chosen = {k: getattr(args, k) for k in ("threshold", "kappa", "ridge", "prior")}
    base = {"pooled": POOLED, "adaptive": ADAPTIVE}.get(args.design, DEFAULT)
    settings = replace(base, **{k: v for k, v in chosen.items() if v is not None})
    if args.margin is not None:
        margin = None if args.margin == "off" else float(args.margin)
        settings = replace(settings, dispersion_margin=margin)
    rng = np.random.default_rng(args.seed)
    n = args.histories
    if args.day_effect:
        day_effect_table(n, rng, settings, args.design)
        return 0
    if args.dispersion:
        dispersion_table(n, rng)
        return 0
    print(
        f"{len(CASES)} cases, {n} histories a cell, {DAYS} runs; change at run {CHANGE}; "
        f"baseline {settings.baseline_runs} runs, kappa {settings.kappa}, threshold "
        f"{settings.threshold}, ridge {settings.ridge}, prior {settings.prior}, "
        f"margin {settings.dispersion_margin}, design {args.design}"
        + (f", day effect sd {args.day_sd} (logit)" if args.day_sd else "")
    )
    if args.delays:
        delay_table(n, rng, settings, args.design, args.day_sd)
        return 0
    print("P(any false alarm in 180 runs), same model:")
    print(f"  rate (one-sided {CONFIDENCE:.0%} upper bound) [--calibrate: threshold meeting it]")
    worst = 0.0
    every = CALIBRATION | BETWEEN
    chosen_profiles = args.profiles.split(",") if args.profiles else list(CALIBRATION)
    if args.between:
        chosen_profiles = list(BETWEEN)
    for name in chosen_profiles:
        probability = every[name]
        sd = 100 * np.sqrt((probability * (1 - probability)).sum()) / len(probability)
        cells = []
        for k in (1, 3):
            peaks = peak_statistics(probability, k, n, rng, settings, args.day_sd, args.design)
            alarms = int((peaks > settings.threshold).sum())
            cell = f"K={k} {alarms / n:5.1%} ({upper_bound(alarms, n):5.1%})"
            if args.calibrate:
                needed = calibrated_threshold(peaks)
                worst = max(worst, needed)
                cell += f" [{needed:.2f}]"
                if args.design == "adaptive":  # the alarms no c removes (above high, CUSUM 2)
                    cell += f" floor {(peaks >= ALWAYS).mean():4.1%}"
            cells.append(cell)
        mean = 100 * probability.mean()
        print(f"  {name:<20} Overall {mean:5.1f}%  sd {sd:3.1f}  " + "  ".join(cells))
    if args.calibrate:
        rounded = math.ceil(worst * 10) / 10
        print(
            f"threshold whose {CONFIDENCE:.0%} upper bound is <= {ALPHA:.0%} on every profile: "
            f"{worst:.3f} (ship {rounded:.1f}, then check it on another seed)"
        )
        return 0
    delay_table(n, rng, settings, args.design, args.day_sd)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
