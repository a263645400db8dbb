"""A history of recordings (``record --history``): a dir whose folders are dated runs, each a
cassettes dir of model dirs (``<run-id>/<model-slug>/run.json``). ``rescore`` scores it whole
(one process, its workers) and ``drift`` reads it directly."""

from __future__ import annotations

from pathlib import Path

from recorder.manifest import MANIFEST


def run_dirs(path: Path) -> list[Path]:
    """The runs of a history of recordings (folders holding model dirs), sorted by name; empty
    when ``path`` is not one (a cassettes dir of model dirs is not)."""
    if not path.is_dir() or (path / MANIFEST).is_file():
        return []
    folders = sorted(p for p in path.iterdir() if p.is_dir() and not p.name.startswith("."))
    if any((p / MANIFEST).is_file() for p in folders):
        return []  # model dirs: a plain cassettes dir
    return [run for run in folders if any(run.glob(f"*/{MANIFEST}"))]
