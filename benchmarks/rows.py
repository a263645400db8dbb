"""Benchmark of the rows: the leaderboard of 1,000 models x 80 cases x 5 repeats (400,000 rows).

Goals (issue 20): ``lobstack-eval leaderboard`` of all the rows and of one slice in under 2 s wall
time and under 1 GB peak RSS on 2 cores, start-up included; and for a one-model slice, memory that
does not grow with the number of partitions in the dataset.

    uv run python benchmarks/rows.py [--models 1000] [--repeat 3] [--check]

The rows are generated, not scored: each model's 80 cases are the committed
``reports/cases.parquet`` rows of one of the six reference models, repeated 5 times (repeat 1..5,
every repeat with full detail columns: the heaviest rows), with a seeded share of passed and failed
verdicts swapped in repeats 2..5 so models differ. They are written with the project's own writer
(``replay.rows.dataset.append``, 100 models a call), one partition per model, calls included, before
any clock starts.

Timed, best of ``--repeat``, each a ``lobstack-eval leaderboard ... -q`` subprocess (start-up
included) with the peak RSS of that process (``getrusage(RUSAGE_CHILDREN).ru_maxrss`` in a
small wrapper):
- all: every model, every case-run;
- slice: ``--group chains`` over every model;
- one model: ``--model`` of one model, in datasets of 10, 100 and ``--models`` partitions.
"""

from __future__ import annotations

import argparse
import json
import random
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))  # run as a plain script from anywhere

from benchmarks._common import bytecode_mode, cli_command, rerun_with_bytecode_cache  # noqa: E402

REPORTS = ROOT / "reports"
CASES, REPEATS = 80, 5
GOAL_S, GOAL_MB = 2.0, 1024.0
# Models per append: each append reads the footer of every partition of its version (METHOD decision
# 110), so one append per model would make generating 1,000 partitions quadratic.
BATCH = 100
WRAPPER = """
import json, resource, subprocess, sys, time
started = time.perf_counter()
code = subprocess.call(sys.argv[1:], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
wall = time.perf_counter() - started
rss = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
print(json.dumps({"code": code, "wall_s": wall, "maxrss_kb": rss}))
"""


def generate(root: Path, n_models: int, seed: int = 20) -> int:
    """Write ``n_models`` partitions of 80 x 5 case-runs (and their calls) under ``root``;
    returns the row count."""
    import polars as pl

    from replay.rows.dataset import append
    from replay.rows.schema import schema

    cases = pl.read_parquet(REPORTS / "cases.parquet")
    calls = pl.read_parquet(REPORTS / "calls.parquet")
    templates = sorted(set(cases["model_slug"]))
    rng = random.Random(seed)
    total = 0
    batch: dict[str, list[Any]] = {"cases": [], "calls": []}
    for m in range(n_models):
        template = templates[m % len(templates)]
        name, slug = f"bench/model-{m:04d}", f"bench_model-{m:04d}"
        swap = rng.uniform(0.02, 0.3)
        base = cases.filter(pl.col("model_slug") == template)
        runs = []
        for repeat in range(1, REPEATS + 1):
            flips = [repeat > 1 and rng.random() < swap for _ in range(base.height)]
            status = pl.when(pl.Series(flips) & (pl.col("status") == "passed")).then(
                pl.lit("failed")
            )
            status = status.when(pl.Series(flips) & (pl.col("status") == "failed")).then(
                pl.lit("passed")
            )
            run = base.with_columns(
                status.otherwise(pl.col("status")).alias("status"),
                pl.lit(repeat, pl.Int32).alias("repeat"),
            )
            overall = pl.when(pl.col("overall").is_not_null()).then(pl.col("status") == "passed")
            runs.append(run.with_columns(overall.alias("overall")))
        frame = pl.concat(runs).with_columns(
            pl.lit(name).alias("model"), pl.lit(slug).alias("model_slug")
        )
        frame = frame.select(list(schema("cases"))).sort("case_index", "repeat")
        own_calls = calls.filter(pl.col("model_slug") == template).with_columns(
            pl.lit(name).alias("model"), pl.lit(slug).alias("model_slug")
        )
        batch["cases"].append(frame)
        batch["calls"].append(own_calls)
        total += frame.height
        if len(batch["cases"]) == BATCH or m == n_models - 1:
            append(root, {table: pl.concat(frames) for table, frames in batch.items()})
            batch = {"cases": [], "calls": []}
    return total


