"""A results document checked once and read into the typed objects every view of it renders: its
summary (``replay.results.summary``) and its case entries (``replay.results.cases``).

The report page needs both of each document; checking it once here (``results_problem``) and
passing the ``TypedResults`` on keeps rescore, merge and ``report`` from checking it again per view.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from replay.results.cases import CaseResult, case_entries
from replay.results.read import check_results, read_results
from replay.results.summary import summary_fields
from scorer.errors import ResultsError
from scorer.summary import ModelSummary


@dataclass(frozen=True)
class SuiteRef:
    """The suite a results document (or a slice of rows) was scored with: what a board's title
    and a diff's suite check name. ``sha256`` is None only for an old file that did not say."""

    name: str
    version: str
    sha256: str | None


@dataclass(frozen=True)
class TypedResults:
    """One model's results document as read (what each step held stays in it, for the page),
    its summary and its case entries."""

    document: dict[str, Any]
    summary: ModelSummary
    cases: tuple[CaseResult, ...]


def typed_results(document: dict[str, Any]) -> TypedResults:
    """``document`` checked and typed; ``ResultsError`` for one that is not a results document or
    has a field of the wrong type."""
    check_results(document)
    return _typed(document)


def read_typed_results(path: Path) -> TypedResults:
    """Load one results.json, checked and typed; a missing, corrupt or misshapen file is a
    ResultsError naming it."""
    document = read_results(path)
    try:
        return _typed(document)
    except ResultsError as exc:
        raise ResultsError(f"{path}: {exc.message}") from None


def _typed(document: dict[str, Any]) -> TypedResults:
    return TypedResults(document, summary_fields(document), case_entries(document))
