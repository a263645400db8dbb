"""diff runs writes --junit, --markdown and --html whole or not at all: a write that fails leaves
the old file."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

RUNS = Path(__file__).parent / "fixtures" / "runs"
BASE, CAND = RUNS / "base", RUNS / "cand"
OLD = b"the previous run's file\n"
LIMIT = 64  # bytes a process may write into one file: every output below is larger, OLD is smaller

# The child runs diff runs with files capped at LIMIT bytes (RLIMIT_FSIZE, SIGXFSZ ignored so a
# write past it fails with EFBIG instead of killing the process): a disk filling up half way through
# the write.
CHILD = """
import resource, signal, sys
signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
resource.setrlimit(resource.RLIMIT_FSIZE, ({limit}, resource.getrlimit(resource.RLIMIT_FSIZE)[1]))
from lobstack_eval.main import main
sys.exit(main(sys.argv[1:]))
"""


@pytest.mark.skipif(sys.platform == "win32", reason="RLIMIT_FSIZE is POSIX")
@pytest.mark.parametrize("option", ["--junit", "--markdown", "--html"])
def test_a_failed_write_leaves_the_old_file_whole(tmp_path: Path, option: str) -> None:
    out = tmp_path / "out"
    out.write_bytes(OLD)
    args = [str(BASE), str(CAND), option, str(out)] + (
        ["--model", "ref/noisy"] if option == "--html" else []
    )
    done = subprocess.run(
        [sys.executable, "-c", CHILD.format(limit=LIMIT), "diff", "runs", *args],
        capture_output=True,
        text=True,
        timeout=120,
        env={**os.environ, "LOBSTACK_CACHE_DIR": "", "PYTHONDONTWRITEBYTECODE": "1"},
    )
    assert done.returncode == 1, done.stderr
    assert done.stderr.splitlines()[-1] == f"error: {out}: cannot write: File too large"
    assert out.read_bytes() == OLD
    assert sorted(p.name for p in tmp_path.iterdir()) == ["out"]  # no temp file left behind
