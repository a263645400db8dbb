"""A results document's case entries read once into typed ``CaseResult``s (the report's grid).

results.json (docs/FORMATS.md) is checked by ``replay.results.check.results_problem`` first:
every entry has a string ``id`` and a known ``status``, and ``runs``, when there, is a list of
repeats each with a status. What each step and attempt held stays in the document: the report
hands it to the page as is.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

# One case entry of a results document as written (``results[]``, or one of its ``runs``): diff
# runs, drift and the rows read its steps, answers and reasons across format versions.
CaseEntry = dict[str, Any]


@dataclass(frozen=True)
class CaseResult:
    """One case of one model: its status over its repeats and, with repeats, each one's status."""

    case_id: str
    group: str  # "" when the entry does not say
    status: str
    repeat_statuses: tuple[str, ...] = ()  # in repeat order; empty for one sample per case

    @property
    def statuses(self) -> tuple[str, ...]:
        """Each repeat's status, or the one status of one sample per case."""
        return self.repeat_statuses or (self.status,)


def case_entries(document: Mapping[str, Any]) -> tuple[CaseResult, ...]:
    """The case entries of a document ``results_problem`` passed, in its order."""
    return tuple(
        CaseResult(
            case_id=entry["id"],
            group=str(entry.get("group", "")),
            status=entry["status"],
            repeat_statuses=tuple(run["status"] for run in entry.get("runs") or ()),
        )
        for entry in document["results"]
    )
