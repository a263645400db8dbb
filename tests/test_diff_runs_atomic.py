"""diff runs writes --junit, --markdown and --html whole or not at all: a write that fails leaves
the old file."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

RUNS = Path(__file__).parent / "fixtures" / "runs"
BASE, CAND = RUNS / "base", RUNS / "cand"
OLD = b"the previous run's file\n"
LIMIT = 64  # bytes a process may write into one file: every output below is larger, OLD is smaller
OPTIONS = ("--junit", "--markdown", "--html")
END = "--- diff runs exited with"  # said on stderr, with the exit code, after each run's lines

# The child runs diff runs once per option with files capped at LIMIT bytes (RLIMIT_FSIZE, SIGXFSZ
# ignored so a write past it fails with EFBIG instead of killing the process): a disk filling up
# half way through the write. Each run's stderr ends with a line of END and its exit code (stderr is
# a pipe, which the limit does not cap). One child for the three: a Python start and the CLI's
# imports are most of its CPU (about 0.45 s a child).
CHILD = """
import json, resource, signal, sys
signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
resource.setrlimit(resource.RLIMIT_FSIZE, ({limit}, resource.getrlimit(resource.RLIMIT_FSIZE)[1]))
from lobstack_eval.main import main
for args in json.loads(sys.argv[1]):
    code = main(args)
    print({end!r}, code, file=sys.stderr, flush=True)
"""


@pytest.fixture(scope="module")
def failed_writes(tmp_path_factory: pytest.TempPathFactory) -> dict[str, tuple[Path, int, str]]:
    """Option -> (its folder, holding only ``out`` with OLD before the run; the run's exit code;
    its stderr), every option's diff runs in one child under the limit."""
    folders = {option: tmp_path_factory.mktemp(option.strip("-")) for option in OPTIONS}
    runs = []
    for option, folder in folders.items():
        (folder / "out").write_bytes(OLD)
        args = ["diff", "runs", str(BASE), str(CAND), option, str(folder / "out")]
        runs.append(args + (["--model", "ref/noisy"] if option == "--html" else []))
    done = subprocess.run(
        [sys.executable, "-c", CHILD.format(limit=LIMIT, end=END), json.dumps(runs)],
        capture_output=True,
        text=True,
        timeout=120,
        env={**os.environ, "LOBSTACK_CACHE_DIR": "", "PYTHONDONTWRITEBYTECODE": "1"},
    )
    assert done.returncode == 0, done.stderr
    *parts, rest = re.split(f"^{re.escape(END)} (-?\\d+)\n", done.stderr, flags=re.M)
    assert rest == "" and len(parts) == 2 * len(OPTIONS), done.stderr
    return {
        option: (folder, int(code), err)
        for (option, folder), err, code in zip(
            folders.items(), parts[::2], parts[1::2], strict=True
        )
    }


@pytest.mark.skipif(sys.platform == "win32", reason="RLIMIT_FSIZE is POSIX")
@pytest.mark.parametrize("option", OPTIONS)
def test_a_failed_write_leaves_the_old_file_whole(
    failed_writes: dict[str, tuple[Path, int, str]], option: str
) -> None:
    folder, code, err = failed_writes[option]
    out = folder / "out"
    assert code == 1, err
    assert err.splitlines()[-1] == f"error: {out}: cannot write: File too large"
    assert out.read_bytes() == OLD
    assert sorted(p.name for p in folder.iterdir()) == ["out"]  # no temp file left behind
