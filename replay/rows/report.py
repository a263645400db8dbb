"""A report dir's rows and leaderboard: ``cases.parquet``, ``calls.parquet``, then leaderboard.md/.csv computed
from those rows (never from the results documents), after checking that the rows reproduce every summary field
of every results.json. A shard writes ``shard.json`` instead of a leaderboard (``lobstack-eval merge`` makes it).
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any, cast

from recorder.files import write_atomic
from replay.rows import dataset
from replay.rows.leaderboard import SuiteRef
from replay.rows.repeats import case_counts, with_repeats
from replay.rows.store import write_table
from replay.rows.summary import empty, summaries
from replay.shard import Shard
from scorer.errors import ResultsError
from scorer.results import dumps
from scorer.suite_model import Suite

SHARD_FILE = "shard.json"
SHARD_FORMAT = 1


def repeated(document: dict[str, Any]) -> bool:
    """True for a results document of K > 1 repeats (issue 17's format: ``repeats``, per-case ``runs``)."""
    return int(document.get("repeats") or 1) > 1


def _difference(document: dict[str, Any], summary: dict[str, Any]) -> tuple[str, Any, Any] | None:
    """The first summary field where a document and its rows differ (a repeated run's too: its clustered
    intervals, case counts and pass^k curve are computed from the rows as well)."""
    return next(((k, document.get(k), v) for k, v in summary.items() if document.get(k) != v), None)


def agreeing_summaries(documents: Sequence[dict[str, Any]], cases: Any) -> list[dict[str, Any]]:
    """What the leaderboard shows of each document's model, in the documents' order: the rows' summary (with
    repeats, clustered by case: ``replay.rows.repeats``). A ResultsError when a figure of a results.json and its
    rows differ (a bug: both come from the same verdicts)."""
    frame = cases.lazy()
    found = with_repeats(frame, summaries(frame, with_routed=True))
    agreed = []
    for document in documents:
        summary = found.get(document["model_slug"]) or {
            **empty(document["model"], document["model_slug"]),
            "routed_models": {},
        }
        difference = _difference(document, summary)
        if difference is not None:
            key, theirs, ours = difference
            raise ResultsError(
                f"{document['model_slug']}: results.json {key} is {theirs!r} but its rows give {ours!r}; "
                "this is a lobstack-eval bug, please report it"
            )
        agreed.append(summary)
    return agreed


def shard_document(shard: Shard, suite: SuiteRef, documents: Sequence[dict[str, Any]]) -> dict[str, Any]:
    """What ``shard.json`` says: which shard of how many, the suite, and every model dir the shard saw."""
    return {
        "format_version": SHARD_FORMAT,
        "shard": {"index": shard.index, "count": shard.count},
        "suite": {"name": suite.name, "version": suite.version, "sha256": suite.sha256},
        "models": sorted(d["model_slug"] for d in documents),
    }


def write_tables(
    out: Path,
    suite: SuiteRef,
    documents: Sequence[dict[str, Any]],
    tables: dict[str, Any],
    shard: Shard | None = None,
    rows: Path | None = None,
) -> list[Path]:
    """Write the rows, then (whole runs) the leaderboard from the rows and any ``rows`` partitions, or (a shard)
    ``shard.json``. Returns the files written."""
    from replay.leaderboard import leaderboard_csv, leaderboard_md

    files = [write_table(out / f"{name}.parquet", tables[name], name) for name in ("cases", "calls")]
    board = agreeing_summaries(documents, tables["cases"])
    counts = case_counts(tables["cases"].lazy())  # for the tiers' paired tests
    if shard is not None:
        write_atomic(out / SHARD_FILE, dumps(shard_document(shard, suite, documents)))
        return [*files, out / SHARD_FILE]
    (out / SHARD_FILE).unlink(missing_ok=True)  # a whole run written over an old shard's dir
    title = cast(Suite, suite)  # the renderers read name, version and sha256 only
    boards = (
        ("leaderboard.md", leaderboard_md(board, title, counts)),
        ("leaderboard.csv", leaderboard_csv(board, counts)),
    )
    for name, text in boards:
        write_atomic(out / name, text)
        files.append(out / name)
    if rows is not None:
        dataset.append(rows, tables)
    return files


def suite_ref(suite: Suite) -> SuiteRef:
    """A suite's title fields."""
    return SuiteRef(suite.name, suite.version, suite.sha256)
