"""Benchmark of the HTML report: 100 synthetic models x 80 cases, rendered in memory.

Goal (issue 7): the render takes under 3 s and the page stays under 10 MB.

    uv run python benchmarks/report.py [--models 100] [--cases 80] [--out FILE] [--check]

Prints the median render time of ``--repeat`` renders (imports excluded: they happen once per
process, before the clock starts; the import time is printed on its own line), the CPU time and the
size, and checks that every render gave the same bytes. ``--check`` exits 1 when a goal is missed.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))  # run as a plain script from anywhere

from scorer.stats.wilson import wilson  # noqa: E402
from scorer.suite.model import GROUPS  # noqa: E402
from scorer.summary import METRICS  # noqa: E402

GOAL_SECONDS = 3.0
GOAL_BYTES = 10 * 1024 * 1024


def _metric(k: int, n: int) -> dict[str, Any]:
    return {"count": k, "of": n, "rate": 100 * k / n if n else None, "ci": wilson(k, n)}


def make_suite(n_cases: int) -> dict[str, Any]:
    """A suite of ``n_cases`` cases spread over the six groups, chains with three steps."""
    cases = []
    for i in range(n_cases):
        group = GROUPS[i * len(GROUPS) // n_cases]
        steps: list[dict[str, Any]]
        if group == "no_call":
            steps = [{"expect": "none"}]
        else:
            call = {
                "name": "read_file",
                "args": {
                    "path": {"eq": f"src/module_{i}.py"},
                    "start_line": {"range": {"min": 1, "max": 50}},
                },
                "reference": {"path": f"src/module_{i}.py", "start_line": 10},
                "result": f"def function_{i}(x):\n    return x + {i}\n",
            }
            steps = [{"expect": "call", "calls": [call] * (2 if group == "parallel" else 1)}]
            if group == "chains":
                steps = [steps[0], steps[0], {"expect": "none"}]
        cases.append(
            {
                "id": f"{group}-{i:02d}",
                "group": group,
                "tools": ["read_file", "search_code", "send_email"],
                "messages": [
                    {
                        "role": "user",
                        "content": f"Please show me lines 10 to 20 of src/module_{i}.py.",
                    }
                ],
                "steps": steps,
            }
        )
    return {
        "name": "bench-suite",
        "version": "1.0.0",
        "system_prompt": "You are a helpful assistant. " * 8,
        "tools": {},
        "cases": cases,
    }


def make_results(suite: dict[str, Any], n_models: int, seed: int = 7) -> list[dict[str, Any]]:
    """``n_models`` results.json dicts with per-case steps, tool calls and attempts like
    rescore writes."""
    rng = random.Random(seed)
    out = []
    for m in range(n_models):
        skill = rng.random()
        name = f"vendor-{m % 7}/model-{m:03d}"
        results = []
        group_counts = {g: [0, 0] for g in GROUPS}
        passed_total = scored = errored = 0
        for case in suite["cases"]:
            roll = rng.random()
            status = "errored" if roll < 0.02 else ("passed" if rng.random() < skill else "failed")
            steps = []
            for si, step in enumerate(case["steps"]):
                ok = status == "passed"
                if step["expect"] == "none":
                    response = {
                        "content": "I can answer that without a tool: " + "words " * 12,
                        "model": name,
                        "tool_calls": [],
                    }
                else:
                    calls = [
                        {
                            "id": f"call_{k}",
                            "name": "read_file",
                            "arguments_form": "string",
                            "offered": True,
                            "parsed": True,
                            "schema_valid": True,
                            "arguments": json.dumps(
                                {"path": f"src/module_{si}_{k}.py", "start_line": 10 + (not ok)}
                            ),
                        }
                        for k in range(len(step["calls"]))
                    ]
                    response = {"content": None, "model": name, "tool_calls": calls}
                steps.append(
                    {
                        "index": si,
                        "passed": ok,
                        "response": None if status == "errored" else response,
                        "reason": None
                        if ok
                        else "read_file.start_line: expected range 1..50, got 11",
                    }
                )
                if not ok:
                    break
            attempts = [
                {
                    "step": s["index"],
                    "attempt": 1,
                    "outcome": "ok",
                    "status": 200,
                    "wall_ms": round(rng.uniform(200, 4000), 1),
                    "cost_usd": round(rng.uniform(0, 0.01), 6),
                }
                for s in steps
            ]
            results.append(
                {
                    "id": case["id"],
                    "group": case["group"],
                    "status": status,
                    "reason": None
                    if status == "passed"
                    else "step 1: read_file.start_line: got 11",
                    "steps": steps,
                    "attempts": attempts,
                }
            )
            if status != "errored":
                scored += 1
                passed_total += status == "passed"
                group_counts[case["group"]][0] += status == "passed"
                group_counts[case["group"]][1] += 1
            else:
                errored += 1
        metrics = {k: _metric(passed_total, scored) for k in METRICS}
        out.append(
            {
                "format_version": 1,
                "model": name,
                "model_slug": name.replace("/", "_"),
                "suite": {"name": suite["name"], "version": suite["version"], "sha256": "ab" * 32},
                "temperature_ignored": m % 9 == 0,
                "routed_models": {name: len(suite["cases"])},
                "cases": {
                    "total": len(suite["cases"]),
                    "scored": scored,
                    "errored": errored,
                    "unrecorded": 0,
                },
                "metrics": metrics,
                "groups": {g: _metric(*group_counts[g]) for g in GROUPS},
                "latency_p50_ms": round(rng.uniform(300, 5000), 1),
                "cost_per_100_cases_usd": None if m % 11 == 0 else round(rng.uniform(0.01, 3), 4),
                "results": results,
            }
        )
    return out


def main(argv: list[str] | None = None) -> int:
    """Run the benchmark and print its figures; with ``--check``, exit 1 when a goal is missed."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--models", type=int, default=100)
    parser.add_argument("--cases", type=int, default=80)
    parser.add_argument("--out", type=Path, help="also write the page here")
    parser.add_argument("--repeat", type=int, default=3, help="renders to time (the median counts)")
    parser.add_argument("--check", action="store_true", help="exit 1 when a goal is missed")
    args = parser.parse_args(argv)

    t0 = time.perf_counter()
    from replay.html import render_report

    import_s = time.perf_counter() - t0
    suite = make_suite(args.cases)
    results = make_results(suite, args.models)
    walls: list[float] = []
    cpus: list[float] = []
    html = ""
    for _ in range(args.repeat):
        w, c = time.perf_counter(), time.process_time()
        page = render_report(results, suite)
        walls.append(time.perf_counter() - w)
        cpus.append(time.process_time() - c)
        # Every repetition must give the same bytes (the report's determinism promise).
        assert not html or page == html, "two renders of the same input differ"
        html = page
    render_s = statistics.median(walls)
    size = len(html.encode("utf-8"))
    if args.out:
        args.out.write_text(html, encoding="utf-8")
    print(f"models={args.models} cases={args.cases} repeat={args.repeat}")
    print(f"import_s={import_s:.3f} (once per process, before the clock starts)")
    print(
        f"render_s={render_s:.3f} median wall (min {min(walls):.3f}, max {max(walls):.3f}; goal < "
        f"{GOAL_SECONDS} s)"
    )
    print(f"render_cpu_s={statistics.median(cpus):.3f} median CPU")
    print(f"html_bytes={size} ({size / 1024 / 1024:.2f} MiB, goal < 10 MiB)")
    missed = render_s >= GOAL_SECONDS or size >= GOAL_BYTES
    if missed:
        print("goal missed", file=sys.stderr)
    return 1 if (missed and args.check) else 0


if __name__ == "__main__":
    sys.exit(main())
