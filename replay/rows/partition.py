"""Rows dataset partitions: their keys (the folder names' columns and the footer metadata that
repeats them), their folders on disk (``suite_version=V/model_slug=S``, and ``/run_id=R`` for a
run of a history) and the listing of a root's partitions by folder names alone
(``replay.rows.dataset`` reads and writes them; ``replay.rows.store`` keeps the keys out of the
files)."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from urllib.parse import quote, unquote

from replay.rows.schema import META_MODEL_SLUG, META_RUN_ID, META_SUITE_VERSION
from scorer.errors import ResultsError

VERSION_KEY, MODEL_KEY, RUN_KEY = "suite_version", "model_slug", "run_id"
PART = "part-0.parquet"  # the one file of a partition (hive readers take any *.parquet name)

# A rows partition's keys: in its folder names and footer, not in its file (decision
# docs/commands/report.md#rows-partition-columns-out-of-the-files), so pyarrow's hive readers agree
# with polars'. Rows of runs of a history have a third level, run_id=R, kept out of the files the
# same way. Each key column -> its footer metadata key, in folder order.
PARTITION_KEYS = {VERSION_KEY: META_SUITE_VERSION, MODEL_KEY: META_MODEL_SLUG}
RUN_PARTITION_KEYS = {**PARTITION_KEYS, RUN_KEY: META_RUN_ID}


def partition_keys(runs: bool) -> dict[str, str]:
    """The partition key columns (-> their footer metadata key) of rows of runs or of
    plain recordings."""
    return RUN_PARTITION_KEYS if runs else PARTITION_KEYS


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
        """The footer metadata naming this partition (what its files must say they belong to)."""
        values = {VERSION_KEY: self.suite_version, MODEL_KEY: self.model_slug, RUN_KEY: self.run_id}
        keys = partition_keys(self.run_id is not None)
        return {meta: str(values[column]) for column, meta in keys.items()}


def partition_path(
    table_root: Path, suite_version: str, model_slug: str, run_id: str | None = None
) -> Path:
    """``table_root/suite_version=V/model_slug=S`` (and ``/run_id=R`` for a run of a history; values
    percent-encoded, as hive readers decode them)."""
    folder = version_folder(table_root, suite_version) / _level(MODEL_KEY, model_slug)
    return folder if run_id is None else folder / _level(RUN_KEY, run_id)


def version_folder(table_root: Path, suite_version: str) -> Path:
    """``table_root/suite_version=V``: the folder of one suite version's partitions."""
    return table_root / _level(VERSION_KEY, suite_version)


def holds_partitions(table_root: Path) -> bool:
    """True for a dataset's table folder (``cases``) holding partition files: of models, or of runs
    of a history (a level deeper)."""
    patterns = ("/".join(["*"] * len(partition_keys(runs)) + [PART]) for runs in (False, True))
    return any(next(table_root.glob(pattern), None) for pattern in patterns)


def _level(key: str, value: str) -> str:
    return f"{key}={quote(value, safe='')}"


def is_level(folder: Path, key: str) -> bool:
    """True when ``folder`` is named as a partition level of ``key`` (``key=VALUE``)."""
    return folder.name.startswith(f"{key}=")


def has_versions(folder: Path) -> bool:
    """True for a folder holding ``suite_version=V`` folders: a table root (or the old layout's
    root)."""
    return folder.is_dir() and any(is_level(p, VERSION_KEY) for p in subfolders(folder))


def make_partition(
    root: Path, suite_version: str, model_slug: str, run_id: str | None
) -> Partition:
    folder = partition_path(Path(), suite_version, model_slug, run_id)
    return Partition(suite_version, model_slug, root, folder, run_id)


def partition_of_file(path: Path) -> Partition | None:
    """The partition whose file ``path`` is, by its folders alone: ``ROOT/TABLE/suite_version=V/
    model_slug=S/part-0.parquet`` or, for a run of a history, ``.../run_id=R/part-0.parquet`` (its
    ``root`` is then ROOT; ``file(TABLE)`` is ``path``). None for any other path."""
    if path.name != PART:
        return None
    for runs in (True, False):  # a run's file first: it is a level deeper
        keys = list(partition_keys(runs))
        levels = path.parents[: len(keys)][::-1]  # outermost first: in keys' order
        if len(path.parents) <= len(keys) + 1 or not all(map(is_level, levels, keys)):
            continue
        values = [folder_value(level, key) for level, key in zip(levels, keys, strict=True)]
        table_root = path.parents[len(keys)]
        folder = path.parent.relative_to(table_root)  # as named on disk
        run_id = values[2] if runs else None
        return Partition(values[0], values[1], table_root.parent, folder, run_id)
    return None


def folder_value(folder: Path, key: str) -> str:
    if not is_level(folder, key):
        raise ResultsError(f"{folder}: not a rows partition folder (expected {key}=VALUE)")
    return unquote(folder.name[len(key) + 1 :])


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
        runs = [d for d in subfolders(model_dir) if is_level(d, RUN_KEY)]
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
