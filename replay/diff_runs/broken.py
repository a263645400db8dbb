"""The per-case gate rule (pure): a case that passed less often in B than in A beyond chance."""

from __future__ import annotations

from functools import lru_cache

from replay.diff_runs.alpha import families, levels
from replay.diff_runs.model import CasePair, ModelDiff, Regression, RunDiff
from replay.diff_runs.rules import GateOptions, RuleResult, case_history, cases_text, listing
from scorer.stats.case_exact import broke_p
from scorer.stats.paired import holm


def broken_cases(diff: RunDiff, options: GateOptions) -> RuleResult | None:
    """A case that passed less often in B than in A beyond chance: the one-sided Fisher exact test
    on its scored repeats, Holm-adjusted over the paired cases of its family (its model, or every
    model with ``--family run``), below the level ``levels`` gives it: alpha / 2 when the rule
    can fire at these numbers of repeats, else it is not run and the whole-run test has all of
    alpha (METHOD.md#calibrated-gate)."""
    spent = levels(diff, options)
    hits: list[tuple[ModelDiff, CasePair, float]] = []
    tested_count, level = 0, 0.0
    for family in families(diff, options):
        level = spent[family[0].model][1] if family else 0.0
        tested = [
            (m, c, _broke_p(*c.counts("a"), *c.counts("b")))
            for m in family
            for c in m.cases
            if c.paired
        ]
        if not tested or level <= 0:
            continue
        tested_count = max(tested_count, len(tested))
        adjusted = holm([p for _, _, p in tested])
        hits += [(m, c, p) for (m, c, _), p in zip(tested, adjusted, strict=True) if p < level]
    if not hits:
        return None
    found: list[tuple[ModelDiff, tuple[CasePair, ...]]] = []
    for m in diff.models:
        cases = tuple(c for hm, c, _ in hits if hm is m)
        if cases:
            found.append((m, cases))
    scope = "paired cases of each model" if options.family == "model" else "paired cases"
    family_text = f"Holm over {tested_count} {scope}, < alpha/2 = {_number(options.alpha / 2)}"
    text = (
        f"broken cases: {cases_text(len(hits))} passed less often in B than in A beyond chance "
        f"({family_text})"
    )
    regressions = tuple(
        Regression(
            m.model,
            c.case_id,
            "broke",
            f"broke ({case_history(c)}; Fisher exact, Holm-adjusted p = "
            f"{p:.3g}): {c.reason_b or ''}",
        )
        for m, c, p in hits
    )
    return RuleResult("broken cases", True, f"{text} ({listing(found)})", regressions)


# broke_p is pure and a family asks it once a case, of few distinct counts (K + 1 squared at most
# for K repeats a side): each count once.
_broke_p = lru_cache(maxsize=4096)(broke_p)


def _number(value: float) -> str:
    return f"{value:g}"
