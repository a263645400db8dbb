"""The pull-request comment of a run comparison (rendering only): GitHub-flavoured markdown, never
over 65,000 characters whatever the input (GitHub refuses comments over 65,536).

The verdict is the Decision's own line (and its notes), so the comment says exactly what the gate
decided. Per model: the paired difference of Overall with its 95% interval, the metric deltas with
their intervals, the paired counts and McNemar's p (with repeats, the cases better and worse by pass
rate and the sign-flip test's p), then each case once under its verdict
(``replay.diff_runs.verdict``): regressions, cases that got worse without being one (noise, or
counted in the paired test), fixes, other unpaired cases; known failures are counted, not listed.
Each list is capped with a count of the rest. When the whole does not fit, fewer cases are listed,
then fewer models, and the comment says what it left out.
"""

from __future__ import annotations

from collections.abc import Sequence

from replay.diff_runs.model import Decision, ModelDiff, NotCompared, RunDiff
from replay.diff_runs.render import delta_text, difference_text, rate_ci
from replay.diff_runs.verdict import CaseVerdict, ModelVerdict, verdicts
from replay.leaderboard.tables import TITLES
from scorer.safe_text import markdown_text

MAX_CHARS = 65_000
CAPS = (25, 5, 0)  # cases listed per model and direction, tried in turn until the comment fits
REASON_CHARS = 240
NAME_CHARS = 160
VERDICT_CHARS = 4_000


def to_markdown(
    diff: RunDiff,
    decision: Decision,
    a: str,
    b: str,
    limit: int = MAX_CHARS,
    judged: Sequence[ModelVerdict] | None = None,
) -> str:
    """The comment for comparing run ``a`` with run ``b`` (their labels, e.g. the paths given).
    ``judged``: ``verdicts(diff, decision)`` when the caller has it already."""
    head = _head(decision, a, b)
    foot = _foot(diff)
    given = verdicts(diff, decision) if judged is None else judged
    by_model = dict(zip((m.model for m in diff.models), given, strict=False))
    for cap in CAPS:
        text = _join([head, *(_model_block(m, by_model[m.model], cap) for m in diff.models), foot])
        if len(text) <= limit:
            return text
    # Even with no case listed it is too long: as many models as fit, then how many were left out.
    blocks = [head]
    for shown, model in enumerate(diff.models):
        block = _model_block(model, by_model[model.model], 0)
        note = _omitted(len(diff.models) - shown)
        if len(_join([*blocks, block, note, foot])) > limit:
            return _cut(_join([*blocks, note, foot]), limit)
        blocks.append(block)
    return _cut(_join([*blocks, foot]), limit)


# error lines listed in a comment on runs that could not be compared; the rest are in the job log
LISTED = 50
ERROR_CHARS = 1_000


def not_compared_markdown(
    problems: Sequence[NotCompared], a: str, b: str, limit: int = MAX_CHARS
) -> str:
    """The comment when runs ``a`` and ``b`` could not be compared (METHOD decision 111): it says
    so, that this is no verdict on the change, and lists the error lines (the first 50; each at
    most 1,000 characters)."""
    count = f"{len(problems)} error{'' if len(problems) == 1 else 's'}"
    lines = [
        "### lobstack-eval: runs not compared",
        "",
        f"A (baseline): {_text(a, NAME_CHARS)} · B (candidate): {_text(b, NAME_CHARS)}",
        "",
        f"**Verdict:** the runs could not be compared ({count}); nothing was compared, so this "
        "says nothing about the change. Fix what is listed and run again.",
        "",
        *(f"- {_text(p.message, ERROR_CHARS)}" for p in problems[:LISTED]),
    ]
    if len(problems) > LISTED:
        lines.append(f"- … and {len(problems) - LISTED} more (see the job log)")
    return _cut("\n".join(lines) + "\n", limit)


def _head(decision: Decision, a: str, b: str) -> str:
    mark = "Regression" if decision.regression else "No regression"
    return (
        f"### lobstack-eval: {mark.lower()}\n\n"
        f"A (baseline): {_text(a, NAME_CHARS)} · B (candidate): {_text(b, NAME_CHARS)}\n\n"
        f"**Verdict:** {_text(decision.line, VERDICT_CHARS)}"
        + (
            f"\n\n**Decided by:** {_text('; '.join(decision.rules), NAME_CHARS)}"
            if decision.rules
            else ""
        )
        + "".join(f"\n\n> {_text(note, VERDICT_CHARS)}" for note in decision.notes[:10])
    )


