"""Running a command under a measuring wrapper: its wall time and peak memory (largest process,
whole tree)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import threading

from benchmarks._common import ROOT

SAMPLE_S = 0.02


# Runs a command, then prints its wall time and the largest descendant's peak RSS (KiB on Linux)
# as JSON.
WRAPPER = """
import json, resource, subprocess, sys, time
started = time.perf_counter()
code = subprocess.call(sys.argv[1:], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
wall = time.perf_counter() - started
rss = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
print(json.dumps({"code": code, "wall_s": wall, "maxrss_kb": rss}))
"""


def _process_tree(root_pid: int) -> list[int]:
    """``root_pid``'s descendants (not itself), from /proc."""
    children: dict[int, list[int]] = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat", encoding="utf-8") as handle:
                stat = handle.read()
        except OSError:
            continue
        parent = int(stat.rsplit(")", 1)[1].split()[1])
        children.setdefault(parent, []).append(int(entry))
    found, todo = [], [root_pid]
    while todo:
        for child in children.get(todo.pop(), []):
            found.append(child)
            todo.append(child)
    return found


def _rss_kb(pid: int) -> int:
    try:
        with open(f"/proc/{pid}/status", encoding="utf-8") as handle:
            for line in handle:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1])
    except OSError:
        pass
    return 0


def run_measured(command: list[str], env: dict[str, str] | None = None) -> dict[str, float]:
    """Run ``command`` under the wrapper: wall seconds, largest process's peak RSS and sampled
    tree peak RSS (MB)."""
    wrapper = subprocess.Popen(
        [sys.executable, "-c", WRAPPER, *command],
        cwd=ROOT,
        stdout=subprocess.PIPE,
        text=True,
        env=env,
    )
    peak_tree_kb = 0
    stop = threading.Event()

    def sample() -> None:
        nonlocal peak_tree_kb
        while not stop.wait(SAMPLE_S):
            peak_tree_kb = max(
                peak_tree_kb, sum(_rss_kb(pid) for pid in _process_tree(wrapper.pid))
            )

    sampler = threading.Thread(target=sample, daemon=True)
    sampler.start()
    try:
        out, _ = wrapper.communicate()
    finally:
        stop.set()
        sampler.join()
    result = json.loads(out.strip().splitlines()[-1])
    if result["code"] != 0:
        raise SystemExit(f"{' '.join(command)} exited {result['code']}")
    return {
        "wall_s": result["wall_s"],
        "maxrss_mb": result["maxrss_kb"] / 1024,
        "tree_mb": peak_tree_kb / 1024,
    }
