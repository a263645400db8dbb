"""Re-record the committed histories: dated runs of ``ref/drifting`` and ``ref/flaky`` in
cassettes/history/.

    uv run python scripts/record_history.py

Each run N (1..RUNS) is recorded through the real pipeline (``recorder.record``) against a fresh
stand-in gateway on 127.0.0.1 serving run N (``GatewayConfig.run``: ref/drifting changes from run
DRIFT_FROM on, ref/flaky draws afresh per run, the ``Date`` header is day N), into
``cassettes/history/<date>/<model-slug>/``, the layout ``record --history`` writes. Run N is dated
N-1 days after 2026-10-21 (run 20: 2026-11-09): its id is that date (``record --history``'s default
id) and its ``recorded_at`` that day at 06:00 UTC, as if a daily job had recorded it (the recorder's
clock would date every run today). Recording again changes nothing but timings (``wall_ms``).

Why 20 runs, changed from run 16: ``drift`` learns each case's rate from the first 10 runs and tests
from the 11th; with 15 runs before the change it finds ref/drifting's 6 broken cases at the third
changed run (run 18), within the delay target of issue 31 (tests/test_drift_e2e.py). About 1.9 MB a
run on disk (both models).

``rescore cassettes/`` does not read history/ (docs/FORMATS.md, "Histories"): the committed reports
stay as they are. Score a run with ``lobstack-eval rescore cassettes/history/2026-11-01``.
"""

from __future__ import annotations

import shutil
import sys
from datetime import date, timedelta
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from recorder.files import read_suite  # noqa: E402
from recorder.record import record  # noqa: E402
from recorder.run_stamp import HISTORY, RunStamp  # noqa: E402
from recorder.settings import RecordSettings  # noqa: E402
from standin import GatewayConfig, StandInGateway  # noqa: E402

MODELS = ("ref/drifting", "ref/flaky")
RUNS = 20  # drift learns from runs 1-10 and tests from run 11 on
DRIFT_FROM = 16  # 15 runs before the change: drift sees a 6-case drop within 2-3 runs
FIRST_DAY = date(2026, 10, 21)  # the stand-in's day 1 (its fixed Date header)


def run_stamp(run: int) -> RunStamp:
    """Run ``run``'s id (its date) and recorded_at (that day, 06:00 UTC)."""
    day = FIRST_DAY + timedelta(days=run - 1)
    return RunStamp(day.isoformat(), f"{day.isoformat()}T06:00:00+00:00")


def main() -> None:
    suite_path = ROOT / "evals" / "suite.json"
    history = ROOT / "cassettes" / HISTORY
    shutil.rmtree(history, ignore_errors=True)
    cases = [c.id for c in read_suite(suite_path).cases]
    for run in range(1, RUNS + 1):
        stamp = run_stamp(run)
        config = GatewayConfig(suite_path=suite_path, run=run, drift_from=DRIFT_FROM)
        with StandInGateway(config) as gateway:
            for model in MODELS:
                summary = record(
                    suite_path,
                    model,
                    history / stamp.id,
                    gateway.url,
                    cases,
                    RecordSettings(concurrency=2),
                    run=stamp,
                )
                passed = sum(1 for s in summary.statuses.values() if s == "passed")
                print(f"run {run} ({stamp.id}) {model}: {passed}/{len(cases)} passed")
    print(f"wrote {history}")


if __name__ == "__main__":
    main()
