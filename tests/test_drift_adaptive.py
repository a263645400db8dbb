"""drift's adaptive rule in the monitor (docs/decisions/drift.md#adaptive): each run's threshold
is c / theta_t within [low, high], theta_t the CUSUM's tail exponent from that run's reference,
and a second CUSUM (allowance 1.5) alarms above 10 / its own exponent within [3, 4].

Checked against benchmarks/drift_adaptive.py, the code the rule was measured with (its own
composition of the frozen reference, the clip, the second CUSUM and the "either" alarm), on a
small seeded simulation, and by hand on one history."""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest

from benchmarks.drift import NEAR, NOISY, histories
from benchmarks.drift_adaptive import RULE, adaptive, prepare, simulate
from scorer.drift.cusum import DEFAULT, cusum, drift_path, monitor, watch
from scorer.drift.window import WINDOW

# the rule as round 3 measured it: no allowance for runs that vary together (tests of that one:
# tests/test_drift_dispersion.py)
RULED = replace(DEFAULT, scale=8.3, dispersion_margin=None)
# the rule before round 3: one threshold (5.6), no allowance
CONSTANT = replace(DEFAULT, scale=None, dispersion_margin=None)


@pytest.mark.parametrize(("before", "k"), [(NOISY, 1), (NEAR, 3)])
def test_the_monitor_s_alarms_are_the_benchmark_s(before: np.ndarray, k: int) -> None:
    """Per run and history, watch's alarms equal the measured rule's on the very same draws
    (60 histories of 60 runs, a 10-point drop from run 30: alarms and quiet runs both occur)."""
    after = np.clip(before - 0.1, 0.0, 1.0)
    measured = simulate(before, after, 30, 60, k, 60, np.random.default_rng(11))
    expected = adaptive(True)(prepare(measured), 8.3)
    passes, trials = histories(before, after, 30, 60, k, 60, np.random.default_rng(11))
    w = watch(passes, trials, RULED)
    assert np.array_equal(w.alarms, expected)
    assert expected.any() and not expected.all()
    assert ((w.limit >= RULE["low"]) & (w.limit <= RULE["high"])).all()
    assert ((w.limit2 >= RULE["low2"]) & (w.limit2 <= RULE["high2"])).all()


def test_without_a_scale_the_monitor_is_the_constant_cusum() -> None:
    """scale None: one CUSUM at the constant threshold, no second one; the history gate's window
    keeps its constant 3.0 whatever drift's default rule is."""
    after = np.clip(NOISY - 0.1, 0.0, 1.0)
    passes, trials = histories(NOISY, after, 20, 40, 1, 5, np.random.default_rng(3))
    w = watch(passes, trials, CONSTANT)
    z, statistic, end = monitor(passes, trials, RULED)  # monitor never applies the rule
    assert np.array_equal(w.statistic, statistic) and np.array_equal(w.end, end)
    assert np.array_equal(np.isnan(w.z), np.isnan(z))
    assert (w.limit == DEFAULT.threshold).all() and np.isinf(w.limit2).all()
    assert not w.second.any()
    assert WINDOW.scale is None and WINDOW.threshold == 3.0 and WINDOW.dispersion_margin is None
    assert drift_path(passes[0], trials[0], CONSTANT).second is None


def test_drift_path_alarms_at_the_first_run_either_cusum_passes_its_own_threshold() -> None:
    """One near-deterministic history where 8 stable cases break from run 21: the alarm is the
    first run where CUSUM 1 > its threshold or CUSUM 2 > its own, recomputed here from the path's
    scores; the change is placed after the first CUSUM's last zero."""
    rng = np.random.default_rng(5)
    after = NEAR.copy()
    after[np.flatnonzero(NEAR == 1.0)[:8]] = 0.0
    passes, trials = histories(NEAR, after, 21, 40, 1, 1, rng)
    path = drift_path(passes[0], trials[0], RULED)
    z = np.array([np.nan if v is None else v for v in path.z])
    first, second = cusum(z), cusum(z, replace(DEFAULT, kappa=1.5))
    assert np.allclose(path.statistic, first) and np.allclose(path.second, second)
    over = (first > np.array(path.threshold)) | (second > np.array(path.second_threshold))
    assert path.alarm == int(np.flatnonzero(over)[0]) and path.alarm >= 20
    assert path.last_stable == max(t for t in range(path.alarm) if first[t] == 0.0)
    assert all(4.0 <= h <= 8.0 for h in path.threshold)


