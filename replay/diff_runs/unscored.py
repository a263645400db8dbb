"""The gate's rules on whether B scored at all (pure); they apply whatever else was asked (repeats,
``--strict``, ``--max-drop``), because a gate must never pass a broken run.

- ``errored or vanished``: a case scored in A (with repeats: some repeat scored) that did not score
  in B (no repeat scored: errored, unrecorded or absent) is a regression, beyond
  ``--allow-errored N`` such cases per model;
- ``no scores``: a model of B with no scored case is always one, whatever the allowance;
- ``missing model``: a model of A missing from B is one.
"""

from __future__ import annotations

from replay.diff_runs.model import CasePair, Regression, RunDiff
from replay.diff_runs.rules import GateOptions, RuleResult, case_history, cases_text, ids
from scorer.status import is_scored


def lost_scores(diff: RunDiff, options: GateOptions) -> RuleResult | None:
    """Cases scored in A that did not score in B, beyond ``--allow-errored`` per model; when every
    lost case is within the allowance, a result that did not fire but says so."""
    allow = options.allow_errored
    over = [m for m in diff.models if len(m.lost) > allow]
    if over:
        count = sum(len(m.lost) for m in over)
        shown = "; ".join(f"{m.model}: {ids(m.lost)}" for m in over)
        allowance = f", more than --allow-errored {allow}" if allow else ""
        regressions = tuple(
            Regression(m.model, c.case_id, "lost", _lost_text(c)) for m in over for c in m.lost
        )
        text = f"{cases_text(count)} scored in A errored or vanished in B ({shown}{allowance})"
        return RuleResult("errored or vanished", True, text, regressions)
    lost = sum(len(m.lost) for m in diff.models)
    if not lost:
        return None
    return RuleResult(
        "errored or vanished",
        False,
        f"{cases_text(lost)} errored or vanished in B, within --allow-errored {allow}",
    )


def no_scores(diff: RunDiff, options: GateOptions) -> RuleResult | None:
    """A model of B with no scored case: nothing to judge it by, so never green (no allowance
    covers it)."""
    blank = [m for m in diff.models if not any(is_scored(c.status_b) for c in m.cases)]
    if not blank:
        return None
    message = "B has no scored case (every case errored or is missing)"
    regressions = tuple(Regression(m.model, None, "no_scores", message) for m in blank)
    return RuleResult(
        "no scores", True, f"no scored case in B ({', '.join(m.model for m in blank)})", regressions
    )


def missing_models(diff: RunDiff, options: GateOptions) -> RuleResult | None:
    """A model of A that B does not have."""
    if not diff.only_a:
        return None
    regressions = tuple(
        Regression(model, None, "vanished", "in A, not in B") for model in diff.only_a
    )
    return RuleResult(
        "missing model", True, f"models in A missing from B ({', '.join(diff.only_a)})", regressions
    )


def _lost_text(case: CasePair) -> str:
    where = "absent from B" if case.status_b is None else f"{case.status_b} in B"
    history = f"{case.status_a} in A, {where}"
    if len(case.samples("a")) > 1 or len(case.samples("b")) > 1:
        history = case_history(case)
    return history + (f": {case.reason_b}" if case.reason_b else "")
