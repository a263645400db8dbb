"""How the gate spends ``--alpha`` (pure): the families, each test's level, and the whole-run
test's verdict.

Per model by default (``--family model``: each model holds alpha on its own), or over every model of
the run (``--family run``: Holm over the models' whole-run p-values, one family of cases). Why:
docs/decisions/history-gate.md.
"""

from __future__ import annotations

from replay.diff_runs.model import ModelDiff, RunDiff
from replay.diff_runs.rules import GateOptions
from scorer.stats.case_exact import smallest_broke_p
from scorer.stats.paired import holm


def families(diff: RunDiff, options: GateOptions) -> list[list[ModelDiff]]:
    """The families alpha is spent over: one per model, or one of every model with
    ``--family run``."""
    return [[m] for m in diff.models] if options.family == "model" else [list(diff.models)]


def levels(diff: RunDiff, options: GateOptions) -> dict[str, tuple[float, float]]:
    """How ``alpha`` is spent, model -> (the whole-run test's level, the per-case rule's level).

    A family is one model (``--family model``, the default) or every model of the run
    (``--family run``). The per-case rule gets half of alpha only when it can fire in its family:
    Holm's first step needs some case's smallest possible p (1 / C(n_A + n_B, n_B), all passed in
    A and all failed in B) below alpha / 2 over the family's size, which the numbers of scored
    samples decide before any outcome is seen; otherwise the whole alpha goes to the whole-run
    test (docs/decisions/history-gate.md)."""
    spent: dict[str, tuple[float, float]] = {}
    for family in families(diff, options):
        sizes = [(c.counts("a")[1], c.counts("b")[1]) for m in family for c in m.cases if c.paired]
        reach = min((smallest_broke_p(a, b) for a, b in sizes), default=1.0) * len(sizes)
        half = options.alpha / 2
        for m in family:
            spent[m.model] = (half, half) if reach < half else (options.alpha, 0.0)
    return spent


def worse_models(diff: RunDiff, options: GateOptions) -> frozenset[str]:
    """The models the whole-run test finds worse in B: one-sided p (Holm-adjusted over the models
    with ``--family run``) below the level ``levels`` gives it. Against a plain run the mean
    change must be negative too (the one-sided paired test already says so); against a history
    the weighted test decides."""
    spent = levels(diff, options)
    ps = [m.worse_p for m in diff.models]
    adjusted = holm(ps) if options.family == "run" else ps
    return frozenset(
        m.model
        for m, p in zip(diff.models, adjusted, strict=True)
        if p < spent[m.model][0] and (m.history_runs > 1 or (m.mean_change or 0.0) < 0)
    )
