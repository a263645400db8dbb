"""The record goal of benchmarks/run.py: ``ref/oracle``'s cases against the stand-in at 200 ms,
concurrency 8.

The stand-in gateway runs in a process of its own (``lobstack-eval gateway``), so the recorder
shares no interpreter with it. Each repetition records every case into a fresh dir twice:
``recorder.record.record`` in a fresh Python (timed from the call, with vcrpy and requests imported
and the suite read before it: the pool's start-up is included) and the CLI (timed from the start of
the process). What the chains allow is the shortest schedule of the recorded cases, each case's
requests one after another on one worker (``run.json`` counts them), on ``concurrency`` workers:
longest first, which here reaches the lower bound ``max(ceil(requests / workers), longest chain)``
and is then the optimum.
"""

from __future__ import annotations

import heapq
import json
import math
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

from benchmarks._common import ROOT, cli_command, load_average

RECORD_GOAL = 1.1
SUITE = ROOT / "evals" / "suite.json"
MODEL = "ref/oracle"
LATENCY_MS = 200
CONCURRENCY = 8
# Runs record() in a fresh interpreter and prints its wall time. What the recorder imports (vcrpy,
# requests) and the suite (read to list the case ids) are loaded before the clock starts, as in a
# process that records again; the CLI's figure has them.
CHILD = """
import json, sys, time
from pathlib import Path
import recorder.record_case, requests, vcr
from recorder.files import read_suite
from recorder.record import record
from recorder.settings import RecordSettings
suite, cassettes, url = Path(sys.argv[1]), Path(sys.argv[2]), sys.argv[3]
concurrency = int(sys.argv[4])
ids = [case.id for case in read_suite(suite).cases]
started = time.perf_counter()
record(suite, "ref/oracle", cassettes, url, ids, RecordSettings(concurrency=concurrency))
print(json.dumps({"seconds": time.perf_counter() - started}))
"""


def chains_allow(
    requests_per_case: list[int], workers: int, latency_s: float
) -> tuple[float, float]:
    """(longest-first schedule's makespan, lower bound) in seconds, for cases of that many
    requests in a row."""
    loads = [0] * workers
    for n in sorted(requests_per_case, reverse=True):
        heapq.heapreplace(loads, loads[0] + n)
    bound = max(math.ceil(sum(requests_per_case) / workers), max(requests_per_case))
    return max(loads) * latency_s, bound * latency_s


def requests_per_case(model_dir: Path) -> list[int]:
    """How many requests each recorded case made (its attempts in run.json)."""
    manifest = json.loads((model_dir / "run.json").read_text(encoding="utf-8"))
    return [len(entry["attempts"]) for entry in manifest["cases"].values()]


def _gateway() -> tuple[subprocess.Popen[str], str]:
    command = [
        *cli_command(),
        "gateway",
        "--port",
        "0",
        "--latency-ms",
        str(LATENCY_MS),
        "--suite",
        str(SUITE),
    ]
    process = subprocess.Popen(command, cwd=ROOT, stdout=subprocess.PIPE, text=True)
    assert process.stdout is not None
    line = process.stdout.readline()  # "Stand-in gateway on http://127.0.0.1:PORT/v1 (models: ...)"
    url = next((word for word in line.split() if word.startswith("http://127.0.0.1:")), None)
    if url is None:
        process.kill()
        raise SystemExit(f"the stand-in gateway did not start: {line!r}")
    return process, url


def measure_record(repeat: int, tmp: Path) -> dict[str, Any]:
    """Best of ``repeat``: record() in a fresh process and the CLI; what the chains allow; the
    load average."""
    gateway, url = _gateway()
    best: dict[str, Any] = {"wall_s": math.inf, "cli_s": math.inf}
    try:
        for rep in range(repeat):
            lib_dir, cli_dir = tmp / f"lib{rep}", tmp / f"cli{rep}"
            out = subprocess.run(
                [sys.executable, "-c", CHILD, str(SUITE), str(lib_dir), url, str(CONCURRENCY)],
                cwd=ROOT,
                check=True,
                capture_output=True,
                text=True,
            ).stdout
            seconds = json.loads(out.strip().splitlines()[-1])["seconds"]
            if seconds < best["wall_s"]:
                best.update(wall_s=seconds, load=load_average())
            command = [
                *cli_command(),
                "record",
                "--model",
                MODEL,
                "--suite",
                str(SUITE),
                "--cassettes",
                str(cli_dir),
            ]
            command += ["--base-url", url, "--concurrency", str(CONCURRENCY)]
            started = time.perf_counter()
            subprocess.run(
                command, cwd=ROOT, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
            )
            best["cli_s"] = min(best["cli_s"], time.perf_counter() - started)
            counts = requests_per_case(lib_dir / "ref_oracle")
            if len(counts) != 80 or requests_per_case(cli_dir / "ref_oracle") != counts:
                raise SystemExit(
                    f"setup broken: {len(counts)} cases recorded, or the CLI recorded other chains"
                )
    finally:
        gateway.terminate()
        gateway.wait(10)
    best["allowed_s"], best["bound_s"] = chains_allow(counts, CONCURRENCY, LATENCY_MS / 1000)
    best["requests"] = sum(counts)
    return best
