"""Re-record the committed cassettes of the stand-in's reference models, then rescore into reports/.

    # every case of every reference model, from scratch
    uv run python scripts/record_reference.py
    # only what the suite now asks differently
    uv run python scripts/record_reference.py --changed

Runs the stand-in gateway in this process on 127.0.0.1, records every reference model into
cassettes/ and writes reports/ with rescore. The golden test (tests/test_golden.py) then requires
rescore of cassettes/ to reproduce reports/ byte for byte.

The gateway takes a free port: cassettes and run.json keep no loopback port, so recording again
changes nothing but timings (``wall_ms``, and the latencies in reports/). Without ``--changed`` each
model's cassettes are replaced. With ``--changed`` (after a suite change) each model records only
what ``lobstack-eval record`` would resume: the cases whose replay under the current suite is
unrecorded (a new case, a changed message, tool or scripted result); every other cassette is kept.
"""

from __future__ import annotations

import argparse
import shutil
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from recorder.files import read_suite  # noqa: E402
from recorder.record import record  # noqa: E402
from recorder.settings import RecordSettings  # noqa: E402
from recorder.slug import model_slug  # noqa: E402
from replay.plan import cases_to_record  # noqa: E402
from replay.rescore import rescore  # noqa: E402
from standin import GatewayConfig, StandInGateway  # noqa: E402

MODELS = (
    "ref/oracle",
    "ref/abstain",
    "ref/first-tool",
    "ref/noisy",
    "ref/no-temperature",
    "auto",
    # provider-style models: they answer as reasoning providers, Gemini, Mistral, OpenRouter's
    # errors and broken tool calls do, and as OpenRouter prices (docs/GATEWAYS.md)
    "ref/reasoning",
    "ref/gemini-style",
    "ref/content-parts",
    "ref/error-in-200",
    "ref/malformed",
    "ref/openrouter-style",
)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--changed",
        action="store_true",
        help="record only the cases the suite now asks differently; keep the rest",
    )
    args = parser.parse_args(argv)
    suite_path, cassettes, reports = (
        ROOT / "evals" / "suite.json",
        ROOT / "cassettes",
        ROOT / "reports",
    )
    suite = read_suite(suite_path)
    with StandInGateway(GatewayConfig(suite_path=suite_path)) as gateway:
        for model in MODELS:
            if args.changed:
                todo = cases_to_record(cassettes, model, suite)
            else:
                shutil.rmtree(cassettes / model_slug(model), ignore_errors=True)
                todo = [c.id for c in suite.cases]
            if not todo:
                print(f"{model}: nothing to record")
                continue
            summary = record(
                suite_path, model, cassettes, gateway.url, todo, RecordSettings(concurrency=4)
            )
            print(f"{model}: {len(summary.recorded)} cases recorded in {summary.seconds:.1f} s")
    rescore(cassettes, suite_path, reports)
    print(f"wrote {reports}")


if __name__ == "__main__":
    main()
