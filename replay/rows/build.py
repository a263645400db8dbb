"""Results documents -> rows: one ``cases`` row per model x case x repeat, one ``calls`` row per
tool call.

Each metric column is the case-run's contribution to that metric (docs/METHOD.md, "The metrics"): a
boolean for a case-level metric (null when it does not apply or the case is not scored), a count and
its ``_of`` for a call-level metric (0 and 0 when the case is not scored). ``scorer.summarize``
computes every figure from them.

Repeats: a case entry with ``runs`` (one case document per repeat, each with its own steps and
attempts) gives one full row per repeat. An entry with only ``repeat_statuses`` gives one row per
repeat too, with the entry's steps and attempts as repeat 1 and status and ``overall`` only for
repeats 2..K (their other columns are null). An entry with neither is repeat 1 of 1.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from decimal import Context, Decimal, InvalidOperation
from typing import Any

import orjson

from replay.results.cases import CaseEntry
from replay.results.typed import ResultsDocument
from replay.rows.schema import COST_SCALE, Frames, Row, Rows, schema, sort_columns
from scorer.errors import ResultsError
from scorer.metrics import CallRun, CaseRunView, StepRun, of_level
from scorer.safe_text import utf8
from scorer.status import is_scored
from scorer.suite.model import Case, Suite
from scorer.wire.headers import price

_QUANTUM = Decimal(1).scaleb(-COST_SCALE)


def _cost(attempts: list[dict[str, Any]]) -> tuple[str | None, Decimal | None]:
    # free JSON: an entry's attempts as results.json holds them
    """The exact sum of the answered attempts' prices (read as ``scorer.wire.headers.price`` reads
    them) as text, and as a decimal(38, 18) when that holds it exactly (else None); (None, None)
    when any answer is unpriced."""
    total = Decimal(0)
    for attempt in attempts:
        if attempt.get("status") is None:
            continue
        amount = price(attempt.get("cost_usd"))
        if amount is None:
            return None, None
        total += amount
    try:
        exact = total.quantize(_QUANTUM, context=Context(prec=38, traps=[InvalidOperation]))
    except InvalidOperation:  # 10^20 USD or more: beyond decimal(38, 18)
        exact = None
    return format(total, "f"), exact if exact == total else None


def _case_run(
    case: Case, status: str, steps: list[dict[str, Any]], calls: list[Row]
) -> CaseRunView:
    # free JSON: an entry's steps as results.json holds them
    """The case-run as the metric registry sees it: reached steps by index, every call's facts."""
    reached = {
        step["index"]: StepRun(
            passed=bool(step.get("passed")),
            names=tuple(c["name"] for c in (step.get("response") or {}).get("tool_calls") or []),
        )
        for step in steps
    }
    facts = tuple(CallRun(c["offered"], c["schema_valid"]) for c in calls)
    return CaseRunView(case, status, reached, facts)


def _metric_columns(run: CaseRunView) -> Row:
    """Every case and call metric's column(s) of one case-run (scorer.metrics computes them)."""
    row: Row = {}
    for m in of_level("case", "call"):
        if m.level == "case":
            row[m.key] = m.compute(run)
        else:
            row[m.key], row[f"{m.key}_of"] = m.compute(run)
    return row


def _arguments_text(value: Any) -> str | None:
    if isinstance(value, str) or value is None:
        return value
    return json.dumps(value, sort_keys=True, ensure_ascii=False)


def _detail(case: Case, entry: CaseEntry, status: str, key: Row) -> tuple[Row, list[Row]]:
    # free JSON: ``entry`` is a case entry (or one repeat of it) as results.json holds it
    """The full row of a case-run whose steps and attempts the entry holds, and its calls rows."""
    steps, attempts = entry.get("steps") or [], entry.get("attempts") or []
    calls = []
    for step in steps:
        for position, call in enumerate((step.get("response") or {}).get("tool_calls") or [], 1):
            calls.append(
                {
                    **key,
                    "step": step["index"] + 1,
                    "call": position,
                    "call_id": call.get("id"),
                    "name": call.get("name"),
                    "offered": call.get("offered"),
                    "parsed": call.get("parsed"),
                    "schema_valid": call.get("schema_valid"),
                    "arguments_form": call.get("arguments_form"),
                    "arguments": _arguments_text(call.get("arguments")),
                }
            )
    walls = [
        a["wall_ms"]
        for a in attempts
        if a.get("status") is not None and a.get("wall_ms") is not None
    ]
    cost_text, cost = _cost(attempts)
    row = {
        **key,
        "reason": entry.get("reason"),
        "steps_reached": len(steps),
        "first_failing_step": None
        if status == "passed"
        else len(steps) + (0 if status == "failed" else 1),
        **_metric_columns(_case_run(case, status, steps, calls)),
        "calls": len(calls),
        "attempts": len(attempts),
        "latency_ms": sum(walls) if walls else None,
        "attempt_wall_ms": walls,
        "cost_usd_text": cost_text,
        "cost_usd": cost,
        "routed_models": [
            s["response"]["model"] for s in steps if (s.get("response") or {}).get("model")
        ],
    }
    return row, calls