def test_the_benchmark_s_critical_c_alarms_exactly_where_the_rule_does() -> None:
    """benchmarks/drift_designs.py ``adaptive`` (the calibration's statistic): a run's critical c
    is above c exactly where ``watch`` alarms at c, for c inside and at the edges of the range the
    clip makes matter (every case at 0.97, K = 1: the worst profile; 40 histories of 180 runs)."""
    from benchmarks.drift_designs import adaptive as critical

    rule = replace(DEFAULT, scale=1.0)
    passes, trials = histories(
        *(np.full(80, 0.97),) * 2, None, 180, 1, 40, np.random.default_rng(2)
    )
    crit = critical(passes, trials, rule)
    for c in (4.0, 6.5, 8.3, 12.0):
        alarms = watch(passes, trials, replace(DEFAULT, scale=c)).alarms
        assert np.array_equal(crit > c, alarms)
    assert (crit > 6.5).any() and not (crit > 12.0).all()


def _history() -> list:
    """14 daily runs of 20 cases: 10 always pass, 10 pass in every run but the last three."""
    from scorer.drift.history import Identity, RunRecord
    from scorer.summary import CaseTally

    runs = []
    for day in range(1, 15):
        tallies = tuple(CaseTally(f"c{i:02d}", int(i < 10 or day < 12), 1) for i in range(20))
        date = f"2026-01-{day:02d}"
        runs.append(RunRecord(f"{day}.json", date, date, "m", "s 1.0.0", Identity(), tallies))
    return runs


def test_the_text_and_markdown_show_each_run_s_thresholds_under_the_rule() -> None:
    """Under the adaptive rule each tested run lists its CUSUM, its threshold, the second CUSUM and
    its threshold (the very numbers of drift_path); baseline runs show "-" thresholds; the
    constant rule keeps its one threshold in the head."""
    from replay.drift.text import format_text, to_markdown
    from scorer.drift.history import analyse

    runs = _history()
    report = analyse(runs, RULED)
    assert report.status == "changed"
    last = report.runs[-1]
    assert last.threshold is not None and 4.0 <= last.threshold <= 8.0
    assert last.second_threshold is not None and 3.0 <= last.second_threshold <= 4.0
    assert report.runs[0].threshold is None and report.runs[9].second is None
    text = format_text(report, verbose=True)
    assert "runs: id  date  Overall  z  CUSUM  alarm above  CUSUM 2  alarm above\n" in text
    row = (
        f"  2026-01-14  2026-01-14  50.0%  {last.z:+.2f}  {last.statistic:.2f}  "
        f"{last.threshold:.2f}  {last.second:.2f}  {last.second_threshold:.2f}\n"
    )
    assert row in text
    assert "  2026-01-01  2026-01-01  100.0%  -  0.00  -  -  -\n" in text
    markdown = to_markdown(report)
    assert (
        "| run | date | Overall | z | CUSUM | alarm above | CUSUM 2 | alarm above |\n" in markdown
    )
    assert "|---|---|---|---|---|---|---|---|\n" in markdown
    assert f"| {last.statistic:.2f} | {last.threshold:.2f} | {last.second:.2f} |" in markdown
    constant = to_markdown(analyse(runs, CONSTANT))
    assert "| run | date | Overall | z | CUSUM (alarm above 5.60) |\n" in constant