def run_measured(command: list[str]) -> dict[str, Any]:
    """Run ``command`` in a wrapper; its wall time and the peak RSS of its process."""
    done = subprocess.run(
        [sys.executable, "-c", WRAPPER, *command], cwd=ROOT, capture_output=True, text=True
    )
    result = json.loads(done.stdout)
    if result["code"] != 0:
        raise SystemExit(f"{' '.join(command)} exited {result['code']}: {done.stderr.strip()}")
    return result


def best(command: list[str], repeat: int) -> tuple[float, float]:
    """The fastest wall time and the largest peak RSS (MB) of ``repeat`` runs."""
    runs = [run_measured(command) for _ in range(repeat)]
    return min(r["wall_s"] for r in runs), max(r["maxrss_kb"] for r in runs) / 1024


def load_average() -> str:
    return " ".join(Path("/proc/loadavg").read_text().split()[:3])


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    rerun = rerun_with_bytecode_cache(__file__, argv)
    if rerun is not None:
        return rerun
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--models", type=int, default=1000)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--check", action="store_true", help="exit 1 when a goal is missed")
    parser.add_argument("--no-bytecode-cache", action="store_true")
    args = parser.parse_args(argv)
    work = Path(tempfile.mkdtemp(prefix="bench-rows-"))
    try:
        sizes = sorted({10, 100, args.models})
        counts = {n: generate(work / f"rows-{n}", n) for n in sizes}
        big = work / f"rows-{args.models}"
        megabytes = sum(p.stat().st_size for p in big.rglob("*.parquet")) / 2**20
        cli = [*cli_command(), "leaderboard"]
        out = ["--out", str(work / "lb"), "-q"]
        rows = []
        wall, rss = best([*cli, str(big), *out], args.repeat)
        rows.append((f"all: {args.models} models, {counts[args.models]:,} case-runs", wall, rss))
        wall, rss = best([*cli, str(big), "--group", "chains", *out], args.repeat)
        rows.append(("slice: --group chains, every model", wall, rss))
        one = []
        for n in sizes:
            wall, rss = best(
                [*cli, str(work / f"rows-{n}"), "--model", "bench/model-0007", *out], args.repeat
            )
            one.append(rss)
            rows.append((f"one model (--model) in {n} partitions", wall, rss))
        lines = (work / "lb" / "leaderboard.csv").read_text().splitlines()
        assert len(lines) == 2 and lines[1].startswith("bench/model-0007,"), lines
    finally:
        shutil.rmtree(work, ignore_errors=True)
    print(
        f"bytecode cache: {bytecode_mode()}; load average {load_average()}; dataset "
        f"{megabytes:.1f} MiB"
    )
    print(f"{'benchmark':<52} {'wall s':>8} {'peak RSS MB':>12}")
    for label, wall, rss in rows:
        print(f"{label:<52} {wall:>8.2f} {rss:>12.0f}")
    missed = [label for label, wall, rss in rows if wall >= GOAL_S or rss >= GOAL_MB]
    growth = one[-1] - one[0]
    print(
        f"goal: each < {GOAL_S} s and < {GOAL_MB:.0f} MB; one-model RSS growth from {sizes[0]} to "
        f"{sizes[-1]} partitions: {growth:+.0f} MB"
    )
    print("goals met" if not missed else f"goals missed: {', '.join(missed)}")
    return 1 if args.check and (missed or growth > 0.1 * one[0]) else 0


if __name__ == "__main__":
    sys.exit(main())