def _model_block(m: ModelDiff, verdict: ModelVerdict, cap: int) -> str:
    a, b = m.suite_a, m.suite_b
    suites = f"{a.name} {a.version}" + (f" → {b.name} {b.version}" if m.suite_mismatch else "")
    lines = [f"#### {_text(m.model, NAME_CHARS)}", ""]
    if m.suite_mismatch:
        lines += ["> Warning: different suite versions; the scores are not comparable.", ""]
    if m.sha_mismatch:
        lines += ["> Warning: same suite version but a different suite file (sha256).", ""]
    if m.wire_mismatch:
        wires = f"A `{_text(m.wire_a, NAME_CHARS)}`, B `{_text(m.wire_b, NAME_CHARS)}`"
        lines += [f"> Settings differ: {wires} (dialect, streaming, --param).", ""]
    discordant = len(m.to_failed) + len(m.to_passed)
    paired = (
        f"{m.pairs} paired cases: {m.both_passed} passed in both, {m.both_failed} failed in both, "
        f"{len(m.to_failed)} passed → failed, {len(m.to_passed)} failed → passed (McNemar exact p "
        f"= {m.mcnemar_p:.4g} on {discordant} discordant pairs)."
    )
    if not m.single_sample:  # repeats: cases compared by pass rate, with the sign-flip test
        worse, better = len(m.with_change("worse")), len(m.with_change("better"))
        paired = (
            f"Repeats: A {m.repeats_a}, B {m.repeats_b}. {m.pairs} paired cases by pass rate: "
            f"{worse} worse, {better} better (sign-flip exact p = {m.paired_p:.4g})."
        )
    if m.history_runs > 1:  # a history: its runs' repeats together, and the history test
        paired = paired.replace(
            f"Repeats: A {m.repeats_a},", f"History: {m.history_runs} runs ({m.repeats_a} repeats),"
        ).replace("sign-flip exact p =", f"{m.paired_test} one-sided p =")
    lines += [
        f"Suite {_text(suites, NAME_CHARS)}. {paired}",
        "",
        f"Overall: {_text(difference_text(m.difference), NAME_CHARS)}.",
        "",
        "| Metric | A | B | B − A |",
        "|---|---:|---:|---:|",
    ]
    for d in m.metrics:
        title = TITLES.get(d.name, d.name)
        lines.append(
            f"| {title} | {rate_ci(d.a_rate, d.a_ci)} | {rate_ci(d.b_rate, d.b_ci)} | "
            f"{delta_text(d.delta)} |"
        )
    for regression in verdict.whole_run:
        lines += ["", f"**Whole run:** {_text(regression.message, VERDICT_CHARS)}"]
    for title, kinds, folded in SECTIONS:
        cases = [c for c in verdict.cases if c.kind in kinds]
        if not cases:
            continue
        table = _case_table(cases, cap)
        if folded:
            lines += [
                "",
                f"<details><summary>{title} ({len(cases)})</summary>",
                "",
                *table,
                "",
                "</details>",
            ]
        else:
            lines += ["", f"**{title} ({len(cases)})**", "", *table]
    known = verdict.count("known_failure")
    if known:
        lines += [
            "",
            f"{known} known failure{'' if known == 1 else 's'} (failed in A and in B), not listed.",
        ]
    return "\n".join(lines)


# Each case once, under its verdict: (title, verdict kinds, folded into <details>).
SECTIONS = (
    ("Regressions", ("regression", "lost"), False),
    ("Worse, not a regression on its own", ("counted", "noise"), True),
    ("Fixed or better", ("fix",), True),
    ("Not paired", ("allowed_loss", "not_scored"), True),
)


def _case_table(cases: Sequence[CaseVerdict], cap: int) -> list[str]:
    if cap == 0:
        return [f"{len(cases)} case(s); the list is in the job log."]
    lines = ["| Case | Verdict |", "|---|---|"]
    lines += [
        f"| {_text(c.case_id, NAME_CHARS)} | {_text(_why(c), REASON_CHARS)} |" for c in cases[:cap]
    ]
    if len(cases) > cap:
        lines.append(f"| … | and {len(cases) - cap} more (see the job log) |")
    return lines


def _why(c: CaseVerdict) -> str:
    """The verdict's message; for a case that got worse or better, what it did and B's reason (the
    model's paired test is said once, above)."""
    if c.kind in ("counted", "noise", "fix"):
        label = {"counted": "counted in the paired test", "noise": "noise", "fix": "better"}[c.kind]
        reason = c.case.reason_b if c.case.status_b == "failed" else None
        return f"{label}: {c.history}" + (f": {reason}" if reason else "")
    return c.message


def _foot(diff: RunDiff) -> str:
    lines = []
    if diff.only_a:
        lines.append(f"Models only in A: {_text(', '.join(diff.only_a), VERDICT_CHARS)}.")
    if diff.only_b:
        lines.append(f"Models only in B: {_text(', '.join(diff.only_b), VERDICT_CHARS)}.")
    return "\n\n".join(lines)


def _omitted(count: int) -> str:
    return (
        f"… and {count} more model(s), left out to stay under GitHub's comment size (see the "
        "job log)."
    )


def _join(parts: Sequence[str]) -> str:
    return "\n\n".join(p for p in parts if p) + "\n"


def _cut(text: str, limit: int) -> str:
    """The last resort: cut at a line end, say so."""
    if len(text) <= limit:
        return text
    note = "\n\n… (cut to stay under GitHub's comment size; see the job log)\n"
    kept = text[: limit - len(note)]
    return kept[: kept.rfind("\n") + 1 or len(kept)] + note


def _text(value: str, limit: int) -> str:
    """Plain text for one line or table cell (``markdown_text``)."""
    return markdown_text(value, limit)
