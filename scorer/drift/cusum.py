"""The drift test: a one-sided CUSUM over a model's dated runs that watches for a drop in its
pass rates.

Each run t after the first ``baseline_runs`` gets one standardised score ``z_t``: a case-weighted
sum of (the case's pass rate in run t - its pass rate over runs 1..t, run t included), over that
sum's standard deviation. Why run t is included: under "no change" a case's runs are exchangeable,
so given how many of its trials in runs 1..t passed (m of N), run t's k trials are a draw without
replacement from them: each term has mean exactly 0 and a known (hypergeometric) variance whatever
the case's true pass rate, and the weights, computed from the same m and N, are constants under that
conditioning. So ``z_t`` is centred exactly for every profile of pass rates; estimating each case's
rate from the earlier runs alone (a "self-starting" score) biased ``z`` downwards whenever the
weights leaned on the same estimates (tests/test_drift.py; 30-59% false alarms over 180 runs on
models whose every case fails 3-10% of the time, docs/decisions/drift.md). The variance uses a
shrunk rate (m + prior) / (N + 2 prior), never 0: a case that never failed would otherwise make its
first failure look infinitely unlikely.

A case's weight is 1 / (p(1-p) + ridge), p its shrunk rate: a case that never failed counts more
than a coin flip, so a stable case failing is evidence and a flaky one failing is not.

The CUSUM ``S_t = max(0, S_{t-1} - z_t - kappa)`` alarms at the first run where ``S_t`` passes its
threshold: ``scale / theta_t`` kept within [low, high], theta_t the CUSUM's tail exponent computed
from run t's reference (scorer/drift/exponent.py), so that a skewed score gets a high threshold and
a tame one a low one (docs/decisions/drift.md#adaptive); a second CUSUM with a larger allowance
alarms too, above its own ``scale2 / theta2_t`` within [low2, high2]. (``scale`` None: the constant
``threshold`` and one CUSUM, the rule before round 3, kept for the history gate's window.) The
estimated change point is the last run where ``S`` was 0 before the alarm: the change came after
it. The constant ``scale`` is calibrated by seeded simulation (benchmarks/drift.py,
docs/decisions/drift.md), not by a textbook bound: P(any false alarm in 180 daily runs) <= 5% on
every simulated profile, with the rate's one-sided 95% upper confidence bound, not only its
estimate, under 5%. Runs 1..baseline_runs are never tested (too few runs to know a case's rate);
they only enter the counts.

Pure: arrays in, arrays and frozen dataclasses out. The leading axes of the count arrays may hold
many histories at once (the benchmark simulates thousands with the very same code the CLI runs
on one).
"""

from __future__ import annotations

from dataclasses import dataclass, replace

import numpy as np

from scorer.drift.dispersion import inflation, running_sums
from scorer.drift.exponent import tail_exponents, threshold


@dataclass(frozen=True)
class DriftSettings:
    """The test's constants; the defaults are the calibrated ones (docs/decisions/drift.md)."""

    baseline_runs: int = 10  # runs before the first test: too few make every level a guess
    kappa: float = 0.75  # the CUSUM's allowance per run, in standard deviations of z
    # the constant rule's threshold (scale None): drift's before round 3, calibrated as scale is
    threshold: float = 5.6
    ridge: float = 0.25  # keeps a never-failing case's weight finite: 1 / (0 + ridge) = 4
    prior: float = 0.25  # added to passes and to fails when estimating a variance (never exactly 0)
    # The adaptive rule (docs/decisions/drift.md#adaptive), on when ``scale`` is set: run t's
    # threshold is scale / theta_t within [low, high] (theta_t the CUSUM's tail exponent from run
    # t's reference, scorer/drift/exponent.py) instead of ``threshold``, and a second CUSUM of
    # allowance kappa2 alarms too, above scale2 / its own exponent within [low2, high2].
    # calibrated: P(any false alarm in 180 runs) <= 5% at 95% confidence, every simulated profile
    scale: float | None = 8.1
    low: float = 4.0
    high: float = 8.0
    kappa2: float = 1.5  # the second CUSUM: a larger shift, caught in one or two runs at K = 3
    scale2: float = 10.0
    low2: float = 3.0
    high2: float = 4.0
    # runs that vary together (a day effect): each run's score is divided by the square root of the
    # dispersion its reference shows, less this many of the estimate's null sds, never below 1
    # (scorer/drift/dispersion.py ``inflation``; docs/decisions/drift.md#day-effect); None: off
    dispersion_margin: float | None = 0.5


DEFAULT = DriftSettings()


@dataclass(frozen=True)
class DriftPath:
    """The test over one history: per run its score (None: baseline or nothing to compare) and
    the CUSUM.

    ``alarm`` is the index of the first run whose CUSUM passed the threshold (None: no alarm);
    ``last_stable`` the index of the last run before the alarm where the CUSUM was 0: the change
    came between it and the next.
    """

    z: tuple[float | None, ...]
    statistic: tuple[float, ...]
    alarm: int | None
    last_stable: int | None
    # per run, the first CUSUM's threshold; the second CUSUM and its threshold (None: constant rule)
    threshold: tuple[float, ...] = ()
    second: tuple[float, ...] | None = None
    second_threshold: tuple[float, ...] | None = None
    # per run, the factor its score's variance was inflated by (1: none; () when off)
    inflation: tuple[float, ...] = ()


