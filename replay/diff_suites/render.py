"""The terminal report of a suite comparison and of its rescores (rendering only)."""

from __future__ import annotations

from replay.diff_suites.model import KIND_TEXT, SuiteDiff
from replay.diff_suites.rescore_both import ModelRescore
from scorer.summary import METRICS


def format_text(diff: SuiteDiff, detail: str = "normal") -> str:
    """The change listing (without the bump verdict, which ``verdict_lines`` gives). ``quiet`` is
    the case counts line alone: the verdict already names both versions and what the bump rests
    on, and the suite, prompt and tools lines are the listing --quiet leaves out. Each case is
    listed once, here; the per-model rescores refer to this list rather than repeating it."""
    counts = ", ".join(f"{len(diff.of_kind(k))} {text}" for k, text in KIND_TEXT.items())
    if detail == "quiet":
        return f"cases: {counts}\n"
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
            lines.extend(
                f"    {c.case_id}" + (f": {_short(c.what)}" if c.what else "") for c in rows
            )
    return "\n".join(lines) + "\n"


def _short(what: tuple[str, ...], limit: int = 4) -> str:
    shown = ", ".join(what[:limit])
    return shown + (f", +{len(what) - limit} more" if len(what) > limit else "")


def verdict_lines(diff: SuiteDiff) -> list[str]:
    """The required bump, the bump made and, last, whether it is enough (or that the suites are
    not one suite)."""
    if not diff.same_suite:
        return [
            f"different suites: OLD is {diff.name_old!r}, NEW is {diff.name_new!r}; a version bump "
            "only orders versions of one suite, and their scores are not comparable"
        ]
    lines = [
        f"required bump: {diff.required} ({diff.required_because})",
        f"actual bump: {diff.actual} ({diff.version_old} -> {diff.version_new})",
    ]
    if diff.bump_ok:
        lines.append("version bump ok")
    elif diff.actual == "lower":
        lines.append(
            f"version bump wrong: NEW {diff.version_new} is lower than OLD {diff.version_old}"
        )
    elif diff.actual == "none":
        lines.append(f"version bump missing: something changed but NEW is still {diff.version_new}")
    else:
        lines.append(f"version bump too small: {diff.required} required, {diff.actual} made")
    return lines


def format_rescores(
    rows: tuple[ModelRescore, ...],
    version_old: str,
    version_new: str,
    detail: str = "verbose",
    listed: frozenset[str] = frozenset(),
) -> str:
    """Each model's seven rates under OLD and NEW side by side with the number of cases each scored;
    when those cases differ, a warning and the rates over the cases scored under both; then the
    flips and the unrecorded.

    ``quiet``: one line per model (Overall under both, flips, how many need recording). ``normal``:
    as ``verbose``, but a list of cases that are all in ``listed`` (the change listing above,
    which names each case once) is given as a count, so the same 62 ids are not repeated for
    every model."""
    lines: list[str] = []
    for row in rows:
        if detail == "quiet":
            lines.append(_model_line(row, version_old, version_new))
            continue
        lines.append(f"model {row.model}")
        compact = detail == "normal" and row.common is not None and row.common.count > 0
        if compact and row.common is not None:
            # The comparable figures only: the rates over the cases scored under both (--verbose
            # adds each side's).
            lines.append(
                f"  cases scored: {row.scored_old} under {version_old}, {row.scored_new} under "
                f"{version_new}; over the {row.common.count} scored under both:"
            )
            table = _table(
                row.common.rates_old, row.common.rates_new, version_old, version_new, (0, 0)
            )
            lines += [table[0], *table[2:]]  # without the "cases scored" row, said above
        else:
            lines += _table(
                row.rates_old,
                row.rates_new,
                version_old,
                version_new,
                (row.scored_old, row.scored_new),
            )
        if compact:
            pass  # the comparable table is the one above
        elif row.common is not None and row.common.count:
            lines.append(
                f"  warning: the columns are over different cases; over the {row.common.count} "
                "scored under both:"
            )
            counts = (row.common.count, row.common.count)
            lines += _table(
                row.common.rates_old, row.common.rates_new, version_old, version_new, counts
            )
        elif row.common is not None:
            lines.append(
                "  warning: the columns are over different cases, and no case is scored under both"
            )
        for old, new in (("passed", "failed"), ("failed", "passed")):
            flips = [f for f in row.flips if (f.old, f.new) == (old, new)]
            if not flips and detail == "normal":
                continue
            lines.append(
                f"  {old} under {version_old}, {new} under {version_new} "
                f"({len(flips)}){':' if flips else ''}"
            )
            lines.extend(f"    {f.case_id}" + (f": {f.reason}" if f.reason else "") for f in flips)
        short = detail != "verbose"
        if row.unrecorded_old:
            shown = _ids(row.unrecorded_old, listed if short else frozenset())
            lines.append(f"  unrecorded under {version_old} ({len(row.unrecorded_old)}): {shown}")
        needs = row.needs_recording
        lines.append(
            f"  needs recording under {version_new} ({len(needs)}): "
            f"{_ids(needs, listed if short else frozenset())}"
        )
    return "\n".join(lines) + "\n" if lines else ""


def _ids(ids: tuple[str, ...], listed: frozenset[str]) -> str:
    if not ids:
        return "-"
    if set(ids) <= listed:
        return "the cases listed above as needing recording (--verbose names them per model)"
    return ", ".join(ids)


def _model_line(row: ModelRescore, version_old: str, version_new: str) -> str:
    overall_old, overall_new = row.rates_old[0], row.rates_new[0]
    change = (
        "-" if overall_old is None or overall_new is None else f"{overall_new - overall_old:+.2f}"
    )
    return (
        f"model {row.model}: overall {_pct(overall_old)} under {version_old}, {_pct(overall_new)} "
        f"under {version_new} ({change}); {len(row.flips)} flip(s); {len(row.needs_recording)} "
        "need recording"
    )


def _table(
    old: tuple[float | None, ...],
    new: tuple[float | None, ...],
    v_old: str,
    v_new: str,
    scored: tuple[int, int],
) -> list[str]:
    """The metric table: a header, the cases scored on each side, then one row per metric."""
    lines = [f"  {'metric':<17} {v_old:>10} {v_new:>10} {'change':>10}"]
    lines.append(
        f"  {'cases scored':<17} {scored[0]:>10} {scored[1]:>10} {scored[1] - scored[0]:>+10}"
    )
    for name, a, b in zip(METRICS, old, new, strict=True):
        change = "-" if a is None or b is None else f"{b - a:+.2f}"
        lines.append(f"  {name:<17} {_pct(a):>10} {_pct(b):>10} {change:>10}")
    return lines


def _pct(rate: float | None) -> str:
    return "-" if rate is None else f"{rate:.2f}"
