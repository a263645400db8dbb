"""``drift`` end to end on the committed histories (issue 31, "Done when"): every run under
cassettes/history/ is rescored (report dirs and one rows root, as the watch recipe keeps them),
then ``drift`` names ref/drifting's change at run 16 (scripts/record_history.py's DRIFT_FROM)
within the delay target (<= 3 runs), the cases that broke and the identity change (exit 1), and
raises no alarm on ref/flaky's 20 runs (exit 0). The rows root and the report dirs give the same
verdict, and the HTML timeline marks the very runs drift names."""

from __future__ import annotations

import re
import shutil
from datetime import date, timedelta
from pathlib import Path

import pytest

from lobstack_eval.main import main
from replay.drift.load import load_history
from replay.drift.timeline import ChangePoint, read_history, timelines
from replay.rescore import rescore
from scorer.drift.history import analyse
from tests.conftest import ROOT

HISTORY = ROOT / "cassettes" / "history"
SUITE = ROOT / "evals" / "suite.json"
DAYS = [(date(2026, 10, 21) + timedelta(days=n)).isoformat() for n in range(20)]  # runs 1..20
CHANGED_FROM = 16  # scripts/record_history.py: ref/drifting is version 2 from run 16 on
# ref/drifting's broken cases under seed 0 (tests/test_history.py, checked by hand against
# standin/drifting.py)
BROKEN = {"selection-02", "selection-08", "arguments-06", "parallel-01", "parallel-10", "chains-06"}
# a run whose id is its date is named once: "run 2026-11-04", not "run 2026-11-04 (2026-11-04)"
VERDICT = re.compile(r"drift: changed between run (\S+) and run (\S+); detected at run (\S+)$")


def _drift(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str]:
    code = main(["drift", *args])
    return code, capsys.readouterr().out


def test_the_committed_histories_are_twenty_runs_each() -> None:
    assert sorted(p.name for p in HISTORY.iterdir()) == DAYS
    for day in DAYS:
        assert sorted(p.name for p in (HISTORY / day).iterdir()) == ["ref_drifting", "ref_flaky"]


def test_drift_names_ref_driftings_change_its_cases_and_its_identity(
    scored_history: tuple[Path, Path], capsys: pytest.CaptureFixture[str]
) -> None:
    _reports, rows = scored_history
    code, out = _drift(capsys, str(rows), "--model", "ref/drifting")
    assert code == 1
    match = VERDICT.match(out.splitlines()[0])
    assert match, out
    last_before, first_after, detected = (DAYS.index(g) + 1 for g in match.groups())
    assert (last_before, first_after) == (CHANGED_FROM - 1, CHANGED_FROM)  # the right change point
    assert CHANGED_FROM <= detected <= CHANGED_FROM + 3  # within the delay target
    moved = out.split("cases that moved (")[1].split("identity changes")[0]
    assert moved.startswith(f"{len(BROKEN)}):")
    for case_id in BROKEN:
        since = len(DAYS) - CHANGED_FROM + 1
        assert f"  {case_id}: passed 15/15 (100%) before, 0/{since} (0%) since\n" in moved
    fields = "header:x-lobstack-provider, model, system_fingerprint"
    assert f"the recorded identity changed at the change: {fields}\n" in out
    change = f"(run {DAYS[CHANGED_FROM - 2]} -> run {DAYS[CHANGED_FROM - 1]})"
    assert f"  model: ref/drifting-v1 -> ref/drifting-v2 {change}" in out


def test_drift_raises_no_alarm_on_ref_flaky(
    scored_history: tuple[Path, Path], capsys: pytest.CaptureFixture[str]
) -> None:
    _reports, rows = scored_history
    code, out = _drift(capsys, str(rows), "--model", "ref/flaky")
    assert code == 0
    assert out.splitlines()[0] == f"drift: no change in 20 runs since {DAYS[0]}"
    assert "identity changes" not in out


