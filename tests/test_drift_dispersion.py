"""drift's day-effect note (scorer/drift/dispersion.py): the dispersion and its permutation p-value
agree with the reference implementation (benchmarks/day_effect.py); a seeded history with a strong
day effect (noisy profile, S = 0.5, 60 runs) gets the note end to end through the CLI, text and
markdown, with the rest of the output and the exit code as without it; an independent-run history
does not. (A real change, ref/drifting's committed history, does not: tests/test_drift_e2e.py.)
The allowance drift makes for such runs (each score divided by the root of its reference's
dispersion, less half its null sd) is the ratio it says, run by run."""

from __future__ import annotations

import dataclasses
import datetime
import json
import random
from pathlib import Path

import numpy as np
import pytest

from benchmarks.day_effect import dispersion as reference_ratio
from benchmarks.day_effect import dispersion_p as reference_p
from benchmarks.day_effect import shifted
from benchmarks.drift import NOISY, histories
from lobstack_eval.main import main
from replay.drift.load import load_history
from replay.drift.text import format_text
from scorer.drift.cusum import DEFAULT, cusum, drift_path, monitor, run_score, watch
from scorer.drift.dispersion import (
    NULL_VARIANCE,
    PERMUTATIONS,
    SEED,
    dispersion,
    inflation,
    running_sums,
)
from scorer.drift.history import analyse
from tests.drifthistory import START, draw, identity, results_doc, write_history

NOTE = "note: runs vary together more than independent runs would (dispersion "
NOTE_END = (
    "): the false-alarm rate is not calibrated for this history "
    "(docs/decisions/drift.md#day-effect)"
)


@pytest.mark.parametrize("day_sd", [0.0, 0.25, 0.5])
def test_the_check_is_the_reference_ratio_and_permutation_p(day_sd: float) -> None:
    passes, trials = histories(NOISY, NOISY, None, 60, 1, 4, np.random.default_rng(31), day_sd)
    for i in range(len(passes)):
        check = dispersion(passes[i], trials[i])
        assert check is not None
        assert check.ratio == pytest.approx(float(reference_ratio(passes[i], trials[i])), rel=1e-12)
        # the same permutation scheme and seed over the cases that vary (a case that never varies
        # adds 0 to both variances, and shuffling it changes nothing, so the check leaves it out)
        varies = (passes[i] != passes[i][:1]).any(0)
        rng = np.random.default_rng(SEED)
        expected = reference_p(passes[i][:, varies], trials[i][:, varies], rng, PERMUTATIONS)
        assert check.p == expected
        assert (check.runs, check.cases) == (60, int(varies.sum()))


def test_the_same_history_always_gets_the_same_p() -> None:
    passes, trials = histories(NOISY, NOISY, None, 30, 1, 1, np.random.default_rng(32), 0.25)
    assert dispersion(passes[0], trials[0]) == dispersion(passes[0].copy(), trials[0].copy())