def run_columns(run: Any) -> Row:  # free JSON: results.json's ``run``
    """The columns every row of a run of a history carries (results.json has ``run``): none for a
    plain recording. They come last: frames_of_rows orders the columns by schema."""
    if not isinstance(run, dict):
        return {}
    identity = json.dumps(run.get("identity"), sort_keys=True, ensure_ascii=False)
    return {"run_id": run["id"], "run_date": run.get("date"), "run_identity": identity}


def document_rows(suite: Suite, document: ResultsDocument) -> tuple[list[Row], list[Row]]:
    """The cases rows and calls rows of one results document scored with ``suite``."""
    cases = {case.id: (index, case) for index, case in enumerate(suite.cases)}
    recorded = (document.get("recorded_suite") or {}).get("version")
    base = {
        "model": document["model"],
        "model_slug": document["model_slug"],
        "suite_name": document["suite"]["name"],
        "suite_version": document["suite"]["version"],
        "suite_sha256": document["suite"]["sha256"],
    }
    extra = run_columns(document.get("run"))
    case_rows: list[Row] = []
    call_rows: list[Row] = []
    for entry in document["results"]:
        if entry["id"] not in cases:
            raise ResultsError(
                f"{document['model_slug']}: case {entry['id']!r} is not in {suite.source}"
            )
        index, case = cases[entry["id"]]
        runs = entry.get("runs") if isinstance(entry.get("runs"), list) else None
        statuses = (
            [run["status"] for run in runs]
            if runs
            else entry.get("repeat_statuses") or [entry["status"]]
        )
        common = {"recorded_suite_version": recorded, "steps_total": len(case.steps)}
        ignored = document.get("temperature_ignored")
        common["temperature_ignored"] = None if ignored is None else bool(ignored)
        for repeat, status in enumerate(statuses, 1):
            key = {
                **base,
                "case_id": case.id,
                "case_index": index,
                "group": case.group,
                "repeat": repeat,
            }
            key["status"] = status
            key.update(extra)
            detail = runs[repeat - 1] if runs else entry if repeat == 1 else None
            if detail is not None:
                row, calls = _detail(case, detail, status, key)
                call_rows.extend(calls)
            else:
                row = {**key, "overall": status == "passed" if is_scored(status) else None}
            case_rows.append({**row, **common})
    return case_rows, call_rows


def _series(pl: Any, column: str, values: list[Any], dtype: Any) -> Any:
    """One column; a text that is not UTF-8 (a lone surrogate a model wrote) is stored with U+FFFD
    for it, since parquet strings are UTF-8 (results.json keeps it exactly)."""
    try:
        return _column(pl, column, values, dtype)
    except (UnicodeEncodeError, TypeError):  # orjson's JSONEncodeError is a TypeError
        return _column(pl, column, [_utf8(value) for value in values], dtype)


def _utf8(value: Any) -> Any:
    if isinstance(value, str):
        return utf8(value)
    if isinstance(value, list):
        return [_utf8(item) for item in value]
    return value


def _column(pl: Any, column: str, values: list[Any], dtype: Any) -> Any:
    """One column. A decimal one is built from each value's text: from Decimal objects polars goes
    through numpy, whose import costs more than all of a model's rows (~80 ms); the values are
    the same. A list one is built from each list's JSON text: from Python lists polars builds a
    Series per row (~10x slower); the JSON of strings and floats (orjson writes the shortest
    repr) reads back bit for bit."""
    if isinstance(dtype, pl.Decimal):
        text = [None if value is None else format(value, "f") for value in values]
        return pl.Series(column, text, pl.String).cast(dtype)
    if dtype == pl.Date:  # run_date: YYYY-MM-DD text (or null) to a date
        return pl.Series(column, values, pl.String).str.to_date("%Y-%m-%d")
    if isinstance(dtype, pl.List):
        text = [None if value is None else orjson.dumps(value).decode("utf-8") for value in values]
        return pl.Series(column, text, pl.String).str.json_decode(dtype)
    return pl.Series(column, values, dtype)


def frames(suite: Suite, documents: Sequence[ResultsDocument]) -> Frames:
    """The ``cases`` and ``calls`` DataFrames of many results documents, in their canonical
    row order."""
    tables: Rows = {"cases": [], "calls": []}
    for document in documents:
        add_rows(tables, suite, document)
    return frames_of_rows(tables)


def add_rows(tables: Rows, suite: Suite, document: ResultsDocument) -> None:
    """Add one results document's rows to ``tables`` (``{"cases": [...], "calls": [...]}``), for
    ``frames_of_rows``."""
    case_rows, call_rows = document_rows(suite, document)
    tables["cases"].extend(case_rows)
    tables["calls"].extend(call_rows)


def frames_of_rows(tables: Rows) -> Frames:
    """The ``cases`` and ``calls`` DataFrames of rows gathered by ``add_rows`` (in any order: they
    are sorted). When any row is of a run of a history, both tables have the run columns (null
    for the other models' rows)."""
    import polars as pl

    runs = any("run_id" in row for row in tables["cases"])
    built = {}
    for name, rows in tables.items():
        # Column by column: polars builds list and decimal columns from Python lists much faster
        # than from dicts.
        columns = [
            _series(pl, column, [row.get(column) for row in rows], dtype)
            for column, dtype in schema(name, runs).items()
        ]
        frame = pl.DataFrame(columns)
        built[name] = frame.sort(sort_columns(name, runs), maintain_order=True).rechunk()
    return built
