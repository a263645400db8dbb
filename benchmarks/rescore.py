"""Benchmark of rescore: 100 model dirs x 80 cases against parsing the same files; its peak memory.

Goals (issue): the rescore wall time <= 3x the time to ``json.load`` every cassette and run.json
file; peak RSS < 500 MB; rescoring 1 model dir x 80 cases <= 1.0 s including interpreter start-up.

    uv run python benchmarks/rescore.py [--models 100] [--repeat 3] [--check]

The 100 model dirs are copies of the committed ``cassettes/ref_*`` dirs under new names
(``bench/<ref>-NNN``): run.json's ``model``/``model_slug`` and every recorded request body's
``model`` are edited to the new name (the replayed request must match the recording), and each
attempt's ``request_sha256`` is recomputed. Every copy must rescore to the metrics of the committed
``reports/<ref>/results.json``: a check that the copies are sound.

Timed, best of ``--repeat``:
- ``rescore``: ``lobstack-eval rescore TMP --out OUT -q`` in a subprocess (start-up included), with
  the peak RSS of the largest process (``getrusage(RUSAGE_CHILDREN).ru_maxrss`` in a small wrapper)
  and of the whole process tree (the sum of every live process's RSS, sampled every 20 ms).
- ``parse``: plain ``json.load`` of every cassette and run.json file, in this process.
- ``1 model``: the same command on a dir holding one model dir.
- the parts, in this process: scoring (``replay.rescore.score_all``, its process pool included) and
  the HTML report (``replay.html.render_report``) of the 100 results, to say how much of rescore the
  report is.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import sys
import tempfile
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))  # run as a plain script from anywhere

from benchmarks._common import (  # noqa: E402
    best_of,
    bytecode_mode,
    cli_command,
    rerun_with_bytecode_cache,
)
from benchmarks._measure import SAMPLE_S, run_measured  # noqa: E402
from recorder.transport import HttpRequest  # noqa: E402

SUITE = ROOT / "evals" / "suite.json"
CASSETTES = ROOT / "cassettes"
REPORTS = ROOT / "reports"
GOAL_PARSE_RATIO = 3.0
GOAL_RSS_MB = 500.0
GOAL_ONE_MODEL_S = 1.0


def copy_model_dir(source: Path, target: Path, model: str, slug: str) -> None:
    """Copy a model dir under a new model name, editing run.json and the recorded request bodies
    to match."""
    target.mkdir(parents=True)
    manifest = json.loads((source / "run.json").read_text(encoding="utf-8"))
    manifest["model"], manifest["model_slug"] = model, slug
    for case_id, entry in manifest["cases"].items():
        cassette = json.loads((source / f"{case_id}.json").read_text(encoding="utf-8"))
        answered = [a for a in entry["attempts"] if a.get("status") is not None]
        for attempt, interaction in zip(answered, cassette["interactions"], strict=True):
            body = json.loads(interaction["request"]["body"])
            body["model"] = model
            interaction["request"]["body"] = json.dumps(body, ensure_ascii=False)
            attempt["request_sha256"] = HttpRequest("", body).digest()
        if any(a.get("status") is None for a in entry["attempts"]):
            raise SystemExit(
                f"{source}: unanswered attempts in {case_id}; this copier does not re-digest them"
            )
        (target / f"{case_id}.json").write_text(json.dumps(cassette, indent=4), encoding="utf-8")
    (target / "run.json").write_text(
        json.dumps(manifest, indent=2, sort_keys=True) + "\n", encoding="utf-8"
    )


def make_cassettes(root: Path, n_models: int) -> dict[str, str]:
    """``n_models`` copies of the committed ref_* dirs under ``root``; returns each new slug's
    source slug."""
    sources = sorted(
        p for p in CASSETTES.iterdir() if p.name.startswith("ref_") and (p / "run.json").is_file()
    )
    made = {}
    for i in range(n_models):
        source = sources[i % len(sources)]
        model = f"bench/{source.name.removeprefix('ref_')}-{i:03d}"
        slug = model.replace("/", "_")
        copy_model_dir(source, root / slug, model, slug)
        made[slug] = source.name
    return made


def parse_all(root: Path) -> int:
    """``json.load`` every file of every model dir; returns how many files."""
    count = 0
    for model_dir in sorted(root.iterdir()):
        for path in sorted(model_dir.glob("*.json")):
            with path.open(encoding="utf-8") as handle:
                json.load(handle)
            count += 1
    return count


def check_results(out: Path, made: dict[str, str]) -> None:
    """Every copy must score what the committed report of its source says."""
    for slug, source in made.items():
        mine = json.loads((out / slug / "results.json").read_text(encoding="utf-8"))
        committed = json.loads((REPORTS / source / "results.json").read_text(encoding="utf-8"))
        if mine["metrics"] != committed["metrics"] or mine["cases"] != committed["cases"]:
            raise SystemExit(f"setup broken: {slug} does not score like {REPORTS / source}")


def main(argv: list[str] | None = None) -> int:
    """Run the benchmark and print its figures; with ``--check``, exit 1 when a goal is missed."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--models", type=int, default=100)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--check", action="store_true", help="exit 1 when a goal is missed")
    parser.add_argument(
        "--no-bytecode-cache", action="store_true", help="measure with no .pyc (see README)"
    )
    args = parser.parse_args(argv)
    code = rerun_with_bytecode_cache(__file__, sys.argv[1:] if argv is None else argv)
    if code is not None:
        return code

    tmp = Path(tempfile.mkdtemp(prefix="bench-rescore-"))
    try:
        many, one = tmp / "cassettes", tmp / "one"
        made = make_cassettes(many, args.models)
        one.mkdir()
        shutil.copytree(many / next(iter(made)), one / next(iter(made)))
        rescore = [*cli_command(), "rescore", "--suite", str(SUITE), "-q"]

        def cli_runs(
            cassettes: Path, *extra: str, env: dict[str, str] | None = None, n: int = args.repeat
        ) -> Any:
            outs = [tmp / f"out-{cassettes.name}-{len(extra)}-{i}" for i in range(n)]
            return [
                run_measured([*rescore, str(cassettes), "--out", str(out), *extra], env)
                for out in outs
            ]

        runs = cli_runs(many)
        check_results(tmp / f"out-{many.name}-0-0", made)
        runs_no_html = cli_runs(many, "--no-html")
        singles = cli_runs(one)
        singles_no_html = cli_runs(one, "--no-html")
        startup = [run_measured([*cli_command(), "--help"]) for _ in range(args.repeat)]
        # the same command as this sandbox is configured (PYTHONDONTWRITEBYTECODE, no prefix):
        # modules without an installed .pyc (the project's own, and every dependency unless
        # installed with compiled bytecode) are compiled on every start
        cold_env = {k: v for k, v in os.environ.items() if k != "PYTHONPYCACHEPREFIX"}
        cold_env["PYTHONDONTWRITEBYTECODE"] = "1"
        cold = cli_runs(one, env=cold_env, n=1)
        parse_s, files = best_of(args.repeat, lambda: parse_all(many))

        from fileio.reading import read_json
        from recorder.files import read_suite
        from replay.html import render_report
        from replay.rescore import model_dirs, score_all

        suite = read_suite(SUITE)
        score_s, reports = best_of(args.repeat, lambda: score_all(model_dirs(many), suite))
        # A model dir that failed, or a cassette that could not be used, would make the
        # figures meaningless.
        failed = [r.error or r.unusable[0].line() for r in reports if r.error or r.unusable]
        if failed:
            raise SystemExit(
                f"rescore benchmark: {len(failed)} model dir(s) could not be scored: {failed[0]}"
            )
        documents = [r.results for r in reports]
        suite_dict = read_json(SUITE, "suite file")
        html_s, _ = best_of(args.repeat, lambda: render_report(documents, suite_dict))
    finally:
        shutil.rmtree(tmp, ignore_errors=True)

    def wall(results: list[dict[str, float]]) -> float:
        return min(r["wall_s"] for r in results)

    best, single = wall(runs), wall(singles)
    rss = max(r["maxrss_mb"] for r in runs)
    tree = max(r["tree_mb"] for r in runs)
    ratio = best / parse_s
    rows = [
        (
            f"rescore CLI, {args.models} models",
            f"{best:7.2f} s",
            f"{ratio:.1f}x parse (goal <= {GOAL_PARSE_RATIO:g}x)",
        ),
        (
            "  the same, --no-html",
            f"{wall(runs_no_html):7.2f} s",
            f"{wall(runs_no_html) / parse_s:.1f}x parse",
        ),
        ("json.load of the same files", f"{parse_s:7.2f} s", f"{files} files"),
        ("peak RSS, largest process", f"{rss:7.0f} MB", f"goal < {GOAL_RSS_MB:.0f} MB"),
        ("peak RSS, process tree (sampled)", f"{tree:7.0f} MB", f"every {SAMPLE_S * 1000:.0f} ms"),
        (
            "rescore CLI, 1 model",
            f"{single:7.2f} s",
            f"goal <= {GOAL_ONE_MODEL_S:g} s, start-up included",
        ),
        ("  the same, --no-html", f"{wall(singles_no_html):7.2f} s", ""),
        (
            "  the same, as configured",
            f"{wall(cold):7.2f} s",
            "1 run, no temp cache: only installed .pyc are used",
        ),
        ("CLI start-up (--help)", f"{wall(startup):7.2f} s", ""),
        ("in process: score_all", f"{score_s:7.2f} s", f"{score_s / parse_s:.1f}x parse"),
        (
            "in process: render_report",
            f"{html_s:7.2f} s",
            f"{100 * html_s / best:.0f}% of the rescore wall time",
        ),
    ]
    print(
        f"models={args.models} cases/model=80 repeat={args.repeat} (best wall time, worst memory)"
    )
    print(
        f"bytecode cache: {bytecode_mode()}; load average "
        f"{Path('/proc/loadavg').read_text().split()[0]}"
    )
    for label, value, note in rows:
        print(f"{label:<34}{value:>10}   {note}")
    missed = (
        ratio > GOAL_PARSE_RATIO
        or rss >= GOAL_RSS_MB
        or tree >= GOAL_RSS_MB
        or single > GOAL_ONE_MODEL_S
    )
    if missed:
        print("goal missed", file=sys.stderr)
    return 1 if (missed and args.check) else 0


if __name__ == "__main__":
    sys.exit(main())
