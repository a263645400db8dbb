"""The rows dataset: one table per root, one hive partition per (suite version, model), appended by
``rescore --rows DIR`` and ``merge --rows DIR``.

    DIR/cases/suite_version=1.1.0/model_slug=openai_gpt-4o/part-0.parquet
    DIR/calls/suite_version=1.1.0/model_slug=openai_gpt-4o/part-0.parquet

Each of ``DIR/cases`` and ``DIR/calls`` is a hive dataset of one schema, as Spark, DuckDB, polars
and pyarrow read one (docs/scale.md). A file holds its table's columns but the partition keys, which
are in its folder names and its footer (``lobstack_eval.suite_version``,
``lobstack_eval.model_slug``): in the files too, they clashed with pyarrow's hive readers
(docs/commands/report.md#rows-partition-columns-out-of-the-files). lobstack-eval's readers add them
back from the footer (``replay.rows.store.with_keys``).

The layout before it (``DIR/suite_version=V/model_slug=S/cases.parquet`` beside ``calls.parquet``)
is refused with one line saying how to convert it: moving the files is the whole conversion (the
files did not change).

The partition key is ``model_slug`` because the folder holds the slug; ``model`` is the model's name
as given (``openai/gpt-4o``), and a ``model=`` folder would have disagreed with it.

Rows of runs of a history (results.json with ``run``) have one partition per run, a third level, so
one root holds a model's whole history and appending a run keeps the earlier ones:

    DIR/cases/suite_version=1.1.0/model_slug=openai_gpt-4o/run_id=2026-10-21/part-0.parquet

A root holds either runs or plain recordings, never both: their files have different columns
(``run_id``, ``run_date`` and ``run_identity`` last), which hive readers cannot read as one table,
so ``--rows`` refuses to mix them.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from fileio.safe_paths import unlinked
from recorder.slug import model_slug as slug_of
from replay.rows.one_suite import check_partition_suite
from replay.rows.partition import (
    MODEL_KEY,
    PART,
    RUN_KEY,
    VERSION_KEY,
    Partition,
    has_versions,
    listed_partitions,
    make_partition,
    model_partitions,
    partition_keys,
    partition_path,
    version_folder,
)
from replay.rows.schema import (
    META_RUN_DATE,
    META_SUITE_SHA256,
    TABLES,
    Frames,
)
from replay.rows.store import check_file, write_table
from replay.rows.unmatched import no_value, unknown_models
from replay.rows.wires import WireEntry, footer
from scorer.errors import ResultsError, UsageError

__all__ = [
    "MODEL_KEY",
    "PART",
    "RUN_KEY",
    "VERSION_KEY",
    "Partition",
    "Slice",
    "append",
    "check_layout",
    "check_suite",
    "partition_path",
    "partitions",
    "select",
]


def check_layout(root: Path) -> None:
    """Refuse (ResultsError, one line saying how to convert) a rows dir in the layout before one
    table per root: ``suite_version=V`` folders right under ``root``."""
    if has_versions(root):
        raise ResultsError(
            f"{root}: rows in the old layout ({VERSION_KEY}=V/{MODEL_KEY}=S/cases.parquet beside "
            "calls.parquet), which hive readers cannot read as one table; convert it by moving "
            f"each such cases.parquet to {root}/cases/{VERSION_KEY}=V/{MODEL_KEY}=S/{PART} and "
            f"each calls.parquet to {root}/calls/{VERSION_KEY}=V/{MODEL_KEY}=S/{PART} "
            "(docs/FORMATS.md), or rescore into a new --rows dir"
        )


def append(root: Path, tables: Frames, wires: dict[str, WireEntry] | None = None) -> list[Path]:
    """Write one partition per (suite version, model) of ``tables``; a partition written before is
    replaced. ``wires``: the footer entries of models recorded through another wire (their cases
    files carry them: ``replay.rows.wires``). Refused (ResultsError, before any file is written)
    when another partition of the same version was scored with another suite file (METHOD
    decision 110)."""
    runs = RUN_KEY in tables["cases"].columns
    by = tuple(partition_keys(runs))
    found_keys = tables["cases"].select(*by, "suite_sha256").unique(maintain_order=True).rows()
    # (version, slug, sha256, run id or None)
    keys = [(k[0], k[1], k[-1], k[2] if runs else None) for k in found_keys]
    _check_kind(root, runs, keys)
    files: dict[str, str] = {}
    for suite_version, _slug, sha256, _run in keys:
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
            {slug for version, slug, _sha, _run in keys if version == suite_version},
            {(slug, run) for version, slug, _sha, run in keys if version == suite_version},
        )
    # One pass splits each table by partition (a filter per partition would read the whole table
    # each time).
    split = {t: tables[t].partition_by(*by, as_dict=True, maintain_order=True) for t in TABLES}
    made = [(make_partition(root, v, slug, run), sha, run) for v, slug, sha, run in keys]
    for partition, _sha256, _run in made:  # before any write: a linked partition folder refuses it
        for table in TABLES:
            path = partition.file(table)
            unlinked(
                root,
                *path.relative_to(root).parts,
                what="--rows writes only inside its own folders",
            )
    written = []
    for partition, sha256, run_id in made:
        metadata = {**partition.metadata, META_SUITE_SHA256: sha256}
        suite_version, model_slug = partition.suite_version, partition.model_slug
        key = (suite_version, model_slug) if run_id is None else (suite_version, model_slug, run_id)
        if run_id is not None:
            dates = split["cases"][key]["run_date"].drop_nulls()
            metadata[META_RUN_DATE] = str(dates[0]) if len(dates) else ""
        for table in TABLES:
            frame = split[table].get(key, tables[table].clear())
            extra = (
                {**metadata, **footer(wires or {}, [model_slug])} if table == "cases" else metadata
            )
            written.append(write_table(partition.file(table), frame, table, extra, True, root))
    return written


def _check_kind(root: Path, runs: bool, keys: Sequence[tuple[Any, ...]]) -> None:
    """Refuse (ResultsError) rows of runs into a root of plain recordings, or the other way round:
    their files have different columns, which a hive reader cannot read as one table."""
    if not (root / "cases").is_dir():
        return
    if runs and any(
        r is None for *_k, r in keys
    ):  # a run dir whose other models are plain recordings
        raise ResultsError(
            f"--rows {root}: this rescore mixes runs of a history with plain recordings; rescore "
            "the run dir alone (cassettes/history/<run-id>)"
        )
    existing = {p.run_id is not None for p in listed_partitions(root)}
    if existing and existing != {runs}:
        held, given = (
            ("plain recordings", "runs of a history")
            if runs
            else ("runs of a history", "plain recordings")
        )
        raise ResultsError(
            f"--rows {root}: it holds rows of {held}, and these are rows of {given}, whose files "
            "have other "
            "columns (run_id, run_date); write them to another --rows dir (docs/FORMATS.md, "
            '"Histories")'
        )


def check_suite(
    root: Path,
    suite_version: str,
    sha256: str,
    replacing: Collection[str] = (),
    replacing_runs: Collection[tuple[str, str | None]] | None = None,
) -> None:
    """Refuse (ResultsError) to write partitions of ``suite_version`` scored with the suite file of
    ``sha256`` into ``root`` when a partition of that version, other than those of the
    ``replacing`` model slugs, was scored with another suite file. Reads only the footers of that
    version's partitions; a new root or version passes. With ``replacing_runs`` ((slug, run id)
    pairs), only those runs are being rewritten: a model's earlier runs count."""
    check_layout(root)
    folder = version_folder(root / "cases", suite_version)
    if not folder.is_dir():
        return
    partitions = model_partitions(root, folder)
    if replacing_runs is not None and any(p.run_id is not None for p in partitions):
        # runs: only the runs being written are replaced; a model's earlier runs count
        partitions = [p for p in partitions if (p.model_slug, p.run_id) not in replacing_runs]
        replacing = ()
    found = [(p.model_slug, p.file("cases")) for p in partitions]
    check_partition_suite(root, suite_version, sha256, found, replacing)


