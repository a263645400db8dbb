"""The leaderboard of any slice of rows (a suite version, a group, some models), by the
streaming engine.

The typed summaries it computes are what ``replay.leaderboard`` renders (the same renderers as
rescore's), so a slice's leaderboard.md/.csv has exactly rescore's format.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from recorder.slug import model_slug
from replay.results.typed import SuiteRef
from replay.rows.dataset import partitions, select
from replay.rows.one_suite import mixed_suite_files, slice_models_by_sha
from replay.rows.partition import holds_partitions, partition_of_file
from replay.rows.store import check_file, polars_errors, read_table, scan_tables
from replay.rows.unmatched import explain_empty, unknown_models
from replay.rows.wires import read_footer, with_wires
from scorer.errors import ResultsError, UsageError
from scorer.summarize import summarize
from scorer.summary import ModelSummary


@dataclass(frozen=True)
class SliceBoard:
    """A slice's leaderboard: its title's suite reference, one summary per model (slug order),
    the rows it read."""

    suite: SuiteRef
    summaries: tuple[ModelSummary, ...]
    rows: int
    # a root of runs (a history): (model slug, the run ranked, how many runs the model has),
    # slug order
    latest_runs: tuple[tuple[str, str, int], ...] = ()


def _rows_dir(rows: Path) -> Path:
    """The folder a leaderboard reads: a ``cases.parquet`` file stands for the folder holding it (a
    reports dir, as errors name that file as the rows' source (METHOD decision 119); a rows
    dataset's ``cases`` table folder stands for the dataset, and one partition's file of it (a
    model's, or one run's of a history) is read alone."""
    if rows.is_dir() and rows.name == "cases" and holds_partitions(rows):
        return rows.parent
    if not rows.is_file():
        return rows  # a missing path is the dataset reader's error
    partition = partition_of_file(rows)
    if partition is not None and partition.file("cases") == rows:
        return rows
    if rows.name != "cases.parquet":
        raise UsageError(
            f"{rows}: not a rows dataset dir or a reports dir; pass a dir (or its cases.parquet)"
        )
    return rows.parent


def _scan(
    rows: Path, suite_version: str | None, models: tuple[str, ...]
) -> tuple[Any, tuple[Path, ...], Path]:
    """A LazyFrame over the slice's cases files (a reports dir's cases.parquet or a rows dataset),
    the files, and what an error names as the rows' source."""
    import polars as pl

    single = rows if rows.is_file() else rows / "cases.parquet"
    if single.is_file():
        check_file(single, "cases")
        frame = scan_tables([single], "cases")
        if suite_version is not None:
            frame = frame.filter(pl.col("suite_version") == suite_version)
        if models:
            frame = frame.filter(
                pl.col("model_slug").is_in(sorted({model_slug(m) for m in models}))
            )
        return frame, (single,), single
    chosen = select(rows, suite_version, models)
    return scan_tables(chosen.files, "cases"), chosen.files, rows


def _collect(files: tuple[Path, ...], run: Any) -> Any:
    """Run a query; when polars fails on a file (other columns, corrupt data pages), find that
    file and name it."""
    try:
        return run()
    except polars_errors() as exc:
        for path in files:
            read_table(
                path, "cases"
            )  # a ResultsError naming the first file that is not a whole cases table
        raise ResultsError(f"reading rows failed: {exc}") from None


_SUITE_COLUMNS = ("suite_name", "suite_version", "suite_sha256")


def _suite_values(frame: Any) -> dict[str, list[str]]:
    """Every value of each suite column in the slice."""
    import polars as pl

    found = frame.select([pl.col(c).unique().implode() for c in _SUITE_COLUMNS]).collect(
        engine="streaming"
    )
    return {c: sorted(v for v in found[c][0] if v is not None) for c in _SUITE_COLUMNS}


def slice_leaderboard(
    rows: Path,
    suite_version: str | None = None,
    group: str | None = None,
    models: tuple[str, ...] = (),
) -> SliceBoard:
    """The leaderboard of the rows of one suite version, optionally one group and some models (names
    or slugs), by one streaming query over the slice's files."""
    import polars as pl

    # Any suite's group names: one the slice does not hold is named with those it does
    # (``unmatched``).
    if group is not None and not group:
        raise UsageError("--group: must be a group name")
    rows = _rows_dir(rows)
    frame, files, source = _scan(rows, suite_version, models)
    if group is not None:
        frame = frame.filter(pl.col("group") == group)

    def run() -> tuple[dict[str, ModelSummary], dict[str, list[str]]]:
        return summarize(frame, "streaming", routed=False), _suite_values(frame)

    found, suites = _collect(files, run)
    if not found or unknown_models(models, found):  # found is keyed by model slug
        raise _collect(
            files,
            lambda: explain_empty(
                source, scan_tables(files, "cases"), suite_version, models, group
            ),
        )
    if len(suites["suite_version"]) > 1:
        raise UsageError(
            f"{rows} holds suite versions {', '.join(suites['suite_version'])}: pass "
            "--suite-version"
        )
    if (
        len(suites["suite_sha256"]) > 1
    ):  # one version, several suite files: not one leaderboard (decision 110)
        by_sha = _collect(files, lambda: slice_models_by_sha(frame))
        raise mixed_suite_files(source, suites["suite_version"][0], by_sha)
    found = {s.model_slug: s for s in with_wires(list(found.values()), _wires(files))}
    title = suites["suite_version"][0] + (f", group {group}" if group else "")
    names, shas = ", ".join(suites["suite_name"]), ", ".join(suites["suite_sha256"])
    total = sum(s.case_runs.total for s in found.values())
    board = SliceBoard(SuiteRef(names, title, shas), tuple(found.values()), total)
    return replace(board, latest_runs=_latest_runs(rows, files)) if rows.is_dir() else board


def _wires(files: tuple[Path, ...]) -> dict[str, tuple[str, int | None]]:
    """The wire of each model whose rows' footers name one (``replay.rows.wires``)."""
    import polars as pl

    found: dict[str, tuple[str, int | None]] = {}
    for path in files:
        found.update(read_footer(pl.read_parquet_metadata(path), path))
    return found


def _latest_runs(rows: Path, files: tuple[Path, ...]) -> tuple[tuple[str, str, int], ...]:
    """For a root of runs, each ranked model's run (the latest: ``select``) and its number of
    runs there."""
    if not (rows / "cases").is_dir():
        return ()
    every = [p for p in partitions(rows) if p.run_id is not None]
    chosen = set(files)
    return tuple(
        sorted(
            (p.model_slug, p.run_id, sum(1 for q in every if q.model_slug == p.model_slug))
            for p in every
            if p.file("cases") in chosen and p.run_id is not None
        )
    )
