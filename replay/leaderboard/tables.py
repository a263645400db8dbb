"""The leaderboard across models: markdown, CSV and a terminal table, all from results documents.

When some model has repeats (K > 1), every table also shows K, pass^k and the share of flaky cases.
Every table marks the tiers (``replay.ties``): models sharing a letter are not told apart on
Overall, with a one-line legend.
"""

from __future__ import annotations

import csv
import io
import math
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from replay.front_text import markdown_note
from replay.partial import partial, partial_line
from replay.ties import has_repeats, tiers
from replay.wire_rows import anomaly_line, board_rows, grouped_order, model_name
from scorer.front import front
from scorer.metrics import (
    CALL_METRICS,
    LOWER_IS_BETTER,
    METRICS,
    RANK_METRIC,
    REGISTRY,
    REPEAT_METRICS,
    REPEAT_SHOWN,
    rank_key,
)
from scorer.safe_text import without_mentions
from scorer.suite.kind import is_lobstack
from scorer.suite.model import Suite
from scorer.summary import ModelSummary, Rate

if TYPE_CHECKING:
    from replay.results.typed import SuiteRef

TITLES = {name: REGISTRY[name].short for name in METRICS}
DASH = "-"


def rank_of(summary: ModelSummary) -> tuple[bool, float, str]:
    """A model's sort key on every leaderboard (``scorer.metrics.rank_key``): Overall rate
    descending, models without scores last, ties by model name."""
    return rank_key(summary.metrics[RANK_METRIC].rate, summary.model)


def ordered(summaries: Sequence[ModelSummary]) -> list[ModelSummary]:
    """The summaries in leaderboard order (``rank_of``), each named by its row label; a model's
    runs of other wires sit beside its own row (``replay.wire_rows``)."""
    board = board_rows(summaries)
    return [board[i] for i in grouped_order(board, rank_of)]


def _and(names: Sequence[str]) -> str:
    return " and ".join(names) if len(names) <= 2 else ", ".join(names[:-1]) + " and " + names[-1]


def _pct(rate: float | None) -> str:
    return DASH if rate is None else f"{rate:.1f}"


def _ci(ci: tuple[float, float] | None) -> str:
    return "" if ci is None else f" [{ci[0]:.0f}-{ci[1]:.0f}]"


def _rate_cell(metric: Rate | None) -> str:
    if metric is None or metric.rate is None:
        return DASH
    return _pct(metric.rate) + _ci(metric.ci)


def repeat_rate(summary: ModelSummary, name: str) -> Rate | None:
    """A repeat metric of a model with repeats; None for a model of one sample per case (its
    results.json has none)."""
    return summary.metrics.get(name) if summary.repeats > 1 else None


def cells(summary: ModelSummary, repeated: bool = False) -> list[str]:
    """One row of the human tables: rates with intervals, latency, cost, errored, temperature; with
    ``repeated``, K, pass^k and flaky after Overall."""
    row = [summary.model]
    for name in METRICS:
        row.append(_rate_cell(summary.metrics[name]))
        if name == "overall" and (mark := partial(summary)) is not None:
            row[-1] += f" ({mark.mark()})"
        if repeated and name == "overall":
            row.append(str(summary.repeats))
            row.extend(_rate_cell(repeat_rate(summary, extra)) for extra in REPEAT_SHOWN)
    latency, cost = summary.latency_p50_ms, summary.cost_per_100_cases_usd
    row.append(DASH if latency is None else f"{latency:.0f}")
    row.append(DASH if cost is None else f"{cost:.4f}")
    cases = summary.cases
    row.append(
        str(cases.errored) + (f" (+{cases.unrecorded} unrecorded)" if cases.unrecorded else "")
    )
    ignored = summary.temperature_ignored  # None: the gateway reports no dropped parameters
    row.append(DASH if ignored is None else ("yes" if ignored else "no"))
    return row


HEADERS = [
    "Model",
    *(TITLES[m] for m in METRICS),
    "Latency p50 ms",
    "$ / 100 cases",
    "Errored",
    "Temp. ignored",
]
# after Overall when some model has K > 1
REPEAT_HEADERS = ["Repeats", *(REGISTRY[name].short for name in REPEAT_SHOWN)]


def _headers(repeated: bool) -> list[str]:
    return HEADERS[:2] + REPEAT_HEADERS + HEADERS[2:] if repeated else HEADERS


# What the brackets are. A rate over items a case may hold several of (its repeats, its calls) has
# its interval at the effective number of trials of the case-clustered variance; a rate with one
# item per case (the case metrics at K = 1, pass^k, Flaky) is plain Wilson
# (METHOD.md#clustered-interval-rule).
INTERVALS = {
    False: f"95% Wilson intervals ({_and([TITLES[m] for m in CALL_METRICS])}: clustered by case, "
    "Wilson's at the effective number of trials)",
    True: "95% intervals clustered by case (Wilson's at the effective number of trials; plain "
    f"Wilson for {_and([REGISTRY[m].short for m in REPEAT_SHOWN])}, one value per case)",
}
# The rates that read the other way round (a repeat metric's direction is in its own line).
LOWER_LINE = f"{_and([TITLES[m] for m in METRICS if m in LOWER_IS_BETTER])}: lower is better."


# What the tier letters are (METHOD.md#leaderboard-tiers); short enough for an 80-column terminal.
TIER_LEGEND = "Tier: a shared letter = not told apart (all pairs paired-tested, Holm, 5%)."


