"""The leaderboard of any slice of rows (a suite version, a group, some models), by the streaming engine.

The summaries it computes have the fields ``replay.leaderboard`` renders (the same renderers as rescore's), so
a slice's leaderboard.md/.csv has exactly rescore's format.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any, NamedTuple

from recorder.slug import model_slug
from replay.rows.dataset import select
from replay.rows.store import check_file, polars_errors, read_table
from replay.rows.summary import summaries
from scorer.errors import ResultsError, UsageError
from scorer.suite_model import GROUPS


class SuiteRef(NamedTuple):
    """What the leaderboard title needs of a suite: name, version (and slice), sha256."""

    name: str
    version: str
    sha256: str


@dataclass(frozen=True)
class SliceBoard:
    """A slice's leaderboard: its title's suite reference, one summary per model, and the rows it read."""

    suite: SuiteRef
    documents: list[dict[str, Any]]
    rows: int


def _scan(rows: Path, suite_version: str | None, slugs: frozenset[str]) -> tuple[Any, tuple[Path, ...]]:
    """A LazyFrame over the slice's cases files: a reports dir (cases.parquet) or a rows dataset."""
    import polars as pl

    single = rows / "cases.parquet"
    if single.is_file():
        check_file(single, "cases")
        frame = pl.scan_parquet(single)
        if suite_version is not None:
            frame = frame.filter(pl.col("suite_version") == suite_version)
        if slugs:
            frame = frame.filter(pl.col("model_slug").is_in(sorted(slugs)))
        return frame, (single,)
    chosen = select(rows, suite_version, slugs)
    return pl.scan_parquet(list(chosen.files)), chosen.files


def _collect(files: tuple[Path, ...], run: Any) -> Any:
    """Run a query; when polars fails on a file's data pages, find that file and name it."""
    try:
        return run()
    except polars_errors() as exc:
        for path in files:
            read_table(path, "cases")  # a ResultsError naming the first unreadable file
        raise ResultsError(f"reading rows failed: {exc}") from None


def slice_leaderboard(
    rows: Path, suite_version: str | None = None, group: str | None = None, models: tuple[str, ...] = ()
) -> SliceBoard:
    """The leaderboard of the rows of one suite version, optionally one group and some models (names or slugs)."""
    import polars as pl

    if group is not None and group not in GROUPS:
        raise UsageError(f"--group {group!r}: must be one of {', '.join(GROUPS)}")
    slugs = frozenset(model_slug(m) for m in models)
    frame, files = _scan(rows, suite_version, slugs)
    if group is not None:
        frame = frame.filter(pl.col("group") == group)
    suites = frame.select("suite_name", "suite_version", "suite_sha256").unique()
    count = frame.select(pl.len())

    def run() -> tuple[dict[str, dict[str, Any]], Any, Any]:
        found = summaries(frame, engine="streaming")
        return found, suites.collect(engine="streaming"), count.collect(engine="streaming")

    found, suite_rows, total = _collect(files, run)
    if not found:
        raise ResultsError(f"{rows}: no rows in this slice")
    versions = sorted(set(suite_rows["suite_version"]))
    if len(versions) > 1:
        raise UsageError(f"{rows} holds suite versions {', '.join(versions)}: pass --suite-version")
    names = ", ".join(sorted(set(suite_rows["suite_name"])))
    shas = ", ".join(sorted(set(suite_rows["suite_sha256"])))
    title = versions[0] + (f", group {group}" if group else "")
    return SliceBoard(SuiteRef(names, title, shas), list(found.values()), int(total.item()))
