"""A model's dated runs as one history, and what the drift test says about it (computing only,
no I/O).

The runs come in as ``RunRecord`` (read by ``replay.drift.load``); ``analyse`` orders them by
recorded date, then id (digit runs as numbers), checks they are one model on one suite version,
runs the test of ``scorer.drift.cusum`` and returns a ``DriftReport``: the verdict, the estimated
change point, the cases that moved and the changes of the recorded identity (the answers' ``model``
field, ``system_fingerprint``, the gateway's routing headers).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from itertools import pairwise
from typing import Literal

import numpy as np

from scorer.drift.cusum import DEFAULT, DriftPath, DriftSettings, drift_path
from scorer.drift.dispersion import Dispersion, dispersion
from scorer.drift.run_order import run_order
from scorer.errors import HistoryError
from scorer.status import SCORED
from scorer.summary import CaseTally

# A case moved when its pass rate fell by at least this much, or by anything after never
# failing before.
MOVED_DROP = 0.5


@dataclass(frozen=True)
class Identity:
    """What identified the model behind the name in one run, as recorded (sorted
    distinct values)."""

    model: tuple[str, ...] = ()
    system_fingerprint: tuple[str, ...] = ()
    routing: tuple[tuple[str, tuple[str, ...]], ...] = ()  # (header, values), sorted by header

    def fields(self) -> dict[str, tuple[str, ...]]:
        """Every identity field by its display name: ``model``, ``system_fingerprint``,
        ``header:NAME``."""
        out = {"model": self.model, "system_fingerprint": self.system_fingerprint}
        out.update({f"header:{name}": values for name, values in self.routing})
        return out


def tally_cases(statuses: Iterable[tuple[str, str]]) -> tuple[CaseTally, ...]:
    """Each case's tally in one run from its repeats' (case id, status) pairs, cases in the order
    first seen (errored and unrecorded repeats are not scored), for a history read from
    results.json or from rows; cost and wall times are not part of a history (left at 0 and
    empty)."""
    found: dict[str, list[int]] = {}
    for case_id, status in statuses:
        tally = found.setdefault(case_id, [0, 0])
        tally[0] += status == "passed"
        tally[1] += status in SCORED  # is_scored, inlined: 10,000 runs x 80 cases
    return tuple(CaseTally(case_id, passed, scored) for case_id, (passed, scored) in found.items())


@dataclass(frozen=True)
class RunRecord:
    """One dated run of one model, as read from its results.json (``source`` names the file)."""

    source: str
    run_id: str
    date: str  # YYYY-MM-DD, the recording's own date
    model: str
    suite: str  # "name version"
    identity: Identity | None  # None: the run recorded none
    cases: tuple[CaseTally, ...]
    suite_sha256: str | None = None  # the suite file it was scored with


@dataclass(frozen=True)
class CusumPoint:
    """The drift test at one run of the ordered history: the run's Overall (None: nothing
    scored), its score and the CUSUM statistic (``replay.drift.timeline.RunPoint`` is the run as
    the timeline shows it)."""

    run_id: str
    date: str
    overall: float | None
    z: float | None
    statistic: float
    # the adaptive rule (settings.scale set) on a tested run: the first CUSUM's threshold, the
    # second CUSUM and its threshold (None: the constant rule, or a run not tested)
    threshold: float | None = None
    second: float | None = None
    second_threshold: float | None = None


@dataclass(frozen=True)
class MovedCase:
    """A case that passed before the change and fails since: its passed / scored repeats on
    each side."""

    case_id: str
    passed_before: int
    scored_before: int
    passed_since: int
    scored_since: int

    @property
    def drop(self) -> float:
        """How far its pass rate fell (0 to 1)."""
        return self.passed_before / self.scored_before - self.passed_since / self.scored_since


@dataclass(frozen=True)
class IdentityChange:
    """A recorded identity field that differs between two consecutive runs (``before`` is the
    earlier run)."""

    field: str
    before_run: str
    before_date: str
    after_run: str
    after_date: str
    old: tuple[str, ...]
    new: tuple[str, ...]


@dataclass(frozen=True)
class DriftReport:
    """The drift test's verdict over one model's history.

    ``status``: ``baseline`` (too few runs to test: the first ``settings.baseline_runs`` runs only
    set the levels), ``stable`` (no alarm) or ``changed``. With ``changed``: the change came between
    run ``last_stable`` and run ``last_stable + 1`` (indexes into ``runs``) and was detected at
    run ``alarm``. ``dispersion``: do the runs vary together beyond chance, against the calibration
    (``scorer.drift.dispersion``; None: the history was not tested or nothing varied)?
    """

    model: str
    suite: str
    settings: DriftSettings
    runs: tuple[CusumPoint, ...]
    status: Literal["baseline", "stable", "changed"]
    last_stable: int | None
    alarm: int | None
    moved: tuple[MovedCase, ...]
    identity_changes: tuple[IdentityChange, ...]
    dispersion: Dispersion | None = None

    def at_change(self) -> tuple[IdentityChange, ...]:
        """The identity changes into a run between the estimated change and the alarm (the
        likely cause)."""
        if self.alarm is None:
            return ()
        first = 0 if self.last_stable is None else self.last_stable + 1
        window = {run.run_id for run in self.runs[first : self.alarm + 1]}
        return tuple(c for c in self.identity_changes if c.after_run in window)

    def mean_overall(self, start: int, stop: int) -> float | None:
        """The mean Overall of runs ``start`` to ``stop - 1`` (runs that scored nothing
        left out)."""
        values = [r.overall for r in self.runs[start:stop] if r.overall is not None]
        return sum(values) / len(values) if values else None


def order_runs(runs: Sequence[RunRecord]) -> tuple[RunRecord, ...]:
    """The runs by recorded date, then id; one model, one suite file and distinct ids, or a
    HistoryError."""
    if not runs:
        raise HistoryError("no runs to test")
    # Two suite files of one version score differently (METHOD decision 110): a scoring change is
    # no drift.
    kinds = (
        ("model", "models"),
        ("suite", "suite versions"),
        ("suite_sha256", "suite files (sha256)"),
    )
    for attribute, what in kinds:
        values = sorted({getattr(run, attribute) for run in runs} - {None})
        if len(values) > 1:
            first = {v: next(r.source for r in runs if getattr(r, attribute) == v) for v in values}
            listed = ", ".join(f"{v!r} ({first[v]})" for v in values[:5])
            more = f" and {len(values) - 5} more" if len(values) > 5 else ""
            raise HistoryError(
                f"a history holds one model on one suite file; these runs have {len(values)} "
                f"{what}: "
                f"{listed}{more}" + ("; pick one with --model M" if attribute == "model" else "")
            )
    seen: dict[str, str] = {}
    for run in runs:
        if run.run_id in seen:
            raise HistoryError(
                f"run id {run.run_id!r} appears twice: {seen[run.run_id]} and {run.source}"
            )
        seen[run.run_id] = run.source
    return tuple(sorted(runs, key=lambda r: run_order(r.date, r.run_id)))


def analyse(runs: Sequence[RunRecord], settings: DriftSettings = DEFAULT) -> DriftReport:
    """Order the runs and test them for a drop (see ``scorer.drift.cusum``)."""
    ordered = order_runs(runs)
    case_ids = sorted({c.case_id for run in ordered for c in run.cases})
    column = {case_id: i for i, case_id in enumerate(case_ids)}
    passes = np.zeros((len(ordered), len(case_ids)), dtype=np.int64)
    trials = np.zeros_like(passes)
    for t, run in enumerate(ordered):
        for case in run.cases:
            passes[t, column[case.case_id]] = case.passed
            trials[t, column[case.case_id]] = case.scored
    path = drift_path(passes, trials, settings)
    points = tuple(
        CusumPoint(
            run.run_id,
            run.date,
            _overall(passes[t], trials[t]),
            path.z[t],
            path.statistic[t],
            *_limits(path, t, settings),
        )
        for t, run in enumerate(ordered)
    )
    status: Literal["baseline", "stable", "changed"]
    if path.alarm is not None:
        status = "changed"
    elif len(ordered) <= settings.baseline_runs:
        status = "baseline"
    else:
        status = "stable"
    moved: tuple[MovedCase, ...] = ()
    if path.alarm is not None:
        split = -1 if path.last_stable is None else path.last_stable
        moved = _moved(case_ids, passes, trials, split + 1)
    return DriftReport(
        model=ordered[0].model,
        suite=ordered[0].suite,
        settings=settings,
        runs=points,
        status=status,
        last_stable=path.last_stable,
        alarm=path.alarm,
        moved=moved,
        identity_changes=identity_changes(ordered),
        # the very runs and counts the test read; a baseline history is not tested
        dispersion=None if status == "baseline" else dispersion(passes, trials, early=True),
    )


def _limits(
    path: DriftPath, t: int, settings: DriftSettings
) -> tuple[float | None, float | None, float | None]:
    """Run t's (threshold, second CUSUM, its threshold) under the adaptive rule, once tested."""
    if path.second is None or path.second_threshold is None or t < settings.baseline_runs:
        return None, None, None
    return path.threshold[t], path.second[t], path.second_threshold[t]


