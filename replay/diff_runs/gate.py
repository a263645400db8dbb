"""The regression verdict of a run comparison (pure): a list of rules, each saying whether it fired,
why, and the regressions it found. One decision, shown alike by the terminal, JUnit and the
markdown comment.

Rules on scores (``diff runs --fail-on-regression``): B fails when

- ``scoring change``: a case's same model answers got another verdict (a scorer or suite change,
  never noise);
- ``--strict`` (only when given): any paired case whose pass rate fell (one sample per case: any
  flip to failed);
- ``paired test``: the whole-run test finds B worse than A (one-sided exact McNemar with one sample
  a side, one-sided exact sign-flip with repeats; against a history of earlier runs, the history
  test of ``scorer.stats.history_exact``);
- ``--max-drop`` (only when given): Overall fell by more than PCT points;
- ``broken cases``: a case passed less often in B than in A beyond chance (one-sided Fisher exact
  test on its repeats, Holm over the paired cases of its family): a concentrated drop the whole-run
  test can miss. It replaced "consistent failures" (3/3 -> 0/3), which fired on 11 of 15 same-model
  pairs at K = 3.

Alpha is spent per model by default (``--family run``: over every model of the run, Holm over the
models): the per-case rule gets ``alpha / 2`` only when its numbers of repeats let it fire at all,
else the whole-run test gets all of ``alpha`` (``levels``). So a same-model re-run raises a false
alarm with probability at most ``alpha`` per model (docs/decisions/history-gate.md; measured in
tests/test_gate_calibration.py).

Rules on whether B scored at all (``replay.diff_runs.unscored``), which always apply, with or
without repeats or ``--strict``: a case scored in A that errored, went unrecorded or vanished in B
(beyond ``--allow-errored N`` such cases per model); a model of B with no scored case; a model of A
missing from B.

Flips in cases that are flaky on either side are noise: they fail no rule but ``--strict``. More
rules go into ``RULES``; each is a function of the diff and the options that returns None when it
does not apply.
"""

from __future__ import annotations

from replay.diff_runs.alpha import levels, worse_models
from replay.diff_runs.broken import broken_cases
from replay.diff_runs.model import CasePair, Decision, ModelDiff, Regression, RunDiff
from replay.diff_runs.rules import (
    GateOptions,
    Rule,
    RuleResult,
    case_history,
    cases_text,
    ids,
    listing,
)
from replay.diff_runs.unscored import lost_scores, missing_models, no_scores
from replay.diff_runs.window import history_notes

__all__ = ["RULES", "GateOptions", "Rule", "RuleResult", "decide", "decide_with"]


def scoring_change(diff: RunDiff, options: GateOptions) -> RuleResult | None:
    """Same answers, other verdict: the scores of A and B are not comparable. Always fails."""
    found = [(m, m.scoring_changes) for m in diff.models if m.scoring_changes]
    if not found:
        return None
    count = sum(len(cases) for _, cases in found)
    regressions = tuple(
        Regression(
            m.model,
            c.case_id,
            "scoring_change",
            f"scoring change: the same answers got another verdict ({case_history(c)})",
        )
        for m, cases in found
        for c in cases
    )
    return RuleResult(
        "scoring change",
        True,
        f"scoring change: {cases_text(count)} got another verdict on the same model answers "
        f"({listing(found)}); a scorer or suite change, not the model: if intended, make B the new "
        "baseline",
        regressions,
    )


def strict_flips(diff: RunDiff, options: GateOptions) -> RuleResult | None:
    """``--strict``: any paired case whose pass rate fell."""
    if not options.strict:
        return None
    found = [(m, m.with_change("worse")) for m in diff.models if m.with_change("worse")]
    count = sum(len(cases) for _, cases in found)
    single = all(m.single_sample for m in diff.models)
    what = "flipped to failed" if single else "got worse"
    if not count:
        return RuleResult("--strict", False, f"no case {what}")
    regressions = tuple(
        Regression(m.model, c.case_id, "flipped", _flip_message(m, c))
        for m, cases in found
        for c in cases
    )
    return RuleResult(
        "--strict", True, f"{cases_text(count)} {what} ({listing(found)})", regressions
    )


def _flip_message(model: ModelDiff, case: CasePair) -> str:
    reason = case.reason_b or "failed"
    return reason if model.single_sample else f"pass rate fell ({case_history(case)}): {reason}"


def paired_test(diff: RunDiff, options: GateOptions) -> RuleResult | None:
    """The paired test over cases (or, against a history, the history test) finds B worse than A."""
    spent = levels(diff, options)
    found = worse_models(diff, options)  # once: the test over every model is not per model
    worse = [m for m in diff.models if m.model in found]
    alpha = _number(options.alpha)
    if worse:
        shown = "; ".join(
            f"{m.model}: {m.paired_test} one-sided p = {m.worse_p:.4g} < "
            f"{_number(spent[m.model][0])}, {_change(m)}"
            for m in worse[:10]
        )
        regressions = tuple(
            Regression(m.model, None, "paired_test", _paired_message(m, spent[m.model][0]))
            for m in worse
        )
        text = f"paired test: B is worse than A at --alpha {alpha} ({shown})"
        return RuleResult("paired test", True, text, regressions)
    shown = "; ".join(
        f"{m.model}: {m.paired_test + ' ' if m.history_runs > 1 else ''}one-sided p = "
        f"{m.worse_p:.4g}"
        for m in diff.models[:10]
    )
    more = f"; +{len(diff.models) - 10} more" if len(diff.models) > 10 else ""
    return RuleResult(
        "paired test", False, f"paired test: B is not worse at --alpha {alpha} ({shown}{more})"
    )


