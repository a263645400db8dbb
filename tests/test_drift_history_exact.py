"""scorer/drift/history.py value by value, for the mutation benchmark (benchmarks/README.md,
scorer.drift.history): the ordering and its errors word for word, a report's every field on small
histories written out by hand (Overall, status, the moved cases and their order, identity changes),
and the report's own methods on reports built by hand. The drift test's scores and the dispersion
check are other modules' (scorer/drift/cusum.py, dispersion.py): the expected points and dispersion
are theirs, run on the count matrices written here, so a report that reads the wrong counts or
settings differs."""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest

from scorer.drift.cusum import DEFAULT, drift_path
from scorer.drift.dispersion import dispersion
from scorer.drift.history import (
    CusumPoint,
    DriftReport,
    Identity,
    IdentityChange,
    MovedCase,
    RunRecord,
    analyse,
    identity_changes,
    order_runs,
)
from scorer.errors import HistoryError
from scorer.summary import CaseTally

# drift's constant rule with the history gate's threshold (scorer/drift/window.py's WINDOW): no
# adaptive thresholds and no dispersion allowance, so the scores are run_score's alone
CONSTANT = replace(DEFAULT, threshold=3.0, scale=None, dispersion_margin=None)


def _run(
    run_id: str,
    date: str,
    cases: dict[str, tuple[int, int]],
    *,
    model: str = "m",
    suite: str = "s 1.0.0",
    sha: str | None = None,
    identity: Identity | None = None,
    source: str | None = None,
) -> RunRecord:
    tallies = tuple(CaseTally(c, p, n) for c, (p, n) in cases.items())
    return RunRecord(source or f"{run_id}.json", run_id, date, model, suite, identity, tallies, sha)


def _matrix(runs: list[dict[str, tuple[int, int]]], ids: list[str]) -> tuple[np.ndarray, ...]:
    """The (runs, cases) counts of the runs' cases, columns in ``ids`` order (absent: 0 of 0)."""
    passes = np.array([[run.get(c, (0, 0))[0] for c in ids] for run in runs])
    trials = np.array([[run.get(c, (0, 0))[1] for c in ids] for run in runs])
    return passes, trials


def _points(runs, overall, passes, trials, settings, *, limits: bool) -> tuple[CusumPoint, ...]:
    path = drift_path(passes, trials, settings)
    out = []
    for t, run in enumerate(runs):
        extra = ()
        if limits and t >= settings.baseline_runs:
            assert path.second is not None and path.second_threshold is not None
            extra = (path.threshold[t], path.second[t], path.second_threshold[t])
        out.append(
            CusumPoint(run.run_id, run.date, overall[t], path.z[t], path.statistic[t], *extra)
        )
    return tuple(out)


# --- ordering and its errors -------------------------------------------------------------------


def test_runs_are_ordered_by_date_then_by_id_with_digit_runs_as_numbers() -> None:
    runs = [
        _run("r10", "2026-01-02", {}),
        _run("r9", "2026-01-02", {}),
        _run("r11", "2026-01-01", {}),
    ]
    assert [r.run_id for r in order_runs(runs)] == ["r11", "r9", "r10"]


def test_no_runs_is_an_error() -> None:
    with pytest.raises(HistoryError, match=r"^no runs to test$"):
        order_runs([])


def _message(excinfo: pytest.ExceptionInfo[HistoryError]) -> str:
    return str(excinfo.value)


def test_two_models_are_named_with_their_first_file_and_the_model_option() -> None:
    runs = [
        _run("1", "2026-01-01", {}, model="m1", source="a.json"),
        _run("2", "2026-01-02", {}, model="m2", source="b.json"),
        _run("3", "2026-01-03", {}, model="m1", source="c.json"),
    ]
    with pytest.raises(HistoryError) as excinfo:
        order_runs(runs)
    assert _message(excinfo) == (
        "a history holds one model on one suite file; these runs have 2 models: "
        "'m1' (a.json), 'm2' (b.json); pick one with --model M"
    )


