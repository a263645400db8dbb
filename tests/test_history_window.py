"""The history gate checks its window for a change first (issue 41 items 2, 5 and 6):
``scorer.drift.window`` on seeded windows, the gate's false alarms on a window that holds an
older change (a small seeded version of ``benchmarks/gate_power.py --window``), and what
``diff runs --history`` prints: the runs it used, B left out of its own history, symmetric labels,
the rate it holds, its caveat and the next step."""

from __future__ import annotations

import json
import math
from pathlib import Path

import numpy as np
import pytest

from benchmarks.drift import NOISY
from benchmarks.gate_power import NEAR, better
from lobstack_eval.main import main
from scorer.drift.window import window_cut
from scorer.stats.history_exact import CaseMargins, history_test
from tests.test_diff_runs import results

ALPHA = 0.05


def _gate_fires(window: np.ndarray, b: np.ndarray, check: bool) -> bool:
    """The history test of one new run ``b`` (K = 1) against the window (or the runs after the
    change the check finds), at alpha."""
    kept = window[window_cut(window, np.ones_like(window)).first_kept :] if check else window
    n = len(kept)
    # Each case's failures over the kept runs and in B, summed by numpy column by column at once.
    failed, failed_b = (n - kept.sum(axis=0)).tolist(), (1 - b).tolist()
    margins = [CaseMargins(f, n, f_b, 1) for f, f_b in zip(failed, failed_b, strict=True)]
    return history_test(margins).p <= ALPHA


@pytest.mark.parametrize(("name", "base"), [("noisy", NOISY), ("near", np.array(NEAR))])
def test_a_window_holding_an_older_change_no_longer_fails_an_unchanged_model(
    name: str, base: np.ndarray
) -> None:
    """10 runs of a model 5 points better, then 10 of B's own, and B one more run of its own: the
    whole window fails B far more often than alpha; cut by the check, within alpha + 3 standard
    errors (the benchmark's claim at full size; here 300 seeded pairs)."""
    rng = np.random.default_rng(41)
    good = np.array(better(5, base.tolist()))
    pairs, whole, checked = 300, 0, 0
    for _ in range(pairs):
        window = np.concatenate(
            [
                rng.binomial(1, good, size=(10, len(base))),
                rng.binomial(1, base, size=(10, len(base))),
            ]
        )
        b = rng.binomial(1, base)
        whole += _gate_fires(window, b, False)
        checked += _gate_fires(window, b, True)
    bound = ALPHA + 3 * math.sqrt(ALPHA * (1 - ALPHA) / pairs)
    assert checked / pairs <= bound, (name, checked)
    assert whole / pairs > 2 * ALPHA, (name, whole)


def test_on_the_noisy_profile_the_checked_window_holds_alpha_plus_three_standard_errors() -> None:
    """Issue 41's target at a size that tells it from drift's test alone (which failed an unchanged
    B 7.2-7.4% of the time here: a 5-point change among ref/flaky's flaky cases is seen late by an
    online test): 1,500 seeded pairs, alpha + 3 SE = 6.7%. The split scan finds what the online
    test misses (benchmarks/gate_power.py --window: 4.6% at 2,000 pairs)."""
    rng = np.random.default_rng(4141)
    good = np.array(better(5, NOISY.tolist()))
    pairs = 1500
    fired = sum(
        _gate_fires(
            np.concatenate(
                [rng.binomial(1, good, size=(10, 80)), rng.binomial(1, NOISY, size=(10, 80))]
            ),
            rng.binomial(1, NOISY),
            True,
        )
        for _ in range(pairs)
    )
    assert fired / pairs <= ALPHA + 3 * math.sqrt(ALPHA * (1 - ALPHA) / pairs), fired


IDS = [f"c{i:02d}" for i in range(20)]


def _write(path: Path, doc: dict, run: str | None = None) -> Path:
    if run is not None:
        doc = doc | {"run": {"id": run, "date": run}}
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(doc), encoding="utf-8")
    return path


