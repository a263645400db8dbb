"""The speed goals (issue 19), each a ratio against F measured in the same run.

``--check`` exits 1 when a goal is missed.

    uv run python benchmarks/run.py [--repeat 5] [--models 100] \
        [--only help,rescore,many,record] [--check]

F, the import floor, is a fresh interpreter importing polars, vcr, requests, jsonschema and typer.
Every figure is the best of ``--repeat`` runs; the rounds interleave F (and the parse) with the
commands, so a burst of load from other processes slows both alike. Bytecode is compiled, as on a
user's second run (see README: the script re-runs itself with a temp ``PYTHONPYCACHEPREFIX`` and the
first round warms it).

Goals:
- ``help``: ``lobstack-eval --help`` and ``--version`` <= 0.3 F each.
- ``rescore``: ``lobstack-eval rescore`` of 1 model dir x 80 cases, start-up included, ``-q``: <=
  1.1 F with ``--no-html``, <= 1.5 F with the HTML report.
- ``many``: ``--models`` model dirs (copies of the committed ``ref_*`` dirs, see rescore.py): the
  marginal cost of one more case, (T(many) - T(1)) / extra cases, <= 2.5x ``json.loads`` of its
  cassette file (read and parsed in this process, one core, in the same rounds), with and without
  the HTML report.
- ``record``: ``ref/oracle``'s 80 cases at 200 ms stand-in latency, concurrency 8:
  ``recorder.record.record`` in a fresh process (the stand-in gateway in another) within 10% of what
  the chains allow: the shortest schedule of the recorded chains (each case's requests in a row, one
  worker per case) on 8 workers. The CLI's wall time, its start-up included, is shown beside it.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))  # run as a plain script from anywhere

from benchmarks._common import (  # noqa: E402
    bytecode_mode,
    cli_command,
    load_average,
    rerun_with_bytecode_cache,
)
from benchmarks.run_record import RECORD_GOAL, measure_record  # noqa: E402

SUITE = ROOT / "evals" / "suite.json"
FLOOR = "import polars, vcr, requests, jsonschema, typer"
GOALS = {
    "help": 0.3,
    "version": 0.3,
    "rescore --no-html": 1.1,
    "rescore": 1.5,
    "many": 2.5,
    "many --no-html": 2.5,
}
PARTS = ("help", "rescore", "many", "record")


# CPU seconds (user + system) of the last ``wall`` command, its worker processes included: on a
# shared machine the CPU a command spends moves less with the others' load than its wall time does
# (shown as info).
LAST_CPU = [0.0]


def wall(command: list[str], env: dict[str, str] | None = None) -> float:
    """Seconds a subprocess takes from start to exit, its output thrown away (it must exit 0)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.perf_counter()
    subprocess.run(
        command, cwd=ROOT, env=env, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
    )
    seconds = time.perf_counter() - started
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    LAST_CPU[0] = after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime
    return seconds


class Rounds:
    """Best-of-N timings of named commands, measured in interleaved rounds with F among them."""

    def __init__(self) -> None:
        self.best: dict[str, float] = {}
        self.loads: dict[str, str] = {}
        self.cpu: dict[str, float] = {}  # the least CPU seconds of each command (info)

    def time(self, name: str, run: Callable[[], float]) -> None:
        LAST_CPU[0] = 0.0
        seconds = run()
        if seconds < self.best.get(name, float("inf")):
            self.best[name], self.loads[name] = seconds, load_average()
        if LAST_CPU[0]:
            self.cpu[name] = min(self.cpu.get(name, float("inf")), LAST_CPU[0])


def parse_seconds(paths: list[Path]) -> float:
    """Seconds to read and ``json.loads`` every one of ``paths`` in this process (one core)."""
    started = time.perf_counter()
    for path in paths:
        json.loads(path.read_bytes())
    return time.perf_counter() - started


