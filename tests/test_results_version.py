"""Every reader of results.json refuses a ``format_version`` it does not know, with run.json's line
(METHOD decision 118): ``diff runs`` (each bad file named, decision 93), ``report``; ``merge``
and the pytest plugin's baseline are in test_merge.py and test_pytest_plugin.py. And
``leaderboard`` takes a cases.parquet file for its reports dir (decision 119)."""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import pytest

from lobstack_eval.main import main
from tests.conftest import ROOT

SUITE = ROOT / "evals" / "suite.json"
UNKNOWN = (
    "format_version: 99 is not one this lobstack-eval reads (1); a newer lobstack-eval "
    "wrote it, or it is corrupt"
)


@pytest.fixture
def runs(tmp_path: Path) -> tuple[Path, Path]:
    """Two copies of the committed reports: A the baseline, B the candidate."""
    a, b = tmp_path / "A", tmp_path / "B"
    for run in (a, b):
        shutil.copytree(ROOT / "reports", run)
    return a, b


def set_version(path: Path, value: Any) -> None:
    data = json.loads(path.read_text(encoding="utf-8"))
    if value is None:
        del data["format_version"]
    else:
        data["format_version"] = value
    path.write_text(json.dumps(data, indent=2), encoding="utf-8")


def test_diff_runs_refuses_an_unknown_results_version(  # type: ignore[no-untyped-def]
    runs: tuple[Path, Path],
    capsys,
) -> None:
    """The trial's repro: B/auto/results.json says 99; the gate stops with the file and the
    field, exit 1."""
    a, b = runs
    bad = b / "auto" / "results.json"
    set_version(bad, 99)
    assert main(["diff", "runs", str(a), str(b), "--fail-on-regression"]) == 1
    captured = capsys.readouterr()
    assert captured.err == f"error: {bad}: {UNKNOWN}\n"
    assert captured.out == ""


def test_diff_runs_names_every_file_of_another_version(  # type: ignore[no-untyped-def]
    runs: tuple[Path, Path],
    capsys,
) -> None:
    a, b = runs
    set_version(a / "ref_abstain" / "results.json", 2)
    set_version(
        b / "auto" / "results.json", True
    )  # JSON true is no version, though Python's True == 1
    set_version(b / "ref_noisy" / "results.json", "1")
    assert main(["diff", "runs", str(a), str(b)]) == 1
    assert capsys.readouterr().err.splitlines() == [
        f"error: {a / 'ref_abstain' / 'results.json'}: {UNKNOWN.replace('99', '2')}",
        f"error: {b / 'auto' / 'results.json'}: {UNKNOWN.replace('99', 'True')}",
        f"error: {b / 'ref_noisy' / 'results.json'}: {UNKNOWN.replace('99', repr('1'))}",
    ]


def test_a_results_file_without_format_version_reads_as_1(  # type: ignore[no-untyped-def]
    runs: tuple[Path, Path],
    capsys,
) -> None:
    """As run.json: a missing format_version is version 1, so the comparison runs and finds
    nothing changed."""
    a, b = runs
    set_version(b / "auto" / "results.json", None)
    assert main(["diff", "runs", str(a), str(b), "--fail-on-regression"]) == 0
    assert "error" not in capsys.readouterr().err


def test_report_refuses_an_unknown_results_version_and_shows_the_rest(
    runs: tuple[Path, Path], capsys
) -> None:  # type: ignore[no-untyped-def]
    _a, b = runs
    bad = b / "auto" / "results.json"
    set_version(bad, 99)
    assert main(["report", str(b), "--suite", str(SUITE)]) == 1
    captured = capsys.readouterr()
    assert captured.err == f"error: {bad}: {UNKNOWN}\n"
    assert captured.out == f"wrote {b / 'index.html'} without 1 unreadable results file(s)\n"
    page = (b / "index.html").read_text(encoding="utf-8")
    assert "ref/abstain" in page and '"model": "auto"' not in page


def test_leaderboard_takes_a_cases_parquet_file_for_its_reports_dir(  # type: ignore[no-untyped-def]
    tmp_path: Path,
    capsys,
) -> None:
    """The trial's repro: ``leaderboard reports/cases.parquet`` said ``no such rows directory``; it
    is the board of that reports dir, byte for byte the one ``leaderboard reports`` writes."""
    by_file, by_dir = tmp_path / "file", tmp_path / "dir"
    assert (
        main(["leaderboard", str(ROOT / "reports" / "cases.parquet"), "--out", str(by_file), "-q"])
        == 0
    )
    assert main(["leaderboard", str(ROOT / "reports"), "--out", str(by_dir), "-q"]) == 0
    for name in ("leaderboard.md", "leaderboard.csv"):
        assert (
            (by_file / name).read_bytes()
            == (by_dir / name).read_bytes()
            == (ROOT / "reports" / name).read_bytes()
        )
    capsys.readouterr()


def test_leaderboard_on_another_file_says_what_it_takes(  # type: ignore[no-untyped-def]
    tmp_path: Path,
    capsys,
) -> None:
    other = ROOT / "reports" / "calls.parquet"
    assert main(["leaderboard", str(other), "--out", str(tmp_path), "-q"]) == 2
    assert capsys.readouterr().err == (
        f"error: {other}: not a rows dataset dir or a reports dir; pass a dir (or its "
        "cases.parquet)\n"
    )