@pytest.mark.parametrize(("model", "ratio"), [("ref/drifting", 1.21), ("ref/flaky", 0.90)])
def test_the_committed_histories_get_no_day_effect_note(
    scored_history: tuple[Path, Path], capsys: pytest.CaptureFixture[str], model: str, ratio: float
) -> None:
    """A real change (ref/drifting's 6 cases breaking at run 16) is no day effect: successive
    differences count its step once. The ratios are docs/decisions/drift.md's, measured with
    benchmarks/day_effect.py's reference ``dispersion``."""
    _reports, rows = scored_history
    _code, out = _drift(capsys, str(rows), "--model", model, "-v")
    assert "note:" not in out
    check = analyse(load_history([rows], model)).dispersion
    assert check is not None and round(check.ratio, 2) == ratio
    assert check.p >= 0.1 and check.runs == len(DAYS)


@pytest.mark.parametrize("model", ["ref/drifting", "ref/flaky"])
def test_the_rows_root_and_the_report_dirs_give_one_verdict(
    scored_history: tuple[Path, Path], capsys: pytest.CaptureFixture[str], model: str
) -> None:
    reports, rows = scored_history
    given = (str(rows), str(rows / "cases"), str(reports))
    outs = [_drift(capsys, path, "--model", model, "-v") for path in given]
    # the next command (after a change) repeats how the runs were given: the rest is one text
    same = {
        (code, out.replace(path, "RUNS")) for (code, out), path in zip(outs, given, strict=True)
    }
    assert len(same) == 1


def test_a_mistyped_model_names_the_models_there(
    scored_history: tuple[Path, Path], capsys: pytest.CaptureFixture[str]
) -> None:
    """A typo in --model: one error line listing the models there, from a rows root (by slug, its
    folder names) as from the report dirs (by name), where the rows root used to list none."""
    reports, rows = scored_history
    assert main(["drift", str(rows), "--model", "ref/drifitng"]) == 2
    assert capsys.readouterr().err == (
        f"error: no run of model 'ref/drifitng' in {rows}; models there: ref_drifting, ref_flaky\n"
    )
    assert main(["drift", str(reports), "--model", "ref/drifitng"]) == 2
    assert capsys.readouterr().err == (
        f"error: no run of model 'ref/drifitng' in {reports}; models there: ref/drifting, "
        "ref/flaky\n"
    )


