"""Benchmark of judging hostile text: the suite's patterns on text made to stall backtracking.

Every schema ``pattern`` and check ``regex`` of the suite is run (issue 28, item 8).

Goal: judging any answer up to the decoded-size cap (32 MB) takes well under a second per pattern.

    uv run python benchmarks/patterns.py [--repeat 3] [--sizes 40000,1000000,33554432]

For each size N and each distinct pattern of the suite (schema ``pattern``s and ``regex`` checks),
the text is ``"a@" + "." * N + "@"`` (the email pattern's worst case: ~20 s at N = 40,000 under
Python's ``re``) and ``"a" * N + "!"`` (the worst case of nested quantifiers); the figure is the
slowest pattern's best time, with the engine the scorer uses (scorer/patterns.py). Python's ``re``
on the email pattern at the smallest size is shown beside it when ``--with-re`` is given (it takes
tens of seconds).
"""

from __future__ import annotations

import argparse
import json
import re
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))  # run as a plain script from anywhere

from benchmarks._common import best_of, load_average  # noqa: E402
from scorer.patterns import pattern_search  # noqa: E402

EMAIL = r"^[^@\s]+@[^@\s]+\.[^@\s]+$"


def suite_patterns(node: object) -> set[tuple[str, bool]]:
    """Every (pattern, ignore_case) of the suite: schema ``pattern`` (case-sensitive), check
    ``regex`` (not)."""
    found: set[tuple[str, bool]] = set()
    if isinstance(node, dict):
        for key, value in node.items():
            if key == "pattern" and isinstance(value, str):
                found.add((value, False))
            elif key == "regex" and isinstance(value, str):
                found.add((value, True))
            else:
                found |= suite_patterns(value)
    elif isinstance(node, list):
        for item in node:
            found |= suite_patterns(item)
    return found


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--sizes", default="40000,1000000,33554432")
    parser.add_argument("--with-re", action="store_true")
    args = parser.parse_args()
    patterns = sorted(
        suite_patterns(json.loads((ROOT / "evals" / "suite.json").read_text(encoding="utf-8")))
    )
    print(f"{len(patterns)} distinct patterns; load {load_average()}")
    print("| N | slowest pattern (s) | all patterns, both texts (s) |")
    print("|---|---|---|")
    for size in (int(s) for s in args.sizes.split(",")):
        texts = ["a@" + "." * size + "@", "a" * size + "!"]
        slowest, total = 0.0, 0.0
        for pattern, ignore_case in patterns:
            for text in texts:
                seconds, _ = best_of(
                    args.repeat, lambda p=pattern, t=text, i=ignore_case: pattern_search(p, t, i)
                )
                slowest, total = max(slowest, seconds), total + seconds
        print(f"| {size:,} | {slowest:.4f} | {total:.4f} |")
    if args.with_re:
        size = int(args.sizes.split(",")[0])
        started = time.perf_counter()
        re.search(EMAIL, "a@" + "." * size + "@")
        print(f"Python re, email pattern, N = {size:,}: {time.perf_counter() - started:.2f} s")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
