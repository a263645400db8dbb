"""A reader that stops early (`lobstack-eval rescore cassettes/ | head -1`) ends the output quietly:
no error line, exit 1 (rich's and Python's convention: the output was cut short), and the work
already done is kept. Both kinds of printing are tried: rich's tables (rescore) and plain lines
(diff runs)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from tests.conftest import ROOT, other_lines


def _closed_pipe(args: list[str]) -> tuple[int, str]:
    command = [sys.executable, "-c", "from lobstack_eval.main import run; run()", *args]
    proc = subprocess.Popen(command, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    assert proc.stdout is not None and proc.stderr is not None
    proc.stdout.close()  # the reader is gone before the first line is printed
    err = proc.stderr.read().decode()
    return proc.wait(timeout=300), err


def test_a_closed_pipe_ends_a_table_without_an_error_line(tmp_path: Path) -> None:
    out = tmp_path / "out"
    code, err = _closed_pipe(["rescore", str(ROOT / "cassettes"), "--out", str(out), "--no-html"])
    assert (code, other_lines(err)) == (1, [])
    assert (
        out / "leaderboard.md"
    ).is_file()  # the files are written before the leaderboard is printed


def test_a_closed_pipe_ends_plain_lines_without_an_error_line(tmp_path: Path) -> None:
    junit = tmp_path / "junit.xml"
    code, err = _closed_pipe(
        ["diff", "runs", str(ROOT / "reports"), str(ROOT / "reports"), "--junit", str(junit)]
    )
    assert (code, err) == (1, "")
    assert junit.is_file()
