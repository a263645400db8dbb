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

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import quote, unquote

from recorder.slug import model_slug as slug_of
from replay.rows.schema import META_MODEL_SLUG, META_SUITE_VERSION, TABLES
from replay.rows.store import check_file, write_table
from replay.rows.unmatched import no_value, unknown_models
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


@dataclass(frozen=True)
class Slice:
    """The partitions a leaderboard reads, and the suite version they share."""

    suite_version: str
    files: tuple[Path, ...]


def select(root: Path, suite_version: str | None, models: Sequence[str] = ()) -> Slice:
    """The partitions of one suite version (and of ``models``, names or slugs, when given), each file's footer
    metadata checked. Columns are checked when a query fails (polars refuses a used column of another type; reading
    every file's schema up front would cost a third of the query), so a file missing only columns the query
    does not read is still read. A suite version or model with no partition is a ResultsError naming it and the
    ones there are (METHOD decision 94).

    Pruning happens here, by folder name, before any file is opened: a one-model slice opens one file
    however many partitions the dataset holds."""
    every = partitions(root)
    if suite_version is not None:
        if suite_version not in {p.suite_version for p in every}:
            raise no_value("suite version", [suite_version], root, (p.suite_version for p in every))
        every = [p for p in every if p.suite_version == suite_version]
    unknown = unknown_models(models, (p.model_slug for p in every))
    if unknown:
        scope = f"suite version {suite_version}" if suite_version is not None else ""
        raise no_value("model", unknown, root, (p.model_slug for p in every), scope)
    slugs = {slug_of(m) for m in models}
    chosen = [p for p in every if not slugs or p.model_slug in slugs]
    versions = sorted({p.suite_version for p in chosen})
    if len(versions) > 1:
        raise UsageError(
            f"{root} holds suite versions {', '.join(versions)}; scores compare only within one: pass --suite-version"
        )
    for partition in chosen:
        check_file(partition.file("cases"), "cases", partition.metadata, columns=False)
    return Slice(versions[0], tuple(p.file("cases") for p in chosen))
