"""Small dated histories for the drift tests: results.json documents carrying the ``run`` object
that rescore writes (id, recorded date, recorded identity; docs/FORMATS.md), drawn case by case
with seeded pass rates."""

from __future__ import annotations

import datetime
import json
import random
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from benchmarks.drift import CASES
from scorer.summary import METRICS

START = datetime.date(2026, 1, 1)


def results_doc(
    model: str,
    run_id: str,
    date: str,
    statuses: dict[str, list[str]],
    identity: dict[str, Any] | None = None,
    suite_version: str = "1.2.0",
) -> dict[str, Any]:
    """A minimal valid results document of one run; a case with several statuses has repeats."""
    repeats = max(len(s) for s in statuses.values())
    results = []
    for case_id, runs in statuses.items():
        status = "passed" if all(s == "passed" for s in runs) else runs[0]
        result: dict[str, Any] = {"id": case_id, "group": "g", "status": status, "reason": None}
        if repeats > 1:
            result["runs"] = [{"status": s, "repeat": n} for n, s in enumerate(runs, 1)]
        results.append(result)
    metric = {"count": 1, "of": 2, "rate": 50.0, "ci": [10.0, 90.0]}
    run: dict[str, Any] = {"id": run_id, "date": date, "recorded_at": None}
    if identity is not None:
        run["identity"] = identity
    return {
        "format_version": 1,
        "model": model,
        "suite": {"name": "lobstack-tool-calling", "version": suite_version, "sha256": "0" * 64},
        "metrics": {name: dict(metric) for name in METRICS},
        "results": results,
        "run": run,
    } | ({"repeats": repeats} if repeats > 1 else {})


def draw(probabilities: Sequence[float], k: int, rng: random.Random) -> dict[str, list[str]]:
    """One run: each case's ``k`` repeats passed with its probability."""
    return {
        case_id: ["passed" if rng.random() < p else "failed" for _ in range(k)]
        for case_id, p in zip(CASES, probabilities, strict=True)
    }


def identity(fingerprint: str, routed: str = "acme/model-2026-01") -> dict[str, Any]:
    """A recorded identity: the answers' model field, the fingerprint, one routing header."""
    return {
        "model": [routed],
        "system_fingerprint": [fingerprint],
        "routing": {"x-lobstack-provider": ["acme"]},
    }


def write_history(
    root: Path,
    before: Sequence[float],
    after: Sequence[float],
    runs: int,
    change: int | None,
    seed: int,
    model: str = "acme/model",
    k: int = 1,
) -> list[Path]:
    """``runs`` daily runs from 2026-01-01 as root/run-NNN/results.json; from run ``change``
    (1-based) on the cases draw from ``after`` and the recorded fingerprint changes. Returns the
    run dirs in date order."""
    rng = random.Random(seed)
    dirs = []
    for n in range(1, runs + 1):
        changed = change is not None and n >= change
        doc = results_doc(
            model,
            f"run-{n:03d}",
            (START + datetime.timedelta(days=n - 1)).isoformat(),
            draw(after if changed else before, k, rng),
            identity("fp_new" if changed else "fp_old"),
        )
        folder = root / f"run-{n:03d}"
        folder.mkdir(parents=True)
        (folder / "results.json").write_text(json.dumps(doc), encoding="utf-8")
        dirs.append(folder)
    return dirs
