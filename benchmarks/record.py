"""Benchmark of recording: 80 ``ref/oracle`` cases from the stand-in, 200 ms latency, concurrency 8.

Goal (issue): wall time <= 1.3x the ideal 80 x 0.2 s / 8 = 2 s.

    uv run python benchmarks/record.py [--latency-ms 200] [--concurrency 8] [--repeat 3] [--check]

Each repetition records every case into a fresh temp dir twice: once through
``recorder.record.record`` in this process (the stand-in runs in a background thread here), and once
through the CLI in a subprocess (``lobstack-eval record``, so interpreter start-up and imports are
included). Chains make more than one request per case, so besides the issue's 2 s the table shows
the ideal for the requests the gateway actually saw (``requests x latency / concurrency``) and the
floor no scheduler can beat (the longest chain's steps in a row). The best of ``--repeat`` is
reported; temp dirs and the gateway are always removed and stopped.
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))  # run as a plain script from anywhere

from benchmarks._common import bytecode_mode, cli_command, rerun_with_bytecode_cache  # noqa: E402
from recorder.files import read_suite  # noqa: E402
from recorder.record import record  # noqa: E402
from recorder.settings import RecordSettings  # noqa: E402
from standin import GatewayConfig, StandInGateway  # noqa: E402

GOAL_RATIO = 1.3
SUITE = ROOT / "evals" / "suite.json"
MODEL = "ref/oracle"


def timed_requests(gateway: StandInGateway, run: Callable[[], None]) -> tuple[float, int]:
    """Wall seconds of ``run`` and how many requests the gateway received meanwhile."""
    before = len(gateway.requests_seen)
    started = time.perf_counter()
    run()
    return time.perf_counter() - started, len(gateway.requests_seen) - before


def main(argv: list[str] | None = None) -> int:
    """Run the benchmark and print its figures; with ``--check``, exit 1 when the goal is missed."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--latency-ms", type=float, default=200.0)
    parser.add_argument("--concurrency", type=int, default=8)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--check", action="store_true", help="exit 1 when the goal is missed")
    parser.add_argument(
        "--no-bytecode-cache", action="store_true", help="measure with no .pyc (see README)"
    )
    args = parser.parse_args(argv)
    code = rerun_with_bytecode_cache(__file__, sys.argv[1:] if argv is None else argv)
    if code is not None:
        return code

    suite = read_suite(SUITE)
    case_ids = [case.id for case in suite.cases]
    latency_s = args.latency_ms / 1000
    issue_ideal = len(case_ids) * latency_s / args.concurrency
    longest_chain = max(len(case.steps) for case in suite.cases)
    # a loopback URL needs no key: never hand one to the subprocess
    env = {
        k: v for k, v in os.environ.items() if k not in ("LOBSTACK_API_KEY", "LOBSTACK_BASE_URL")
    }
    library: list[tuple[float, int]] = []
    cli: list[tuple[float, int]] = []
    tmp = Path(tempfile.mkdtemp(prefix="bench-record-"))
    try:
        with StandInGateway(GatewayConfig(suite_path=SUITE, latency_ms=args.latency_ms)) as gateway:
            for rep in range(args.repeat):
                lib_dir, cli_dir = tmp / f"lib{rep}", tmp / f"cli{rep}"
                library.append(
                    timed_requests(
                        gateway,
                        lambda d=lib_dir: (
                            record(
                                SUITE,
                                MODEL,
                                d,
                                gateway.url,
                                case_ids,
                                RecordSettings(concurrency=args.concurrency),
                            ).seconds
                        ),
                    )
                )
                command = [
                    *cli_command(),
                    "record",
                    "--model",
                    MODEL,
                    "--suite",
                    str(SUITE),
                    "--cassettes",
                    str(cli_dir),
                    "--base-url",
                    gateway.url,
                    "--concurrency",
                    str(args.concurrency),
                ]
                cli.append(
                    timed_requests(
                        gateway,
                        lambda c=command: subprocess.run(
                            c,
                            cwd=ROOT,
                            env=env,
                            check=True,
                            stdout=subprocess.DEVNULL,
                            stderr=subprocess.DEVNULL,
                        ),
                    )
                )
                recorded = len(list((lib_dir / "ref_oracle").glob("*-*.json")))
                if recorded != len(case_ids) or len(
                    list((cli_dir / "ref_oracle").glob("*-*.json"))
                ) != len(case_ids):
                    print(
                        f"setup broken: {recorded} cassettes recorded, expected {len(case_ids)}",
                        file=sys.stderr,
                    )
                    return 1
    finally:
        shutil.rmtree(tmp, ignore_errors=True)

    def row(label: str, runs: list[tuple[float, int]]) -> tuple[str, float]:
        wall, requests = min(runs)
        request_ideal = requests * latency_s / args.concurrency
        text = (
            f"{label:<22}{wall:8.2f}  {wall / issue_ideal:9.2f}x  {requests:8d}  "
            f"{request_ideal:10.2f}  {wall / request_ideal:9.2f}x"
        )
        return text, wall / issue_ideal

    print(
        f"cases={len(case_ids)} latency_ms={args.latency_ms:g} concurrency={args.concurrency} "
        f"repeat={args.repeat}"
    )
    print(
        f"issue ideal {len(case_ids)} x {latency_s:g} / {args.concurrency} = {issue_ideal:.2f} s; "
        f"goal <= {GOAL_RATIO}x"
    )
    print(
        f"floor: the longest chain has {longest_chain} steps in a row = "
        f"{longest_chain * latency_s:.2f} s"
    )
    print(
        f"bytecode cache: {bytecode_mode()}; load average "
        f"{Path('/proc/loadavg').read_text().split()[0]}"
    )
    head = (
        f"{'best of ' + str(args.repeat):<22}{'wall s':>8}  {'vs 2 s':>10}  {'requests':>8}  "
        f"{'req ideal':>10}"
    )
    print(f"{head}  {'vs req':>10}")
    lib_text, lib_ratio = row("record() in-process", library)
    cli_text, cli_ratio = row("CLI subprocess", cli)
    print(lib_text)
    print(cli_text)
    missed = max(lib_ratio, cli_ratio) > GOAL_RATIO
    if missed:
        print("goal missed", file=sys.stderr)
    return 1 if (missed and args.check) else 0


if __name__ == "__main__":
    sys.exit(main())