def test_two_suite_versions_and_two_suite_files_are_errors_without_the_model_option() -> None:
    versions = [
        _run("1", "2026-01-01", {}, suite="s 1.0.0", source="a.json"),
        _run("2", "2026-01-02", {}, suite="s 2.0.0", source="b.json"),
    ]
    with pytest.raises(HistoryError) as excinfo:
        order_runs(versions)
    assert _message(excinfo) == (
        "a history holds one model on one suite file; these runs have 2 suite versions: "
        "'s 1.0.0' (a.json), 's 2.0.0' (b.json)"
    )
    files = [
        _run("1", "2026-01-01", {}, sha="bbb", source="x.json"),
        _run("2", "2026-01-02", {}, sha=None, source="y.json"),  # recorded none: not counted
        _run("3", "2026-01-03", {}, sha="aaa", source="z.json"),
    ]
    with pytest.raises(HistoryError) as excinfo:
        order_runs(files)
    assert _message(excinfo) == (
        "a history holds one model on one suite file; these runs have 2 suite files (sha256): "
        "'aaa' (z.json), 'bbb' (x.json)"
    )


def test_one_suite_file_and_runs_that_recorded_none_are_one_history() -> None:
    runs = [
        _run("1", "2026-01-01", {}, sha="aaa"),
        _run("2", "2026-01-02", {}, sha=None),
    ]
    assert [r.run_id for r in order_runs(runs)] == ["1", "2"]


def test_five_values_are_listed_and_a_sixth_is_counted() -> None:
    def models(count: int) -> list[RunRecord]:
        return [_run(f"{n}", f"2026-01-0{n}", {}, model=f"m{n}") for n in range(1, count + 1)]

    listed = "'m1' (1.json), 'm2' (2.json), 'm3' (3.json), 'm4' (4.json), 'm5' (5.json)"
    head = "a history holds one model on one suite file; these runs have"
    with pytest.raises(HistoryError) as excinfo:
        order_runs(models(5))
    assert _message(excinfo) == f"{head} 5 models: {listed}; pick one with --model M"
    with pytest.raises(HistoryError) as excinfo:
        order_runs(models(6))
    assert _message(excinfo) == f"{head} 6 models: {listed} and 1 more; pick one with --model M"


# --- the report's bookkeeping ------------------------------------------------------------------


def test_identity_fields_by_display_name() -> None:
    identity = Identity(
        model=("gpt-a",), system_fingerprint=("fp1", "fp2"), routing=(("x-route", ("eu",)),)
    )
    assert identity.fields() == {
        "model": ("gpt-a",),
        "system_fingerprint": ("fp1", "fp2"),
        "header:x-route": ("eu",),
    }


def test_a_moved_cases_drop_is_its_rate_before_less_its_rate_since() -> None:
    assert MovedCase("c", 3, 4, 1, 2).drop == 0.25  # 3/4 - 1/2


def test_identity_changes_field_by_field_with_a_missing_header_as_no_values() -> None:
    """Every run identified: r1 -> r2 adds the x-route header and changes the fingerprint, r2 ->
    r3 changes the model, r3 -> r4 drops the header, r4 -> r5 lists x-cache with no values (no
    change from not listing it), r5 -> r6 drops it again (no change either)."""

    def ident(model: str, fp: str, routing: tuple = ()) -> Identity:
        return Identity(model=(model,), system_fingerprint=(fp,), routing=routing)

    eu = (("x-route", ("eu",)),)
    runs = [
        _run("r1", "2026-01-01", {}, identity=ident("gpt-a", "fp1")),
        _run("r2", "2026-01-02", {}, identity=ident("gpt-a", "fp2", eu)),
        _run("r3", "2026-01-03", {}, identity=ident("gpt-b", "fp2", eu)),
        _run("r4", "2026-01-04", {}, identity=ident("gpt-b", "fp2")),
        _run("r5", "2026-01-05", {}, identity=ident("gpt-b", "fp2", (("x-cache", ()),))),
        _run("r6", "2026-01-06", {}, identity=ident("gpt-b", "fp2")),
    ]
    d = "2026-01-0"
    assert identity_changes(runs) == (
        IdentityChange("header:x-route", "r1", f"{d}1", "r2", f"{d}2", (), ("eu",)),
        IdentityChange("system_fingerprint", "r1", f"{d}1", "r2", f"{d}2", ("fp1",), ("fp2",)),
        IdentityChange("model", "r2", f"{d}2", "r3", f"{d}3", ("gpt-a",), ("gpt-b",)),
        IdentityChange("header:x-route", "r3", f"{d}3", "r4", f"{d}4", ("eu",), ()),
    )


