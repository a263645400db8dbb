"""The terminal leaderboard fits the width it is given: no line over it, every model shown, the
columns left out named with where to see them, no trailing space; a pipe gets every column;
partial models carry scored/total."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest
from rich.cells import cell_len

from lobstack_eval.main import main
from recorder.files import read_suite
from replay.leaderboard.text import terminal_lines, terminal_width
from replay.results.read import results_of
from tests.conftest import ROOT

REPORTS = ROOT / "reports"
DOCUMENTS = [
    json.loads(p.read_text(encoding="utf-8")) for p in sorted(REPORTS.glob("*/results.json"))
]
SUITE = read_suite(ROOT / "evals" / "suite.json")
MODELS = [doc["model"] for doc in DOCUMENTS]
HEADERS = (
    "Overall",
    "Right",
    "Valid",
    "Made-up",
    "Chains",
    "Parallel",
    "No call",
    "p50",
    "$ per",
    "Errored",
    "Temp.",
)


def _typed(documents: list[dict]) -> list:
    return [results_of(d).summary for d in documents]


def _check(lines: list[str], width: int | None) -> str:
    for line in lines:
        assert line == line.rstrip(), f"trailing space: {line!r}"
        if width is not None:
            assert cell_len(line) <= width, f"{cell_len(line)} > {width}: {line!r}"
    text = "\n".join(lines)
    for model in MODELS:
        assert model in text
    return text


@pytest.mark.parametrize("width", [60, 80, 100])
def test_a_narrow_terminal_gets_fewer_columns_and_a_line_naming_them(width: int) -> None:
    text = _check(
        terminal_lines(_typed(DOCUMENTS), SUITE, width, ["reports/leaderboard.md"]), width
    )
    assert f"Not shown at {width} columns: " in text
    assert "reports/leaderboard.md" in text
    assert "Temp. ignored" in text.split("Not shown", 1)[1]  # the first column to go
    assert "Overall" in text.split("Not shown", 1)[0]


@pytest.mark.parametrize("width", [200, None])
def test_a_wide_terminal_or_a_pipe_gets_every_column(width: int | None) -> None:
    text = _check(terminal_lines(_typed(DOCUMENTS), SUITE, width), width)
    assert "Not shown" not in text
    for header in HEADERS:
        assert header in text


def test_a_very_narrow_terminal_wraps_long_names_and_keeps_overall() -> None:
    documents = [{**DOCUMENTS[0], "model": "vendor/" + "x" * 60}]
    lines = terminal_lines(_typed(documents), SUITE, 40)
    assert all(cell_len(line) <= 40 for line in lines)
    assert "x" * 20 in "\n".join(lines) and "Overall" in lines[1] + lines[2]


def test_a_partial_model_carries_scored_over_total_under_its_overall() -> None:
    lines = terminal_lines(_typed(DOCUMENTS), SUITE, 80)
    row = next(i for i, line in enumerate(lines) if line.startswith("ref/error-in-200 "))
    assert lines[row + 2].strip() == "(72/80)"  # rate, interval, then the mark
    assert (
        "Partial (scored/total; the rest errored or unrecorded): ref/error-in-200 72/80." in lines
    )
    complete = next(i for i, line in enumerate(lines) if line.startswith("ref/oracle "))
    assert lines[complete + 2].startswith(
        "ref/reasoning "
    )  # a complete model: rate and interval, no mark


def test_terminal_width_reads_columns_then_the_tty_and_is_unlimited_for_a_pipe(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("COLUMNS", "73")
    assert terminal_width(io.StringIO()) == 73
    monkeypatch.delenv("COLUMNS")
    assert terminal_width(io.StringIO()) is None


@pytest.mark.parametrize("command", ["rescore", "leaderboard"])
def test_the_cli_at_80_columns(
    command: str,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    """The acceptance of issue 25: ``COLUMNS=80 lobstack-eval rescore cassettes/``, every model,
    no line over 80."""
    monkeypatch.setenv("COLUMNS", "80")
    monkeypatch.chdir(tmp_path)
    out = Path("out")
    if command == "rescore":
        args = ["rescore", str(ROOT / "cassettes"), "--out", str(out), "--no-html"]
        # in-process: the width does not depend on the pool, which costs a forkserver's processes
        # in a test worker (docs/decisions/testing.md#waits)
        args += ["--workers", "1"]
    else:
        args = ["leaderboard", str(REPORTS), "--out", str(out)]
    assert main(args) == 0
    table = capsys.readouterr().out.split("\nPaired test", 1)[0].split("\nSmallest Overall", 1)[0]
    text = _check(table.splitlines(), 80)
    assert f"every column: {out / 'leaderboard.md'}" in text.replace("\n", " ")


def test_leaderboard_without_out_prints_and_writes_nothing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """README's ``leaderboard reports/`` left an untracked ``leaderboard/`` folder where it ran
    (issue 25)."""
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("COLUMNS", raising=False)
    assert main(["leaderboard", str(REPORTS)]) == 0
    assert list(tmp_path.iterdir()) == []
    captured = capsys.readouterr()
    _check(captured.out.splitlines(), None)
    assert "--out DIR writes leaderboard.md and leaderboard.csv" in captured.err


def test_a_board_with_repeats_fits_and_keeps_k_pass_k_and_flaky() -> None:
    documents = []
    for doc in DOCUMENTS:
        doc = {
            **doc,
            "repeats": 3,
            "case_runs": {"total": 240, "scored": 240, "errored": 0, "unrecorded": 0},
        }
        extra = {"rate": 50.0, "ci": [40.0, 60.0], "count": 40, "of": 80}
        doc["metrics"] = {**doc["metrics"], "pass_all_k": extra, "flaky": extra}
        documents.append(doc)
    text = _check(terminal_lines(_typed(documents), SUITE, 80), 80)
    header = text.split("─", 1)[0]
    assert " K " in header and "pass^k" in header and "Flaky" in header
    assert "Partial" not in text  # every case-run scored
