"""The per-case grid of the report: its case order, group header, each model's status letters, and
the details blob a click on a cell opens. Pure: typed case results (the blob: the results.json
entries as they are) and the suite in, ordered plain data out."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from replay.html._labels import GROUP_LABELS, STATUS_CLASS
from replay.results.cases import CaseEntry, CaseResult
from replay.results.typed import ResultsDocument, SuiteData
from scorer.summary import ModelSummary


@dataclass(frozen=True)
class GridRow:
    """One model's line of the per-case grid: a status class letter per grid case, and with repeats
    each case's repeats as a strip of letters (empty strings for a model without repeats)."""

    model: str
    statuses: tuple[str, ...]
    strips: tuple[str, ...] = ()


def grid_case_ids(
    models: Sequence[Sequence[CaseResult]], suite: SuiteData
) -> list[tuple[str, str]]:
    """(case id, group) in suite order, then any case only the results know (an older suite),
    by id."""
    ids: list[tuple[str, str]] = [
        (str(c["id"]), str(c.get("group", ""))) for c in suite.get("cases", [])
    ]
    known = {cid for cid, _ in ids}
    extra: dict[str, str] = {}
    for cases in models:
        for case in cases:
            if case.case_id not in known:
                extra.setdefault(case.case_id, case.group)
    return ids + sorted(extra.items())


def group_spans(case_ids: Sequence[tuple[str, str]]) -> list[tuple[str, int]]:
    """Consecutive runs of one group along the grid, as (label, number of cases) for the
    header row."""
    spans: list[tuple[str, int]] = []
    for _, group in case_ids:
        label = GROUP_LABELS.get(group, group)
        if spans and spans[-1][0] == label:
            spans[-1] = (label, spans[-1][1] + 1)
        else:
            spans.append((label, 1))
    return spans


def _by_id(result: ResultsDocument) -> dict[str, CaseEntry]:
    # free JSON: each case entry as written, handed to the page as is
    return {str(r.get("id")): r for r in result.get("results", []) if isinstance(r, dict)}


def _strip(case: CaseResult | None) -> str:
    return "" if case is None else "".join(STATUS_CLASS[s] for s in case.repeat_statuses)


def grid_rows(
    summaries: Sequence[ModelSummary],
    models: Sequence[Sequence[CaseResult]],
    case_ids: Sequence[tuple[str, str]],
) -> list[GridRow]:
    """Each model's status letters (p/f/e/u) along ``case_ids``; a case missing from a file reads
    unrecorded. A model with repeats also gets each case's repeats in order (``strips``)."""
    rows = []
    for summary, cases in zip(summaries, models, strict=True):
        by_id = {case.case_id: case for case in cases}
        statuses = tuple(
            STATUS_CLASS[by_id[cid].status] if cid in by_id else "u" for cid, _ in case_ids
        )
        strips = tuple(_strip(by_id.get(cid)) for cid, _ in case_ids) if summary.repeats > 1 else ()
        rows.append(GridRow(summary.model, statuses, strips))
    return rows


def _suite_case(case: dict[str, Any] | None, cid: str, group: str) -> dict[str, Any]:
    # free JSON: a suite file's case in, the page's view of it out (its messages and tools as is)
    if case is None:
        return {
            "id": cid,
            "group": group,
            "tools": [],
            "messages": [],
            "steps": [],
            "in_suite": False,
        }
    return {
        "id": cid,
        "group": group,
        "tools": case.get("tools", []),
        "messages": case.get("messages", []),
        "steps": case.get("steps", []),
        "in_suite": True,
    }


def details(
    results: Sequence[ResultsDocument], suite: SuiteData, case_ids: Sequence[tuple[str, str]]
) -> dict[str, Any]:  # free JSON: the blob the page's script reads
    """The one JSON blob the page reads when a grid cell is opened: suite cases once, a result
    per cell."""
    suite_cases = {str(c.get("id")): c for c in suite.get("cases", [])}
    cells = []
    for result in results:
        by_id = _by_id(result)
        row = []
        for cid, _ in case_ids:
            r = by_id.get(cid)
            cell = (
                None
                if r is None
                else {k: r.get(k) for k in ("status", "reason", "steps", "attempts")}
            )
            if cell is not None and isinstance(r.get("runs"), list):  # type: ignore[union-attr]
                cell["runs"] = [_run_detail(run) for run in r["runs"] if isinstance(run, dict)]  # type: ignore[index]
            row.append(cell)
        cells.append(row)
    return {
        "system": suite.get("system_prompt"),
        "groups": GROUP_LABELS,
        "models": [str(r["model"]) for r in results],
        "cases": [_suite_case(suite_cases.get(cid), cid, group) for cid, group in case_ids],
        "cells": cells,
    }


def _run_detail(run: CaseEntry) -> dict[str, Any]:  # free JSON: the blob of one repeat
    return {k: run.get(k) for k in ("repeat", "status", "reason", "steps", "attempts")}
