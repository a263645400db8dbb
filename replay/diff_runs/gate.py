"""The regression verdict of a run comparison (pure): which rule decided, in one line."""

from __future__ import annotations

from replay.diff_runs.model import CaseOutcome, Decision, RunDiff


def decide(diff: RunDiff, max_drop: float | None = None) -> Decision:
    """Is B a regression of A?

    Without ``max_drop``: any paired case that went passed->failed. With ``max_drop`` (percentage points):
    Overall fell by more than that for some model, or B has no Overall rate where A had one; flips within
    the tolerance are reported but do not count, because runs at temperature 0 differ by a case or two.
    """
    flipped = [m for m in diff.models if m.to_failed]
    flip_count = sum(len(m.to_failed) for m in flipped)
    flip_text = ""
    if flip_count:
        listing = "; ".join(f"{m.model}: {_ids(m.to_failed)}" for m in flipped)
        flip_text = f"{flip_count} {'case' if flip_count == 1 else 'cases'} flipped to failed ({listing})"
    if max_drop is None:
        return Decision(True, f"regression: {flip_text}") if flip_count else Decision(False, "no regression")

    dropped: list[str] = []
    for m in diff.models:
        overall = m.metric("overall")
        if overall.a_rate is None:
            continue
        if overall.b_rate is None:
            dropped.append(f"{m.model}: {_rate(overall.a_rate)} -> no rate")
        elif overall.a_rate - overall.b_rate > max_drop:
            dropped.append(f"{m.model}: {_rate(overall.a_rate)} -> {_rate(overall.b_rate)}")
    limit = f"--max-drop {_points(max_drop)}"
    if dropped:
        return Decision(True, f"regression: Overall dropped more than {limit} ({'; '.join(dropped)})")
    tail = f"; {flip_text}" if flip_text else ""
    return Decision(False, f"no regression: Overall within {limit}{tail}")


def _ids(cases: tuple[CaseOutcome, ...], limit: int = 10) -> str:
    # The full list is printed above the verdict; the verdict line stays readable in a CI log.
    shown = ", ".join(c.case_id for c in cases[:limit])
    return shown + (f", +{len(cases) - limit} more" if len(cases) > limit else "")


def _rate(rate: float) -> str:
    return f"{rate:.2f}"


def _points(value: float) -> str:
    return f"{value:g}"
