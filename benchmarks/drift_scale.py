"""``lobstack-eval drift DIR`` on long histories: 1,000, 4,000 and 10,000 daily runs of 80 cases.

Issue 42: loading a parent dir of runs was quadratic (each run dir was tested against every
results.json found: 1,000 runs 3 s, 4,000 runs 54 s, 10,000 over 300 s); the goal is ``drift`` on
10,000 runs in under 10 s. Each history is written before any clock starts (compact results.json
files with the ``run`` object rescore writes, seeded pass/fail draws at the noisy profile's rates).
Printed per size: the loading (``replay.drift.load.load_history``: finding, reading, checking and
tallying every file), the test (``scorer.drift.history.analyse``, with its day-effect permutation
check, ``scorer.drift.dispersion``, shown apart), both in this process, and the CLI end to end in a
subprocess (start-up included). Loading should grow linearly: its time per run is printed.

Usage: ``uv run python benchmarks/drift_scale.py [--runs 1000,4000,10000] [--repeat N] [--check]``
(``--check``: exit 1 when the CLI on the largest history takes 10 s or more). ~2 min.
"""

from __future__ import annotations

import argparse
import datetime
import json
import random
import shutil
import subprocess
import tempfile
import time
from pathlib import Path

from benchmarks._common import best_of, cli_command, load_average
from benchmarks.drift import CASES, NOISY
from scorer.summary import METRICS

GOAL_S = 10.0
START = datetime.date(2026, 1, 1)


def write_history(root: Path, runs: int, seed: int = 1) -> None:
    """``runs`` daily runs as ``root/run-N/results.json``, each case passed with its noisy-profile
    probability."""
    rng = random.Random(seed)
    metric = {"count": 1, "of": 2, "rate": 50.0, "ci": [10.0, 90.0]}
    metrics = {name: metric for name in METRICS}
    suite = {"name": "lobstack-tool-calling", "version": "1.2.0", "sha256": "0" * 64}
    identity = {"model": ["acme/model-1"], "system_fingerprint": ["fp_1"], "routing": {}}
    for n in range(1, runs + 1):
        results = [
            {"id": c, "group": "g", "status": "passed" if rng.random() < p else "failed"}
            for c, p in zip(CASES, NOISY, strict=True)
        ]
        day = (START + datetime.timedelta(days=n - 1)).isoformat()
        doc = {
            "format_version": 1,
            "model": "acme/model",
            "suite": suite,
            "metrics": metrics,
            "results": results,
            "run": {"id": f"run-{n}", "date": day, "recorded_at": None, "identity": identity},
        }
        folder = root / f"run-{n}"
        folder.mkdir(parents=True)
        (folder / "results.json").write_text(json.dumps(doc), encoding="utf-8")


def measure(root: Path, repeat: int) -> tuple[float, float, float, float]:
    """(load s, analyse s, of which the dispersion check s, CLI wall s), each the best of
    ``repeat``."""
    import scorer.drift.history as drift_history
    from replay.drift.load import load_history

    load, runs = best_of(repeat, lambda: load_history([root]))
    spent = [float("inf")]
    check = drift_history.dispersion

    def timed(*args: object, **kwargs: object) -> object:
        started = time.perf_counter()
        value = check(*args, **kwargs)  # type: ignore[arg-type]
        spent[0] = min(spent[0], time.perf_counter() - started)
        return value

    drift_history.dispersion = timed  # type: ignore[assignment]
    try:
        analyse, _ = best_of(repeat, lambda: drift_history.analyse(runs))
    finally:
        drift_history.dispersion = check
    command = [*cli_command(), "drift", str(root)]
    cli, code = best_of(repeat, lambda: subprocess.run(command, capture_output=True).returncode)
    if code not in (0, 1):
        raise SystemExit(f"drift exited {code} on {root}")
    return load, analyse, spent[0], cli


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", default="1000,4000,10000")
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--check", action="store_true")
    args = parser.parse_args()
    sizes = [int(n) for n in args.runs.split(",")]
    print(f"drift DIR, 80 cases a run, best of {args.repeat}, load average {load_average()}")
    print("   runs   load (ms/run)   analyse (dispersion)   CLI wall")
    cli = 0.0
    for size in sizes:
        root = Path(tempfile.mkdtemp(prefix="bench-drift-"))
        try:
            write_history(root, size)
            load, analyse, dispersion, cli = measure(root, args.repeat)
        finally:
            shutil.rmtree(root, ignore_errors=True)
        print(
            f"{size:>7}   {load:5.2f} s ({1000 * load / size:4.2f})   "
            f"{analyse:6.2f} s ({dispersion:5.2f} s)       {cli:6.2f} s"
        )
    met = cli < GOAL_S
    print(f"goal: drift on {sizes[-1]} runs < {GOAL_S:.0f} s: {'met' if met else 'missed'}")
    return 1 if args.check and not met else 0


if __name__ == "__main__":
    raise SystemExit(main())
