"""``lobstack-eval drift`` end to end on small dated histories (tests/drifthistory.py): a known
change point is found (exit 1) with the cases that broke and the fingerprint that changed; a
stable noisy history raises no alarm (exit 0); too few runs say so; mixed, undated or unreadable
histories are one ``error:`` line each (exit 2)."""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import pytest

from benchmarks.drift import CASES, NOISY, concentrated
from lobstack_eval.main import main
from tests.drifthistory import results_doc, write_history

BROKEN = [c for c, p in zip(CASES, NOISY, strict=True) if p == 1.0][:8]  # 10 points: 8 of 80 cases


@pytest.fixture(scope="module")
def changed(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """40 runs of the noisy profile; from run 26 on, 8 cases that always passed fail and the
    fingerprint changes."""
    root = tmp_path_factory.mktemp("changed")
    write_history(root, NOISY, concentrated(NOISY, 10), 40, 26, seed=1)
    return root


def test_a_known_change_point_is_found_with_the_cases_that_broke(changed: Path, capsys) -> None:
    comment = changed.parent / "comment.md"
    assert main(["drift", str(changed), "--markdown", str(comment)]) == 1
    out = capsys.readouterr().out
    verdict = out.splitlines()[0]
    assert verdict.startswith("drift: changed between run run-0")
    # the change is at run 26; the estimate may sit a run or two early (noise), never after
    # the alarm
    before = int(verdict.split("between run run-")[1][:3])
    detected = int(verdict.split("detected at run run-")[1][:3])
    assert 23 <= before <= 25 and 26 <= detected <= 26 + 3
    moved = out.split("cases that moved")[1].split("identity changes")[0]
    for case_id in BROKEN:
        assert (
            f"{case_id}: passed {before}/{before} (100%) before, 0/{40 - before} (0%) since"
            in moved
        )
    assert "system_fingerprint: fp_old -> fp_new (run run-025 (2026-01-25) -> run run-026" in out
    assert "the recorded identity changed at the change: system_fingerprint\n" in out
    text = comment.read_text(encoding="utf-8")
    assert text.startswith("### lobstack-eval drift: acme/model: changed\n")
    assert "The recorded identity changed at the change: system\\_fingerprint." in text
    assert f"| {BROKEN[0].replace('_', chr(92) + '_')} | {before}/{before} (100%) | 0/" in text


def test_a_stable_noisy_history_raises_no_alarm(tmp_path: Path, capsys) -> None:
    write_history(tmp_path, NOISY, NOISY, 60, None, seed=2)
    assert main(["drift", str(tmp_path)]) == 0
    out = capsys.readouterr().out
    assert out.splitlines()[0] == "drift: no change in 60 runs since 2026-01-01"
    assert "identity changes" not in out


def test_runs_are_ordered_by_recorded_date_not_by_argument_order(changed: Path, capsys) -> None:
    dirs = sorted(changed.iterdir(), reverse=True)
    assert main(["drift", *map(str, dirs)]) == 1
    by_dir = capsys.readouterr().out.split("\nnext: ")
    assert main(["drift", str(changed / "run-*")]) == 1  # a quoted glob
    by_glob = capsys.readouterr().out.split("\nnext: ")
    assert by_glob[0] == by_dir[0]  # the next command repeats how the runs were given
    assert f": lobstack-eval drift {changed / 'run-*'} --since run-" in by_glob[1]


def test_too_few_runs_are_not_tested(tmp_path: Path, capsys) -> None:
    write_history(tmp_path, NOISY, NOISY, 6, None, seed=3)
    assert main(["drift", str(tmp_path)]) == 0
    assert capsys.readouterr().out.splitlines()[0] == (
        "drift: not tested yet: 6 runs since 2026-01-01; the test needs 11 runs (the first 10 only "
        "learn each case's pass rate)"
    )


def test_repeats_are_counted_per_trial(tmp_path: Path, capsys) -> None:
    write_history(tmp_path, NOISY, concentrated(NOISY, 10), 30, 20, seed=4, k=3)
    assert main(["drift", str(tmp_path)]) == 1
    out = capsys.readouterr().out
    assert f"{BROKEN[0]}: passed 57/57 (100%) before, 0/33 (0%) since" in out


def _one_error(capsys) -> str:
    out, err = capsys.readouterr()
    assert out == ""
    lines = err.splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: "), err
    return lines[0]


def test_mixed_models_are_one_error_line(changed: Path, tmp_path: Path, capsys) -> None:
    shutil.copytree(changed, tmp_path / "h")
    doc = json.loads((tmp_path / "h" / "run-003" / "results.json").read_text(encoding="utf-8"))
    doc["model"] = "other/model"
    (tmp_path / "h" / "run-003" / "results.json").write_text(json.dumps(doc), encoding="utf-8")
    assert main(["drift", str(tmp_path / "h")]) == 2
    line = _one_error(capsys)
    assert "these runs have 2 models: 'acme/model' (" in line and "'other/model' (" in line
    assert line.endswith("; pick one with --model M")
    assert main(["drift", str(tmp_path / "h"), "--model", "acme/model"]) == 1  # one model picked
    capsys.readouterr()
    assert main(["drift", str(tmp_path / "h"), "--model", "acme_model"]) == 1  # or its slug


def test_mixed_suite_versions_are_one_error_line(tmp_path: Path, capsys) -> None:
    for n, version in ((1, "1.2.0"), (2, "1.3.0")):
        (tmp_path / f"r{n}").mkdir()
        doc = results_doc("m", f"r{n}", f"2026-01-0{n}", {"a": ["passed"]}, suite_version=version)
        (tmp_path / f"r{n}" / "results.json").write_text(json.dumps(doc), encoding="utf-8")
    assert main(["drift", str(tmp_path)]) == 2
    assert "2 suite versions: 'lobstack-tool-calling 1.2.0'" in _one_error(capsys)


def test_two_suite_files_of_one_version_are_one_error_line(tmp_path: Path, capsys) -> None:
    for n, sha in ((1, "a" * 64), (2, "b" * 64)):
        (tmp_path / f"r{n}").mkdir()
        doc = results_doc("m", f"r{n}", f"2026-01-0{n}", {"a": ["passed"]})
        doc["suite"]["sha256"] = sha
        (tmp_path / f"r{n}" / "results.json").write_text(json.dumps(doc), encoding="utf-8")
    line = _one_error(capsys) if main(["drift", str(tmp_path)]) == 2 else ""
    assert f"2 suite files (sha256): '{'a' * 64}' (" in line


def test_every_undated_or_unreadable_file_is_named(tmp_path: Path, capsys) -> None:
    write_history(tmp_path, NOISY, NOISY, 12, None, seed=5)
    doc = json.loads((tmp_path / "run-002" / "results.json").read_text(encoding="utf-8"))
    del doc["run"]
    (tmp_path / "run-002" / "results.json").write_text(json.dumps(doc), encoding="utf-8")
    (tmp_path / "run-007" / "results.json").write_text("{not json", encoding="utf-8")
    doc["run"] = {"id": "x", "date": "2026-02-30"}
    (tmp_path / "run-009" / "results.json").write_text(json.dumps(doc), encoding="utf-8")
    assert main(["drift", str(tmp_path)]) == 2
    out, err = capsys.readouterr()
    lines = err.splitlines()
    assert out == "" and len(lines) == 3 and all(line.startswith("error: ") for line in lines)
    assert "run-002/results.json: no 'run' object" in lines[0]
    assert "run-007/results.json" in lines[1]
    assert (
        "run-009/results.json: field 'run.date' must be a date YYYY-MM-DD, got '2026-02-30'"
        in lines[2]
    )


def test_nothing_to_read_is_one_error_line(tmp_path: Path, capsys) -> None:
    assert main(["drift", str(tmp_path / "nope-*")]) == 2
    assert _one_error(capsys).endswith("nope-*: the pattern matches nothing")
    assert main(["drift", str(tmp_path)]) == 2
    assert "no results.json in this directory" in _one_error(capsys)


def test_the_markdown_mentions_nobody(tmp_path: Path, capsys, monkeypatch) -> None:
    write_history(tmp_path / "h", NOISY, NOISY, 12, None, seed=6, model="@acme/model")
    doc = json.loads((tmp_path / "h" / "run-012" / "results.json").read_text(encoding="utf-8"))
    doc["run"]["identity"]["routing"] = {"x-lobstack-provider": ["@everyone"]}
    (tmp_path / "h" / "run-012" / "results.json").write_text(json.dumps(doc), encoding="utf-8")
    comment = tmp_path / "c.md"
    monkeypatch.setenv("GITHUB_STEP_SUMMARY", str(tmp_path / "summary.md"))
    assert main(["drift", str(tmp_path / "h"), "--markdown", str(comment)]) == 0
    text = comment.read_text(encoding="utf-8")
    assert (tmp_path / "summary.md").read_text(
        encoding="utf-8"
    ) == text + "\n"  # the same, appended
    assert "@&#8203;everyone" in text and "@&#8203;acme/model" in text
    assert "@everyone" not in text and "@acme" not in text
    assert "header:x-lobstack-provider: acme -> @everyone" in capsys.readouterr().out


def test_a_model_with_no_run_is_one_error_line(changed: Path, capsys) -> None:
    assert main(["drift", str(changed), "--model", "acme/other"]) == 2
    assert _one_error(capsys) == (
        f"error: no run of model 'acme/other' in {changed}; models there: acme/model"
    )


def test_a_run_dir_with_no_results_is_named_not_skipped(
    changed: Path, tmp_path: Path, capsys
) -> None:
    """A parent of runs with one run never scored (an empty reports/history/<run>): one error naming
    it, where drift used to test the other runs as if that one had never been."""
    shutil.copytree(changed, tmp_path / "h")
    (tmp_path / "h" / "run-099").mkdir()
    assert main(["drift", str(tmp_path / "h")]) == 2
    assert _one_error(capsys) == (
        f"error: {tmp_path / 'h' / 'run-099'}: no results.json (a run that was never scored?)"
    )


def test_an_unwritable_markdown_file_is_bad_usage_before_reading(changed: Path, capsys) -> None:
    assert main(["drift", str(changed), "--markdown", str(changed / "missing" / "c.md")]) == 2
    assert "--markdown" in _one_error(capsys)


def test_runs_of_one_date_are_ordered_by_id_with_numbers_as_numbers(tmp_path: Path, capsys) -> None:
    """r10 comes after r9 (text order put it before r2), and a lone run is "1 run"."""
    ids = ["r10", "r2", "r1", "r9", "r11"]  # written in no order: the order is drift's
    for run_id in ids:
        doc = results_doc("acme/model", run_id, "2026-01-01", {"c1": ["passed"]})
        (tmp_path / run_id).mkdir()
        (tmp_path / run_id / "results.json").write_text(json.dumps(doc), encoding="utf-8")
    assert main(["drift", str(tmp_path), "--verbose"]) == 0
    out = capsys.readouterr().out
    listed = [line.split()[0] for line in out.split("runs: id")[1].splitlines()[1:]]
    assert listed == ["r1", "r2", "r9", "r10", "r11"]
    for run_id in ids[1:]:
        shutil.rmtree(tmp_path / run_id)
    comment = tmp_path.parent / "one.md"
    assert main(["drift", str(tmp_path), "--markdown", str(comment)]) == 0
    out = capsys.readouterr().out
    assert out.splitlines()[:2] == [
        "drift: not tested yet: 1 run since 2026-01-01; the test needs 11 runs (the first 10 "
        "only learn each case's pass rate)",
        "model acme/model (lobstack-tool-calling 1.2.0): 1 run, 2026-01-01 to 2026-01-01",
    ]
    text = comment.read_text(encoding="utf-8")
    assert "; 1 run, 2026-01-01 to 2026-01-01." in text and "\n\n**Last 1 run**\n\n" in text
    assert not re.search(r"\b1 runs", out + text)
