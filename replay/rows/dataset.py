"""The rows dataset: one table per root, one hive partition per (suite version, model), appended by ``rescore
--rows DIR`` and ``merge --rows DIR``.

    DIR/cases/suite_version=1.1.0/model_slug=openai_gpt-4o/part-0.parquet
    DIR/calls/suite_version=1.1.0/model_slug=openai_gpt-4o/part-0.parquet

Each of ``DIR/cases`` and ``DIR/calls`` is a hive dataset of one schema, as Spark, DuckDB, polars and pyarrow
read one (docs/scale.md). A file holds its table's columns but the partition keys, which are in its folder names
and its footer (``lobstack_eval.suite_version``, ``lobstack_eval.model_slug``): in the files too, they clashed with
pyarrow's hive readers (docs/commands/report.md#rows-partition-columns-out-of-the-files). lobstack-eval's readers
add them back from the footer (``replay.rows.store.with_keys``).

The layout before it (``DIR/suite_version=V/model_slug=S/cases.parquet`` beside ``calls.parquet``) is refused with
one line saying how to convert it: moving the files is the whole conversion (the files did not change).

The partition key is ``model_slug`` because the folder holds the slug; ``model`` is the model's name as given
(``openai/gpt-4o``), and a ``model=`` folder would have disagreed with it.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import quote, unquote

from recorder.slug import model_slug as slug_of
from replay.rows.one_suite import check_partition_suite
from replay.rows.schema import META_MODEL_SLUG, META_SUITE_SHA256, META_SUITE_VERSION, TABLES
from replay.rows.store import check_file, write_table
from replay.rows.unmatched import no_value, unknown_models
from replay.safe_paths import unlinked
from scorer.errors import ResultsError, UsageError

VERSION_KEY, MODEL_KEY = "suite_version", "model_slug"
PART = "part-0.parquet"  # the one file of a partition (hive readers take any *.parquet name)


@dataclass(frozen=True)
class Partition:
    """One (suite version, model slug) folder of a rows dataset."""

    suite_version: str
    model_slug: str
    root: Path
    folder: Path  # suite_version=V/model_slug=S, as named on disk

    def file(self, table: str) -> Path:
        """This partition's file of ``table`` (``cases`` or ``calls``)."""
        return self.root / table / self.folder / PART

    @property
    def metadata(self) -> dict[str, str]:
        return {META_SUITE_VERSION: self.suite_version, META_MODEL_SLUG: self.model_slug}


def partition_path(table_root: Path, suite_version: str, model_slug: str) -> Path:
    """``table_root/suite_version=V/model_slug=S`` (values percent-encoded, as hive readers decode them)."""
    folder = table_root / f"{VERSION_KEY}={quote(suite_version, safe='')}"
    return folder / f"{MODEL_KEY}={quote(model_slug, safe='')}"


def check_layout(root: Path) -> None:
    """Refuse (ResultsError, one line saying how to convert) a rows dir in the layout before one table per root:
    ``suite_version=V`` folders right under ``root``."""
    if root.is_dir() and any(p.name.startswith(f"{VERSION_KEY}=") for p in _subfolders(root)):
        raise ResultsError(
            f"{root}: rows in the old layout ({VERSION_KEY}=V/{MODEL_KEY}=S/cases.parquet beside calls.parquet), "
            f"which hive readers cannot read as one table; convert it by moving each such cases.parquet to "
            f"{root}/cases/{VERSION_KEY}=V/{MODEL_KEY}=S/{PART} and each calls.parquet to "
            f"{root}/calls/{VERSION_KEY}=V/{MODEL_KEY}=S/{PART} (docs/FORMATS.md), or rescore into a new --rows dir"
        )


