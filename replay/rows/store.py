"""Row tables on disk: deterministic parquet files, written whole or not at all, and read back checked.

polars' parquet writer is byte-stable for the same frame and the same polars version (no timestamps; zstd and
statistics are deterministic; checked across processes and thread counts). The footer names the writer's polars
version, so the bytes change only when uv.lock moves polars. Every file carries its table name and format
version as key-value metadata; a file without them, or with other columns, is "not a lobstack-eval file".
"""

from __future__ import annotations

import io
from pathlib import Path
from typing import Any

from recorder.files import write_bytes_atomic
from replay.rows.schema import (
    FORMAT_VERSION,
    META_FORMAT,
    META_RUN_ID,
    META_TABLE,
    schema,
    schemas,
)
from scorer.errors import ResultsError


def polars_errors() -> tuple[type[BaseException], ...]:
    import polars as pl

    return (pl.exceptions.PolarsError, OSError, ValueError)


def table_bytes(frame: Any, table: str, extra: dict[str, str] | None = None) -> bytes:
    """The parquet bytes of one table: zstd, statistics on, one chunk, our metadata in the footer."""
    if dict(frame.schema) not in schemas(table):
        raise ValueError(
            f"the {table} frame does not have the {table} schema"
        )  # a bug, not a user error
    buffer = io.BytesIO()
    metadata = {META_TABLE: table, META_FORMAT: FORMAT_VERSION, **(extra or {})}
    frame.rechunk().write_parquet(buffer, compression="zstd", statistics=True, metadata=metadata)
    return buffer.getvalue()


def write_table(path: Path, frame: Any, table: str, extra: dict[str, str] | None = None) -> Path:
    """Write one table to ``path`` (atomically) and return the path."""
    write_bytes_atomic(path, table_bytes(frame, table, extra))
    return path


def check_file(
    path: Path, table: str, expected: dict[str, str] | None = None, columns: bool = True
) -> dict[str, str]:
    """Check a file's footer only: readable parquet, our table and format, any ``expected`` metadata values and
    (unless ``columns`` is False, the cheaper check) the exact columns; returns the footer's key-value metadata.
    ResultsError naming the file otherwise."""
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
            f"{path}: rows format {metadata.get(META_FORMAT)!r}, this lobstack-eval reads {FORMAT_VERSION!r}"
        )
    for key, value in (expected or {}).items():
        if metadata.get(key) != value:
            raise ResultsError(
                f"{path}: belongs to {key.split('.')[-1]} {metadata.get(key)!r}, not {value!r}"
            )
    want = schema(table, runs=META_RUN_ID in metadata)
    if found is not None and dict(found) not in schemas(table):
        missing = [c for c in want if c not in found]
        other = [c for c in found if c not in want or found[c] != want[c]]
        raise ResultsError(
            f"{path}: not the {table} columns (missing {missing}, unexpected or retyped {other})"
        )
    return metadata


def read_table(path: Path, table: str) -> Any:
    """Read one whole table file after checking it; a corrupt body is a ResultsError naming the file."""
    import polars as pl

    check_file(path, table)
    try:
        return pl.read_parquet(path)
    except polars_errors() as exc:
        raise ResultsError(f"{path}: corrupt parquet data ({_first_line(exc)})") from None


def _first_line(exc: BaseException) -> str:
    text = str(exc).strip().splitlines()
    return text[0][:200] if text else type(exc).__name__