def _report(last_stable: int | None, alarm: int | None, changes_into: list[str], overall=None):
    runs = tuple(
        CusumPoint(
            f"r{t}", f"2026-01-{t + 1:02d}", None if overall is None else overall[t], None, 0.0
        )
        for t in range(7)
    )
    changes = tuple(
        IdentityChange("model", "x", "d", after, "d", ("a",), ("b",)) for after in changes_into
    )
    status = "stable" if alarm is None else "changed"
    return DriftReport("m", "s", CONSTANT, runs, status, last_stable, alarm, (), changes)


def test_the_changes_at_the_change_are_those_into_the_runs_after_the_last_stable_to_the_alarm() -> (
    None
):
    """last stable run 2, alarm at run 4: changes into r3 and r4 count, not into r1, r2 or r5."""
    report = _report(2, 4, ["r1", "r2", "r3", "r4", "r5"])
    assert [c.after_run for c in report.at_change()] == ["r3", "r4"]
    assert _report(None, None, ["r3"]).at_change() == ()
    # no stable run before an alarm at run 1: the window starts at the first run
    assert [c.after_run for c in _report(None, 1, ["r0", "r1", "r2"]).at_change()] == ["r0", "r1"]


def test_mean_overall_leaves_runs_that_scored_nothing_out() -> None:
    report = _report(None, None, [], overall=[50.0, None, 100.0, 25.0, None, None, 10.0])
    assert report.mean_overall(0, 3) == 75.0
    assert report.mean_overall(1, 2) is None
    assert report.mean_overall(2, 7) == 45.0


# --- analyse -------------------------------------------------------------------------------------


def _moved_history() -> list[dict[str, tuple[int, int]]]:
    """12 runs. a: 10 of 10, then 1 of 2; b passes throughout; c: 5 of 10 (even runs), then 0 of
    2; d: 8 of 10 (runs 0 and 5 fail), then 1 of 2; e (two trials a run): 20 of 20, then 3 of 4;
    n: first scored in runs 10 and 11, failing; z: 10 of 10, then 0 of 2."""
    out = []
    for t in range(12):
        run = {
            "a": (1 if t < 11 else 0, 1),
            "b": (1, 1),
            "c": ((1 if t % 2 == 0 else 0) if t < 10 else 0, 1),
            "d": ((0 if t in (0, 5) else 1) if t < 10 else (1 if t == 10 else 0), 1),
            "e": (2 if t < 11 else 1, 2),
            "z": (1 if t < 10 else 0, 1),
        }
        if t >= 10:
            run["n"] = (0, 1)
        out.append(run)
    return out


def test_a_change_reports_every_field() -> None:
    """Alarm at run 11, last stable run 9 (the constant rule at 3). Moved since run 10: z (drop 1),
    a (0.5, never failed before), c (0.5), e (0.25, never failed before), largest drop first, then
    by id; not b (no drop), d (0.8 - 0.5 = 0.3, failed before), n (not scored before). Overall:
    runs 0-9 score 7 case-runs, 7 passed on even runs but run 0 (6), 6 on odd runs but run 5 (5);
    run 10 5 of 8, run 11 2 of 8."""
    cases = _moved_history()
    runs = [_run(f"r{t + 1:02d}", f"2026-02-{t + 1:02d}", c) for t, c in enumerate(cases)]
    report = analyse(list(reversed(runs)), CONSTANT)
    assert (report.status, report.alarm, report.last_stable) == ("changed", 11, 9)
    assert report.moved == (
        MovedCase("z", 10, 10, 0, 2),
        MovedCase("a", 10, 10, 1, 2),
        MovedCase("c", 5, 10, 0, 2),
        MovedCase("e", 20, 20, 3, 4),
    )
    seven = 600 / 7
    overall = [seven, seven, 100.0, seven, 100.0, 500 / 7, 100.0, seven, 100.0, seven, 62.5, 25.0]
    passes, trials = _matrix(cases, ["a", "b", "c", "d", "e", "n", "z"])
    assert report.runs == _points(runs, overall, passes, trials, CONSTANT, limits=False)
    assert (report.model, report.suite, report.settings) == ("m", "s 1.0.0", CONSTANT)
    assert report.identity_changes == ()
    assert report.dispersion == dispersion(passes, trials, early=True)
    assert report.dispersion is not None
    assert report.mean_overall(10, 12) == 43.75


