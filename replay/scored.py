"""A results document with its summary: every figure computed from the document's own case-run rows.

The rows are the ones reports/cases.parquet holds (``replay.rows.build``), and ``scorer.summarize``
is the one computation of the figures from rows, so results.json says exactly what the leaderboard
of its rows says.
"""

from __future__ import annotations

from replay.results.typed import ResultsDocument
from replay.rows.build import document_rows, frames_of_rows
from replay.rows.schema import Row
from scorer.suite.model import Suite
from scorer.summarize import empty, summarize
from scorer.summary import ModelSummary


def summary_of_document(suite: Suite, document: ResultsDocument) -> ModelSummary:
    """The summary of one results document (with or without its summary fields) scored
    with ``suite``."""
    return summary_of_rows(suite, document, document_rows(suite, document)[0])


def summary_of_rows(suite: Suite, document: ResultsDocument, case_rows: list[Row]) -> ModelSummary:
    """The summary of one results document from its cases rows (``document_rows``)."""
    # The suite's groups, every one (a shard's rows may hold only some).
    groups = tuple(suite.group_counts())
    rows = frames_of_rows({"cases": case_rows})["cases"] if case_rows else None
    found = summarize(rows, groups=groups) if rows is not None else {}
    return found.get(document["model_slug"]) or empty(
        document["model"], document["model_slug"], groups
    )


def summarized(suite: Suite, document: ResultsDocument) -> ResultsDocument:
    """``document`` (the run's facts and its case entries) with every summary field of
    results.json."""
    return {**document, **summary_of_document(suite, document).document()}