def _overall(passes: np.ndarray, trials: np.ndarray) -> float | None:
    """Overall of one run in percent: passed over scored case-runs (METHOD.md, "Repeats and
    comparisons")."""
    if not trials.sum():
        return None
    return float(100 * passes.sum() / trials.sum())


def _moved(
    case_ids: Sequence[str], passes: np.ndarray, trials: np.ndarray, first_changed: int
) -> tuple[MovedCase, ...]:
    """Cases whose rate since ``first_changed`` is below their rate before it: by at least
    MOVED_DROP, or any drop of a case that passed every scored repeat before. Largest drop first,
    then by id."""
    out = []
    for i, case_id in enumerate(case_ids):
        before = int(passes[:first_changed, i].sum()), int(trials[:first_changed, i].sum())
        since = int(passes[first_changed:, i].sum()), int(trials[first_changed:, i].sum())
        if not before[1] or not since[1]:
            continue
        case = MovedCase(case_id, *before, *since)
        if case.drop >= MOVED_DROP or (case.drop > 0 and before[0] == before[1]):
            out.append(case)
    return tuple(sorted(out, key=lambda c: (-c.drop, c.case_id)))


def identity_changes(ordered: Sequence[RunRecord]) -> tuple[IdentityChange, ...]:
    """Every identity field that differs between a run and the last run before it that recorded one
    (a run that recorded none is passed over: it says nothing either way)."""
    out = []
    identified = [(run, run.identity.fields()) for run in ordered if run.identity is not None]
    for (before, old), (after, new) in pairwise(identified):
        for field in sorted(set(old) | set(new)):
            if old.get(field, ()) != new.get(field, ()):
                out.append(
                    IdentityChange(
                        field,
                        before.run_id,
                        before.date,
                        after.run_id,
                        after.date,
                        old.get(field, ()),
                        new.get(field, ()),
                    )
                )
    return tuple(out)
