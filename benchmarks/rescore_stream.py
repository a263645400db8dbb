"""Rescoring a streamed run against a whole one (issue 39: a streamed case-run rescores at no more
than 1.5x the cost of a non-streamed one).

Records ``ref/oracle`` and ``ref/noisy`` (the bundled suite, 80 cases) against the stand-in four
ways: Chat whole and streamed, Messages whole and streamed; then times ``replay.score_models.
score_model`` of each model dir (best of ``--repeat``) and prints the streamed/whole ratio per
dialect. ``--check`` exits 1 when a ratio is above 1.5.

    uv run python benchmarks/rescore_stream.py [--repeat 5] [--check]
"""

from __future__ import annotations

import argparse
import shutil
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from recorder.files import read_suite  # noqa: E402
from recorder.record import record  # noqa: E402
from recorder.settings import RecordSettings  # noqa: E402
from replay.score_models import score_model  # noqa: E402
from scorer.wire.settings import Wire  # noqa: E402
from standin.config import GatewayConfig  # noqa: E402
from standin.server import StandInGateway  # noqa: E402

SUITE = ROOT / "evals" / "suite.json"
GOAL = 1.5


def main() -> int:
    """Record, time and print; exit 1 under --check when a goal is missed."""
    parser = argparse.ArgumentParser()
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--check", action="store_true")
    args = parser.parse_args()
    suite = read_suite(SUITE)
    cases = [c.id for c in suite.cases]
    root = Path(tempfile.mkdtemp(prefix="lobstack-stream-bench-"))
    gateway = StandInGateway(GatewayConfig(suite_path=SUITE)).start()
    seconds: dict[tuple[str, bool], float] = {}
    dirs: dict[tuple[str, bool], list[Path]] = {}
    try:
        for dialect in ("chat", "messages"):
            for stream in (False, True):
                where = root / f"{dialect}-{stream}"
                for model in ("ref/oracle", "ref/noisy"):
                    record(
                        SUITE,
                        model,
                        where,
                        gateway.url,
                        cases,
                        RecordSettings(concurrency=1, wire=Wire(dialect, stream)),
                    )
                dirs[(dialect, stream)] = sorted(p for p in where.iterdir() if p.is_dir())
        # the four ways timed in turn, each repeat: a slow spell of a shared machine hits all
        for _ in range(args.repeat):
            for way, model_dirs in dirs.items():
                started = time.perf_counter()
                for model_dir in model_dirs:
                    score_model(model_dir, suite)
                took = (time.perf_counter() - started) / (len(model_dirs) * len(cases))
                seconds[way] = min(seconds.get(way, float("inf")), took)
    finally:
        gateway.stop()
        shutil.rmtree(root, ignore_errors=True)
    missed = False
    print("dialect   whole ms/case-run   streamed ms/case-run   ratio (goal <= 1.5)")
    for dialect in ("chat", "messages"):
        whole, streamed = seconds[(dialect, False)], seconds[(dialect, True)]
        ratio = streamed / whole
        missed |= ratio > GOAL
        print(f"{dialect:<9} {1000 * whole:>17.3f}   {1000 * streamed:>20.3f}   {ratio:>5.2f}")
    return 1 if args.check and missed else 0


if __name__ == "__main__":
    raise SystemExit(main())
