"""The regression verdict of a run comparison (pure): a list of rules, each saying whether it fired and why.

Default rules (``diff runs --fail-on-regression``): B fails when

- ``scoring change``: a case's same model answers got another verdict (a scorer or suite change, never noise);
- ``paired test``: the paired test over cases finds B worse than A (two-sided p < ``--alpha``, mean change < 0);
- ``--max-drop``: Overall fell by more than PCT points (only when given);
- ``consistent failures``: a case passed every repeat in A and failed every repeat in B, with at least 3 repeats
  on each side.

``--strict`` adds the old rule: any paired case whose pass rate fell (with one sample per case: any case flipped
to failed). Flips in cases that are flaky on either side are noise: they fail no rule but ``--strict``. More
rules go into ``RULES``; each is a function of the diff and the options that returns None when it does not
apply.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from replay.diff_runs.model import CaseOutcome, Decision, ModelDiff, RunDiff


@dataclass(frozen=True)
class GateOptions:
    """What the gate was asked for on the command line."""

    max_drop: float | None = None
    alpha: float = 0.05
    strict: bool = False


@dataclass(frozen=True)
class RuleResult:
    """One rule's finding: ``rule`` names it, ``text`` says what it saw (shown whether it fired or not)."""

    rule: str
    fired: bool
    text: str


Rule = Callable[[RunDiff, GateOptions], RuleResult | None]


def scoring_change(diff: RunDiff, options: GateOptions) -> RuleResult | None:
    """Same answers, other verdict: the scores of A and B are not comparable. Always fails."""
    found = [(m, m.scoring_changes) for m in diff.models if m.scoring_changes]
    if not found:
        return None
    count = sum(len(cases) for _, cases in found)
    return RuleResult(
        "scoring change",
        True,
        f"scoring change: {_cases(count)} got another verdict on the same model answers ({_listing(found)}); "
        "a scorer or suite change, not the model: if intended, make B the new baseline",
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
    return RuleResult("--strict", True, f"{_cases(count)} {what} ({_listing(found)})")


def paired_test(diff: RunDiff, options: GateOptions) -> RuleResult | None:
    """The paired test over cases finds B worse than A at ``alpha``."""
    worse = [m for m in diff.models if m.paired_p < options.alpha and (m.mean_change or 0.0) < 0]
    alpha = _number(options.alpha)
    if worse:
        shown = "; ".join(f"{m.model}: {m.paired_test} p = {m.paired_p:.4g}, {_change(m)}" for m in worse[:10])
        return RuleResult("paired test", True, f"paired test: B is worse than A at --alpha {alpha} ({shown})")
    shown = "; ".join(f"{m.model}: p = {m.paired_p:.4g}" for m in diff.models[:10])
    more = f"; +{len(diff.models) - 10} more" if len(diff.models) > 10 else ""
    return RuleResult("paired test", False, f"paired test: B is not worse at --alpha {alpha} ({shown}{more})")


def max_drop(diff: RunDiff, options: GateOptions) -> RuleResult | None:
    """Overall fell by more than ``--max-drop`` points, or B lost the Overall rate A had."""
    if options.max_drop is None:
        return None
    dropped: list[str] = []
    for m in diff.models:
        overall = m.metric("overall")
        if overall.a_rate is None:
            continue
        if overall.b_rate is None:
            dropped.append(f"{m.model}: {_rate(overall.a_rate)} -> no rate")
        elif overall.a_rate - overall.b_rate > options.max_drop:
            dropped.append(f"{m.model}: {_rate(overall.a_rate)} -> {_rate(overall.b_rate)}")
    limit = f"--max-drop {_number(options.max_drop)}"
    if dropped:
        return RuleResult("--max-drop", True, f"Overall dropped more than {limit} ({'; '.join(dropped)})")
    return RuleResult("--max-drop", False, f"Overall within {limit}")


def consistent_failures(diff: RunDiff, options: GateOptions) -> RuleResult | None:
    """A case passed every repeat in A and failed every repeat in B (at least 3 each side)."""
    found = [(m, cases) for m in diff.models if (cases := tuple(c for c in m.cases if c.consistent_failure))]
    if not found:
        return None
    count = sum(len(cases) for _, cases in found)
    text = f"consistent failures: {_cases(count)} passed every repeat in A and failed every repeat in B"
    return RuleResult("consistent failures", True, f"{text} ({_listing(found)})")


RULES: tuple[Rule, ...] = (scoring_change, strict_flips, paired_test, max_drop, consistent_failures)


def decide(diff: RunDiff, max_drop: float | None = None, *, alpha: float = 0.05, strict: bool = False) -> Decision:
    """Is B a regression of A? (``decide_with`` the default rules.)"""
    return decide_with(diff, GateOptions(max_drop=max_drop, alpha=alpha, strict=strict))


def decide_with(diff: RunDiff, options: GateOptions, rules: tuple[Rule, ...] = RULES) -> Decision:
    """Run every rule; B regressed when any fired. The line names the rules that fired, or what each checked."""
    results = [result for rule in rules if (result := rule(diff, options)) is not None]
    fired = [r for r in results if r.fired]
    notes = () if fired else tuple(_noise_notes(diff))
    if fired:
        return Decision(True, "regression: " + "; ".join(r.text for r in fired), tuple(r.rule for r in fired), notes)
    return Decision(False, "no regression: " + "; ".join(r.text for r in results), (), notes)


def _noise_notes(diff: RunDiff) -> list[str]:
    """What a passing gate let through as noise, and how to tell (repeats) when one sample per case cannot."""
    notes = []
    for m in diff.models:
        worse = m.with_change("worse")
        if not worse:
            continue
        if m.single_sample:
            notes.append(
                f"note: {m.model}: {_cases(len(worse))} flipped to failed, but with one sample per case the paired "
                f"test cannot tell {'it' if len(worse) == 1 else 'them'} from noise (p = {m.paired_p:.4g}); "
                "record both runs with --repeats 5 to tell noise from regression"
            )
        elif noisy := [c for c in worse if c.flaky]:
            notes.append(f"note: {m.model}: {_cases(len(noisy))} got worse in flaky cases: noise ({_ids(noisy)})")
    return notes


def _cases(count: int) -> str:
    return f"{count} {'case' if count == 1 else 'cases'}"


def _listing(found: list[tuple[ModelDiff, tuple[CaseOutcome, ...]]]) -> str:
    return "; ".join(f"{m.model}: {_ids(cases)}" for m, cases in found)


def _ids(cases: tuple[CaseOutcome, ...] | list[CaseOutcome], limit: int = 10) -> str:
    # The full list is printed above the verdict; the verdict line stays readable in a CI log.
    shown = ", ".join(c.case_id for c in cases[:limit])
    return shown + (f", +{len(cases) - limit} more" if len(cases) > limit else "")


def _change(m: ModelDiff) -> str:
    return f"mean change {m.mean_change:+.2f} points" if m.mean_change is not None else "no paired case"


def _rate(rate: float) -> str:
    return f"{rate:.2f}"


def _number(value: float) -> str:
    return f"{value:g}"