def test_a_strong_day_effect_reaches_p_below_001_and_independent_runs_rarely_do(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    import scorer.drift.dispersion as module

    rng = np.random.default_rng(33)
    strong = histories(NOISY, NOISY, None, 60, 1, 20, rng, 0.5)
    independent = histories(NOISY, NOISY, None, 60, 1, 60, rng, 0.0)
    assert all(dispersion(p, t).noted for p, t in zip(*strong, strict=True))
    # at most about 1% by construction: 60 histories, so 0 to 3 is within chance. Checked as drift
    # checks them (early: the permutations stop once p cannot fall below 0.01, the same note as
    # the full test's whatever the chunks: test_stopping_early_decides_the_note_exactly_as_the_full_
    # test), in chunks of 1 MiB of values (about 47 shuffles) rather than the shipped 16 MiB (760):
    # most stop after their first.
    monkeypatch.setattr(module, "CHUNK_CELLS", 1 << 17)
    noted = [dispersion(p, t, early=True).noted for p, t in zip(*independent, strict=True)]
    assert sum(noted) <= 3


def test_gaps_runs_that_scored_nothing_and_constant_histories() -> None:
    rng = np.random.default_rng(34)
    passes, trials = histories(NOISY, NOISY, None, 30, 1, 1, rng, 0.0)
    passes, trials = passes[0].copy(), trials[0].copy()
    full = dispersion(passes, trials)
    # a run in which every case errored says nothing: left out
    blank_passes = np.insert(passes, 5, 0, axis=0)
    blank_trials = np.insert(trials, 5, 0, axis=0)
    assert dispersion(blank_passes, blank_trials) == full
    # a case missing from one run is left out of the whole check
    varying = int(np.flatnonzero((passes != passes[:1]).any(0))[0])
    trials[7, varying] = passes[7, varying] = 0
    gapped = dispersion(passes, trials)
    assert gapped is not None and gapped.cases == full.cases - 1
    keep = [c for c in range(passes.shape[1]) if c != varying]
    assert gapped.ratio == pytest.approx(float(reference_ratio(passes[:, keep], trials[:, keep])))
    # nothing varies, or too few runs: nothing to check
    assert dispersion(np.ones((20, 5)), np.ones((20, 5))) is None
    assert dispersion(passes[:2], trials[:2]) is None


def _day_effect_history(root: Path, runs: int, day_sd: float, seed: int) -> None:
    """``runs`` daily results.json of the noisy profile, each run's pass probabilities shifted
    together by its own logit shift d ~ N(0, day_sd^2) (benchmarks/day_effect.py), one
    fingerprint."""
    rng = random.Random(seed)
    for n in range(1, runs + 1):
        probabilities = shifted(NOISY, rng.gauss(0.0, day_sd))
        doc = results_doc(
            "acme/model",
            f"run-{n:03d}",
            (START + datetime.timedelta(days=n - 1)).isoformat(),
            draw(list(probabilities), 1, rng),
            identity("fp_old"),
        )
        (root / f"run-{n:03d}").mkdir(parents=True)
        (root / f"run-{n:03d}" / "results.json").write_text(json.dumps(doc), encoding="utf-8")


def test_a_strong_day_effect_gets_the_note_and_nothing_else_changes(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("GITHUB_STEP_SUMMARY", raising=False)
    history = tmp_path / "history"
    _day_effect_history(history, 60, 0.5, seed=7)
    comment = tmp_path / "comment.md"
    code = main(["drift", str(history), "--markdown", str(comment)])
    out = capsys.readouterr().out
    notes = [line for line in out.splitlines() if line.startswith("note: ")]
    assert len(notes) == 1, out
    assert notes[0].startswith(NOTE) and notes[0].endswith(NOTE_END)
    ratio, p = notes[0].removeprefix(NOTE).removesuffix(NOTE_END).split(", p = ")
    assert float(ratio) > 2 and float(p) < 0.01
    assert out.splitlines()[3] == notes[0]  # after the verdict, the model and Overall
    # the verdict, every other line and the exit code are those of the report without the check
    report = analyse(load_history([history], None))
    unchecked = dataclasses.replace(report, dispersion=None)
    command = f"lobstack-eval drift {history}"
    assert out.replace(notes[0] + "\n", "") == format_text(unchecked, command=command)
    assert code == (1 if report.status == "changed" else 0)
    markdown = comment.read_text(encoding="utf-8")
    assert f"**Note:** {notes[0].removeprefix('note: ')}." in markdown.split("\n\n")


def test_independent_runs_get_no_note(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    write_history(tmp_path, NOISY, NOISY, 60, None, seed=2)
    assert main(["drift", str(tmp_path)]) == 0
    out = capsys.readouterr().out
    assert "note:" not in out
    check = analyse(load_history([tmp_path], None)).dispersion
    assert check is not None and check.p >= 0.01 and check.runs == 60


def test_stopping_early_decides_the_note_exactly_as_the_full_test(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """drift stops the permutations once p cannot fall below 0.01: over seeded histories with and
    without a day effect, the note (and its p, when noted) is the full test's; a stopped test
    reports a p at or above 0.01 and says it is not complete. The full test runs in chunks of the
    shipped size, the early one a shuffle a chunk, so the stop can come after any shuffle (and a
    noted p is the same whatever the chunks)."""
    import scorer.drift.dispersion as module

    rng = np.random.default_rng(7)
    seen = {"noted": 0, "stopped": 0}
    for day_sd in (0.0, 0.0, 0.8, 1.5):
        for _ in range(5):
            base = rng.uniform(0.3, 0.95, size=20)
            shift = rng.normal(0, day_sd, size=(40, 1))
            p_pass = 1 / (1 + np.exp(-(np.log(base / (1 - base)) + shift)))
            passes = (rng.random((40, 20)) < p_pass).astype(float)
            trials = np.ones_like(passes)
            full = dispersion(passes, trials)
            with monkeypatch.context() as patch:
                patch.setattr(module, "CHUNK_CELLS", 400)  # 800 values a shuffle: one a chunk
                fast = dispersion(passes, trials, early=True)
            assert full is not None and fast is not None
            assert fast.noted == full.noted and fast.ratio == full.ratio
            if full.noted:
                assert fast.p == full.p and fast.complete
                seen["noted"] += 1
            elif not fast.complete:
                assert 0.01 <= fast.p <= full.p
                seen["stopped"] += 1
    assert seen["noted"] >= 3 and seen["stopped"] >= 5  # both branches were exercised


# drift's allowance for runs that vary together (scorer/drift/cusum.py ``watch``, the settings'
# ``dispersion_margin``; docs/decisions/drift.md#day-effect): each run's score is divided by the
# square root of its reference's dispersion less half its null sd, never below 1.


def test_the_running_sums_give_the_ratio_of_every_prefix_of_the_history() -> None:
    """Entry r of ``running_sums`` is the dispersion of runs 0..r (benchmarks/day_effect.py's, the
    reference), over r pairs, at K = 1 and 3; a case missing from a run leaves the two pairs that
    hold that run, which use the other cases (summed here by hand)."""
    for k in (1, 3):
        passes, trials = histories(NOISY, NOISY, None, 40, k, 3, np.random.default_rng(k), 0.25)
        together, apart, pairs = running_sums(passes, trials)
        for r in (2, 9, 39):
            expected = reference_ratio(passes[:, : r + 1], trials[:, : r + 1])
            assert together[:, r] / apart[:, r] == pytest.approx(expected, rel=1e-12)
            assert (pairs[:, r] == r).all()
    passes, trials = passes[0].copy(), trials[0].copy()
    trials[7, 4] = passes[7, 4] = 0
    together, apart, pairs = running_sums(passes, trials)
    want_together = want_apart = 0.0
    for t in range(1, 12):
        steps = [
            passes[t, c] / trials[t, c] - passes[t - 1, c] / trials[t - 1, c]
            for c in range(passes.shape[1])
            if trials[t, c] > 0 and trials[t - 1, c] > 0
        ]
        want_together += sum(steps) ** 2
        want_apart += sum(s * s for s in steps)
    assert together[11] == pytest.approx(want_together) and apart[11] == pytest.approx(want_apart)
    assert pairs[11] == 11


def test_the_margin_s_unit_is_the_ratio_s_sd_with_independent_runs() -> None:
    """``inflation`` counts the ratio's null sd as sqrt(3 / pairs) (successive differences): on
    2,000 seeded independent-run histories of the noisy profile the sd is within 15% of it, at 30
    and 90 runs, and the mean ratio within 2 of its standard errors of 1."""
    # 2,000 histories drawn and summed 100 at a time: numpy draws the cells in turn from one
    # generator, so the 20 draws are the very counts of one draw of 2,000 (without its 115 MB of
    # counts, which the first touch of each page made cost CPU), and each history's sums are its own
    rng = np.random.default_rng(35)
    batches = [running_sums(*histories(NOISY, NOISY, None, 90, 1, 100, rng)) for _ in range(20)]
    together, apart = (np.concatenate([batch[part] for batch in batches]) for part in (0, 1))
    for runs in (30, 90):
        ratio = together[:, runs - 1] / apart[:, runs - 1]
        assert ratio.std() == pytest.approx(np.sqrt(NULL_VARIANCE / (runs - 1)), rel=0.15)
        assert abs(ratio.mean() - 1) < 2 * ratio.std() / np.sqrt(len(ratio))
    assert inflation(np.array([30.0]), np.array([20.0]), np.array([12.0]), 0.5) == 1.25
    assert inflation(np.array([10.0]), np.array([20.0]), np.array([12.0]), 0.5) == 1.0


def test_each_score_is_divided_by_the_root_of_its_reference_s_inflation() -> None:
    """Under the shipped settings run t's score is ``run_score`` against runs 0..end_t divided by
    sqrt(max(1, the dispersion of runs 0..end_t - 0.5 sqrt(3 / end_t))), the dispersion the
    reference's (benchmarks/day_effect.py); the CUSUMs run on those scores. A strong day effect
    (S = 0.5) inflates most runs; without the margin (None) every factor is 1 and the scores are
    ``monitor``'s."""
    passes, trials = histories(NOISY, NOISY, None, 60, 1, 2, np.random.default_rng(36), 0.5)
    w = watch(passes, trials)
    assert DEFAULT.dispersion_margin == 0.5
    for h in range(2):
        for t in range(DEFAULT.baseline_runs, 60):
            end = int(w.end[h, t])
            ratio = float(reference_ratio(passes[h, : end + 1], trials[h, : end + 1]))
            factor = max(1.0, ratio - 0.5 * np.sqrt(3 / end))
            plain = run_score(
                passes[h, t], trials[h, t], passes[h, : end + 1].sum(0), trials[h, : end + 1].sum(0)
            )
            assert w.inflation[h, t] == pytest.approx(factor, rel=1e-12)
            assert w.z[h, t] == pytest.approx(float(plain) / np.sqrt(factor), rel=1e-12)
    assert np.array_equal(w.statistic, cusum(w.z))
    assert (w.inflation[:, DEFAULT.baseline_runs :] > 1).mean() > 0.5
    off = watch(passes, trials, dataclasses.replace(DEFAULT, dispersion_margin=None))
    assert (off.inflation == 1).all()
    assert np.array_equal(off.z, monitor(passes, trials)[0], equal_nan=True)
    assert drift_path(passes[0], trials[0]).inflation == tuple(float(v) for v in w.inflation[0])