def partitions(root: Path) -> list[Partition]:
    """Every partition of ``root``'s cases table (folder names only: no file is opened). A folder
    under ``root/cases`` that is not ``suite_version=V/model_slug=S`` is a ResultsError naming
    it, and so is the old layout."""
    if not root.is_dir():
        raise ResultsError(f"{root}: no such rows directory")
    check_layout(root)
    found = listed_partitions(root)
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
    """The partitions of one suite version (and of ``models``, names or slugs, when given), each
    file's footer metadata checked. Columns are checked when a query fails (polars refuses a used
    column of another type; reading every file's schema up front would cost a third of the query),
    so a file missing only columns the query does not read is still read. A suite version or model
    with no partition is a ResultsError naming it and the ones there are (METHOD decision 94).

    Pruning happens here, by folder name, before any file is opened: a one-model slice opens one
    file however many partitions the dataset holds."""
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
            f"{root} holds suite versions {', '.join(versions)}; scores compare only within one: "
            "pass --suite-version"
        )
    latest: dict[str, tuple[tuple[str, str], Partition]] = {}
    for partition in chosen:
        footer = check_file(partition.file("cases"), "cases", partition.metadata, columns=False)
        # A model's history ranks by its latest run (by date, then id): one run per model, as a
        # leaderboard has.
        when = (footer.get(META_RUN_DATE, ""), partition.run_id or "")
        if partition.model_slug not in latest or latest[partition.model_slug][0] < when:
            latest[partition.model_slug] = (when, partition)
    kept = [latest[p.model_slug][1] for p in chosen if latest[p.model_slug][1] is p]
    return Slice(versions[0], tuple(p.file("cases") for p in kept))