def test_the_timeline_marks_the_runs_drift_names(
    scored_history: tuple[Path, Path], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    reports, _rows = scored_history
    _code, out = _drift(capsys, str(reports), "--model", "ref/drifting")
    verdict = out.splitlines()[0]
    match = VERDICT.match(verdict)
    assert match
    drifting, flaky = timelines(read_history(reports))
    assert drifting.change == ChangePoint(match.group(1), match.group(2))
    assert flaky.change is None
    latest = tmp_path / DAYS[-1]  # a copy: report writes index.html beside the results
    shutil.copytree(reports / DAYS[-1], latest)
    assert main(["report", str(latest), "--suite", str(SUITE), "--history", str(reports)]) == 0
    page = (latest / "index.html").read_text(encoding="utf-8")
    section = page.split('<section id="timeline">')[1].split("</section>")[0]
    assert f"ref/drifting: {verdict}." in section  # the caption is drift's own line
    assert f"ref/flaky: drift: no change in 20 runs since {DAYS[0]}." in section
    assert section.count(">change<") == 1  # one dashed line, in ref/drifting's drawing


@pytest.mark.parametrize(("model", "code"), [("ref/drifting", 1), ("ref/flaky", 0)])
def test_drift_reads_the_recordings_straight_and_says_what_the_scored_runs_say(
    scored_history: tuple[Path, Path],
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    model: str,
    code: int,
) -> None:
    """Issue 41: ``drift cassettes/history --model M`` scores the recordings itself (in memory) and
    gives the rows root's verdict, word for word; the rate it holds and, after a change, the next
    command are printed."""
    _reports, rows = scored_history
    # Scored in this process: what is checked is the verdict, which no pool changes (score_all's
    # docstring; scored_history's rescore goes through one). In a test worker a pool starts a fork
    # server that imports polars again: about 1.4 s of CPU a call (docs/decisions/testing.md#waits).
    monkeypatch.setattr("replay.score_models.POOL_THRESHOLD", 10**9)
    got = _drift(capsys, str(HISTORY), "--model", model, "-v")
    want = _drift(capsys, str(rows), "--model", model, "-v")
    assert got[0] == want[0] == code
    assert got[1] == want[1].replace(str(rows), str(HISTORY))
    assert "holds: false alarms <= 5% in 180 runs of an unchanged model" in got[1]
    if code:
        first = DAYS[CHANGED_FROM - 1]
        assert (
            f"start the history anew from the first changed run: lobstack-eval drift {HISTORY} "
            f"--model {model} --since {first}\n"
        ) in got[1]
        assert main(["drift", str(HISTORY), "--model", model, "--since", first]) == 0
        assert capsys.readouterr().out.startswith("drift: not tested yet: 5 runs since")


def test_rescore_of_a_history_writes_each_run_as_rescore_of_the_run_does(
    scored_history: tuple[Path, Path], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    reports, _rows = scored_history
    day = DAYS[CHANGED_FROM - 1]
    one = tmp_path / day
    assert main(["rescore", str(HISTORY / day), "--suite", str(SUITE), "--out", str(one),
                 "--no-html", "-q"]) == 0  # fmt: skip
    assert sorted(p.name for p in reports.iterdir()) == DAYS
    for slug in ("ref_drifting", "ref_flaky"):
        assert (reports / day / slug / "results.json").read_bytes() == (
            one / slug / "results.json"
        ).read_bytes()
    capsys.readouterr()


def test_drift_appends_its_markdown_to_the_job_summary(
    scored_history: tuple[Path, Path], tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys
) -> None:
    _reports, rows = scored_history
    summary = tmp_path / "summary.md"
    summary.write_text("earlier step\n", encoding="utf-8")
    monkeypatch.setenv("GITHUB_STEP_SUMMARY", str(summary))
    comment = tmp_path / "drift.md"
    assert main(["drift", str(rows), "--model", "ref/drifting", "--markdown", str(comment)]) == 1
    written = comment.read_text(encoding="utf-8")
    assert written.startswith("### lobstack-eval drift: ref/drifting: changed\n")
    assert summary.read_text(encoding="utf-8") == "earlier step\n" + written + "\n"
    assert main(["drift", str(rows), "--model", "ref/flaky"]) == 0  # no --markdown: summary only
    text = summary.read_text(encoding="utf-8")
    assert text.startswith("earlier step\n" + written + "\n### lobstack-eval drift: ref/flaky: ")
    assert text.count("### lobstack-eval drift: ") == 2
    capsys.readouterr()


def test_a_rows_root_of_plain_recordings_is_one_error_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    cassettes = tmp_path / "cassettes"
    shutil.copytree(ROOT / "cassettes" / "ref_oracle", cassettes / "ref_oracle")
    rescore(cassettes, SUITE, tmp_path / "reports", html=False, rows=tmp_path / "rows")
    capsys.readouterr()
    assert main(["drift", str(tmp_path / "rows")]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and err[0].startswith(f"error: {tmp_path / 'rows' / 'cases'}/")
    assert err[0].endswith(
        "rows of a plain recording, not a run of a history (no run_id, no date): drift reads rows "
        "written by `rescore cassettes/history/<run-id> --rows DIR`"
    )


def test_drift_scores_a_recorded_run_without_its_summary_and_parses_each_cassette_once(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Issue 41 (speed of ``drift cassettes/history``): drift scores each run without the summary
    fields (their rows and polars frames were half its CPU), the same document otherwise, and the
    run's identity is read from the cassettes replay already parsed, not parsed a second time."""
    import replay.run_document as run_document
    from recorder.files import read_suite
    from replay.score_models import score_model

    model_dir = HISTORY / DAYS[CHANGED_FROM - 1] / "ref_drifting"
    suite = read_suite(SUITE)
    full = score_model(model_dir, suite).results
    parsed_again: list[Path] = []
    real = run_document.load_interactions
    monkeypatch.setattr(
        run_document, "load_interactions", lambda p: parsed_again.append(p) or real(p)
    )
    lean = score_model(model_dir, suite, summary=False).results
    assert parsed_again == []
    assert "metrics" in full and "metrics" not in lean
    assert lean == {key: full[key] for key in lean}
    assert lean["run"]["identity"] == full["run"]["identity"]
    assert {"model", "suite", "results", "run"} <= lean.keys()
