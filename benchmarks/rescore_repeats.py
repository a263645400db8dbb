"""Benchmark of rescore with repeats: 100 models x 80 cases x 5 repeats (40,000 case-runs).

It reports the wall time and the peak RSS.

    uv run python benchmarks/rescore_repeats.py [--models 100] [--repeats 5] [--repeat 1]

Setup (not timed): ``ref/flaky`` is recorded with ``--repeats 5`` against the stand-in gateway in
this process (127.0.0.1), then copied under 100 new model names (``bench/flaky-NNN``): run.json's
``model``/``model_slug``, the ``model`` of every recorded request body (repeat folders included) and
each attempt's ``request_sha256`` are edited to match. Every copy must rescore to the source's
metrics: a check that the copies are sound.

Timed, best of ``--repeat`` (default 1: one run is ~5x the K = 1 benchmark), after one untimed
rescore of the source dir that warms the bytecode cache: ``lobstack-eval rescore TMP --out OUT -q``
in a subprocess, start-up included, with and without the HTML report; peak RSS of the largest
process and of the whole process tree (see ``benchmarks/rescore.py``, whose measuring helpers
this reuses).
"""

from __future__ import annotations

import argparse
import json
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))  # run as a plain script from anywhere

from benchmarks._common import bytecode_mode, cli_command, rerun_with_bytecode_cache  # noqa: E402
from benchmarks._measure import run_measured  # noqa: E402
from recorder.transport import HttpRequest  # noqa: E402

SUITE = ROOT / "evals" / "suite.json"
MODEL = "ref/flaky"


def record_source(cassettes: Path, repeats: int) -> Path:
    """``ref/flaky`` x ``repeats`` of the whole suite, recorded against an in-process stand-in."""
    from recorder.files import read_suite
    from recorder.record import record
    from recorder.repeats import CaseRun
    from recorder.settings import RecordSettings
    from standin import GatewayConfig, StandInGateway

    ids = [case.id for case in read_suite(SUITE).cases]
    runs = [CaseRun(case_id, n) for n in range(1, repeats + 1) for case_id in ids]
    with StandInGateway(GatewayConfig(suite_path=SUITE)) as gateway:
        return record(
            SUITE, MODEL, cassettes, gateway.url, runs, RecordSettings(concurrency=2)
        ).model_dir


def _retarget(folder: Path, target: Path, entries: dict[str, dict], model: str) -> None:
    """Copy one repeat's cassettes with the request bodies' model renamed, re-digesting the
    manifest entries."""
    target.mkdir(parents=True, exist_ok=True)
    for case_id, entry in entries.items():
        cassette = json.loads((folder / f"{case_id}.json").read_text(encoding="utf-8"))
        answered = [a for a in entry["attempts"] if a.get("status") is not None]
        if len(answered) != len(entry["attempts"]):
            raise SystemExit(
                f"{folder}: unanswered attempts in {case_id}; this copier does not re-digest them"
            )
        for attempt, interaction in zip(answered, cassette["interactions"], strict=True):
            body = json.loads(interaction["request"]["body"])
            body["model"] = model
            interaction["request"]["body"] = json.dumps(body, ensure_ascii=False)
            attempt["request_sha256"] = HttpRequest("", body).digest()
        (target / f"{case_id}.json").write_text(json.dumps(cassette, indent=4), encoding="utf-8")


def copy_model_dir(source: Path, target: Path, model: str, slug: str) -> None:
    """Copy a repeated model dir under a new model name (every repeat folder, run.json edited
    to match)."""
    manifest = json.loads((source / "run.json").read_text(encoding="utf-8"))
    manifest["model"], manifest["model_slug"] = model, slug
    _retarget(source, target, manifest["cases"], model)
    for n, entries in manifest.get("repeat_cases", {}).items():
        _retarget(source / f"repeat-{n}", target / f"repeat-{n}", entries, model)
    (target / "run.json").write_text(
        json.dumps(manifest, indent=2, sort_keys=True) + "\n", encoding="utf-8"
    )


def main(argv: list[str] | None = None) -> int:
    """Run the benchmark and print its figures."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--models", type=int, default=100)
    parser.add_argument("--repeats", type=int, default=5, help="K: repeats per case")
    parser.add_argument("--repeat", type=int, default=1, help="timed runs (best of)")
    parser.add_argument(
        "--no-bytecode-cache", action="store_true", help="measure with no .pyc (see README)"
    )
    args = parser.parse_args(argv)
    code = rerun_with_bytecode_cache(__file__, sys.argv[1:] if argv is None else argv)
    if code is not None:
        return code

    tmp = Path(tempfile.mkdtemp(prefix="bench-repeats-"))
    try:
        source = record_source(tmp / "source", args.repeats)
        many = tmp / "cassettes"
        for i in range(args.models):
            model = f"bench/flaky-{i:03d}"
            copy_model_dir(source, many / model.replace("/", "_"), model, model.replace("/", "_"))
        files = sum(1 for _ in many.rglob("*.json"))
        rescore = [*cli_command(), "rescore", str(many), "--suite", str(SUITE), "-q"]
        warm = [
            *cli_command(),
            "rescore",
            str(source.parent),
            "--suite",
            str(SUITE),
            "-q",
            "--out",
            str(tmp / "warm"),
        ]
        run_measured(
            warm
        )  # untimed: fills the bytecode cache, so the timed runs measure a user's second run
        runs = [
            run_measured([*rescore, "--out", str(tmp / f"out-{i}")]) for i in range(args.repeat)
        ]
        bare = [
            run_measured([*rescore, "--out", str(tmp / f"bare-{i}"), "--no-html"])
            for i in range(args.repeat)
        ]
        reference = json.loads(
            (tmp / "out-0" / "bench_flaky-000" / "results.json").read_text(encoding="utf-8")
        )
        for slug in ("bench_flaky-001", f"bench_flaky-{args.models - 1:03d}"):
            copy = json.loads((tmp / "out-0" / slug / "results.json").read_text(encoding="utf-8"))
            if copy["metrics"] != reference["metrics"] or copy["repeats"] != args.repeats:
                raise SystemExit(f"setup broken: {slug} does not score like bench_flaky-000")
        size = sum(p.stat().st_size for p in (tmp / "out-0").rglob("*") if p.is_file())
    finally:
        shutil.rmtree(tmp, ignore_errors=True)

    runs_total = args.models * 80 * args.repeats
    best, best_bare = min(r["wall_s"] for r in runs), min(r["wall_s"] for r in bare)
    rows = [
        (
            f"rescore CLI, {args.models} models x 80 x {args.repeats}",
            f"{best:7.2f} s",
            f"{runs_total} case-runs",
        ),
        (
            "  the same, --no-html",
            f"{best_bare:7.2f} s",
            f"{1000 * best_bare / runs_total:.2f} ms per case-run",
        ),
        ("peak RSS, largest process", f"{max(r['maxrss_mb'] for r in runs + bare):7.0f} MB", ""),
        (
            "peak RSS, process tree (sampled)",
            f"{max(r['tree_mb'] for r in runs + bare):7.0f} MB",
            "",
        ),
        ("input / output", f"{files:7d} files", f"reports {size / 2**20:.1f} MiB"),
    ]
    print(
        f"models={args.models} cases/model=80 repeats={args.repeats} timed runs={args.repeat} "
        "(best wall time)"
    )
    print(f"bytecode cache: {bytecode_mode()}")
    print("uptime:", subprocess.run(["uptime"], capture_output=True, text=True).stdout.strip())
    for label, value, note in rows:
        print(f"{label:<40}{value:>12}   {note}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
