"""One command for a history (issue 41 item 7), timed: ``drift cassettes/history --model M``
straight from the committed recordings (scored in memory), and ``rescore cassettes/history``
(every run in one process) against the old way, one ``rescore`` per run.

Each command is the CLI in a subprocess, start-up included; best of ``--repeat`` (3) wall times,
with the CPU seconds of that run (children included) and the 1-minute load average beside it,
because the machine is shared. Goal: drift exits 1 naming the change for ref/drifting and 0 for
ref/flaky, each in under 10 s on 2 cores.

Usage: ``uv run python benchmarks/drift_history.py [--repeat N] [--per-run]`` (``--per-run`` also
times the 20 one-run rescores: about a minute).
"""

from __future__ import annotations

import argparse
import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
HISTORY = ROOT / "cassettes" / "history"
CLI = [sys.executable, "-m", "lobstack_eval"]


def timed(argv: list[str]) -> tuple[float, float, int, str]:
    """(wall s, CPU s of the child, exit code, first stdout line) of one CLI run."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    done = subprocess.run([*CLI, *argv], cwd=ROOT, capture_output=True, text=True, check=False)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall, cpu, done.returncode, (done.stdout.splitlines() or [""])[0]


def best(argv: list[str], repeat: int) -> tuple[float, float, int, str, float]:
    runs = []
    for _ in range(repeat):
        runs.append((*timed(argv), os.getloadavg()[0]))
    return min(runs)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--per-run", action="store_true")
    args = parser.parse_args()
    print(f"{len(list(HISTORY.iterdir()))} runs in {HISTORY}; best of {args.repeat}")
    for model, code in (("ref/drifting", 1), ("ref/flaky", 0)):
        wall, cpu, got, line, load = best(["drift", str(HISTORY), "--model", model], args.repeat)
        met = "met" if got == code and wall < 10 else "missed"
        print(f"  drift {model}: {wall:5.2f} s wall, {cpu:5.2f} s CPU, exit {got} (want {code}), "
              f"load {load:.1f}: {met}: {line}", flush=True)  # fmt: skip
    with tempfile.TemporaryDirectory() as tmp:
        out, rows = Path(tmp) / "reports", Path(tmp) / "rows"
        argv = ["rescore", str(HISTORY), "--out", str(out), "--rows", str(rows), "-q", "--no-html"]
        wall, cpu, got, _line = timed(argv)
        print(f"  rescore cassettes/history: {wall:5.2f} s wall, {cpu:5.2f} s CPU, exit {got}, "
              f"load {os.getloadavg()[0]:.1f}", flush=True)  # fmt: skip
        if args.per_run:
            total_wall = total_cpu = 0.0
            for run in sorted(HISTORY.iterdir()):
                one = Path(tmp) / "one" / run.name
                w, c, _g, _l = timed(["rescore", str(run), "--out", str(one), "-q", "--no-html"])
                total_wall, total_cpu = total_wall + w, total_cpu + c
            print(f"  20 x rescore RUN: {total_wall:5.2f} s wall, {total_cpu:5.2f} s CPU")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
