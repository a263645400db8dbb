"""Metric floors (``--lobstack-min overall=90``) and ceilings (``--lobstack-max
made_up_tool=5``), pure.

A bound applies to the rate a model's summary reports (the point estimate, in percent); the interval
is shown beside it so a reader sees how much one case moves it, but it does not decide. A model with
no rate for a bounded metric (nothing scored) misses the bound: a gate must not pass on nothing.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from pytest_lobstack.rates import looks_like_share
from scorer.metrics import LOWER_IS_BETTER, METRICS
from scorer.summary import ModelSummary

# A lower-is-better rate (the metric registry's direction) takes a ceiling, never a floor.


class BoundError(ValueError):
    """A ``METRIC=PCT`` text that cannot be a bound; the message names the bad part."""


@dataclass(frozen=True)
class Bound:
    """``metric`` must be at least (``upper`` False) or at most (``upper`` True) ``percent``."""

    metric: str
    percent: float
    upper: bool


@dataclass(frozen=True)
class Miss:
    """One model's metric on the wrong side of its bound."""

    model: str
    bound: Bound
    rate: float | None
    ci: tuple[float, float] | None


def parse_bound(text: str, upper: bool) -> Bound:
    """``overall=90`` -> Bound; BoundError for an unknown metric, a bad number, a share
    (``overall=0.5``: write ``50``, or ``0.5%`` when meant) or the wrong direction."""
    metric, sep, number = text.partition("=")
    metric = metric.strip()
    if not sep:
        raise BoundError(f"{text!r}: expected METRIC=PCT, e.g. overall=90")
    if metric not in METRICS:
        raise BoundError(f"{text!r}: unknown metric {metric!r}; one of {', '.join(METRICS)}")
    number = number.strip()
    try:
        percent = float(number.removesuffix("%"))
    except ValueError:
        percent = math.nan
    if not 0 <= percent <= 100:  # also rejects nan
        raise BoundError(f"{text!r}: expected a percentage from 0 to 100, got {number!r}")
    if looks_like_share(percent) and not number.endswith("%"):
        # the fixture's rates refuse a share too (rates.py): 0.5 meant as half would gate at 0.5%
        raise BoundError(
            f"{text!r}: bounds are in percent and {number} looks like a share: write "
            f"{metric}={percent * 100:g} for {percent * 100:g}%, or {metric}={number}% for "
            f"{number}%"
        )
    if upper and metric not in LOWER_IS_BETTER:
        raise BoundError(
            f"{text!r}: {metric} is higher-is-better; use --lobstack-min {metric}={number.strip()}"
        )
    if not upper and metric in LOWER_IS_BETTER:
        raise BoundError(
            f"{text!r}: {metric} is lower-is-better; use --lobstack-max {metric}={number.strip()}"
        )
    return Bound(metric, percent, upper)


def misses(summary: ModelSummary, bounds: tuple[Bound, ...]) -> list[Miss]:
    """The bounds one model's summary misses, in the order they were given."""
    found = []
    for bound in bounds:
        metric = summary.metrics[bound.metric]
        rate = metric.rate
        if rate is None or (rate > bound.percent if bound.upper else rate < bound.percent):
            found.append(Miss(summary.model, bound, rate, metric.ci))
    return found