def _paired_message(m: ModelDiff, level: float) -> str:
    worse = m.with_change("worse")
    return (
        f"paired test: B is worse than A ({m.paired_test} one-sided p = {m.worse_p:.4g} < "
        f"{_number(level)}, {_change(m)}); {cases_text(len(worse))} got worse: {ids(worse)}"
    )


def max_drop(diff: RunDiff, options: GateOptions) -> RuleResult | None:
    """Overall fell by more than ``--max-drop`` points, or B lost the Overall rate A had."""
    if options.max_drop is None:
        return None
    dropped: list[Regression] = []
    for m in diff.models:
        overall = m.metric("overall")
        if overall.a_rate is None:
            continue
        if overall.b_rate is None:
            dropped.append(
                Regression(m.model, None, "dropped", f"{_rate(overall.a_rate)} -> no rate")
            )
        elif overall.a_rate - overall.b_rate > options.max_drop:
            text = f"{_rate(overall.a_rate)} -> {_rate(overall.b_rate)}"
            dropped.append(Regression(m.model, None, "dropped", text))
    limit = f"--max-drop {_number(options.max_drop)}"
    if dropped:
        shown = "; ".join(f"{r.model}: {r.message}" for r in dropped)
        return RuleResult(
            "--max-drop", True, f"Overall dropped more than {limit} ({shown})", tuple(dropped)
        )
    return RuleResult("--max-drop", False, f"Overall within {limit}")


RULES: tuple[Rule, ...] = (
    scoring_change,
    strict_flips,
    paired_test,
    max_drop,
    broken_cases,
    lost_scores,
    no_scores,
    missing_models,
)


def decide(
    diff: RunDiff,
    max_drop: float | None = None,
    allow_errored: int = 0,
    *,
    alpha: float = 0.05,
    strict: bool = False,
    family: str = "model",
) -> Decision:
    """Is B a regression of A? (``decide_with`` the default rules.)"""
    return decide_with(
        diff,
        GateOptions(
            max_drop=max_drop,
            alpha=alpha,
            strict=strict,
            allow_errored=allow_errored,
            family=family,
        ),
    )


def decide_with(diff: RunDiff, options: GateOptions, rules: tuple[Rule, ...] = RULES) -> Decision:
    """Run every rule; B regressed when any fired. The line names the rules that fired, or what
    each checked.

    A case named by several rules is one regression (the first rule's kind, every rule's message),
    so JUnit's failures + errors always equal ``len(regressions)``."""
    results = [result for rule in rules if (result := rule(diff, options)) is not None]
    fired = [r for r in results if r.fired]
    if fired:
        found = _one_per_case([regression for r in fired for regression in r.regressions])
        # Flips that a rule counted are not noise; the other models' flips still get their note.
        counted = {r.model for r in found if r.kind in ("paired_test", "flipped")}
        notes = (*history_notes(diff.models, options.alpha), *_noise_notes(diff, counted))
        line = "regression: " + "; ".join(r.text for r in fired)
        return Decision(True, line, found, tuple(r.rule for r in fired), notes)
    notes = (*history_notes(diff.models, options.alpha), *_noise_notes(diff))
    texts = [r.text for r in results]
    return Decision(
        False, "no regression" + (": " + "; ".join(texts) if texts else ""), (), (), notes
    )


def _one_per_case(found: list[Regression]) -> tuple[Regression, ...]:
    """Merge the regressions that name the same case of the same model (whole-run ones
    stay apart)."""
    merged: dict[tuple[str, str], Regression] = {}
    out: list[Regression | tuple[str, str]] = []
    for regression in found:
        if regression.case_id is None:
            out.append(regression)
            continue
        key = (regression.model, regression.case_id)
        if key in merged:
            first = merged[key]
            merged[key] = Regression(
                first.model,
                first.case_id,
                first.kind,
                f"{first.message}; also {regression.message}",
            )
        else:
            merged[key] = regression
            out.append(key)
    return tuple(item if isinstance(item, Regression) else merged[item] for item in out)


def _noise_notes(diff: RunDiff, counted: set[str] | frozenset[str] = frozenset()) -> list[str]:
    """What the gate let through as noise (in models whose flips no rule ``counted``), and how to
    tell (repeats) when one sample per case cannot."""
    notes = []
    for m in diff.models:
        worse = m.with_change("worse")
        if not worse or m.model in counted:
            continue
        if m.single_sample:
            notes.append(
                f"note: {m.model}: {cases_text(len(worse))} flipped to failed, but with one sample "
                f"per case the paired test cannot tell {'it' if len(worse) == 1 else 'them'} from "
                f"noise (p = {m.paired_p:.4g}); record both runs with --repeats 5 to tell noise "
                "from regression"
            )
        elif noisy := [c for c in worse if c.flaky]:
            notes.append(
                f"note: {m.model}: {cases_text(len(noisy))} got worse in flaky cases: noise "
                f"({ids(noisy)})"
            )
    return notes


def _change(m: ModelDiff) -> str:
    return (
        f"mean change {m.mean_change:+.2f} points"
        if m.mean_change is not None
        else "no paired case"
    )


def _rate(rate: float) -> str:
    return f"{rate:.2f}"


def _number(value: float) -> str:
    return f"{value:g}"
