"""From typed model summaries (and results.json's suite fields) to what the report template shows:
pure, ordered, no HTML here."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

import replay.html._format as fmt
from replay.html._labels import GROUP_LABELS, LOWER_IS_BETTER, METRIC_LABELS
from replay.html._plot_model import Interval, PlotModel
from replay.leaderboard.tables import rank_of, repeat_rate
from replay.partial import partial
from replay.results.typed import Results
from replay.wire_rows import board_rows, grouped_order, model_name
from scorer.metrics import REGISTRY, REPEAT_SHOWN
from scorer.summary import ModelSummary, Rate


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
    """One model's leaderboard row; ``routed`` lists the answering models when they are not just
    this one."""

    model: str
    routed: tuple[tuple[str, int], ...]
    cells: tuple[Cell, ...]


@dataclass(frozen=True)
class SuiteLine:
    """A suite identity as the results name it."""

    name: str
    version: str
    sha256: str


def _first(key: str) -> Literal["asc", "desc"]:
    """A rate's first sort click: best first (the registry's direction)."""
    return "asc" if key in LOWER_IS_BETTER else "desc"


REPEAT_COLUMNS: tuple[Column, ...] = (
    Column("repeats", "Repeats", "desc"),
    *(Column(k, REGISTRY[k].label, _first(k)) for k in REPEAT_SHOWN),
)
COLUMNS: tuple[Column, ...] = (
    Column("model", "Model", "asc", numeric=False),
    *(Column(k, label, _first(k)) for k, label in METRIC_LABELS.items()),
    Column("latency_p50_ms", "Latency p50", "asc"),
    Column("cost_per_100_cases_usd", "Cost per 100 cases", "asc"),
    Column("scored", "Scored", "desc"),
    Column("errored", "Errored", "asc"),
    Column("unrecorded", "Unrecorded", "asc"),
    Column("temperature_ignored", "Temp. ignored", "asc"),
)


def leaderboard_order(summaries: Sequence[ModelSummary]) -> list[int]:
    """The positions of ``summaries`` in the leaderboards' order (``scorer.metrics.rank_key``, as
    leaderboard.md), so a caller can order what goes with them."""
    return grouped_order(board_rows(summaries), rank_of)


def _routed(summary: ModelSummary) -> tuple[tuple[str, int], ...]:
    routed = summary.routed_models
    if set(routed) <= {model_name(summary)}:  # a wire's row label is not what answered
        return ()
    return tuple(sorted(routed.items(), key=lambda kv: (-kv[1], kv[0])))


def columns(repeated: bool) -> tuple[Column, ...]:
    """The leaderboard's columns; with repeats, K, pass^k and flaky follow Overall."""
    return (*COLUMNS[:2], *REPEAT_COLUMNS, *COLUMNS[2:]) if repeated else COLUMNS


def _rate_cell(m: Rate | None) -> Cell:
    value = None if m is None else m.rate
    return Cell(fmt.rate(value), fmt.sort_value(value), fmt.interval(None if m is None else m.ci))


def leaderboard_row(summary: ModelSummary, repeated: bool = False) -> Row:
    """The leaderboard cells of one model, in ``columns(repeated)`` order."""
    cells = [Cell(summary.model, summary.model.lower())]
    for key in METRIC_LABELS:
        cells.append(_rate_cell(summary.metrics.get(key)))
        if key == "overall" and (mark := partial(summary)) is not None:
            cells[-1] = Cell(cells[-1].text, cells[-1].sort, cells[-1].sub, mark.mark())
        if repeated and key == "overall":
            cells.append(Cell(str(summary.repeats), fmt.sort_value(summary.repeats)))
            cells.extend(_rate_cell(repeat_rate(summary, extra)) for extra in REPEAT_SHOWN)
    latency, cost = summary.latency_p50_ms, summary.cost_per_100_cases_usd
    cells.append(Cell(fmt.latency(latency), fmt.sort_value(latency)))
    cells.append(Cell(fmt.cost(cost), fmt.sort_value(cost)))
    for n in (summary.cases.scored, summary.cases.errored, summary.cases.unrecorded):
        cells.append(Cell(str(n), fmt.sort_value(n)))
    ignored = summary.temperature_ignored
    text = fmt.DASH if ignored is None else ("yes" if ignored else "no")  # None: not reported
    cells.append(Cell(text, fmt.sort_value(ignored)))
    return Row(summary.model, _routed(summary), tuple(cells))


def plot_model(summary: ModelSummary, group_order: Sequence[str] = ()) -> PlotModel:
    """What the plots need of one model's summary; a suite of one's own lists its groups in
    ``group_order`` (the suite's), since results.json writes them in key order."""
    metrics: dict[str, Interval | None] = {}
    for key in METRIC_LABELS:
        m = summary.metrics.get(key)
        low, high = (None, None) if m is None or m.ci is None else m.ci
        metrics[key] = None if m is None or m.rate is None else Interval(m.rate, low, high)
    groups_in = summary.groups
    # The Lobstack suite's six groups in the method page's order; a suite of one's own, its groups
    # as listed.
    keys: Sequence[str] = list(GROUP_LABELS)
    if not all(k in GROUP_LABELS for k in groups_in):
        keys = [k for k in group_order if k in groups_in] + sorted(
            k for k in groups_in if k not in group_order
        )
    groups = {k: None if groups_in.get(k) is None else groups_in[k].rate for k in keys}
    mark = partial(summary)
    return PlotModel(
        name=summary.model + ("" if mark is None else f" ({mark.mark()})"),
        partial=mark is not None,
        metrics=metrics,
        groups=groups,
        cost_per_100=summary.cost_per_100_cases_usd,
        latency_p50_ms=summary.latency_p50_ms,
    )


def suite_lines(results: Sequence[Results]) -> list[SuiteLine]:
    """The distinct suites the results were scored against, sorted (more than one is worth
    a warning)."""
    seen = set()
    for result in results:
        s = result.suite
        seen.add(SuiteLine(s.name, s.version, "?" if s.sha256 is None else s.sha256))
    return sorted(seen, key=lambda s: (s.name, s.version, s.sha256))
