"""The terminal report of a run comparison (rendering only)."""

from __future__ import annotations

from replay.diff_runs.model import CaseOutcome, ModelDiff, RunDiff


def format_text(diff: RunDiff) -> str:
    """The terminal report of a RunDiff: plain text, one block per model, stable line order."""
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
    lines.append(
        f"  paired cases: {m.pairs} (both passed {m.both_passed}, both failed {m.both_failed}, "
        f"passed->failed {len(m.to_failed)}, failed->passed {len(m.to_passed)})"
    )
    lines.append(f"  McNemar exact p = {m.mcnemar_p:.4g} on {len(m.to_failed) + len(m.to_passed)} discordant pairs")
    for title, rows in (("passed -> failed", m.to_failed), ("failed -> passed", m.to_passed)):
        if rows:
            lines.append(f"  {title} ({len(rows)}):")
            lines.extend(f"    {c.case_id}: {c.reason_b if c.status_b == 'failed' else c.reason_a}" for c in rows)
    if m.unpaired:
        lines.append(f"  not paired ({len(m.unpaired)}):")
        lines.extend(f"    {c.case_id}: A {_status(c, 'a')}, B {_status(c, 'b')}" for c in m.unpaired)
    lines.append("  metric            A                        B                        B - A")
    for d in m.metrics:
        a_text, b_text = _rate_ci(d.a_rate, d.a_ci), _rate_ci(d.b_rate, d.b_ci)
        lines.append(f"  {d.name:<17} {a_text:<24} {b_text:<24} {_delta(d.delta)}")
    return lines


def _status(c: CaseOutcome, side: str) -> str:
    status, reason = (c.status_a, c.reason_a) if side == "a" else (c.status_b, c.reason_b)
    if status is None:
        return "absent"
    return f"{status} ({reason})" if reason else status


def _rate_ci(rate: float | None, ci: tuple[float, float] | None) -> str:
    if rate is None:
        return "-"
    return f"{rate:.2f} [{ci[0]:.2f}, {ci[1]:.2f}]" if ci else f"{rate:.2f}"


def _delta(delta: float | None) -> str:
    return "-" if delta is None else f"{delta:+.2f}"
