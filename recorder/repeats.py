"""Repeats on disk: one standard vcrpy cassette per (case, repeat).

Repeat 1 is the K = 1 layout, unchanged: ``<model-slug>/<case-id>.json``. Repeat n >= 2 lives in its
own folder, ``<model-slug>/repeat-<n>/<case-id>.json``, so a single-run dir is exactly what it
always was and every repeat dir can be played back with plain vcrpy on its own.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from fileio.safe_paths import inside
from recorder.cassettes import cassette_path, cassette_target
from scorer.errors import UsageError

MAX_REPEATS = 100


@dataclass(frozen=True, order=True)
class CaseRun:
    """One recording of one case: repeat 1 is the case's first (or only) run."""

    case_id: str
    repeat: int = 1

    def __str__(self) -> str:
        return self.case_id if self.repeat == 1 else f"{self.case_id} (repeat {self.repeat})"


def as_run(item: str | CaseRun) -> CaseRun:
    """A case id means its repeat 1."""
    return item if isinstance(item, CaseRun) else CaseRun(item)


def repeat_dir(model_dir: Path, repeat: int) -> Path:
    """The folder holding repeat ``repeat``'s cassettes (the model dir itself for repeat 1)."""
    return model_dir if repeat == 1 else model_dir / f"repeat-{repeat}"


def run_cassette_path(model_dir: Path, case_id: str, repeat: int = 1) -> Path:
    """``<model-slug>/<case-id>.json`` for repeat 1,
    ``<model-slug>/repeat-<n>/<case-id>.json`` after."""
    return cassette_path(repeat_dir(model_dir, repeat), case_id)


def run_cassette_target(model_dir: Path, case_id: str, repeat: int = 1) -> Path:
    """``run_cassette_path`` for writing: its repeat folder made, the path checked to lie inside
    ``model_dir``."""
    if repeat == 1:
        return cassette_target(model_dir, case_id)
    folder = inside(model_dir, f"repeat-{repeat}")
    folder.mkdir(exist_ok=True)
    return cassette_target(folder, case_id)


def check_repeats(repeats: int) -> None:
    """UsageError unless 1 <= repeats <= MAX_REPEATS."""
    if not 1 <= repeats <= MAX_REPEATS:
        raise UsageError(f"--repeats {repeats}: must be between 1 and {MAX_REPEATS}")
