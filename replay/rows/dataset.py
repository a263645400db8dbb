"""The rows dataset: one hive partition per (suite version, model), appended by ``rescore --rows DIR``.

    DIR/suite_version=1.1.0/model_slug=openai_gpt-4o/cases.parquet
    DIR/suite_version=1.1.0/model_slug=openai_gpt-4o/calls.parquet

``pl.scan_parquet("DIR/*/*/cases.parquet", hive_partitioning=True)`` and DuckDB's ``read_parquet(...,
hive_partitioning = true)`` read it lazily. Every file also holds its partition's columns, with the same values
as its folder names, so a file read alone (or by a tool without hive support) says what it is.

The partition key is ``model_slug`` because the folder holds the slug; ``model`` is the model's name as given
(``openai/gpt-4o``), and a ``model=`` folder would have disagreed with it.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import quote, unquote

from replay.rows.schema import META_MODEL_SLUG, META_SUITE_VERSION, TABLES
from replay.rows.store import check_file, write_table
from scorer.errors import ResultsError, UsageError

VERSION_KEY, MODEL_KEY = "suite_version", "model_slug"


@dataclass(frozen=True)
class Partition:
    """One (suite version, model slug) folder of a rows dataset."""

    suite_version: str
    model_slug: str
    path: Path

    def file(self, table: str) -> Path:
        return self.path / f"{table}.parquet"

    @property
    def metadata(self) -> dict[str, str]:
        return {META_SUITE_VERSION: self.suite_version, META_MODEL_SLUG: self.model_slug}


def partition_path(root: Path, suite_version: str, model_slug: str) -> Path:
    """``root/suite_version=V/model_slug=S`` (values percent-encoded, as hive readers decode them)."""
    return root / f"{VERSION_KEY}={quote(suite_version, safe='')}" / f"{MODEL_KEY}={quote(model_slug, safe='')}"


def append(root: Path, tables: dict[str, Any]) -> list[Path]:
    """Write one partition per (suite version, model) of ``tables``; a partition written before is replaced."""
    import polars as pl

    written = []
    keys = tables["cases"].select(VERSION_KEY, MODEL_KEY).unique(maintain_order=True).iter_rows()
    for suite_version, model_slug in keys:
        where = (pl.col(VERSION_KEY) == suite_version) & (pl.col(MODEL_KEY) == model_slug)
        partition = Partition(suite_version, model_slug, partition_path(root, suite_version, model_slug))
        for table in TABLES:
            frame = tables[table].filter(where)
            written.append(write_table(partition.file(table), frame, table, partition.metadata))
    return written


def _value(folder: Path, key: str) -> str:
    name = folder.name
    if not name.startswith(f"{key}="):
        raise ResultsError(f"{folder}: not a rows partition folder (expected {key}=VALUE)")
    return unquote(name[len(key) + 1 :])


def _subfolders(folder: Path) -> list[Path]:
    return sorted(p for p in folder.iterdir() if p.is_dir() and not p.name.startswith("."))


def partitions(root: Path) -> list[Partition]:
    """Every partition folder under ``root`` (folder names only: no file is opened). A folder that is not
    ``suite_version=V/model_slug=S`` is a ResultsError naming it."""
    if not root.is_dir():
        raise ResultsError(f"{root}: no such rows directory")
    found = []
    for version_dir in _subfolders(root):
        version = _value(version_dir, VERSION_KEY)
        for model_dir in _subfolders(version_dir):
            found.append(Partition(version, _value(model_dir, MODEL_KEY), model_dir))
    if not found:
        raise ResultsError(f"{root}: no rows partitions; write some with `lobstack-eval rescore --rows {root}`")
    return found


_SHOWN = 10  # model slugs named in an error; a dataset may hold thousands


def listing(values: Iterable[str]) -> str:
    """Distinct values, sorted, for an error line: at most ten, then how many more."""
    present = sorted(set(values))
    more = len(present) - _SHOWN
    return ", ".join(present[:_SHOWN]) + (f", +{more} more" if more > 0 else "") if present else "none"


@dataclass(frozen=True)
class Slice:
    """The partitions a leaderboard reads, and the suite version they share."""

    suite_version: str
    files: tuple[Path, ...]


def select(root: Path, suite_version: str | None, model_slugs: frozenset[str]) -> Slice:
    """The partitions of one suite version (and of ``model_slugs``, when given), each file's footer metadata
    checked. Columns are checked when a query fails (polars refuses a used column of another type; reading
    every file's schema up front would cost a third of the query), so a file missing only columns the query
    does not read is still read.

    Pruning happens here, by folder name, before any file is opened: a one-model slice opens one file
    however many partitions the dataset holds."""
    every = partitions(root)
    chosen = [p for p in every if not model_slugs or p.model_slug in model_slugs]
    if not chosen:  # none of these models in any version: name the models there are, not the versions
        present = listing(p.model_slug for p in every)
        raise ResultsError(f"{root}: no rows for model(s) {', '.join(sorted(model_slugs))} (models present: {present})")
    versions = sorted({p.suite_version for p in chosen})
    if suite_version is None and len(versions) > 1:
        raise UsageError(
            f"{root} holds suite versions {', '.join(versions)}; scores compare only within one: pass --suite-version"
        )
    version = suite_version or (versions[0] if versions else None)
    chosen = [p for p in chosen if p.suite_version == version]
    if not chosen:
        wanted = f"suite version {suite_version}" if suite_version else "the slice"
        models = f" and model(s) {', '.join(sorted(model_slugs))}" if model_slugs else ""
        raise ResultsError(f"{root}: no rows for {wanted}{models} (versions present: {', '.join(versions)})")
    for partition in chosen:
        check_file(partition.file("cases"), "cases", partition.metadata, columns=False)
    return Slice(str(version), tuple(p.file("cases") for p in chosen))
