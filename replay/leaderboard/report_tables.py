"""A report dir's rows and leaderboard: ``cases.parquet``, ``calls.parquet``, then
leaderboard.md/.csv of the results documents' summaries (each computed from that model's rows by
``scorer.summarize``) and ``front.parquet``, the cost-quality front (``scorer.front``). A shard
writes ``shard.json`` instead of a leaderboard and a front (``lobstack-eval merge`` makes them).
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

from fileio.atomic import write_atomic
from replay.results.typed import ResultsDocument, SuiteRef
from replay.rows import dataset
from replay.rows.schema import Frames
from replay.rows.store import write_table
from replay.rows.wires import WireEntry, footer
from replay.shard import Shard
from replay.wire_rows import board_rows
from scorer.results import dumps
from scorer.suite.model import Suite
from scorer.summary import ModelSummary

SHARD_FILE = "shard.json"
SHARD_FORMAT = 1
FRONT_FILE = "front.parquet"


def repeated(document: ResultsDocument) -> bool:
    """True for a results document of K > 1 repeats (issue 17's format: ``repeats``,
    per-case ``runs``)."""
    return int(document.get("repeats") or 1) > 1


def shard_document(
    shard: Shard, suite: SuiteRef, summaries: Sequence[ModelSummary]
) -> dict[str, Any]:  # free JSON: written as shard.json
    """What ``shard.json`` says: which shard of how many, the suite, and every model dir the
    shard saw."""
    return {
        "format_version": SHARD_FORMAT,
        "shard": {"index": shard.index, "count": shard.count},
        "suite": {"name": suite.name, "version": suite.version, "sha256": suite.sha256},
        "models": sorted(s.model_slug for s in summaries),
    }


def write_tables(
    out: Path,
    suite: SuiteRef,
    summaries: Sequence[ModelSummary],
    tables: Frames,
    shard: Shard | None = None,
    rows: Path | None = None,
    wires: dict[str, WireEntry] | None = None,
) -> list[Path]:
    """Write the rows, then (whole runs) the leaderboard from the rows and any ``rows`` partitions,
    or (a shard) ``shard.json``; ``wires``, the footer entries of the runs of another wire
    (``replay.rows.wires``). Returns the files written."""
    from replay.leaderboard.tables import leaderboard_csv, leaderboard_md
    from replay.rows.front_table import front_frame
    from scorer.front import front

    meta = {"cases": footer(wires or {}), "calls": {}}  # the board reads the cases table
    files = [
        write_table(out / f"{name}.parquet", tables[name], name, meta[name] or None)
        for name in ("cases", "calls")
    ]
    if shard is not None:
        write_atomic(out / SHARD_FILE, dumps(shard_document(shard, suite, summaries)))
        (out / FRONT_FILE).unlink(missing_ok=True)  # a whole run's, not this shard's
        return [*files, out / SHARD_FILE]
    (out / SHARD_FILE).unlink(missing_ok=True)  # a whole run written over an old shard's dir
    boards = (
        ("leaderboard.md", leaderboard_md(summaries, suite)),
        ("leaderboard.csv", leaderboard_csv(summaries)),
    )
    for name, text in boards:
        write_atomic(out / name, text, out)
        files.append(out / name)
    named = board_rows(summaries)  # one name per row: the front keys its rows by name
    frame = front_frame(front(named), suite, named)
    files.append(write_table(out / FRONT_FILE, frame, "front"))
    if rows is not None:
        dataset.append(rows, tables, wires or {})
    return files


def suite_ref(suite: Suite) -> SuiteRef:
    """A suite's title fields."""
    return SuiteRef(suite.name, suite.version, suite.sha256)