def test_an_alarm_at_the_first_run_moves_nothing() -> None:
    """No baseline: run 0 (x: 0 of 20, y: 20 of 20) is scored at once against the whole window's
    counts (x 100 of 120, y 100 of 120: y fails all 20 in run 5), z about -4.2, CUSUM 3.4 > 3: an
    alarm at run 0, no run stable before it, so the change is before run 0 and no case has a
    'before' to have moved from."""
    cases = [{"x": (0 if t == 0 else 20, 20), "y": (20 if t < 5 else 0, 20)} for t in range(6)]
    runs = [_run(f"r{t}", f"2026-03-0{t + 1}", c) for t, c in enumerate(cases)]
    report = analyse(runs, replace(CONSTANT, baseline_runs=0))
    assert (report.status, report.alarm, report.last_stable) == ("changed", 0, None)
    assert report.moved == ()


def test_a_history_of_baseline_runs_is_not_tested() -> None:
    """Ten runs (DEFAULT's baseline_runs): status baseline, no dispersion although case v varies;
    run 3 scored nothing (its Overall None)."""
    cases = [{"u": (1, 1), "v": (t % 2, 1)} for t in range(10)]
    cases[3] = {"u": (0, 0), "v": (0, 0)}
    runs = [_run(f"r{t}", f"2026-04-{t + 1:02d}", c) for t, c in enumerate(cases)]
    report = analyse(runs)
    overall = [50.0, 100.0, 50.0, None, 50.0, 100.0, 50.0, 100.0, 50.0, 100.0]
    passes, trials = _matrix(cases, ["u", "v"])
    assert report.runs == _points(runs, overall, passes, trials, DEFAULT, limits=True)
    assert report.status == "baseline"
    assert (report.alarm, report.last_stable, report.moved, report.dispersion) == (
        None, None, (), None
    )  # fmt: skip


def test_one_run_is_a_history_of_its_model_and_suite() -> None:
    report = analyse([_run("only", "2026-06-01", {"x": (1, 2)}, model="m1", suite="s 2.0.0")])
    assert (report.model, report.suite, report.status) == ("m1", "s 2.0.0", "baseline")
    assert [(r.run_id, r.overall) for r in report.runs] == [("only", 50.0)]


def test_a_long_stable_history_has_the_adaptive_thresholds_and_an_early_dispersion() -> None:
    """11 runs of 200 coin-flip cases (seeded) under the default (adaptive) rule: stable; each
    tested run (10) carries its thresholds and second CUSUM, the baseline runs none; the
    dispersion check stops its permutations early (about 2,100 varying cells: the 999
    permutations come in two chunks, and independent runs rule out p < 0.01 in the first)."""
    rng = np.random.default_rng(3)
    flips = rng.binomial(1, 0.5, size=(11, 200))
    ids = [f"c{i:03d}" for i in range(200)]
    cases = [{c: (int(flips[t, i]), 1) for i, c in enumerate(ids)} for t in range(11)]
    runs = [_run(f"r{t}", f"2026-05-{t + 1:02d}", c) for t, c in enumerate(cases)]
    report = analyse(runs)
    overall = [float(100 * flips[t].sum() / 200) for t in range(11)]
    passes, trials = _matrix(cases, ids)
    assert report.status == "stable"
    assert report.runs == _points(runs, overall, passes, trials, DEFAULT, limits=True)
    assert report.runs[9].threshold is None and report.runs[10].threshold is not None
    assert (report.alarm, report.last_stable, report.moved) == (None, None, ())
    assert report.dispersion == dispersion(passes, trials, early=True)
    assert report.dispersion is not None and not report.dispersion.complete
