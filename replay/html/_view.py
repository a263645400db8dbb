"""From results.json dicts and the suite to what the report template shows: pure, ordered, no HTML here."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Literal

from replay.html import _format as fmt
from replay.html._labels import GROUP_LABELS, LOWER_IS_BETTER, METRIC_LABELS
from replay.html._plot_model import Interval, PlotModel
from replay.partial import partial

_STATUS_CLASS = {"passed": "p", "failed": "f", "errored": "e", "unrecorded": "u"}


@dataclass(frozen=True)
class Column:
    """A leaderboard column; ``first`` is the direction of its first sort click (best first)."""

    key: str
    label: str
    first: Literal["asc", "desc"]
    numeric: bool = True


@dataclass(frozen=True)
class Cell:
    """One leaderboard cell: its text, an optional second line (the interval) and its sort value."""

    text: str
    sort: str
    sub: str = ""
    mark: str = ""  # Overall's scored/total for a partial model (replay.partial)


@dataclass(frozen=True)
class Row:
    """One model's leaderboard row; ``routed`` lists the answering models when they are not just this one."""

    model: str
    routed: tuple[tuple[str, int], ...]
    cells: tuple[Cell, ...]


@dataclass(frozen=True)
class GridRow:
    """One model's line of the per-case grid: a status class letter per grid case, and with repeats each case's
    repeats as a strip of letters (empty strings for a model without repeats)."""

    model: str
    statuses: tuple[str, ...]
    strips: tuple[str, ...] = ()


@dataclass(frozen=True)
class SuiteLine:
    """A suite identity as the results name it."""

    name: str
    version: str
    sha256: str


REPEAT_COLUMNS: tuple[Column, ...] = (
    Column("repeats", "Repeats", "desc"),
    Column("pass_all_k", "pass^k", "desc"),
    Column("flaky", "Flaky", "asc"),
)
COLUMNS: tuple[Column, ...] = (
    Column("model", "Model", "asc", numeric=False),
    *(
        Column(k, label, "asc" if k in LOWER_IS_BETTER else "desc")
        for k, label in METRIC_LABELS.items()
    ),
    Column("latency_p50_ms", "Latency p50", "asc"),
    Column("cost_per_100_cases_usd", "Cost per 100 cases", "asc"),
    Column("scored", "Scored", "desc"),
    Column("errored", "Errored", "asc"),
    Column("unrecorded", "Unrecorded", "asc"),
    Column("temperature_ignored", "Temp. ignored", "asc"),
)


def _metric(result: dict[str, Any], key: str) -> dict[str, Any]:
    value = (result.get("metrics") or {}).get(key)
    return value if isinstance(value, dict) else {}


def _number(value: Any) -> float | None:
    return float(value) if isinstance(value, int | float) and not isinstance(value, bool) else None


def _overall(result: dict[str, Any]) -> float | None:
    return _number(_metric(result, "overall").get("rate"))


def leaderboard_order(results: Sequence[dict[str, Any]]) -> list[dict[str, Any]]:
    """Models by Overall rate, highest first, models without one last, then by name (as leaderboard.md)."""

    def key(result: dict[str, Any]) -> tuple[bool, float, str]:
        rate = _overall(result)
        return (rate is None, -(rate or 0.0), str(result.get("model", "")))

    return sorted(results, key=key)


def _routed(result: dict[str, Any]) -> tuple[tuple[str, int], ...]:
    routed = result.get("routed_models")
    if not isinstance(routed, dict) or set(routed) <= {result.get("model")}:
        return ()
    return tuple(
        sorted(((str(k), int(v)) for k, v in routed.items()), key=lambda kv: (-kv[1], kv[0]))
    )


def columns(repeated: bool) -> tuple[Column, ...]:
    """The leaderboard's columns; with repeats, K, pass^k and flaky follow Overall."""
    return (*COLUMNS[:2], *REPEAT_COLUMNS, *COLUMNS[2:]) if repeated else COLUMNS


def _rate_cell(result: dict[str, Any], key: str) -> Cell:
    m = _metric(result, key)
    return Cell(fmt.rate(m.get("rate")), fmt.sort_value(m.get("rate")), fmt.interval(m.get("ci")))


def leaderboard_row(result: dict[str, Any], repeated: bool = False) -> Row:
    """The leaderboard cells of one results.json, in ``columns(repeated)`` order."""
    cases = result.get("cases") if isinstance(result.get("cases"), dict) else {}
    cells = [Cell(str(result["model"]), str(result["model"]).lower())]
    for key in METRIC_LABELS:
        cells.append(_rate_cell(result, key))
        if key == "overall" and (mark := partial(result)) is not None:
            cells[-1] = Cell(cells[-1].text, cells[-1].sort, cells[-1].sub, mark.mark())
        if repeated and key == "overall":
            k = result.get("repeats", 1)
            cells.append(Cell(str(k), fmt.sort_value(k)))
            cells.extend(_rate_cell(result, extra) for extra in ("pass_all_k", "flaky"))
    latency = result.get("latency_p50_ms")
    cost = result.get("cost_per_100_cases_usd")
    cells.append(Cell(fmt.latency(latency), fmt.sort_value(latency)))
    cells.append(Cell(fmt.cost(cost), fmt.sort_value(cost)))
    for key in ("scored", "errored", "unrecorded"):
        n = cases.get(key)
        cells.append(Cell(fmt.DASH if _number(n) is None else str(n), fmt.sort_value(n)))
    ignored = result.get("temperature_ignored")
    cells.append(Cell("yes" if ignored is True else "no", fmt.sort_value(ignored is True)))
    return Row(str(result["model"]), _routed(result), tuple(cells))