def measure(args: argparse.Namespace, tmp: Path) -> tuple[Rounds, dict[str, Any]]:
    """Every command of ``args.only``, interleaved with F, ``args.repeat`` rounds (plus one to
    warm up)."""
    from benchmarks.rescore import make_cassettes

    cli = cli_command()
    rounds, facts = Rounds(), {}
    commands: dict[str, list[str]] = {}
    if "help" in args.only:
        commands["help"] = [*cli, "--help"]
        commands["version"] = [*cli, "--version"]
    rescore = [*cli, "rescore", "--suite", str(SUITE), "-q"]
    if "rescore" in args.only or "many" in args.only:
        many, one = tmp / "many", tmp / "one"
        made = make_cassettes(many, args.models if "many" in args.only else 1)
        one.mkdir()
        shutil.copytree(many / next(iter(made)), one / next(iter(made)))
        commands["rescore cold"] = [*rescore, str(one), "--out", str(tmp / "out1-cold")]
        for html in ("", " --no-html"):
            extra = ["--no-html"] if html else []
            commands[f"rescore{html}"] = [
                *rescore,
                str(one),
                "--out",
                str(tmp / f"out1{'-' * bool(html)}"),
                *extra,
            ]
            if "many" in args.only:
                commands[f"many{html}"] = [
                    *rescore,
                    str(many),
                    "--out",
                    str(tmp / f"outN{'-' * bool(html)}"),
                    *extra,
                ]
        if "many" in args.only:
            cassette_files = sorted(p for p in many.glob("*/*.json") if p.name != "run.json")
            facts["files"] = len(cassette_files)
            facts["files_one"] = len(
                [p for p in (one / next(iter(made))).glob("*.json") if p.name != "run.json"]
            )
    for round_number in range(args.repeat + 1):
        timings: list[tuple[str, Callable[[], float]]] = [
            ("F", lambda: wall([sys.executable, "-c", FLOOR]))
        ]
        for name, command in commands.items():
            # The plot cache: a temp one, warmed by round 0 (never the user's); "rescore cold" runs
            # without one.
            env = {
                **os.environ,
                "LOBSTACK_CACHE_DIR": "" if name == "rescore cold" else str(tmp / "cache"),
            }
            timings.append((name, lambda c=command, e=env: wall(c, e)))
        if (
            "many" in args.only
        ):  # the files the marginal case is compared with, parsed in the same rounds
            timings.append(("parse", lambda: parse_seconds(cassette_files)))
        for name, run in timings:
            if round_number:  # round 0 warms the bytecode cache and the page cache
                rounds.time(name, run)
            else:
                run()
    if "many" in args.only:
        from benchmarks.rescore import check_results

        check_results(tmp / "outN", made)  # the copies must score like the committed reports
    if "record" in args.only:
        facts["record"] = measure_record(args.repeat, tmp / "record")
        rounds.time("F", lambda: wall([sys.executable, "-c", FLOOR]))
    return rounds, facts