def test_diff_runs_history_cuts_a_changed_window_and_says_which_runs_it_used(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """12 dated runs where every case passed, then 8 where c00-c05 fail: B (like the last 8) is
    compared with the 8 runs after the change, and the output names them, the rate, the caveat
    and the next step."""
    for day in range(1, 21):
        broken = {f"c{i:02d}": "failed" for i in range(6)} if day > 12 else {}
        _write(
            tmp_path / "runs" / f"r{day:02d}" / "results.json",
            results("m", dict.fromkeys(IDS, "passed") | broken),
            f"2026-01-{day:02d}",
        )
    b = _write(
        tmp_path / "b.json", results("m", dict.fromkeys(IDS, "passed") | {
            f"c{i:02d}": "failed" for i in range(6)}), "2026-01-21",
    )  # fmt: skip
    first = tmp_path / "runs" / "r01" / "results.json"
    argv = ["diff", "runs", str(first), str(b), "--fail-on-regression"]
    assert main([*argv, "--history", str(tmp_path / "runs" / "*" / "results.json")]) == 0
    out = capsys.readouterr().out
    r13, r20 = (tmp_path / "runs" / f"r{d}" / "results.json" for d in (13, 20))
    assert (
        f"note: m: the history holds a change: drift's test (threshold 3.0, split scan 2.0) finds "
        f"its runs worse from {r13} on than up to {tmp_path / 'runs' / 'r12' / 'results.json'}; "
        f"the gate uses the 8 runs from {r13} to {r20} (by run date) and leaves out the 12 before"
    ) in out
    assert "note: m: false alarms <= 0.05 for an unchanged model if its runs are independent" in out
    assert "next: on a regression, record B again later" in out
    assert "history exact (8 runs)" in out


def test_b_inside_its_own_history_is_left_out_with_a_note(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    runs = [
        _write(tmp_path / "runs" / f"r{d}" / "results.json",
               results("m", dict.fromkeys(IDS, "passed")), f"2026-01-0{d}")
        for d in range(1, 4)
    ]  # fmt: skip
    b = runs[-1]
    pattern = str(tmp_path / "runs" / "*" / "results.json")
    assert main(["diff", "runs", str(runs[0]), str(b), "--history", pattern]) == 0
    out = capsys.readouterr().out
    assert f"note: m: B ({b}) is in its own history; left out of it" in out
    assert "history exact (2 runs)" in out
    copy = _write(tmp_path / "copy.json", json.loads(b.read_text("utf-8")))
    assert main(["diff", "runs", str(runs[0]), str(copy), "--history", pattern]) == 0
    out = capsys.readouterr().out
    assert f"note: m: {b} is B's own run (run id '2026-01-03'); left out of its history" in out


def test_a_flaky_case_passing_in_b_is_noise_as_a_failing_one_is(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """c00 flipped in the history: passing in B is not a fix, failing is not a regression; both
    are noise. c01 always failed before and passes now: a fix."""
    runs = [
        _write(tmp_path / "runs" / f"r{d}" / "results.json", results(
            "m", dict.fromkeys(IDS, "passed") | {"c00": ("passed", "failed")[d % 2],
                                                 "c01": "failed"}))
        for d in range(4)
    ]  # fmt: skip
    pattern = str(tmp_path / "runs" / "*" / "results.json")
    for status in ("passed", "failed"):
        b = _write(tmp_path / f"b-{status}.json",
                   results("m", dict.fromkeys(IDS, "passed") | {"c00": status}))  # fmt: skip
        assert main(["diff", "runs", str(runs[0]), str(b), "--history", pattern, "-v"]) == 0
        out = capsys.readouterr().out
        c00 = next(line for line in out.splitlines() if line.strip().startswith("c00 "))
        assert c00.strip().startswith("c00 [noise]"), c00
    c01 = next(line for line in out.splitlines() if line.strip().startswith("c01 "))
    assert c01.strip().startswith("c01 [fix]"), c01