def plot_model(result: dict[str, Any]) -> PlotModel:
    """What the plots need of one results.json."""
    metrics: dict[str, Interval | None] = {}
    for key in METRIC_LABELS:
        m = _metric(result, key)
        rate = _number(m.get("rate"))
        # A list when read from results.json, maybe a tuple when rescore hands its documents over in memory.
        ci = (
            m.get("ci")
            if isinstance(m.get("ci"), list | tuple) and len(m["ci"]) == 2
            else (None, None)
        )
        metrics[key] = None if rate is None else Interval(rate, _number(ci[0]), _number(ci[1]))
    groups_in = result.get("groups") if isinstance(result.get("groups"), dict) else {}
    groups = {
        k: _number(groups_in[k].get("rate")) if isinstance(groups_in.get(k), dict) else None
        for k in GROUP_LABELS
    }
    mark = partial(result)
    return PlotModel(
        name=str(result["model"]) + ("" if mark is None else f" ({mark.mark()})"),
        partial=mark is not None,
        metrics=metrics,
        groups=groups,
        cost_per_100=_number(result.get("cost_per_100_cases_usd")),
        latency_p50_ms=_number(result.get("latency_p50_ms")),
    )


def grid_case_ids(
    results: Sequence[dict[str, Any]], suite: dict[str, Any]
) -> list[tuple[str, str]]:
    """(case id, group) in suite order, then any case only the results know (an older suite), by id."""
    ids: list[tuple[str, str]] = [
        (str(c["id"]), str(c.get("group", ""))) for c in suite.get("cases", [])
    ]
    known = {cid for cid, _ in ids}
    extra: dict[str, str] = {}
    for result in results:
        for r in result.get("results", []):
            cid = str(r.get("id"))
            if cid not in known:
                extra.setdefault(cid, str(r.get("group", "")))
    return ids + sorted(extra.items())


def group_spans(case_ids: Sequence[tuple[str, str]]) -> list[tuple[str, int]]:
    """Consecutive runs of one group along the grid, as (label, number of cases) for the header row."""
    spans: list[tuple[str, int]] = []
    for _, group in case_ids:
        label = GROUP_LABELS.get(group, group)
        if spans and spans[-1][0] == label:
            spans[-1] = (label, spans[-1][1] + 1)
        else:
            spans.append((label, 1))
    return spans


def _by_id(result: dict[str, Any]) -> dict[str, dict[str, Any]]:
    return {str(r.get("id")): r for r in result.get("results", []) if isinstance(r, dict)}


def _strip(result: dict[str, Any] | None) -> str:
    runs = (result or {}).get("runs")
    if not isinstance(runs, list):
        return ""
    return "".join(
        _STATUS_CLASS.get(str(r.get("status")), "u") for r in runs if isinstance(r, dict)
    )


def grid_rows(
    results: Sequence[dict[str, Any]], case_ids: Sequence[tuple[str, str]]
) -> list[GridRow]:
    """Each model's status letters (p/f/e/u) along ``case_ids``; a case missing from a file reads unrecorded.
    A model with repeats also gets each case's repeats in order (``strips``)."""
    rows = []
    for result in results:
        by_id = _by_id(result)
        statuses = tuple(
            _STATUS_CLASS.get(str(by_id.get(cid, {}).get("status")), "u") for cid, _ in case_ids
        )
        repeated = isinstance(result.get("repeats"), int) and result["repeats"] > 1
        strips = tuple(_strip(by_id.get(cid)) for cid, _ in case_ids) if repeated else ()
        rows.append(GridRow(str(result["model"]), statuses, strips))
    return rows


def _suite_case(case: dict[str, Any] | None, cid: str, group: str) -> dict[str, Any]:
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
    results: Sequence[dict[str, Any]], suite: dict[str, Any], case_ids: Sequence[tuple[str, str]]
) -> dict[str, Any]:
    """The one JSON blob the page reads when a grid cell is opened: suite cases once, a result per cell."""
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


def _run_detail(run: dict[str, Any]) -> dict[str, Any]:
    return {k: run.get(k) for k in ("repeat", "status", "reason", "steps", "attempts")}


def suite_lines(results: Sequence[dict[str, Any]]) -> list[SuiteLine]:
    """The distinct suites the results were scored against, sorted (more than one is worth a warning)."""
    seen = set()
    for result in results:
        s = result.get("suite") if isinstance(result.get("suite"), dict) else {}
        seen.add(
            SuiteLine(
                str(s.get("name", "?")), str(s.get("version", "?")), str(s.get("sha256", "?"))
            )
        )
    return sorted(seen, key=lambda s: (s.name, s.version, s.sha256))
