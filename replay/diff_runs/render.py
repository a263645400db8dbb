"""The terminal report of a run comparison (rendering only): the verdict first, then a short
summary, then each model's cases, each case once with its verdict (``replay.diff_runs.verdict``).

``detail`` is ``quiet`` (the verdict, its notes, the summary and one line per model), ``normal``
(also every case whose verdict is not ``unchanged`` or ``known_failure``) or ``verbose`` (every
case, the metric table and the power line).
"""

from __future__ import annotations

from collections.abc import Sequence

from replay.diff_runs.model import Decision, ModelDiff, RunDiff
from replay.diff_runs.verdict import CaseVerdict, ModelVerdict, verdicts
from scorer.stats.case_exact import PairedDifference
from scorer.stats.power import Power

# The order cases are listed in, most urgent first, with the word the summary counts them by.
KINDS = (
    ("regression", "regression", "regressions"),
    ("lost", "lost", "lost"),
    ("counted", "counted in the paired test", "counted in the paired test"),
    ("noise", "noise", "noise"),
    ("fix", "fix", "fixes"),
    ("allowed_loss", "lost within --allow-errored", "lost within --allow-errored"),
    ("not_scored", "not scored in A", "not scored in A"),
    ("known_failure", "known failure", "known failures"),
    ("unchanged", "unchanged", "unchanged"),
)
LABELS = {kind: label for kind, label, _ in KINDS}
HIDDEN = frozenset(
    {"known_failure", "unchanged"}
)  # listed with --verbose only (counted in the summary)


def format_text(
    diff: RunDiff,
    decision: Decision,
    judged: Sequence[ModelVerdict] | None = None,
    detail: str = "normal",
) -> str:
    """The terminal report: the verdict line and its notes, the summary, then one block
    per model."""
    judged = tuple(judged) if judged is not None else verdicts(diff, decision)
    lines = [decision.line, *decision.notes, summary_line(diff, judged)]
    for m, v in zip(diff.models, judged, strict=False):
        lines.extend(_model_block(m, v, detail))
    if diff.only_a:
        lines.append(f"models only in A: {', '.join(diff.only_a)}")
    if diff.only_b:
        lines.append(f"models only in B: {', '.join(diff.only_b)}")
    return "\n".join(lines) + "\n"


def summary_line(diff: RunDiff, judged: Sequence[ModelVerdict]) -> str:
    """``summary: 1 model, 80 cases: 0 regressions, 3 noise, ...`` (zero counts left out but
    regressions)."""
    cases = sum(len(v.cases) for v in judged)
    whole = sum(len(v.whole_run) for v in judged)
    models = f"{len(diff.models)} model{'' if len(diff.models) == 1 else 's'}"
    shown = []
    for kind, one, many in KINDS:
        count = sum(v.count(kind) for v in judged)
        if count or kind == "regression":
            shown.append(f"{count} {one if count == 1 else many}")
    if whole:
        shown.insert(1, f"{whole} whole-run regression{'' if whole == 1 else 's'}")
    return f"summary: {models}, {cases} cases: {', '.join(shown)}"


def _model_block(m: ModelDiff, v: ModelVerdict, detail: str) -> list[str]:
    lines = [_model_line(m)]
    if m.suite_mismatch:
        lines.append("  warning: different suite versions; scores are not comparable")
    if m.sha_mismatch:
        lines.append("  warning: same suite version but different suite sha256")
    if m.wire_mismatch:
        lines.append(f"  settings differ: A {m.wire_a}, B {m.wire_b} (dialect, streaming, --param)")
    lines += [f"  (whole run) [regression]: {r.message}" for r in v.whole_run]
    if detail == "quiet":
        return lines
    order = {kind: i for i, (kind, _, _) in enumerate(KINDS)}
    listed = sorted(
        (c for c in v.cases if detail == "verbose" or c.kind not in HIDDEN),
        key=lambda c: order[c.kind],
    )  # sorted() is stable: within a kind, the diff's case order
    lines += [f"  {c.case_id} [{LABELS[c.kind]}]: {_case_text(c)}" for c in listed]
    hidden = [c for c in v.cases if c.kind in HIDDEN and detail != "verbose"]
    if any(c.kind == "known_failure" for c in hidden):
        count = sum(1 for c in hidden if c.kind == "known_failure")
        lines.append(
            f"  ({count} known failure{'' if count == 1 else 's'} not listed; --verbose lists "
            "every case)"
        )
    if detail == "verbose":
        lines.append("  metric            A                        B                        B - A")
        for d in m.metrics:
            a_text, b_text = rate_ci(d.a_rate, d.a_ci), rate_ci(d.b_rate, d.b_ci)
            lines.append(f"  {d.name:<17} {a_text:<24} {b_text:<24} {delta_text(d.delta)}")
        if m.power is not None:
            lines.append(power_line(m.power))
    return lines


def _case_text(c: CaseVerdict) -> str:
    """What the case did and B's reason; a rule's or a lost case's own message says more, so it
    is shown whole."""
    if c.kind in ("counted", "noise", "fix", "known_failure", "unchanged"):
        reason = c.case.reason_b if c.case.status_b == "failed" else None
        return c.history + (f": {reason}" if reason else "")
    return c.message


def _model_line(m: ModelDiff) -> str:
    a, b = m.suite_a, m.suite_b
    suites = f"{a.name} {a.version}" + (f" -> {b.name} {b.version}" if m.suite_mismatch else "")
    overall = m.metric("overall")
    repeats = "" if m.single_sample else f", repeats A {m.repeats_a}, B {m.repeats_b}"
    return (
        f"model {m.model} (suite {suites}{repeats}): Overall {rate_ci(overall.a_rate, None)} -> "
        f"{rate_ci(overall.b_rate, None)}; {difference_text(m.difference)}; {m.paired_test} p = "
        f"{m.paired_p:.4g}"
    )


def difference_text(difference: PairedDifference | None) -> str:
    """``paired difference B - A -2.50 points [-7.10, +2.10] (95%, 80 cases)``, as the terminal and
    the pull-request comment print it."""
    if difference is None:
        return "paired difference: no paired case"
    interval = (
        f" [{difference.low:+.2f}, {difference.high:+.2f}]"
        if difference.low is not None and difference.high is not None
        else ""
    )
    cases = f"{difference.cases} paired case{'' if difference.cases == 1 else 's'}"
    return f"paired difference B - A {difference.mean:+.2f} points{interval} (95%, {cases})"


def power_line(power: Power) -> str:
    """What the comparison can see: the smallest Overall drop (80% power, alpha 0.05) and the
    repeats it takes to see ``--detect`` points."""
    text = f"  power: detects an Overall drop of {power.detectable:.1f} points or more"
    text += f" (80% power, alpha 0.05, {power.cases} paired cases); "
    target = f"{power.target:g} points"
    if power.repeats_needed is None:
        return text + f"no number of repeats detects {target} with these cases: it needs more cases"
    bound = {"exact": "", "at least": "at least ", "at most": "at most "}[power.bound]
    return text + f"{target} needs {bound}{power.repeats_needed} repeat(s) per side"


def rate_ci(rate: float | None, ci: tuple[float, float] | None) -> str:
    """A rate with its interval, as both the terminal report and the pull-request comment
    print it."""
    if rate is None:
        return "-"
    return f"{rate:.2f} [{ci[0]:.2f}, {ci[1]:.2f}]" if ci else f"{rate:.2f}"


def delta_text(delta: float | None) -> str:
    """A change in percentage points, signed; a dash when either side has no rate."""
    return "-" if delta is None else f"{delta:+.2f}"
