"""From results.json dicts and the suite to what the report template shows: pure, ordered, no HTML here."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Literal

from replay.html import _format as fmt
from replay.html._labels import GROUP_LABELS, LOWER_IS_BETTER, METRIC_LABELS
from replay.html._plot_model import Interval, PlotModel
from replay.partial import partial
from scorer.metrics import RANK_METRIC, REGISTRY, REPEAT_SHOWN, rank_key

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


def _metric(result: dict[str, Any], key: str) -> dict[str, Any]:
    value = (result.get("metrics") or {}).get(key)
    return value if isinstance(value, dict) else {}


def _number(value: Any) -> float | None:
    return float(value) if isinstance(value, int | float) and not isinstance(value, bool) else None


def _overall(result: dict[str, Any]) -> float | None:
    return _number(_metric(result, RANK_METRIC).get("rate"))


def leaderboard_order(results: Sequence[dict[str, Any]]) -> list[dict[str, Any]]:
    """Models in the leaderboards' order (``scorer.metrics.rank_key``, as leaderboard.md)."""
    return sorted(results, key=lambda r: rank_key(_overall(r), str(r.get("model", ""))))


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
            cells.extend(_rate_cell(result, extra) for extra in REPEAT_SHOWN)
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