def cost_line(suite_name: str) -> str:
    """What the Cost column is: on Lobstack's keys for a Lobstack suite; another suite's report
    speaks of no one's keys but the gateway's price (issue 40, part 7)."""
    if is_lobstack(suite_name):
        return "Cost is what the calls cost on Lobstack's keys."
    return "Cost is what the gateway said the calls cost."


def leaderboard_md(summaries: Sequence[ModelSummary], suite: Suite | SuiteRef) -> str:
    """The markdown leaderboard (rates in %, 95% intervals in brackets; a dash where nothing
    applies): Wilson intervals, or with repeats case-clustered ones (docs/METHOD.md, "Repeats";
    decision 120)."""
    repeated = has_repeats(summaries)
    headers = [*_headers(repeated), "Tier"]
    board = ordered(summaries)
    marks = tiers(board)
    lines = [
        f"# Leaderboard: {suite.name} {suite.version}",
        "",
        f"Suite sha256 `{suite.sha256}`. Rates in % with {INTERVALS[repeated]}; `-` where nothing "
        "applies.",
        f"{LOWER_LINE} {cost_line(suite.name)}",
        TIER_LEGEND,
        "",
    ]
    if repeated:
        lines[-2:-2] = [  # before the tier legend
            "With repeats, rates are over every scored case-run; pass^k: cases that passed every "
            "repeat; Flaky: cases whose repeats disagree.",
        ]
    explained = partial_line(board)
    if explained:
        lines[-1:-1] = [explained]
    lines += [
        "| " + " | ".join(headers) + " |",
        "|" + "|".join("---" if i == 0 else "---:" for i in range(len(headers))) + "|",
    ]
    for summary in board:
        row = [*cells(summary, repeated), marks.letters[summary.model] or DASH]
        lines.append("| " + " | ".join(cell.replace("|", "\\|") for cell in row) + " |")
    if (anomalies := anomaly_line(board)) is not None:
        lines += ["", anomalies]
    lines += markdown_note(front(board_rows(summaries)))  # input order, as always
    return without_mentions("\n".join(lines) + "\n")  # a model or suite name may read as a mention


def _num(value: float | None) -> str:
    return "" if value is None else repr(value)


def _rate_fields(metric: Rate | None) -> list[Any]:
    """rate, count, of, ci low, ci high: empty cells for a metric the model does not have."""
    if metric is None:
        return [""] * 5
    low, high = metric.ci or (None, None)
    return [_num(metric.rate), metric.count, metric.of, _num(low), _num(high)]


_FORMULA_START = ("=", "+", "-", "@", "\t", "\r")


def csv_safe(cell: Any) -> Any:
    """A cell a spreadsheet will not run as a formula: text starting with ``= + - @`` (or tab, CR)
    gets a leading ``'``. Numbers are left alone, so ``-1.5`` stays a number; so is text that
    reads as one (``float`` parses it and it is finite), which a spreadsheet takes as that
    number, never a formula."""
    if not isinstance(cell, str) or not cell.startswith(_FORMULA_START):
        return cell
    try:
        if math.isfinite(float(cell)):
            return cell
    except ValueError:
        pass
    return "'" + cell


def leaderboard_csv(summaries: Sequence[ModelSummary]) -> str:
    """The CSV leaderboard: unrounded rates (floats by repr), empty cells for nulls, text cells
    formula-safe."""
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    header = ["model"]
    for name in METRICS:
        header += [name, f"{name}_count", f"{name}_of", f"{name}_ci_lo", f"{name}_ci_hi"]
    header += [
        "latency_p50_ms",
        "cost_per_100_cases_usd",
        "scored",
        "errored",
        "unrecorded",
        "temperature_ignored",
    ]
    header.append(
        "tier"
    )  # before the repeat columns: a K = 1 board's columns stay a prefix of a repeated one's
    header.append("partial")
    repeated = has_repeats(summaries)
    if repeated:
        header.append("repeats")
        for name in REPEAT_METRICS:  # every one, shown in the tables or not
            header += [name, f"{name}_count", f"{name}_of", f"{name}_ci_lo", f"{name}_ci_hi"]
    board = ordered(summaries)
    wired = any(s.wire is not None for s in board)
    if wired:  # last: every other board's columns stay a prefix (FORMATS.md)
        header += ["wire", "transport_anomalies"]
    writer.writerow(header)
    marks = tiers(board)
    for summary in board:
        row: list[Any] = [model_name(summary) if wired else summary.model]
        for name in METRICS:
            row += _rate_fields(summary.metrics[name])
        cases = summary.cases
        row += [
            _num(summary.latency_p50_ms),
            _num(summary.cost_per_100_cases_usd),
            cases.scored,
            cases.errored,
            cases.unrecorded,
            "" if summary.temperature_ignored is None else str(summary.temperature_ignored).lower(),
            marks.letters[summary.model],
            str(partial(summary) is not None).lower(),
        ]
        if repeated:
            row.append(summary.repeats)
            for name in REPEAT_METRICS:
                row += _rate_fields(repeat_rate(summary, name))
        if wired:
            row += [summary.wire or "", "" if summary.anomalies is None else summary.anomalies]
        writer.writerow([csv_safe(cell) for cell in row])
    return buffer.getvalue()


def tier_lines(summaries: Sequence[ModelSummary]) -> list[str]:
    """Under the terminal table: the tier legend, when at least two models have scores to tell
    apart."""
    board = tiers(ordered(summaries))
    return [TIER_LEGEND] if board.tests else []
