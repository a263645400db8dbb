"""The one regression verdict, case by case (pure): what the gate's Decision means for each case of
each model.

Every view renders this and nothing else: the terminal report, the pull-request comment
(``--markdown`` and ``$GITHUB_STEP_SUMMARY``), JUnit (``outcome`` is the testcase's element), the
HTML diff and the pytest plugin's baseline mode (``failure`` fails the test, ``error`` errors it,
``skipped`` is an expected failure with the message, ``passed`` passes). So a case is a regression
in one view exactly when it is in all of them.

Kinds: ``regression`` (a rule counted the case: scoring change, ``--strict`` flip, broken case),
``lost`` (scored in A, not in B, beyond ``--allow-errored``), ``counted`` (got worse, and the paired
test counted it in the model's whole-run failure; against a history, only a case that never flipped
there), ``noise`` (got worse, and no rule can tell it from chance), ``fix`` (got better),
``known_failure`` (failed in A and in B), ``allowed_loss`` (lost, within ``--allow-errored``),
``not_scored`` (not scored in A: nothing to regress from) and ``unchanged``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from replay.diff_runs.model import CasePair, Decision, ModelDiff, Regression, RunDiff
from replay.diff_runs.rules import case_history
from scorer.status import is_scored

WHOLE_RUN = "(whole run)"  # the name of a regression about a model's run rather than one case
OUTCOMES = {
    "regression": "failure",
    "lost": "error",
    "counted": "skipped",
    "noise": "skipped",
    "known_failure": "skipped",
    "allowed_loss": "skipped",
    "not_scored": "skipped",
    "fix": "passed",
    "unchanged": "passed",
}


@dataclass(frozen=True)
class CaseVerdict:
    """One case's verdict: its ``kind``, the ``outcome`` every view shows (``failure``, ``error``,
    ``skipped``, ``passed``), why (``message``; empty for an unchanged case) and what it did
    (``history``, e.g. ``3 of 3 scored repeats passed in A, 0 of 3 scored repeats passed in B``)."""

    model: str
    case_id: str
    kind: str
    outcome: str
    message: str
    history: str
    case: CasePair
    regression: Regression | None = None


@dataclass(frozen=True)
class ModelVerdict:
    """One model's case verdicts (its cases in the diff's order) and the regressions about its
    whole run."""

    model: str
    cases: tuple[CaseVerdict, ...]
    whole_run: tuple[Regression, ...]

    @property
    def failed(self) -> bool:
        """The model regressed: a case's failure or error, or a whole-run regression."""
        return bool(self.whole_run) or any(c.outcome in ("failure", "error") for c in self.cases)

    def count(self, kind: str) -> int:
        """How many cases have verdict ``kind``."""
        return sum(1 for c in self.cases if c.kind == kind)

    def case(self, case_id: str) -> CaseVerdict | None:
        """The verdict of ``case_id``, or None when neither run has it."""
        return next((c for c in self.cases if c.case_id == case_id), None)


def verdicts(
    diff: RunDiff, decision: Decision, strict_option: str = "--strict"
) -> tuple[ModelVerdict, ...]:
    """Each compared model's verdict (diff order), then one per model of A missing from B (whole run
    only). ``strict_option`` is how the caller spells the strict choice (the pytest plugin:
    ``--lobstack-strict``)."""
    by_model: dict[str, list[Regression]] = {}
    for regression in decision.regressions:
        by_model.setdefault(regression.model, []).append(regression)
    out = [
        model_verdict(m, by_model.get(m.model, []), decision, strict_option) for m in diff.models
    ]
    out += [ModelVerdict(model, (), tuple(by_model.get(model, []))) for model in diff.only_a]
    return tuple(out)


def model_verdict(
    model: ModelDiff,
    regressions: Sequence[Regression],
    decision: Decision,
    strict_option: str = "--strict",
) -> ModelVerdict:
    """One model's verdict from the gate's regressions of that model."""
    per_case = {r.case_id: r for r in regressions if r.case_id is not None}
    whole = tuple(r for r in regressions if r.case_id is None)
    paired = any(r.kind == "paired_test" for r in whole)
    cases = tuple(
        _case(model, c, per_case.get(c.case_id), paired, decision, strict_option)
        for c in model.cases
    )
    return ModelVerdict(model.model, cases, whole)


def _case(
    model: ModelDiff,
    case: CasePair,
    regression: Regression | None,
    paired: bool,
    decision: Decision,
    strict_option: str,
) -> CaseVerdict:
    history = case_history(case)

    def verdict(kind: str, message: str) -> CaseVerdict:
        return CaseVerdict(
            model.model, case.case_id, kind, OUTCOMES[kind], message, history, case, regression
        )

    if regression is not None:
        return verdict("lost" if regression.is_error else "regression", regression.message)
    if case.change == "worse":
        return verdict(*_worse(model, case, paired, decision, strict_option))
    if case.change == "better":
        # against a history, a case that already flipped there is noise either way: a pass in B is
        # no more a fix than a failure is a regression (issue 41, the labels symmetric)
        noise = model.history_runs > 1 and case.flaky
        return CaseVerdict(
            model.model,
            case.case_id,
            "noise" if noise else "fix",
            "passed" if case.status_b == "passed" else "skipped",
            f"noise: flaky in the history ({history}){_reason(case)}"
            if noise
            else f"fixed ({history})"
            if case.status_b == "passed"
            else f"better ({history}){_reason(case)}",
            history,
            case,
        )
    if case.status_b == "passed":
        return verdict("unchanged", "")
    return verdict(*_not_counted(case))


def _reason(case: CasePair) -> str:
    return f": {case.reason_b}" if case.reason_b else ""


def _worse(
    model: ModelDiff, case: CasePair, paired: bool, decision: Decision, strict_option: str
) -> tuple[str, str]:
    """Why a case whose pass rate fell is not a regression by itself."""
    history, reason = case_history(case), _reason(case)
    if paired and not (model.history_runs > 1 and case.flaky):
        return "counted", f"counted in the paired test ({WHOLE_RUN} failure): {history}{reason}"
    if (
        paired
    ):  # against a history, a case that already flipped there is noise even when the run failed
        return "noise", f"noise: flaky in the history ({history}){reason}"
    if case.flaky and not model.single_sample:
        return "noise", f"noise: flaky case ({history}){reason}"
    if (
        decision.regression
    ):  # the gate failed on other rules; this model's flips were not among them
        return (
            "noise",
            f"{history}; not a regression by itself (paired test p = {model.paired_p:.4g}){reason}",
        )
    return "noise", (
        f"{history}; not a regression by itself: the paired test cannot tell it from noise "
        f"(p = {model.paired_p:.4g}); {strict_option} counts every flip{reason}"
    )


def _not_counted(case: CasePair) -> tuple[str, str]:
    """Why a case that did not pass in B is not a regression of this change."""
    a, b = case.status_a, case.status_b
    reason = _reason(case)
    if a == b == "failed":
        single = len(case.samples("a")) <= 1 and len(case.samples("b")) <= 1
        what = "failed in A and in B" if single else case_history(case)
        return "known_failure", f"known failure ({what}){reason}"
    if is_scored(a):
        return "allowed_loss", f"{b or 'absent'} in B, within --allow-errored{reason}"
    if b == "failed":
        return "not_scored", f"failed in B, not scored in A (nothing to regress from){reason}"
    if b is None:
        return "not_scored", f"absent from B, not scored in A either ({a})"
    return "not_scored", f"{b} in B, not scored in A either ({a or 'absent'}){reason}"
