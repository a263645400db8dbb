"""The terminal report of a run comparison (rendering only)."""

from __future__ import annotations

from replay.diff_runs.model import CaseOutcome, ModelDiff, RunDiff
from scorer.power import Power


def format_text(diff: RunDiff) -> str:
    """The terminal report of a RunDiff: plain text, one block per model, stable line order. A model compared
    with one sample per case lists its flips; with repeats, every case whose pass rate changed, and why it does
    or does not count (noise in a flaky case, a consistent failure, a scoring change)."""
    lines: list[str] = []
    for m in diff.models:
        lines.extend(_model_block(m))
        lines.append("")
    if diff.only_a:
        lines.append(f"models only in A: {', '.join(diff.only_a)}")
    if diff.only_b:
        lines.append(f"models only in B: {', '.join(diff.only_b)}")
    while lines and lines[-1] == "":
        lines.pop()
    return "\n".join(lines) + "\n"


def _model_block(m: ModelDiff) -> list[str]:
    a, b = m.suite_a, m.suite_b
    suites = f"{a.name} {a.version}"
    if m.suite_mismatch:
        suites += f" -> {b.name} {b.version}"
    lines = [f"model {m.model} (suite {suites})"]
    if m.suite_mismatch:
        lines.append("  warning: different suite versions; scores are not comparable")
    if m.sha_mismatch:
        lines.append("  warning: same suite version but different suite sha256")
    if m.single_sample:
        lines.append(
            f"  paired cases: {m.pairs} (both passed {m.both_passed}, both failed {m.both_failed}, "
            f"passed->failed {len(m.to_failed)}, failed->passed {len(m.to_passed)})"
        )
        lines.append(f"  McNemar exact p = {m.mcnemar_p:.4g} on {len(m.to_failed) + len(m.to_passed)} discordant pairs")
        for title, rows in (("passed -> failed", m.to_failed), ("failed -> passed", m.to_passed)):
            if rows:
                lines.append(f"  {title} ({len(rows)}):")
                lines.extend(f"    {c.case_id}: {_flip_reason(c)}" for c in rows)
    else:
        lines.extend(_repeated_lines(m))
    if m.scoring_changes:
        lines.append(f"  scoring changes ({len(m.scoring_changes)}): the same model answers got another verdict")
        lines.extend(f"    {c.case_id}: {_rates(c)}: {_flip_reason(c)}" for c in m.scoring_changes)
    if m.unpaired:
        lines.append(f"  not paired ({len(m.unpaired)}):")
        lines.extend(f"    {c.case_id}: A {_status(c, 'a')}, B {_status(c, 'b')}" for c in m.unpaired)
    lines.append("  metric            A                        B                        B - A")
    for d in m.metrics:
        a_text, b_text = rate_ci(d.a_rate, d.a_ci), rate_ci(d.b_rate, d.b_ci)
        lines.append(f"  {d.name:<17} {a_text:<24} {b_text:<24} {delta_text(d.delta)}")
    if m.power is not None:
        lines.append(power_line(m.power))
    return lines


def _repeated_lines(m: ModelDiff) -> list[str]:
    worse, better = m.with_change("worse"), m.with_change("better")
    change = "-" if m.mean_change is None else f"{m.mean_change:+.2f} points"
    lines = [
        f"  repeats: A {m.repeats_a}, B {m.repeats_b}; paired cases: {m.pairs} (worse {len(worse)}, better "
        f"{len(better)}, same {m.pairs - len(worse) - len(better)}); mean change in pass rate {change}",
        f"  sign-flip exact p = {m.paired_p:.4g} on {len(worse) + len(better)} cases whose pass rate changed",
    ]
    for title, rows in (("worse", worse), ("better", better)):
        if rows:
            lines.append(f"  {title} ({len(rows)}):")
            lines.extend(f"    {c.case_id}: {_rates(c)}{_label(c)}: {_flip_reason(c)}" for c in rows)
    return lines


def _label(c: CaseOutcome) -> str:
    if c.scoring_change:
        return " [scoring change]"
    if c.consistent_failure:
        return " [consistent failure]"
    return " [noise: flaky]" if c.flaky else ""


def _rates(c: CaseOutcome) -> str:
    (pa, na), (pb, nb) = c.counts("a"), c.counts("b")
    return f"{pa}/{na} -> {pb}/{nb} passed"


def _flip_reason(c: CaseOutcome) -> str | None:
    return c.reason_b if c.status_b == "failed" else c.reason_a


def power_line(power: Power) -> str:
    """What the comparison can see: the smallest Overall drop (80% power, alpha 0.05) and the repeats it takes
    to see ``--detect`` points."""
    text = f"  power: detects an Overall drop of {power.detectable:.1f} points or more"
    text += f" (80% power, alpha 0.05, {power.cases} paired cases); "
    target = f"{power.target:g} points"
    if power.repeats_needed is None:
        return text + f"no number of repeats detects {target} with these cases: it needs more cases"
    bound = {"exact": "", "at least": "at least ", "at most": "at most "}[power.bound]
    return text + f"{target} needs {bound}{power.repeats_needed} repeat(s) per side"


def _status(c: CaseOutcome, side: str) -> str:
    status, reason = (c.status_a, c.reason_a) if side == "a" else (c.status_b, c.reason_b)
    if status is None:
        return "absent"
    return f"{status} ({reason})" if reason else status


def rate_ci(rate: float | None, ci: tuple[float, float] | None) -> str:
    """A rate with its interval, as both the terminal report and the pull-request comment print it."""
    if rate is None:
        return "-"
    return f"{rate:.2f} [{ci[0]:.2f}, {ci[1]:.2f}]" if ci else f"{rate:.2f}"


def delta_text(delta: float | None) -> str:
    """A change in percentage points, signed; a dash when either side has no rate."""
    return "-" if delta is None else f"{delta:+.2f}"
