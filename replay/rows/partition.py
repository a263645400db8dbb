"""Rows dataset partitions on disk: their folders (``suite_version=V/model_slug=S``, and
``/run_id=R`` for a run of a history) and the listing of a root's partitions by folder names
alone (``replay.rows.dataset`` reads and writes them)."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from urllib.parse import quote, unquote

from replay.rows.schema import META_MODEL_SLUG, META_RUN_ID, META_SUITE_VERSION
from scorer.errors import ResultsError

VERSION_KEY, MODEL_KEY, RUN_KEY = "suite_version", "model_slug", "run_id"
PART = "part-0.parquet"  # the one file of a partition (hive readers take any *.parquet name)


@dataclass(frozen=True)
class Partition:
    """One (suite version, model slug) folder of a rows dataset."""

    suite_version: str
    model_slug: str
    root: Path
    folder: Path  # suite_version=V/model_slug=S (/run_id=R for a run's), as named on disk
    run_id: str | None = None

    def file(self, table: str) -> Path:
        """This partition's file of ``table`` (``cases`` or ``calls``)."""
        return self.root / table / self.folder / PART

    @property
    def metadata(self) -> dict[str, str]:
        found = {META_SUITE_VERSION: self.suite_version, META_MODEL_SLUG: self.model_slug}
        return found if self.run_id is None else {**found, META_RUN_ID: self.run_id}


def partition_path(
    table_root: Path, suite_version: str, model_slug: str, run_id: str | None = None
) -> Path:
    """``table_root/suite_version=V/model_slug=S`` (and ``/run_id=R`` for a run of a history; values
    percent-encoded, as hive readers decode them)."""
    folder = table_root / f"{VERSION_KEY}={quote(suite_version, safe='')}"
    folder = folder / f"{MODEL_KEY}={quote(model_slug, safe='')}"
    return folder if run_id is None else folder / f"{RUN_KEY}={quote(run_id, safe='')}"


def make_partition(
    root: Path, suite_version: str, model_slug: str, run_id: str | None
) -> Partition:
    folder = partition_path(Path(), suite_version, model_slug, run_id)
    return Partition(suite_version, model_slug, root, folder, run_id)


def folder_value(folder: Path, key: str) -> str:
    name = folder.name
    if not name.startswith(f"{key}="):
        raise ResultsError(f"{folder}: not a rows partition folder (expected {key}=VALUE)")
    return unquote(name[len(key) + 1 :])


def subfolders(folder: Path) -> list[Path]:
    return sorted(p for p in folder.iterdir() if p.is_dir() and not p.name.startswith("."))


def listed_partitions(root: Path) -> list[Partition]:
    """Every partition of ``root``'s cases table, by folder names (none for a new root)."""
    table_root = root / "cases"
    found = []
    for version_dir in subfolders(table_root) if table_root.is_dir() else []:
        found.extend(model_partitions(root, version_dir))
    return found


def model_partitions(root: Path, version_dir: Path) -> list[Partition]:
    """The partitions of one ``suite_version=V`` folder: one per model, or one per run of a
    model's history."""
    version = folder_value(version_dir, VERSION_KEY)
    table_root = root / "cases"
    found = []
    for model_dir in subfolders(version_dir):
        slug = folder_value(model_dir, MODEL_KEY)
        runs = [d for d in subfolders(model_dir) if d.name.startswith(f"{RUN_KEY}=")]
        if not runs:
            found.append(Partition(version, slug, root, model_dir.relative_to(table_root)))
        for run_dir in runs:
            found.append(
                Partition(
                    version,
                    slug,
                    root,
                    run_dir.relative_to(table_root),
                    folder_value(run_dir, RUN_KEY),
                )
            )
    return found
