"""What ``drift`` prints and writes (rendering only): the terminal text and the markdown for an
issue or a pull request comment, both from one ``DriftReport``; the verdict line comes first and
reads the same in both."""

from __future__ import annotations

from collections.abc import Sequence

from scorer.drift.history import CusumPoint, DriftReport, IdentityChange, MovedCase
from scorer.safe_text import for_terminal, markdown_text

LISTED = 25  # cases that moved and identity changes listed; the rest are counted
RUNS_LISTED = 30  # the last runs shown in --verbose text and in the markdown's run table
CELL_CHARS = 160


def runs(count: int) -> str:
    """``1 run``, ``2 runs``: a count of runs as the text and the markdown say it."""
    return f"{count} run" if count == 1 else f"{count} runs"


def _run(report: DriftReport, index: int) -> str:
    run = report.runs[index]
    return run_name(run.run_id, run.date)


def run_name(run_id: str, date: str) -> str:
    """``run ID (DATE)``, or ``run ID`` when the id is the date (a daily watch's runs)."""
    return f"run {run_id}" if run_id == date else f"run {run_id} ({date})"


FALSE_ALARMS = (
    "holds: false alarms <= 5% in 180 runs of an unchanged model (95% confidence) if its runs are "
    "independent; bad days shared by a run's cases raise it, up to 14% in the simulated ones "
    "(docs/decisions/drift.md#day-effect)"
)


def next_line(report: DriftReport, command: str) -> str | None:
    """What to do after a change: record again, then start a new history from the first changed
    run (``command``: how this history was given, e.g. ``lobstack-eval drift rows --model M``)."""
    if report.status != "changed":
        return None
    first = report.runs[_change_span(report)[0]].run_id
    return (
        f"next: record again later to confirm (a bad day passes, a change stays); once confirmed, "
        f"start the history anew from the first changed run: {command} --since {first}"
    )


def verdict(report: DriftReport) -> str:
    """The one-line verdict: changed between two runs, no change in N runs since DATE, or not
    tested yet."""
    first = report.runs[0].date
    if report.status == "changed" and report.alarm is not None:
        after = 0 if report.last_stable is None else report.last_stable + 1
        before = (
            "before " if report.last_stable is None else f"between {_run(report, after - 1)} and "
        )
        return f"changed {before}{_run(report, after)}; detected at {_run(report, report.alarm)}"
    if report.status == "baseline":
        need = report.settings.baseline_runs + 1
        return (
            f"not tested yet: {runs(len(report.runs))} since {first}; the test needs {runs(need)} "
            f"(the first {report.settings.baseline_runs} only learn each case's pass rate)"
        )
    return f"no change in {runs(len(report.runs))} since {first}"


def _percent(value: float | None) -> str:
    return "-" if value is None else f"{value:.1f}%"


def _rate(passed: int, scored: int) -> str:
    return f"{passed}/{scored} ({100 * passed / scored:.0f}%)"


def _change_span(report: DriftReport) -> tuple[int, int]:
    """(first changed run, number of runs): the split the Overall summary and the moved
    cases use."""
    return (0 if report.last_stable is None else report.last_stable + 1), len(report.runs)


def overall_line(report: DriftReport) -> str:
    """Overall before and since the change (changed), or over the whole history."""
    if report.status != "changed":
        return f"Overall: {_percent(report.mean_overall(0, len(report.runs)))} a run on average"
    first, end = _change_span(report)
    return (
        f"Overall: {_percent(report.mean_overall(0, first))} a run on average before "
        f"({runs(first)}) -> {_percent(report.mean_overall(first, end))} since "
        f"({runs(end - first)})"
    )


DAY_EFFECT_DOC = "docs/decisions/drift.md#day-effect"


def dispersion_note(report: DriftReport) -> str | None:
    """The note when the runs vary together beyond chance (p < 0.01): the false-alarm rate's
    calibration assumes independent runs. None otherwise, so most histories read as before."""
    check = report.dispersion
    if check is None or not check.noted:
        return None
    return (
        f"note: runs vary together more than independent runs would (dispersion "
        f"{check.ratio:.2f}, p = {check.p:.3f}): the false-alarm rate is not calibrated for this "
        f"history ({DAY_EFFECT_DOC})"
    )


def _identity(change: IdentityChange) -> str:
    old = ", ".join(change.old) or "(none)"
    new = ", ".join(change.new) or "(none)"
    return (
        f"{change.field}: {old} -> {new} ({run_name(change.before_run, change.before_date)} -> "
        f"{run_name(change.after_run, change.after_date)})"
    )


def _moved(case: MovedCase) -> str:
    return (
        f"{case.case_id}: passed {_rate(case.passed_before, case.scored_before)} before, "
        f"{_rate(case.passed_since, case.scored_since)} since"
    )


def _capped(lines: Sequence[str], cap: int = LISTED) -> list[str]:
    more = len(lines) - cap
    return [*lines[:cap], *([f"... and {more} more"] if more > 0 else [])]