@dataclass(frozen=True)
class Watch:
    """``watch``'s arrays, each of shape (..., runs): the scores, the first CUSUM, its reference
    end, its threshold per run, the second CUSUM and its threshold (inf: no second CUSUM), and
    the factor each score's variance was inflated by (1: none), and whether the run alarms
    (either CUSUM above its threshold)."""

    z: np.ndarray
    statistic: np.ndarray
    end: np.ndarray
    limit: np.ndarray
    second: np.ndarray
    limit2: np.ndarray
    inflation: np.ndarray

    @property
    def alarms(self) -> np.ndarray:
        """Per run, whether either CUSUM is above its threshold."""
        return (self.statistic > self.limit) | (self.second > self.limit2)


def scores(passes: np.ndarray, trials: np.ndarray, settings: DriftSettings = DEFAULT) -> np.ndarray:
    """The standardised score of every run: arrays of shape (..., runs, cases) -> (..., runs), NaN
    where no test (``monitor``'s first array)."""
    return monitor(passes, trials, settings)[0]


def monitor(
    passes: np.ndarray, trials: np.ndarray, settings: DriftSettings = DEFAULT
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(scores, CUSUM, reference end) of every run, each of shape (..., runs).

    ``passes`` and ``trials`` count each case's passed and scored repeats in each run (0 trials: not
    scored in that run, an errored or missing case, left out of that run's score). Run t is scored
    against the reference (runs 0..r, r its ``reference end``, -1 before any test): r = t - 1 while
    the CUSUM is at 0, frozen at the last run where it was 0 while it climbs, so the runs of a
    candidate change never enter the level they are compared with.
    """
    w = watch(passes, trials, replace(settings, scale=None, dispersion_margin=None))
    return w.z, w.statistic, w.end


def watch(
    passes: np.ndarray,
    trials: np.ndarray,
    settings: DriftSettings = DEFAULT,
    limits_above: float | None = None,
) -> Watch:
    """``monitor`` with each run's thresholds: the constant ``threshold`` or, when
    ``settings.scale`` is set, the adaptive rule (its exponents from each run's reference counts
    and the run's trials) and the second CUSUM; ``settings.dispersion_margin`` set, each score
    divided by the square root of its reference's ``inflation``. ``limits_above`` set: adaptive
    thresholds only where the first CUSUM is above it, each clip's top elsewhere (simulations
    read them only there); at or below both floors the alarms are the same (the second CUSUM is
    never above the first)."""
    passes = np.asarray(passes, dtype=float)
    trials = np.asarray(trials, dtype=float)
    z = np.full(passes.shape[:-1], np.nan)
    statistic = np.zeros(passes.shape[:-1])
    end = np.full(passes.shape[:-1], -1, dtype=np.int64)
    adaptive = settings.scale is not None
    limit = np.full(passes.shape[:-1], settings.high if adaptive else settings.threshold)
    limit2 = np.full(passes.shape[:-1], settings.high2 if adaptive else np.inf)
    level = np.zeros(passes.shape[:-2])
    inflated = np.ones(passes.shape[:-1])
    margin = settings.dispersion_margin
    first = settings.baseline_runs
    if first >= passes.shape[-2]:
        return Watch(z, statistic, end, limit, np.zeros_like(statistic), limit2, inflated)
    # the inflation of a reference ending at each run, all at once: a run takes its reference's
    inflations = None if margin is None else inflation(*running_sums(passes, trials), margin)
    # the counts so far, summed run by run as a cumulative sum adds them; the first run tested is
    # compared with every baseline run (nothing pending yet; no baseline: with every run)
    head = slice(None, first or None)
    ref_passed, ref_tried = (np.cumsum(a[..., head, :], -2)[..., -1, :] for a in (passes, trials))
    passed, tried = (ref_passed, ref_tried) if first else (0.0, 0.0)
    reference = np.full(passes.shape[:-2], first - 1, dtype=np.int64)
    for t in range(first, passes.shape[-2]):
        passed, tried = passed + passes[..., t, :], tried + trials[..., t, :]
        score = run_score(passes[..., t, :], trials[..., t, :], ref_passed, ref_tried, settings)
        if inflations is not None:  # the dispersion of the reference's runs, not the candidate's
            inflated[..., t] = np.take_along_axis(inflations, reference[..., None], -1)[..., 0]
            score /= np.sqrt(inflated[..., t])
        z[..., t] = score
        level = np.where(np.isnan(score), level, np.maximum(0.0, level - score - settings.kappa))
        statistic[..., t] = level
        end[..., t] = reference
        if adaptive:
            # one history: every run, its counts as they are (their sums numpy scalars, as ever)
            rows = ... if limits_above is None or not level.ndim else level > limits_above
            if rows is ... or rows.any():
                limit[..., t][rows], limit2[..., t][rows] = _limits(
                    ref_passed[rows], ref_tried[rows], trials[..., t, :][rows], settings
                )
        at_zero = level == 0.0  # nothing pending: the next run's reference is every run to t
        reference = np.where(at_zero, t, reference)
        ref_passed = np.where(at_zero[..., None], passed, ref_passed)
        ref_tried = np.where(at_zero[..., None], tried, ref_tried)
    second = cusum(z, replace(settings, kappa=settings.kappa2)) if adaptive else np.zeros_like(z)
    return Watch(z, statistic, end, limit, second, limit2, inflated)


def _limits(
    ref_passed: np.ndarray, ref_tried: np.ndarray, tried: np.ndarray, settings: DriftSettings
) -> tuple[np.ndarray, np.ndarray]:
    """One run's two adaptive thresholds from its reference's counts and its own trials (the
    reference's cumulants computed once for both exponents)."""
    s, kappas = settings, (settings.kappa, settings.kappa2)
    theta, theta2 = tail_exponents(ref_passed, ref_tried, tried, kappas, s.ridge, s.prior)
    return threshold(theta, s.scale, s.low, s.high), threshold(theta2, s.scale2, s.low2, s.high2)


def run_score(
    passed: np.ndarray,
    tried: np.ndarray,
    ref_passed: np.ndarray,
    ref_tried: np.ndarray,
    settings: DriftSettings = DEFAULT,
) -> np.ndarray:
    """One run's score against a reference, counts of shape (..., cases) -> (...): the weighted sum
    of (the run's pass share - the share pooled over the reference and the run) over its
    hypergeometric standard deviation (NaN when no case was scored on both sides)."""
    k, x = tried, passed
    m, n = ref_passed + x, ref_tried + k
    usable = (k > 0) & (n > k)  # scored now and in the reference
    every = bool(usable.all())  # the usual run: each mask would copy its array unchanged
    k_safe = k if every else np.where(k > 0, k, 1.0)
    rate = m / (n if every else np.where(n > 0, n, 1.0))
    shrunk = (m + settings.prior) / (n + 2 * settings.prior)
    weight = 1.0 / (shrunk * (1 - shrunk) + settings.ridge)
    term = x / k_safe - rate  # the run's share - the pooled share
    spread = weight * weight * share_variance(shrunk, n, k_safe)
    if not every:
        term, spread = np.where(usable, term, 0.0), np.where(usable, spread, 0.0)
    total = spread.sum(-1)
    with np.errstate(invalid="ignore", divide="ignore"):
        return np.where(total > 0, (weight * term).sum(-1) / np.sqrt(total), np.nan)


def share_variance(rate: np.ndarray, pooled: np.ndarray, drawn: np.ndarray) -> np.ndarray:
    """The variance of the share of passes among ``drawn`` trials taken without replacement from
    ``pooled`` trials of which a share ``rate`` passed (hypergeometric; 0 when every trial
    is drawn)."""
    rate, pooled, drawn = (np.asarray(v, dtype=float) for v in (rate, pooled, drawn))
    return rate * (1 - rate) * (pooled - drawn) / (drawn * np.maximum(pooled - 1, 1.0))


def cusum(z: np.ndarray, settings: DriftSettings = DEFAULT) -> np.ndarray:
    """The one-sided (downward) CUSUM of the scores, shape (..., runs); a run with no score
    leaves it as it was (``monitor`` runs the same recursion while it picks each reference)."""
    z = np.asarray(z, dtype=float)
    out = np.zeros_like(z)
    level = np.zeros(z.shape[:-1])
    for t in range(z.shape[-1]):
        step = np.where(
            np.isnan(z[..., t]), level, np.maximum(0.0, level - z[..., t] - settings.kappa)
        )
        level = step
        out[..., t] = level
    return out


def first_alarm(statistic: np.ndarray, settings: DriftSettings = DEFAULT) -> np.ndarray:
    """Index of the first run whose CUSUM exceeds the threshold, per history (-1: none)."""
    over = np.asarray(statistic) > settings.threshold
    return np.where(over.any(-1), over.argmax(-1), -1)


def drift_path(
    passes: np.ndarray, trials: np.ndarray, settings: DriftSettings = DEFAULT
) -> DriftPath:
    """The test over one history: counts of shape (runs, cases)."""
    w = watch(passes, trials, settings)
    over = w.alarms
    alarm = int(over.argmax()) if over.any() else None
    # the change came after the first CUSUM's last zero (the second is 0 whenever the first is)
    last_stable = (
        None
        if alarm is None
        else max((t for t in range(alarm) if w.statistic[t] == 0.0), default=None)
    )
    adaptive = settings.scale is not None
    return DriftPath(
        _floats(w.z),
        _tuple(w.statistic),
        alarm,
        last_stable,
        _tuple(w.limit),
        _tuple(w.second) if adaptive else None,
        _tuple(w.limit2) if adaptive else None,
        _tuple(w.inflation) if settings.dispersion_margin is not None else (),
    )


def _tuple(values: np.ndarray) -> tuple[float, ...]:
    return tuple(float(v) for v in values)


def _floats(z: np.ndarray) -> tuple[float | None, ...]:
    return tuple(None if np.isnan(v) else float(v) for v in z)
