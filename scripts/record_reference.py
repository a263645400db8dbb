"""Re-record the committed cassettes of the stand-in's reference models, then rescore them into reports/.

    uv run python scripts/record_reference.py

Runs the stand-in gateway in this process on 127.0.0.1 (a free port), records every reference model into
cassettes/ (replacing what is there for those models) and writes reports/ with rescore. The golden test
(tests/test_golden.py) then requires rescore of cassettes/ to reproduce reports/ byte for byte.
"""

from __future__ import annotations

import shutil
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from recorder.files import read_suite  # noqa: E402
from recorder.record import record  # noqa: E402
from recorder.slug import model_slug  # noqa: E402
from replay.rescore import rescore  # noqa: E402
from standin import GatewayConfig, StandInGateway  # noqa: E402

MODELS = ("ref/oracle", "ref/abstain", "ref/first-tool", "ref/noisy", "ref/no-temperature", "auto")


def main() -> None:
    suite_path, cassettes, reports = ROOT / "evals" / "suite.json", ROOT / "cassettes", ROOT / "reports"
    suite = read_suite(suite_path)
    with StandInGateway(GatewayConfig(suite_path=suite_path)) as gateway:
        for model in MODELS:
            shutil.rmtree(cassettes / model_slug(model), ignore_errors=True)
            summary = record(suite_path, model, cassettes, gateway.url, [c.id for c in suite.cases], concurrency=4)
            print(f"{model}: {len(summary.recorded)} cases in {summary.seconds:.1f} s")
    rescore(cassettes, suite_path, reports)
    print(f"wrote {reports}")


if __name__ == "__main__":
    main()
