"""Runs as history: a recording made with ``record --history`` (or ``--run-id``) is one dated run of
its models, kept beside the others in ``<cassettes>/history/<run-id>/<model-slug>/``
(docs/FORMATS.md, "Histories").

Each run dir is a whole cassettes dir (rescore, merge and the plugin read it as they read
``cassettes/``); each model's run.json says which run it is:
``"run": {"id": ..., "recorded_at": ...}``. The run's date and the model's identity are worked out
at rescore (``scorer.run_identity``), from the recording itself.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from scorer.errors import CassetteError, UsageError
from scorer.run_identity import parse_recorded_at

HISTORY = (
    "history"  # the folder of a cassettes dir that holds its dated runs (never a model dir itself)
)
_RUN_ID = re.compile(r"[A-Za-z0-9][A-Za-z0-9._-]{0,99}")


@dataclass(frozen=True)
class RunStamp:
    """Which run a recording is: its id (a folder name) and when it was recorded (ISO 8601, UTC;
    None when not known, e.g. an older recording moved into a history by hand)."""

    id: str
    recorded_at: str | None

    def to_json(self) -> dict[str, Any]:
        return {"id": self.id, "recorded_at": self.recorded_at}


def now_utc() -> datetime:
    """The recorder's clock (UTC), read once per record run."""
    return datetime.now(UTC)


def default_run_id(when: datetime) -> str:
    """The run id of a recording started at ``when``: its UTC date, ``YYYY-MM-DD`` (so a second
    record the same day resumes that day's run, as ``record`` resumes any dir)."""
    return when.astimezone(UTC).strftime("%Y-%m-%d")


def recorded_at_text(when: datetime) -> str:
    """``when`` as run.json keeps it: ISO 8601 in UTC to the second,
    ``2026-10-21T06:00:00+00:00``."""
    return when.astimezone(UTC).isoformat(timespec="seconds")


def check_run_id(run_id: str) -> str:
    """``run_id`` when it can name a run folder (``[A-Za-z0-9][A-Za-z0-9._-]*``, at most 100
    characters), else a UsageError naming it."""
    if not _RUN_ID.fullmatch(run_id):
        raise UsageError(
            f"--run-id {run_id!r}: expected a folder name of letters, digits, '.', '_' and '-' "
            "(starting with a letter or digit, at most 100 characters), e.g. 2026-10-21"
        )
    return run_id


def run_dir(cassettes: Path, run_id: str) -> Path:
    """``<cassettes>/history/<run-id>``: the cassettes dir of one run."""
    return cassettes / HISTORY / run_id


def parse_run(raw: Any, path: Path) -> RunStamp | None:
    """run.json's ``run`` (absent: not a run of a history), every field checked; CassetteError
    naming the file."""
    if raw is None:
        return None
    if not isinstance(raw, dict):
        raise CassetteError(f"{path}: run: expected an object with id and recorded_at")
    run_id = raw.get("id")
    if not isinstance(run_id, str) or not _RUN_ID.fullmatch(run_id):
        raise CassetteError(f"{path}: run.id: expected a run folder name, got {str(run_id)[:40]!r}")
    recorded_at = raw.get("recorded_at")
    if recorded_at is not None and (
        not isinstance(recorded_at, str) or parse_recorded_at(recorded_at) is None
    ):
        raise CassetteError(
            f"{path}: run.recorded_at: expected an ISO 8601 date-time with a time zone or null, "
            f"got {str(recorded_at)[:40]!r}"
        )
    return RunStamp(run_id, recorded_at)
