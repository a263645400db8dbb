"""The dialect matrix (pure): one model recorded several ways (dialect, streaming, settings), each
way compared with the first by the paired test the gate uses (exact McNemar on the cases scored in
both), with its transport anomalies, so "this model loses 6 cases when streamed" comes with a p.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from scorer.stats.paired import mcnemar_exact
from scorer.wire.settings import results_wire

SCORED = ("passed", "failed")


@dataclass(frozen=True)
class WayResult:
    """One way a model was recorded: its wire label, Overall (passed of scored), anomalies."""

    wire: str
    source: str
    passed: int
    scored: int
    anomalies: int  # case-runs whose answers had a transport anomaly (streamed runs)
    statuses: dict[str, str]
    kinds: tuple[tuple[str, int], ...] = ()  # each anomaly kind and how many answers had it


@dataclass(frozen=True)
class WayPair:
    """A way against the first way of its model: the cases that differ and the exact p."""

    base: WayResult
    other: WayResult
    lost: tuple[str, ...]  # passed in the first way, failed in this one
    gained: tuple[str, ...]
    p: float


@dataclass(frozen=True)
class ModelMatrix:
    """Every way one model was recorded, first way first, and each later way's pair."""

    model: str
    ways: tuple[WayResult, ...]
    pairs: tuple[WayPair, ...]


def way_result(source: str, results: dict[str, Any]) -> WayResult:
    """One results document as a way of its model."""
    statuses = {r["id"]: r["status"] for r in results["results"]}
    anomalies = results.get("transport_anomalies") or {}
    return WayResult(
        results_wire(results),
        source,
        sum(1 for s in statuses.values() if s == "passed"),
        sum(1 for s in statuses.values() if s in SCORED),
        int(anomalies.get("cases", 0)),
        statuses,
        tuple(sorted((anomalies.get("kinds") or {}).items())),
    )


def pair(base: WayResult, other: WayResult) -> WayPair:
    """``other`` against ``base`` on the cases scored in both."""
    both = [c for c in base.statuses if c in other.statuses]
    both = [c for c in both if base.statuses[c] in SCORED and other.statuses[c] in SCORED]
    lost = tuple(c for c in both if base.statuses[c] == "passed" != other.statuses[c])
    gained = tuple(c for c in both if other.statuses[c] == "passed" != base.statuses[c])
    return WayPair(base, other, lost, gained, mcnemar_exact(len(lost), len(gained)))


def matrix(runs: Sequence[tuple[str, dict[str, Any]]]) -> list[ModelMatrix]:
    """Each model with two or more ways among ``runs`` (source, results document), in the order
    given; models sorted by name."""
    by_model: dict[str, list[WayResult]] = {}
    for source, results in runs:
        by_model.setdefault(results["model"], []).append(way_result(source, results))
    out = []
    for model, ways in sorted(by_model.items()):
        if len(ways) >= 2:
            pairs = tuple(pair(ways[0], other) for other in ways[1:])
            out.append(ModelMatrix(model, tuple(ways), pairs))
    return out
