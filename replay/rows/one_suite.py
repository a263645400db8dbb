"""One suite version, one suite file (METHOD decision 110): rows of one version scored with
different suite files (same name and version, other sha256: a check edited without a version bump)
are never ranked or stored together.

Two places keep the rule: the leaderboard of a slice refuses rows of several suite files, naming
each file's short sha256 and its models; and a rows dataset refuses a partition whose suite file
differs from the one every other partition of its version was scored with (re-scoring a model
replaces its own partition, whatever it held).
"""

from __future__ import annotations

from collections.abc import Collection, Iterable
from pathlib import Path
from typing import Any

from replay.rows.schema import META_SUITE_SHA256
from replay.rows.store import check_file, polars_errors, read_table
from replay.rows.unmatched import listing
from scorer.errors import ResultsError

# hex digits of a sha256 shown in an error line: enough to tell files apart, short enough to read
SHORT = 12


def short(sha256: str) -> str:
    """The first 12 hex digits of a sha256."""
    return sha256[:SHORT]


def _files(by_sha: dict[str, Iterable[str]]) -> str:
    return "; ".join(
        f"sha256 {short(sha)} ({listing(models)})" for sha, models in sorted(by_sha.items())
    )


def mixed_suite_files(
    source: Path, suite_version: str, by_sha: dict[str, Iterable[str]]
) -> ResultsError:
    """The leaderboard's refusal of a slice whose rows of ``suite_version`` come from several suite
    files; ``by_sha`` maps each sha256 to the models scored with it."""
    return ResultsError(
        f"{source}: suite version {suite_version} was scored with {len(by_sha)} different suite "
        f"files, whose scores do not compare: {_files(by_sha)}; rescore them with one suite file "
        "(a changed suite needs a new version), or pick the models of one with --model"
    )


def slice_models_by_sha(frame: Any) -> dict[str, list[str]]:
    """sha256 -> the model names of a ``cases`` LazyFrame scored with it (asked only once the
    slice is mixed)."""
    found: dict[str, list[str]] = {}
    pairs = frame.select("suite_sha256", "model").unique().collect(engine="streaming").iter_rows()
    for sha, model in pairs:
        found.setdefault(sha, []).append(model)
    return found


def partition_sha256(path: Path) -> str | None:
    """The suite sha256 of one partition's cases file: from its footer (written since decision 110),
    else from its first row (older files); None for a file with no rows. A ResultsError names a
    file that cannot be read."""
    import polars as pl

    found = check_file(path, "cases", columns=False).get(META_SUITE_SHA256)
    if found is not None:
        return found
    try:
        column = pl.read_parquet(path, columns=["suite_sha256"], n_rows=1)["suite_sha256"]
    except polars_errors() as exc:
        read_table(
            path, "cases"
        )  # the ResultsError naming what is wrong with the file, if it finds one
        raise ResultsError(
            f"{path}: cannot read its suite_sha256 ({str(exc).strip()[:200]})"
        ) from None
    return column[0] if len(column) else None


def check_partition_suite(
    root: Path,
    suite_version: str,
    sha256: str,
    partitions: Iterable[tuple[str, Path]],
    replacing: Collection[str],
) -> None:
    """Refuse to add partitions of ``suite_version`` scored with ``sha256`` to ``root`` when any
    other partition of that version (``partitions``: model slug and cases file; those of the
    ``replacing`` slugs are about to be rewritten and do not count) was scored with another
    suite file."""
    others: dict[str, list[str]] = {}
    for slug, path in partitions:
        if slug in replacing:
            continue
        found = partition_sha256(path)
        if found is not None and found != sha256:
            others.setdefault(found, []).append(slug)
    if others:
        which = "another suite file" if len(others) == 1 else "other suite files"
        raise ResultsError(
            f"--rows {root}: its suite version {suite_version} was scored with {which}, "
            f"{_files(others)}, than this run's, sha256 {short(sha256)}; scores of one version "
            "compare only under one suite file: give the changed suite a new version, rescore "
            "with the suite file those were scored with, or write to another --rows dir"
        )