def report(
    rounds: Rounds, facts: dict[str, Any], args: argparse.Namespace
) -> list[tuple[str, float, float]]:
    """Print every figure; returns (goal, figure, limit) for every goal measured."""
    floor = rounds.best["F"]
    print(
        f"bytecode: {bytecode_mode()}; best of {args.repeat}; the load average (1 min) beside each "
        "best figure"
    )
    print(f"F = {floor:.3f} s ({FLOOR}), load {rounds.loads['F']}")
    if "F" in rounds.cpu:
        cpu_floor = rounds.cpu["F"]
        shown = ", ".join(
            f"{name} {seconds:.3f} s = {seconds / cpu_floor:.2f}"
            for name, seconds in rounds.cpu.items()
            if name != "F" and name in ("help", "version", "rescore --no-html", "rescore")
        )
        print(
            f"(info) CPU seconds, least of the rounds, as a ratio to F's {cpu_floor:.3f} s: {shown}"
        )
    results: list[tuple[str, float, float]] = []
    rows: list[tuple[str, str, str, str, str]] = []

    def goal(
        name: str, label: str, measured: str, ratio: float, unit: str, limit: float, load: str
    ) -> None:
        results.append((name, ratio, limit))
        verdict = "met" if ratio <= limit else "MISSED"
        rows.append(
            (label, measured, f"{ratio:.2f} {unit}", f"<= {limit:g} {unit} {verdict}", load)
        )

    labels = {
        "help": "--help",
        "version": "--version",
        "rescore --no-html": "rescore 1 model x 80 cases --no-html",
        "rescore": "rescore 1 model x 80 cases, HTML (plots cached)",
    }
    for name, label in labels.items():
        if name in rounds.best:
            seconds = rounds.best[name]
            goal(
                name,
                label,
                f"{seconds:.3f} s",
                seconds / floor,
                "F",
                GOALS[name],
                rounds.loads[name],
            )
    if "rescore cold" in rounds.best:
        seconds = rounds.best["rescore cold"]
        label = "  (info) the same, no plot cache: matplotlib draws"
        rows.append(
            (
                label,
                f"{seconds:.3f} s",
                f"{seconds / floor:.2f} F",
                "",
                rounds.loads["rescore cold"],
            )
        )
    if "parse" in rounds.best:
        per_parse = rounds.best["parse"] / facts["files"]
        extra = facts["files"] - facts["files_one"]
        load = rounds.loads["parse"]
        print(
            f"json.loads of one cassette file (read + parse, this process): {per_parse * 1e3:.3f} "
            f"ms, load {load}"
        )
        for html in ("", " --no-html"):
            name = f"many{html}"
            marginal = (rounds.best[name] - rounds.best[f"rescore{html}"]) / extra
            label = (
                f"{args.models} models{html or ', HTML'}: per extra case "
                f"(T={rounds.best[name]:.2f} s)"
            )
            goal(
                name,
                label,
                f"{marginal * 1e3:.3f} ms",
                marginal / per_parse,
                "x",
                GOALS[name],
                rounds.loads[name],
            )
    if "record" in facts:
        rec = facts["record"]
        label = (
            f"record 80 cases ({rec['requests']} requests), chains allow {rec['allowed_s']:.2f} s"
        )
        ratio = rec["wall_s"] / rec["allowed_s"]
        goal("record", label, f"{rec['wall_s']:.2f} s", ratio, "x", RECORD_GOAL, rec["load"])
        rows.append(("  (info) the CLI, start-up included", f"{rec['cli_s']:.2f} s", "", "", ""))
    print(f"{'goal':<56}{'measured':>10}  {'ratio':>8}  {'limit':<18}load")
    for label, measured, ratio_text, limit_text, load in rows:
        print(f"{label:<56}{measured:>10}  {ratio_text:>8}  {limit_text:<18}{load}")
    return results


def main(argv: list[str] | None = None) -> int:
    """Measure, print a table of goals and figures; with ``--check``, exit 1 when a goal
    is missed."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--models", type=int, default=100)
    parser.add_argument(
        "--only", default=",".join(PARTS), help=f"comma-separated parts of {', '.join(PARTS)}"
    )
    parser.add_argument("--check", action="store_true", help="exit 1 when a goal is missed")
    parser.add_argument(
        "--no-bytecode-cache", action="store_true", help="measure with no .pyc (see README)"
    )
    args = parser.parse_args(argv)
    args.only = {part.strip() for part in args.only.split(",")}
    if args.only - set(PARTS):
        parser.error(f"--only: unknown part(s) {sorted(args.only - set(PARTS))}")
    code = rerun_with_bytecode_cache(__file__, sys.argv[1:] if argv is None else argv)
    if code is not None:
        return code
    tmp = Path(tempfile.mkdtemp(prefix="bench-run-"))
    try:
        rounds, facts = measure(args, tmp)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    results = report(rounds, facts, args)
    missed = [name for name, ratio, limit in results if ratio > limit]
    if missed:
        print(f"goals missed: {', '.join(missed)}", file=sys.stderr)
    return 1 if (missed and args.check) else 0


if __name__ == "__main__":
    os.environ.pop(
        "LOBSTACK_API_KEY", None
    )  # every request goes to the local stand-in, which needs no key
    sys.exit(main())
