"""Which model to pick: the cost-quality front with confidence, and the cheapest model not worse
than the leader by more than delta points. One computation every view reads (``pick``,
the HTML report's section and plot, the markdown leaderboard's note, the rows' front table).

Quality is Overall; x is the billed cost per 100 cases (or, as the alternative axis, latency p50).
A model whose x is unknown (unpriced, no latency) or whose rates rest on fewer cases than it has
(partial) is shown apart: never on the front, never picked (METHOD.md#the-pick).

- **Front status.** Candidate dominators of m: every other model placed whose x is at most m's.
  "dominated by X (p)": a one-sided exact paired test by case
  (``scorer.stats.front_paired.better_p``)
  finds X better, Holm-adjusted over m's candidates below alpha. "on the front": m is better than
  every candidate, each test at alpha (an intersection-union test needs no correction: the claim
  fails if any one comparison fails); the cheapest model is on it by definition. Otherwise
  "ambiguous". Each row's statement is at level alpha on its own, not family-wise over the table.
- **Its probability.** The share of case-cluster bootstrap draws in which the model is on the front
  (``scorer.stats.front_bootstrap``), x interval from the same draws.
- **The pick.** A lower bound L(m) for Overall(m) - max over the others, valid although the leader
  is chosen from the data (Hsu's multiple comparison with the best): the minimum over every other
  complete model j of m's lower bound against j, each at alpha / (k - 1) for k complete models.
  When the bounds against the true best hold (probability >= 1 - alpha, Bonferroni over its k - 1
  comparisons), every model's L is a true lower bound at once. The pick is the cheapest placed model
  with L > -delta.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from scorer.metrics import RANK_METRIC, rank_key
from scorer.stats.front_bootstrap import DRAWS, SEED, Resampled, Sample, resample
from scorer.stats.front_paired import CaseRates, better_p, critical, float_differences, lower_bound
from scorer.stats.paired import holm
from scorer.summary import ModelSummary

ALPHA = 0.05
DELTA = 10.0  # points; why: docs/decisions/pick.md
AXES = ("cost", "latency")


@dataclass(frozen=True)
class FrontRow:
    """One model on the front table. ``status``: ``front``, ``dominated``, ``ambiguous`` or
    ``apart`` (``apart`` says why: unpriced, no latency, partial, nothing scored). ``p``: the
    dominance's Holm-adjusted p, or for the front the largest p of its comparisons. ``lower``: the
    lower bound of Overall minus the best other model's, in points (None: no other model)."""

    model: str
    overall: float | None
    overall_ci: tuple[float, float] | None
    x: float | None
    x_ci: tuple[float, float] | None
    status: str
    dominated_by: str | None
    p: float | None
    p_front: float | None
    lower: float | None
    within: bool
    apart: str = ""


@dataclass(frozen=True)
class Pick:
    """The pick: ``model`` (None: none could be shown within delta), the ``leader`` (best Overall),
    ``lower`` its bound in points, ``saving`` the share of the leader's x it saves (None when the
    leader has no x); ``closest``: with no pick, the placed model with the highest bound."""

    model: str | None
    leader: str | None
    lower: float | None
    saving: float | None
    closest: str | None = None
    closest_lower: float | None = None


@dataclass(frozen=True)
class Front:
    """The whole computation: its settings, one row per model (placed by x, then apart in
    leaderboard order) and the pick."""

    axis: str
    delta: float
    alpha: float
    draws: int
    seed: int
    rows: tuple[FrontRow, ...]
    pick: Pick


def _rates(summary: ModelSummary) -> CaseRates:
    return {t.case_id: (t.passed, t.scored) for t in summary.tallies}


def x_of(summary: ModelSummary, axis: str) -> float | None:
    """The model's x on ``axis``."""
    return summary.cost_per_100_cases_usd if axis == "cost" else summary.latency_p50_ms


def apart_reason(summary: ModelSummary, axis: str) -> str:
    """Why a model is not placed on the front ("" when it is)."""
    runs = summary.case_runs
    if runs.scored == 0:
        return "nothing scored"
    if runs.scored < runs.total:
        return f"partial {runs.scored}/{runs.total}"
    if x_of(summary, axis) is None:
        return "unpriced" if axis == "cost" else "no latency"
    return ""


def _samples(placed: Sequence[ModelSummary]) -> list[Sample]:
    """Each placed model's per-case figures on the union of their cases (suite order)."""
    cases = list(dict.fromkeys(t.case_id for s in placed for t in s.tallies))
    found = []
    for s in placed:
        by = {t.case_id: t for t in s.tallies}
        ts = [by.get(c) for c in cases]
        found.append(
            Sample(
                tuple(t.passed if t else 0 for t in ts),
                tuple(t.scored if t else 0 for t in ts),
                tuple(t.cost_usd if t else 0.0 for t in ts),
                tuple(t.wall_ms if t else () for t in ts),
            )
        )
    return found


