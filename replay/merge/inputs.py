"""What ``merge`` is given: which kind of dir each input is, and where it may write."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from recorder.manifest import MANIFEST
from replay.out.folder import check_outside
from replay.out.lock import LOCK
from scorer.errors import UsageError

CASSETTES, REPORTS = "cassettes", "reports"


def kind_of(folder: Path) -> str:
    """``cassettes`` (model dirs holding run.json) or ``reports`` (model dirs holding
    results.json, or rows)."""
    if not folder.is_dir():
        raise UsageError(f"{folder}: no such directory")
    subdirs = [p for p in folder.iterdir() if p.is_dir()]
    cassettes = any((p / MANIFEST).is_file() for p in subdirs)
    reports = (
        any((p / "results.json").is_file() for p in subdirs) or (folder / "cases.parquet").is_file()
    )
    if cassettes and reports:
        raise UsageError(
            f"{folder}: holds both cassettes (run.json) and reports (results.json); merge one kind"
        )
    if not (cassettes or reports):
        raise UsageError(
            f"{folder}: neither a cassettes dir (model dirs with {MANIFEST}) nor a reports dir "
            "(model dirs with results.json)"
        )
    return CASSETTES if cassettes else REPORTS


def common_kind(inputs: Sequence[Path]) -> str:
    """The one kind every input shares; a UsageError naming two inputs of different kinds."""
    if not inputs:
        raise UsageError("merge needs at least one shard dir")
    kinds = {folder: kind_of(folder) for folder in inputs}
    first = inputs[0]
    for folder, kind in kinds.items():
        if kind != kinds[first]:
            raise UsageError(
                f"{first} is a {kinds[first]} dir but {folder} is a {kind} dir; merge one kind at "
                "a time"
            )
    seen: dict[Path, Path] = {}
    for folder in inputs:
        resolved = folder.resolve()
        if resolved in seen:
            raise UsageError(f"{folder} is given twice (also as {seen[resolved]})")
        seen[resolved] = folder
    return kinds[first]


def check_out(out: Path, inputs: Sequence[Path]) -> None:
    """``--out`` must be a new or empty dir, and neither an input nor inside one (nothing is
    merged in place)."""
    if out.exists() and (
        not out.is_dir() or any(p.name != LOCK for p in out.iterdir())
    ):  # our lock only
        raise UsageError(f"--out {out}: must be a new or empty directory")
    check_outside(out, inputs)
