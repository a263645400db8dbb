"""A results document's typed value: the fields every view names (model, suite, run), its case
entries and its summary, read once from a document ``replay.results.check`` passed.

The case entries and the summary are read when first asked for: ``drift`` reads thousands of runs
for their statuses alone, and a summary field of the wrong type is the error of a view that shows
the summary (naming the file), not of one that compares cases.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any

from replay.results.cases import CaseResult, case_entries
from replay.results.summary import summary_fields
from scorer.errors import ResultsError
from scorer.summary import ModelSummary

# Free JSON, named once. A results document as written (results.json, or one this process made
# before it is written): the page shows its steps as is; the rows, diff runs, drift and merge read
# its entries across format versions. Every other view reads ``Results``.
ResultsDocument = dict[str, Any]
# A suite file's data as written: the page shows its cases' messages and tools as is and diff
# suites compares two; scoring reads the frozen ``scorer.suite.model.Suite``.
SuiteData = dict[str, Any]


def document_repeats(document: Mapping[str, Any]) -> int:
    """Samples per case a results document states: ``repeats`` when it is an int >= 1, else 1 (a
    file that does not say, or a merged history built by hand)."""
    value = document.get("repeats", 1)
    return value if isinstance(value, int) and not isinstance(value, bool) and value >= 1 else 1


@dataclass(frozen=True)
class SuiteRef:
    """The suite a results document (or a slice of rows) was scored with: what a board's title
    and a diff's suite check name. ``sha256`` is None only for an old file that did not say."""

    name: str
    version: str
    sha256: str | None

    @classmethod
    def of(cls, suite: Mapping[str, Any]) -> SuiteRef:
        """A results document's ``suite`` (or ``recorded_suite``) object; ``?`` for a name an old
        file lacks."""
        name, sha = suite.get("name"), suite.get("sha256")
        return cls(
            name if isinstance(name, str) else "?",
            str(suite.get("version", "?")),
            sha if isinstance(sha, str) else None,
        )


@dataclass(frozen=True, eq=False)
class Results:
    """One model's results document as read: the fields its views name, typed; its case entries
    and summary (``cases``, ``summary``) on first use."""

    model: str
    model_slug: str  # "" for a hand-written file without one
    suite: SuiteRef  # the suite it was scored with
    recorded_suite: SuiteRef | None  # the suite the cassettes were recorded with, when it says
    run_id: str | None  # ``run.id`` of a run of a history; None for a plain recording
    # the document as written (free JSON: ``ResultsDocument``)
    document: ResultsDocument = field(repr=False)
    source: str = ""  # the file it was read from, for error lines; "" for a document of this run

    @cached_property
    def cases(self) -> tuple[CaseResult, ...]:
        """The case entries, in the document's order."""
        return case_entries(self.document)

    @cached_property
    def summary(self) -> ModelSummary:
        """The summary the document states (not recomputed); ``ResultsError`` naming the file for
        a summary field of the wrong type."""
        try:
            return summary_fields(self.document)
        except ResultsError as exc:
            if not self.source:
                raise
            raise ResultsError(f"{self.source}: {exc.message}") from None

    @property
    def repeats(self) -> int:
        """Samples per case (1 for a file that does not say)."""
        return document_repeats(self.document)


def results_value(document: ResultsDocument, source: str = "") -> Results:
    """The typed value of a document ``replay.results.check`` passed."""
    recorded = document.get("recorded_suite")
    run = document.get("run")
    slug = document.get("model_slug")
    return Results(
        model=document["model"],
        model_slug=slug if isinstance(slug, str) else "",
        suite=SuiteRef.of(document["suite"]),
        recorded_suite=SuiteRef.of(recorded) if isinstance(recorded, dict) else None,
        run_id=str(run["id"]) if isinstance(run, dict) and "id" in run else None,
        document=document,
        source=source,
    )
