"""Each model's metrics under both suite versions, from the same cassettes (``diff suites --cassettes``)."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from scorer.errors import CassetteError
from scorer.metrics import METRICS


@dataclass(frozen=True)
class ModelRescore:
    """One model's seven rates rescored under OLD and under NEW, and what NEW still needs recorded."""

    model: str
    rates_old: tuple[float | None, ...]  # in METRICS order
    rates_new: tuple[float | None, ...]
    needs_recording: tuple[str, ...]  # case ids unrecorded under NEW


def rescore_both(cassettes: Path, old: tuple[bytes, str], new: tuple[bytes, str]) -> tuple[ModelRescore, ...]:
    """Rescore every model dir of ``cassettes`` under OLD and NEW (each given as raw bytes and source name).

    Reads cassettes only (no network): ``replay.rescore.rescore_model`` does the scoring.
    """
    from replay.rescore import rescore_model  # imported here: only --cassettes needs the replay machinery
    from scorer import parse_suite

    if not cassettes.is_dir():
        raise CassetteError(f"{cassettes}: not a directory")
    model_dirs = sorted(d for d in cassettes.iterdir() if d.is_dir() and (d / "run.json").is_file())
    if not model_dirs:
        raise CassetteError(f"{cassettes}: no model directories with a run.json")
    suite_old, suite_new = parse_suite(old[0], old[1]), parse_suite(new[0], new[1])
    rows = []
    for model_dir in model_dirs:
        ro, rn = rescore_model(model_dir, suite_old), rescore_model(model_dir, suite_new)
        rows.append(
            ModelRescore(
                model=str(rn.get("model", model_dir.name)),
                rates_old=tuple(ro["metrics"][m]["rate"] for m in METRICS),
                rates_new=tuple(rn["metrics"][m]["rate"] for m in METRICS),
                needs_recording=tuple(r["id"] for r in rn["results"] if r["status"] == "unrecorded"),
            )
        )
    return tuple(rows)
