"""The terminal report of a suite comparison and of its rescores (rendering only)."""

from __future__ import annotations

from replay.diff_suites.model import KIND_TEXT, SuiteDiff
from replay.diff_suites.rescore_both import ModelRescore
from scorer.summary import METRICS


def format_text(diff: SuiteDiff) -> str:
    """The change listing (without the bump verdict, which ``verdict_lines`` gives)."""
    if diff.name_old == diff.name_new:
        lines = [f"suite {diff.name_new}: {diff.version_old} -> {diff.version_new}"]
    else:
        lines = [f"suite {diff.name_old} {diff.version_old} -> {diff.name_new} {diff.version_new}"]
    lines.append(f"system prompt: {'changed' if diff.system_prompt_changed else 'unchanged'}")
    for title, names in (
        ("tools added", diff.tools_added),
        ("tools removed", diff.tools_removed),
        ("tools changed", diff.tools_changed),
    ):
        lines.append(f"{title}: {', '.join(names) if names else '-'}")
    if diff.other_changes:
        lines.append(f"other fields changed: {', '.join(diff.other_changes)}")
    counts = ", ".join(f"{len(diff.of_kind(k))} {text}" for k, text in KIND_TEXT.items())
    lines.append(f"cases: {counts}")
    for kind, title in (
        ("added", "added (needs recording)"),
        ("removed", "removed"),
        ("request_changed", "request-changed (needs recording)"),
        ("check_changed", "check-changed (re-scorable offline)"),
    ):
        rows = diff.of_kind(kind)
        if rows:
            lines.append(f"  {title}:")
            lines.extend(f"    {c.case_id}" + (f": {_short(c.what)}" if c.what else "") for c in rows)
    return "\n".join(lines) + "\n"


def _short(what: tuple[str, ...], limit: int = 4) -> str:
    shown = ", ".join(what[:limit])
    return shown + (f", +{len(what) - limit} more" if len(what) > limit else "")


def verdict_lines(diff: SuiteDiff) -> list[str]:
    """The required bump, the bump made and, last, whether it is enough (or that the suites are not one suite)."""
    if not diff.same_suite:
        return [
            f"different suites: OLD is {diff.name_old!r}, NEW is {diff.name_new!r}; a version bump only orders "
            "versions of one suite, and their scores are not comparable"
        ]
    lines = [
        f"required bump: {diff.required} ({diff.required_because})",
        f"actual bump: {diff.actual} ({diff.version_old} -> {diff.version_new})",
    ]
    if diff.bump_ok:
        lines.append("version bump ok")
    elif diff.actual == "lower":
        lines.append(f"version bump wrong: NEW {diff.version_new} is lower than OLD {diff.version_old}")
    elif diff.actual == "none":
        lines.append(f"version bump missing: something changed but NEW is still {diff.version_new}")
    else:
        lines.append(f"version bump too small: {diff.required} required, {diff.actual} made")
    return lines


def format_rescores(rows: tuple[ModelRescore, ...], version_old: str, version_new: str) -> str:
    """Each model's seven rates under OLD and NEW side by side with the number of cases each scored; when those
    cases differ, a warning and the rates over the cases scored under both; then the flips and the unrecorded."""
    lines: list[str] = []
    for row in rows:
        lines.append(f"model {row.model}")
        lines += _table(row.rates_old, row.rates_new, version_old, version_new, (row.scored_old, row.scored_new))
        if row.common is not None and row.common.count:
            lines.append(
                f"  warning: the columns are over different cases; over the {row.common.count} scored under both:"
            )
            counts = (row.common.count, row.common.count)
            lines += _table(row.common.rates_old, row.common.rates_new, version_old, version_new, counts)
        elif row.common is not None:
            lines.append("  warning: the columns are over different cases, and no case is scored under both")
        for old, new in (("passed", "failed"), ("failed", "passed")):
            flips = [f for f in row.flips if (f.old, f.new) == (old, new)]
            lines.append(f"  {old} under {version_old}, {new} under {version_new} ({len(flips)}){':' if flips else ''}")
            lines.extend(f"    {f.case_id}" + (f": {f.reason}" if f.reason else "") for f in flips)
        if row.unrecorded_old:
            lines.append(
                f"  unrecorded under {version_old} ({len(row.unrecorded_old)}): {', '.join(row.unrecorded_old)}"
            )
        needs = row.needs_recording
        lines.append(f"  needs recording under {version_new} ({len(needs)}): {', '.join(needs) if needs else '-'}")
    return "\n".join(lines) + "\n" if lines else ""


def _table(
    old: tuple[float | None, ...], new: tuple[float | None, ...], v_old: str, v_new: str, scored: tuple[int, int]
) -> list[str]:
    """The metric table: a header, the cases scored on each side, then one row per metric."""
    lines = [f"  {'metric':<17} {v_old:>10} {v_new:>10} {'change':>10}"]
    lines.append(f"  {'cases scored':<17} {scored[0]:>10} {scored[1]:>10} {scored[1] - scored[0]:>+10}")
    for name, a, b in zip(METRICS, old, new, strict=True):
        change = "-" if a is None or b is None else f"{b - a:+.2f}"
        lines.append(f"  {name:<17} {_pct(a):>10} {_pct(b):>10} {change:>10}")
    return lines


def _pct(rate: float | None) -> str:
    return "-" if rate is None else f"{rate:.2f}"
