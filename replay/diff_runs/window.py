"""A history gate's window checked for a change before the history test (issue 41; the test is
``scorer.drift.window``): the runs in date order (their ``run`` dates when every run has one,
else the order given), cut to the runs after a change drift's statistic finds, with notes that say
which runs the gate used, the false-alarm rate it holds, its caveat and what to do after a change.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from replay.diff_runs.model import ModelDiff
from replay.results.cases import case_entries
from replay.results.typed import ResultsDocument
from scorer.drift.history import run_order, tally_cases
from scorer.drift.window import SCAN, WINDOW, window_cut

ALPHA_NOTE = "docs/decisions/history-gate.md#window"
Runs = list[tuple[str, ResultsDocument]]


def dated(runs: Runs) -> tuple[Runs, bool]:
    """The runs by their recorded ``run`` date, then id, when every run has one (True); else as
    given (False)."""
    keys = [_key(doc) for _, doc in runs]
    if all(k is not None for k in keys):
        order = sorted(range(len(runs)), key=lambda i: keys[i])  # type: ignore[arg-type,return-value]
        return [runs[i] for i in order], True
    return list(runs), False


def _key(doc: ResultsDocument) -> tuple[str, Any] | None:
    run = doc.get("run")
    if (
        isinstance(run, dict)
        and isinstance(run.get("date"), str)
        and isinstance(run.get("id"), str)
    ):
        return run_order(run["date"], run["id"])
    return None


def counts(runs: Runs) -> tuple[np.ndarray, np.ndarray]:
    """(passes, trials) of shape (runs, cases): each case's passed and scored samples a run."""
    tallies = [
        tally_cases((c.case_id, s) for c in case_entries(doc) for s in c.statuses)
        for _, doc in runs
    ]
    case_ids = sorted({t.case_id for run in tallies for t in run})
    column = {case_id: i for i, case_id in enumerate(case_ids)}
    passes = np.zeros((len(runs), len(case_ids)), dtype=np.int64)
    trials = np.zeros_like(passes)
    for t, run in enumerate(tallies):
        for tally in run:
            passes[t, column[tally.case_id]] = tally.passed
            trials[t, column[tally.case_id]] = tally.scored
    return passes, trials


def check_window(model: str, runs: Runs) -> tuple[Runs, list[str]]:
    """The runs the history test uses and the notes that say so: the window in date order, cut to
    the runs after a change when drift's statistic finds one."""
    if len(runs) < 2:
        return runs, []
    ordered, by_date = dated(runs)
    cut = window_cut(*counts(ordered))
    kept = ordered[cut.first_kept :]
    order = "by run date" if by_date else "in the order given (the runs carry no run date)"
    if cut.cut:
        before, after = ordered[cut.first_kept - 1][0], ordered[cut.first_kept][0]
        used = (
            f"note: {model}: the history holds a change: drift's test (threshold "
            f"{WINDOW.threshold}, split scan {SCAN}) finds its runs worse from {after} on than up "
            f"to {before}; the "
            f"gate uses the {len(kept)} runs from {after} to {kept[-1][0]} ({order}) and leaves "
            f"out the {cut.first_kept} before"
        )
    elif cut.checked:
        used = (
            f"note: {model}: history of {len(kept)} runs, {kept[0][0]} to {kept[-1][0]} ({order}), "
            "checked for a change by drift's test: none found"
        )
    else:
        used = (
            f"note: {model}: history of {len(kept)} runs, {kept[0][0]} to {kept[-1][0]} ({order}); "
            f"too short to check for a change (drift's test needs {WINDOW.baseline_runs + 1})"
        )
    return kept, [used]


def history_notes(models: Sequence[ModelDiff], alpha: float) -> list[str]:
    """Per model gated against a history: what the window check did, the false-alarm rate the
    history test holds and its caveat, and what to do after a change (issue 41)."""
    out: list[str] = []
    for m in models:
        out += m.history_notes
        if m.history_runs <= 1:
            continue
        out.append(
            f"note: {m.model}: false alarms <= {alpha:g} for an unchanged model if its runs are "
            f"independent; a bad day shared by a run's repeats raises it ({ALPHA_NOTE})"
        )
        out.append(
            "next: on a regression, record B again later (a bad day passes, a change stays); "
            "after a change, keep only the runs from the first changed one in --history "
            "(lobstack-eval drift over the runs names it)"
        )
    return out
