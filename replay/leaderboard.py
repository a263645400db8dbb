"""The leaderboard across models: markdown, CSV and a terminal table, all from results documents."""

from __future__ import annotations

import csv
import io
import math
from collections.abc import Sequence
from typing import Any

from scorer.metrics import METRICS
from scorer.suite_model import Suite

TITLES = {
    "overall": "Overall",
    "right_tool": "Right tool",
    "valid_arguments": "Valid args",
    "made_up_tool": "Made-up tool",
    "chains": "Chains",
    "parallel": "Parallel",
    "no_call_needed": "No call needed",
}
DASH = "-"


def ordered(documents: Sequence[dict[str, Any]]) -> list[dict[str, Any]]:
    """Overall rate descending, models without scores last, ties by model name."""

    def key(doc: dict[str, Any]) -> tuple[bool, float, str]:
        rate = doc["metrics"]["overall"]["rate"]
        return (rate is None, -(rate or 0.0), doc["model"])

    return sorted(documents, key=key)


def _pct(rate: float | None) -> str:
    return DASH if rate is None else f"{rate:.1f}"


def _ci(ci: list[float] | None) -> str:
    return "" if ci is None else f" [{ci[0]:.0f}-{ci[1]:.0f}]"


def cells(doc: dict[str, Any]) -> list[str]:
    """One row of the human tables: rates with intervals, latency, cost, errored, temperature."""
    row = [doc["model"]]
    for name in METRICS:
        metric = doc["metrics"][name]
        row.append(_pct(metric["rate"]) + ("" if metric["rate"] is None else _ci(metric["ci"])))
    latency, cost = doc["latency_p50_ms"], doc["cost_per_100_cases_usd"]
    row.append(DASH if latency is None else f"{latency:.0f}")
    row.append(DASH if cost is None else f"{cost:.4f}")
    cases = doc["cases"]
    row.append(str(cases["errored"]) + (f" (+{cases['unrecorded']} unrecorded)" if cases["unrecorded"] else ""))
    row.append("yes" if doc["temperature_ignored"] else "no")
    return row


HEADERS = ["Model", *(TITLES[m] for m in METRICS), "Latency p50 ms", "$ / 100 cases", "Errored", "Temp. ignored"]


def leaderboard_md(documents: Sequence[dict[str, Any]], suite: Suite) -> str:
    """The markdown leaderboard (rates in %, 95% Wilson intervals in brackets; a dash where nothing applies)."""
    lines = [
        f"# Leaderboard: {suite.name} {suite.version}",
        "",
        f"Suite sha256 `{suite.sha256}`. Rates in % with 95% Wilson intervals; `-` where nothing applies.",
        "Made-up tool: lower is better. Cost is what the calls cost on Lobstack's keys.",
        "",
        "| " + " | ".join(HEADERS) + " |",
        "|" + "|".join("---" if i == 0 else "---:" for i in range(len(HEADERS))) + "|",
    ]
    for doc in ordered(documents):
        lines.append("| " + " | ".join(cell.replace("|", "\\|") for cell in cells(doc)) + " |")
    return "\n".join(lines) + "\n"


def _num(value: float | None) -> str:
    return "" if value is None else repr(value)


_FORMULA_START = ("=", "+", "-", "@", "\t", "\r")


def csv_safe(cell: Any) -> Any:
    """A cell a spreadsheet will not run as a formula: text starting with ``= + - @`` (or tab, CR) gets a leading
    ``'``. Numbers are left alone, so ``-1.5`` stays a number; so is text that reads as one (``float`` parses it
    and it is finite), which a spreadsheet takes as that number, never a formula."""
    if not isinstance(cell, str) or not cell.startswith(_FORMULA_START):
        return cell
    try:
        if math.isfinite(float(cell)):
            return cell
    except ValueError:
        pass
    return "'" + cell


def leaderboard_csv(documents: Sequence[dict[str, Any]]) -> str:
    """The CSV leaderboard: unrounded rates (floats by repr), empty cells for nulls, text cells formula-safe."""
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    header = ["model"]
    for name in METRICS:
        header += [name, f"{name}_count", f"{name}_of", f"{name}_ci_lo", f"{name}_ci_hi"]
    header += ["latency_p50_ms", "cost_per_100_cases_usd", "scored", "errored", "unrecorded", "temperature_ignored"]
    writer.writerow(header)
    for doc in ordered(documents):
        row = [doc["model"]]
        for name in METRICS:
            metric = doc["metrics"][name]
            ci = metric["ci"] or [None, None]
            row += [_num(metric["rate"]), metric["count"], metric["of"], _num(ci[0]), _num(ci[1])]
        cases = doc["cases"]
        row += [
            _num(doc["latency_p50_ms"]),
            _num(doc["cost_per_100_cases_usd"]),
            cases["scored"],
            cases["errored"],
            cases["unrecorded"],
            str(doc["temperature_ignored"]).lower(),
        ]
        writer.writerow([csv_safe(cell) for cell in row])
    return buffer.getvalue()


SHORT_HEADERS = ["Model", "Overall", "Right\ntool", "Valid\nargs", "Made-up\ntool", "Chains", "Parallel",
                 "No call\nneeded", "p50\nms", "$ per\n100", "Errored", "Temp.\nignored"]  # fmt: skip


def terminal_table(documents: Sequence[dict[str, Any]], suite: Suite) -> Any:
    """A rich Table of the leaderboard for the terminal: each interval under its rate, so it fits ~120 columns."""
    from rich import box
    from rich.table import Table

    table = Table(
        title=f"{suite.name} {suite.version}: rates in %, 95% interval below",
        title_justify="left",
        box=box.SIMPLE_HEAD,
        show_edge=False,
        collapse_padding=True,
    )
    for i, header in enumerate(SHORT_HEADERS):
        rate = 1 <= i <= len(METRICS)  # "[95-100]" must fit whole
        table.add_column(header, justify="left" if i == 0 else "right", no_wrap=i == 0, min_width=8 if rate else None)
    for doc in ordered(documents):
        table.add_row(*(cell.replace(" [", "\n[") for cell in cells(doc)))
    return table
