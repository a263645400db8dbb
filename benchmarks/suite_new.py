"""Benchmark of a suite of one's own tools (issue 32), from a real MCP server to its audit.

``suite new --mcp mcp-server-git`` (the real server over
stdio), then ``suite check`` and ``suite audit`` of the suite it wrote, each the CLI in a
subprocess, start-up included.

Goal: the three together under 10 s, the audit's mutation score >= 90% with every right
answer accepted.

    uv run python benchmarks/suite_new.py [--repeat 3] [--check]
"""

from __future__ import annotations

import argparse
import json
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))  # run as a plain script from anywhere

from benchmarks._common import cli_command, load_average  # noqa: E402

GOAL_S = 10.0
SERVER = Path(sys.executable).with_name("mcp-server-git")


def _timed(args: list[str], cwd: Path) -> float:
    started = time.perf_counter()
    subprocess.run([*cli_command(), *args], cwd=cwd, check=True, capture_output=True, timeout=300)
    return time.perf_counter() - started


def one_run(folder: Path) -> tuple[dict[str, float], dict[str, int]]:
    """Seconds per step and the audit's summary, in an empty ``folder``."""
    times = {
        "suite new --mcp": _timed(
            ["suite", "new", "suite.json", "--mcp", str(SERVER), "--force"], folder
        ),
        "suite check": _timed(["suite", "check", "suite.json"], folder),
        "suite audit": _timed(["suite", "audit", "suite.json", "--json", "audit.json"], folder),
    }
    summary = json.loads((folder / "audit.json").read_text(encoding="utf-8"))["summary"]
    return times, summary


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--check", action="store_true")
    options = parser.parse_args(argv)
    folder = Path(tempfile.mkdtemp(prefix="bench-suite-new-"))
    try:
        best: dict[str, float] = {}
        summary: dict[str, int] = {}
        for _ in range(options.repeat):
            times, summary = one_run(folder)
            for step, seconds in times.items():
                best[step] = min(best.get(step, seconds), seconds)
    finally:
        shutil.rmtree(folder, ignore_errors=True)
    total = sum(best.values())
    score = summary["mutants_killed"] / summary["mutants_tried"]
    print(f"load average {load_average()}; best of {options.repeat}")
    for step, seconds in best.items():
        print(f"{step:<18} {seconds:6.2f} s")
    print(f"{'total':<18} {total:6.2f} s (goal < {GOAL_S:.0f} s)")
    print(
        f"audit: {summary['mutants_killed']}/{summary['mutants_tried']} wrong answers killed "
        f"({100 * score:.1f}%), {summary['rights_accepted']}/{summary['rights_tried']} right "
        "answers accepted"
    )
    met = total < GOAL_S and score >= 0.9 and summary["rights_accepted"] == summary["rights_tried"]
    return 1 if options.check and not met else 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