def format_text(report: DriftReport, verbose: bool = False, command: str = "") -> str:
    """The terminal text: the verdict first, then the model, Overall, the rate the test holds,
    moved cases, identity changes and (after a change) the next command."""
    lines = [
        f"drift: {verdict(report)}",
        f"model {report.model} ({report.suite}): {runs(len(report.runs))}, "
        f"{report.runs[0].date} to {report.runs[-1].date}",
        overall_line(report),
    ]
    if (note := dispersion_note(report)) is not None:
        lines.append(note)
    if report.status != "baseline":
        lines.append(FALSE_ALARMS)
    if report.at_change():
        fields = ", ".join(sorted({c.field for c in report.at_change()}))
        lines.append(f"the recorded identity changed at the change: {fields}")
    if report.status == "changed":
        lines.append(f"cases that moved ({len(report.moved)}):")
        lines += [f"  {line}" for line in _capped([_moved(c) for c in report.moved])]
    if report.identity_changes:
        lines.append(f"identity changes ({len(report.identity_changes)}):")
        lines += [f"  {line}" for line in _capped([_identity(c) for c in report.identity_changes])]
    if (step := next_line(report, command or "lobstack-eval drift RUN...")) is not None:
        lines.append(step)
    if verbose:
        lines.append(f"runs: id  date  Overall  z  {_cusum_header(report)}")
        for run in report.runs[-RUNS_LISTED:]:
            z = "-" if run.z is None else f"{run.z:+.2f}"
            lines.append(
                f"  {run.run_id}  {run.date}  {_percent(run.overall)}  {z}  "
                + "  ".join(_cusum_cells(report, run))
            )
    return "".join(for_terminal(line, one_line=True) + "\n" for line in lines)


def cell(value: str, limit: int = CELL_CHARS) -> str:
    """One markdown line or table cell, as ``diff runs`` writes them (``markdown_text``)."""
    return markdown_text(value, limit)


def to_markdown(report: DriftReport, command: str = "") -> str:
    """The issue or pull-request comment: the verdict, Overall, the moved cases, identity changes,
    recent runs. At most 25 rows a table and 160 characters a cell, so it stays far under
    GitHub's 65,536 characters."""
    head = "changed" if report.status == "changed" else "no change"
    if report.status == "baseline":
        head = "not tested yet"
    parts = [
        f"### lobstack-eval drift: {cell(report.model)}: {head}",
        f"**{cell(verdict(report), 600)}**",
        f"{cell(report.suite)}; {runs(len(report.runs))}, {report.runs[0].date} to "
        # numbers and dates only: nothing to escape
        f"{report.runs[-1].date}. {overall_line(report)}",
    ]
    if (note := dispersion_note(report)) is not None:
        parts.append(f"**Note:** {note.removeprefix('note: ')}.")
    if report.status != "baseline":
        parts.append(f"The test {FALSE_ALARMS.removeprefix('holds: ')}.")
    if report.at_change():
        fields = ", ".join(sorted({c.field for c in report.at_change()}))
        parts.append(f"The recorded identity changed at the change: {cell(fields, 600)}.")
    if report.status == "changed":
        rows = [
            f"| {cell(c.case_id)} | {_rate(c.passed_before, c.scored_before)} | "
            f"{_rate(c.passed_since, c.scored_since)} |"
            for c in report.moved
        ]
        parts.append(
            _table(f"Cases that moved ({len(report.moved)})", "| case | before | since |", rows)
            if rows
            else "No single case moved by half or more: the drop is spread over many cases."
        )
    if (step := next_line(report, command or "lobstack-eval drift RUN...")) is not None:
        parts.append(f"**Next:** {cell(step.removeprefix('next: '), 600)}")
    if report.identity_changes:
        rows = [
            f"| {cell(c.field)} | {cell(', '.join(c.old) or '(none)')} | "
            f"{cell(', '.join(c.new) or '(none)')} | "
            f"{cell(run_name(c.before_run, c.before_date).removeprefix('run '))} -> "
            f"{cell(run_name(c.after_run, c.after_date).removeprefix('run '))} |"
            for c in report.identity_changes
        ]
        title = f"Recorded identity changes ({len(report.identity_changes)})"
        parts.append(_table(title, "| field | was | now | between |", rows))
    recent = [
        f"| {cell(r.run_id)} | {r.date} | {_percent(r.overall)} | "
        f"{'-' if r.z is None else f'{r.z:+.2f}'} | " + " | ".join(_cusum_cells(report, r)) + " |"
        for r in report.runs[-RUNS_LISTED:]
    ]
    header = f"| run | date | Overall | z | {' | '.join(_cusum_header(report).split('  '))} |"
    parts.append(_table(f"Last {runs(len(recent))}", header, recent, cap=RUNS_LISTED))
    return "\n\n".join(parts) + "\n"


def _cusum_header(report: DriftReport) -> str:
    """The CUSUM columns' heads (two spaces apart): one constant threshold in the head, or, under
    the adaptive rule, each run's thresholds in their own columns."""
    if report.settings.scale is None:
        return f"CUSUM (alarm above {report.settings.threshold:.2f})"
    return "CUSUM  alarm above  CUSUM 2  alarm above"


def _cusum_cells(report: DriftReport, run: CusumPoint) -> list[str]:
    """A run's CUSUM cells, as ``_cusum_header`` names them ("-": a threshold not computed)."""
    if report.settings.scale is None:
        return [f"{run.statistic:.2f}"]
    second = "-" if run.second is None else f"{run.second:.2f}"
    return [f"{run.statistic:.2f}", _limit(run.threshold), second, _limit(run.second_threshold)]


def _limit(value: float | None) -> str:
    return "-" if value is None else f"{value:.2f}"


def _table(title: str, header: str, rows: Sequence[str], cap: int = LISTED) -> str:
    rule = "|" + "---|" * header.count(" | ") + "---|"
    more = len(rows) - cap
    tail = [f"\n… and {more} more"] if more > 0 else []
    return "\n".join([f"**{title}**", "", header, rule, *rows[:cap], *tail])