def append(root: Path, tables: dict[str, Any]) -> list[Path]:
    """Write one partition per (suite version, model) of ``tables``; a partition written before is replaced. Refused
    (ResultsError, before any file is written) when another partition of the same version was scored with another
    suite file (METHOD decision 110)."""
    keys = (
        tables["cases"]
        .select(VERSION_KEY, MODEL_KEY, "suite_sha256")
        .unique(maintain_order=True)
        .rows()
    )
    files: dict[str, str] = {}
    for suite_version, _slug, sha256 in keys:
        if (
            files.setdefault(suite_version, sha256) != sha256
        ):  # rescore and merge score with one suite file
            raise ResultsError(
                f"--rows {root}: these rows of suite version {suite_version} mix suite files"
            )
    check_layout(root)
    for suite_version, sha256 in files.items():
        check_suite(
            root,
            suite_version,
            sha256,
            {slug for version, slug, _sha in keys if version == suite_version},
        )
    # One pass splits each table by partition (a filter per partition would read the whole table each time).
    split = {
        t: tables[t].partition_by(VERSION_KEY, MODEL_KEY, as_dict=True, maintain_order=True)
        for t in TABLES
    }
    for (
        suite_version,
        model_slug,
        _sha256,
    ) in keys:  # before any write: a linked partition folder refuses the run
        partition = Partition(
            suite_version, model_slug, root, partition_path(Path(), suite_version, model_slug)
        )
        for table in TABLES:
            path = partition.file(table)
            unlinked(
                root,
                *path.relative_to(root).parts,
                what="--rows writes only inside its own folders",
            )
    written = []
    for suite_version, model_slug, sha256 in keys:
        partition = Partition(
            suite_version, model_slug, root, partition_path(Path(), suite_version, model_slug)
        )
        metadata = {**partition.metadata, META_SUITE_SHA256: sha256}
        for table in TABLES:
            frame = split[table].get((suite_version, model_slug), tables[table].clear())
            written.append(
                write_table(partition.file(table), frame, table, metadata, partition=True)
            )
    return written


def check_suite(
    root: Path, suite_version: str, sha256: str, replacing: Collection[str] = ()
) -> None:
    """Refuse (ResultsError) to write partitions of ``suite_version`` scored with the suite file of ``sha256`` into
    ``root`` when a partition of that version, other than those of the ``replacing`` model slugs, was scored with
    another suite file. Reads only the footers of that version's partitions; a new root or version passes."""
    check_layout(root)
    folder = root / "cases" / f"{VERSION_KEY}={quote(suite_version, safe='')}"
    if not folder.is_dir():
        return
    found = [(_value(d, MODEL_KEY), d / PART) for d in _subfolders(folder)]
    check_partition_suite(root, suite_version, sha256, found, replacing)


def _value(folder: Path, key: str) -> str:
    name = folder.name
    if not name.startswith(f"{key}="):
        raise ResultsError(f"{folder}: not a rows partition folder (expected {key}=VALUE)")
    return unquote(name[len(key) + 1 :])


def _subfolders(folder: Path) -> list[Path]:
    return sorted(p for p in folder.iterdir() if p.is_dir() and not p.name.startswith("."))


def partitions(root: Path) -> list[Partition]:
    """Every partition of ``root``'s cases table (folder names only: no file is opened). A folder under
    ``root/cases`` that is not ``suite_version=V/model_slug=S`` is a ResultsError naming it, and so is the old
    layout."""
    if not root.is_dir():
        raise ResultsError(f"{root}: no such rows directory")
    check_layout(root)
    table_root = root / "cases"
    found = []
    for version_dir in _subfolders(table_root) if table_root.is_dir() else []:
        version = _value(version_dir, VERSION_KEY)
        for model_dir in _subfolders(version_dir):
            found.append(
                Partition(
                    version, _value(model_dir, MODEL_KEY), root, model_dir.relative_to(table_root)
                )
            )
    if not found:
        raise ResultsError(
            f"{root}: no rows partitions; write some with `lobstack-eval rescore --rows {root}`"
        )
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