def _status(m: int, placed: Sequence[ModelSummary], axis: str, alpha: float) -> tuple:
    """(status, dominated_by, p) of placed model ``m``."""
    x = x_of(placed[m], axis)
    rivals = [j for j, s in enumerate(placed) if j != m and (x_of(s, axis) or 0) <= (x or 0)]
    if not rivals:
        return "front", None, None
    mine = _rates(placed[m])
    beaten = [better_p(mine, _rates(placed[j])) for j in rivals]
    adjusted = holm(beaten)
    best = min(
        range(len(rivals)),
        key=lambda i: (adjusted[i], x_of(placed[rivals[i]], axis) or 0, placed[rivals[i]].model),
    )
    if adjusted[best] < alpha:
        return "dominated", placed[rivals[best]].model, adjusted[best]
    beating = [better_p(_rates(placed[j]), mine) for j in rivals]
    if max(beating) < alpha:
        return "front", None, max(beating)
    return "ambiguous", None, None


def _lower_bounds(complete: Sequence[ModelSummary], alpha: float) -> list[float | None]:
    """Each complete model's bound on Overall minus the best other's (a share), Hsu's way."""
    k = len(complete)
    rates = [_rates(s) for s in complete]
    bounds: list[float | None] = []
    for m in range(k):
        worst: float | None = None
        for j in range(k):
            if j == m:
                continue
            d = float_differences(rates[m], rates[j])
            bound = lower_bound(d, critical(alpha / (k - 1), len(d))) if d else -1.0
            bound = -1.0 if bound is None else bound
            worst = bound if worst is None else min(worst, bound)
        bounds.append(worst)
    return bounds


def front(
    summaries: Sequence[ModelSummary],
    axis: str = "cost",
    delta: float = DELTA,
    alpha: float = ALPHA,
    draws: int = DRAWS,
    seed: int = SEED,
) -> Front:
    """The front and the pick of ``summaries`` (any order) on ``axis``, ``delta`` in points.
    Pure; the last board's is kept, since a rescore draws it several times (note, rows, page)."""
    if axis not in AXES:
        raise ValueError(f"unknown axis {axis!r}")
    key = (axis, delta, alpha, draws, seed, tuple(sorted(map(_identity, summaries))))
    if key not in _MEMO:
        _MEMO.clear()
        _MEMO[key] = _front(summaries, axis, delta, alpha, draws, seed)
    return _MEMO[key]


_MEMO: dict[tuple, Front] = {}


def _identity(s: ModelSummary) -> tuple:
    """Everything of a summary the front reads."""
    rate = s.metrics[RANK_METRIC]
    x = (s.cost_per_100_cases_usd, s.latency_p50_ms)
    return (s.model, rate.rate, rate.ci, *x, s.case_runs, s.tallies)


def _front(
    summaries: Sequence[ModelSummary],
    axis: str,
    delta: float,
    alpha: float,
    draws: int,
    seed: int,
) -> Front:
    """``front``, uncached."""
    board = sorted(summaries, key=lambda s: rank_key(s.metrics[RANK_METRIC].rate, s.model))
    complete = [s for s in board if apart_reason(s, axis) in ("", "unpriced", "no latency")]
    placed = sorted(
        (s for s in complete if not apart_reason(s, axis)),
        key=lambda s: (x_of(s, axis), rank_key(s.metrics[RANK_METRIC].rate, s.model)),
    )
    bounds = dict(zip((s.model for s in complete), _lower_bounds(complete, alpha), strict=True))
    boot = resample(_samples(placed), axis, draws, seed) if placed else Resampled((), ())
    rows = []
    for i, s in enumerate(placed):
        status, by, p = _status(i, placed, axis, alpha)
        placing = (status, by, p, boot.on_front[i], boot.x_interval[i])
        rows.append(_row(s, axis, delta, bounds, *placing))
    for s in board:
        if apart_reason(s, axis):
            rows.append(_row(s, axis, delta, bounds, "apart", None, None, None, None))
    leader = complete[0].model if complete else None
    return Front(axis, delta, alpha, draws, seed, tuple(rows), _pick(rows, leader, board, axis))


def _row(
    s: ModelSummary,
    axis: str,
    delta: float,
    bounds: dict[str, float | None],
    status: str,
    by: str | None,
    p: float | None,
    on_front: float | None,
    x_ci: tuple[float, float] | None,
) -> FrontRow:
    overall = s.metrics[RANK_METRIC]
    bound = bounds.get(s.model)
    lower = None if bound is None else 100 * bound
    return FrontRow(
        model=s.model,
        overall=overall.rate,
        overall_ci=overall.ci,
        x=x_of(s, axis),
        x_ci=x_ci,
        status=status,
        dominated_by=by,
        p=p,
        p_front=on_front,
        lower=lower,
        within=status != "apart" and (lower is None or lower > -delta),
        apart=apart_reason(s, axis),
    )


def _pick(
    rows: Sequence[FrontRow], leader: str | None, board: Sequence[ModelSummary], axis: str
) -> Pick:
    """The cheapest placed model within delta (rows are placed by x first)."""
    placed = [r for r in rows if r.status != "apart"]
    lead_x = next((x_of(s, axis) for s in board if s.model == leader), None)
    for r in placed:
        if r.within:
            saving = None if not lead_x or r.x is None else 1 - r.x / lead_x
            return Pick(r.model, leader, r.lower, saving)
    closest = max(
        (r for r in placed if r.lower is not None),
        key=lambda r: (r.lower, -(r.x or 0)),
        default=None,
    )
    return Pick(
        None,
        leader,
        None,
        None,
        closest.model if closest else None,
        closest.lower if closest else None,
    )
