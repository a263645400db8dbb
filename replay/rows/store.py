"""Row tables on disk: deterministic parquet files, written whole or not at all, and read
back checked.

polars' parquet writer is byte-stable for the same frame and the same polars version (no timestamps;
zstd and statistics are deterministic; checked across processes and thread counts). The footer names
the writer's polars version, so the bytes change only when uv.lock moves polars. Every file carries
its table name and format version as key-value metadata; a file without them, or with other columns,
is "not a lobstack-eval file".
"""

from __future__ import annotations

import io
from pathlib import Path
from typing import Any

from fileio.atomic import write_bytes_atomic
from replay.rows.partition import RUN_KEY, partition_keys
from replay.rows.schema import (
    FORMAT_VERSION,
    META_FORMAT,
    META_RUN_ID,
    META_TABLE,
    Schema,
    schema,
    schemas,
)
from scorer.errors import ResultsError


def polars_errors() -> tuple[type[BaseException], ...]:
    import polars as pl

    return (pl.exceptions.PolarsError, OSError, ValueError)


def file_schema(table: str, runs: bool = False) -> Schema:
    """The columns of a rows partition file of ``table``: the table's but the partition keys."""
    keys = partition_keys(runs)
    return {k: v for k, v in schema(table, runs).items() if k not in keys}


def table_bytes(
    frame: Any, table: str, extra: dict[str, str] | None = None, partition: bool = False
) -> bytes:
    """The parquet bytes of one table (a rows ``partition`` file: without its keys): zstd,
    statistics on, one chunk, our metadata in the footer."""
    runs = RUN_KEY in frame.columns
    if partition:
        frame = frame.drop(*partition_keys(runs))
    if (
        dict(frame.schema) != file_schema(table, runs)
        if partition
        else dict(frame.schema) not in schemas(table)
    ):
        raise ValueError(
            f"the {table} frame does not have the {table} schema"
        )  # a bug, not a user error
    buffer = io.BytesIO()
    metadata = {META_TABLE: table, META_FORMAT: FORMAT_VERSION, **(extra or {})}
    frame.rechunk().write_parquet(buffer, compression="zstd", statistics=True, metadata=metadata)
    return buffer.getvalue()


def write_table(
    path: Path,
    frame: Any,
    table: str,
    extra: dict[str, str] | None = None,
    partition: bool = False,
    root: Path | None = None,
) -> Path:
    """Write one table to ``path`` (atomically; a rows ``partition`` file without its keys; no
    symbolic link followed below ``root``) and return the path."""
    write_bytes_atomic(path, table_bytes(frame, table, extra, partition), root)
    return path


def check_file(
    path: Path, table: str, expected: dict[str, str] | None = None, columns: bool = True
) -> dict[str, str]:
    """Check a file's footer only: readable parquet, our table and format, any ``expected`` metadata
    values and (unless ``columns`` is False, the cheaper check) the exact columns; returns the
    footer's key-value metadata. ResultsError naming the file otherwise."""
    import polars as pl

    try:
        metadata = pl.read_parquet_metadata(path)
        found = pl.read_parquet_schema(path) if columns else None
    except FileNotFoundError:
        raise ResultsError(f"{path}: no such {table} file") from None
    except polars_errors() as exc:
        raise ResultsError(f"{path}: not a readable parquet file ({_first_line(exc)})") from None
    if metadata.get(META_TABLE) != table:
        found = metadata.get(META_TABLE)
        what = (
            f"the {found} table"
            if found
            else "a file lobstack-eval did not write (no lobstack_eval.table)"
        )
        raise ResultsError(f"{path}: expected the {table} table, found {what}")
    if metadata.get(META_FORMAT) != FORMAT_VERSION:
        raise ResultsError(
            f"{path}: rows format {metadata.get(META_FORMAT)!r}, this lobstack-eval reads "
            f"{FORMAT_VERSION!r}"
        )
    for key, value in (expected or {}).items():
        if metadata.get(key) != value:
            raise ResultsError(
                f"{path}: belongs to {key.split('.')[-1]} {metadata.get(key)!r}, not {value!r}"
            )
    # Rows of runs: a partition file names its run in its footer; a whole table has the run columns.
    runs = META_RUN_ID in metadata or (found is not None and RUN_KEY in found)
    want = schema(table, runs)
    keys = partition_keys(runs)
    if found is not None and _keys(metadata) and not any(k in found for k in keys):
        want = file_schema(
            table, runs
        )  # a rows partition file: its keys are in its footer (and folders)
    if found is not None and dict(found) != want:
        missing = [c for c in want if c not in found]
        other = [c for c in found if c not in want or found[c] != want[c]]
        raise ResultsError(
            f"{path}: not the {table} columns (missing {missing}, unexpected or retyped {other})"
        )
    return metadata


def _keys(metadata: dict[str, str]) -> dict[str, str] | None:
    """A rows partition file's keys, from its footer (None when the footer lacks one)."""
    keys = {
        column: metadata.get(key) for column, key in partition_keys(META_RUN_ID in metadata).items()
    }
    return keys if all(isinstance(v, str) for v in keys.values()) else None  # type: ignore[return-value]


def with_keys(frame: Any, metadata: dict[str, str], table: str) -> Any:
    """``frame`` (lazy or not) of one file with a rows partition's keys added back from its footer,
    in the table's column order; unchanged when the file holds them (a file written before they
    left the files)."""
    import polars as pl

    names = frame.collect_schema().names() if isinstance(frame, pl.LazyFrame) else frame.columns
    keys = _keys(metadata)
    if keys is None or all(k in names for k in keys):
        return frame
    added = frame.with_columns(pl.lit(v, pl.String).alias(k) for k, v in keys.items())
    return added.select(list(schema(table, META_RUN_ID in metadata)))


def scan_tables(files: tuple[Path, ...] | list[Path], table: str) -> Any:
    """One LazyFrame over table files (whole tables or rows partition files, keys added back)."""
    import polars as pl

    frames = [
        with_keys(pl.scan_parquet(path), pl.read_parquet_metadata(path), table) for path in files
    ]
    return frames[0] if len(frames) == 1 else pl.concat(frames, how="vertical")


def read_table(path: Path, table: str) -> Any:
    """Read one whole table file after checking it (a rows partition file with its keys added back);
    a corrupt body is a ResultsError naming the file."""
    import polars as pl

    metadata = check_file(path, table)
    try:
        return with_keys(pl.read_parquet(path), metadata, table)
    except polars_errors() as exc:
        raise ResultsError(f"{path}: corrupt parquet data ({_first_line(exc)})") from None


def _first_line(exc: BaseException) -> str:
    text = str(exc).strip().splitlines()
    return text[0][:200] if text else type(exc).__name__
