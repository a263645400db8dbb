"""The regression verdict of a run comparison (pure): every regression found, and one line that explains them.

A gate must never pass a broken run, so besides the rule that judges scores (flips to failed, or Overall beyond
``--max-drop``) three rules judge whether B scored at all: a case scored in A that errored, went unrecorded or
vanished in B is a regression (beyond ``--allow-errored N`` such cases per model); a model of B with no scored
case is always one; and a model of A missing from B is one. JUnit shows exactly these regressions.
"""

from __future__ import annotations

from replay.diff_runs.model import SCORED, CaseOutcome, Decision, Regression, RunDiff


def decide(diff: RunDiff, max_drop: float | None = None, allow_errored: int = 0) -> Decision:
    """Is B a regression of A?

    Without ``max_drop``: any paired case that went passed->failed. With ``max_drop`` (percentage points):
    Overall fell by more than that for some model, or B has no Overall rate where A had one; flips within
    the tolerance are reported but do not count, because runs at temperature 0 differ by a case or two.
    Either way, the scoring checks of ``_unscored`` apply.
    """
    found: list[Regression] = []
    parts: list[str] = []
    flipped = [m for m in diff.models if m.to_failed]
    flip_count = sum(len(m.to_failed) for m in flipped)
    flip_text = ""
    if flip_count:
        listing = "; ".join(f"{m.model}: {_ids(m.to_failed)}" for m in flipped)
        flip_text = f"{_cases(flip_count)} flipped to failed ({listing})"
    if max_drop is None:
        found += [
            Regression(m.model, c.case_id, "flipped", c.reason_b or "failed") for m in flipped for c in m.to_failed
        ]
        parts += [flip_text] if flip_text else []
    else:
        dropped = _dropped(diff, max_drop)
        found += dropped
        if dropped:
            listing = "; ".join(f"{r.model}: {r.message}" for r in dropped)
            parts.append(f"Overall dropped more than --max-drop {_points(max_drop)} ({listing})")
    unscored, unscored_parts, allowed = _unscored(diff, allow_errored)
    found += unscored
    parts += unscored_parts
    if found:
        return Decision(True, "regression: " + "; ".join(parts), tuple(found))
    notes = [f"Overall within --max-drop {_points(max_drop)}"] if max_drop is not None else []
    notes += [flip_text] if flip_text and max_drop is not None else []
    notes += [allowed] if allowed else []
    return Decision(False, "no regression" + (": " + "; ".join(notes) if notes else ""))


def _unscored(diff: RunDiff, allow_errored: int) -> tuple[list[Regression], list[str], str]:
    """Cases scored in A that did not score in B (beyond the allowance), models of B with no score, and models of
    A absent from B; with the verdict-line parts, and a note when lost cases were allowed."""
    found: list[Regression] = []
    parts: list[str] = []
    over = [m for m in diff.models if len(m.lost) > allow_errored]
    if over:
        for m in over:
            found += [Regression(m.model, c.case_id, "lost", _lost_text(c)) for c in m.lost]
        count = sum(len(m.lost) for m in over)
        listing = "; ".join(f"{m.model}: {_ids(m.lost)}" for m in over)
        allowance = f", more than --allow-errored {allow_errored}" if allow_errored else ""
        parts.append(f"{_cases(count)} scored in A errored or vanished in B ({listing}{allowance})")
    blank = [m for m in diff.models if not any(c.status_b in SCORED for c in m.cases)]
    for m in blank:
        found.append(Regression(m.model, None, "no_scores", "B has no scored case (every case errored or is missing)"))
    if blank:
        parts.append(f"no scored case in B ({', '.join(m.model for m in blank)})")
    for model in diff.only_a:
        found.append(Regression(model, None, "vanished", "in A, not in B"))
    if diff.only_a:
        parts.append(f"models in A missing from B ({', '.join(diff.only_a)})")
    lost = sum(len(m.lost) for m in diff.models if m not in over)
    allowed = f"{_cases(lost)} errored or vanished in B, within --allow-errored {allow_errored}" if lost else ""
    return found, parts, allowed


def _dropped(diff: RunDiff, max_drop: float) -> list[Regression]:
    found = []
    for m in diff.models:
        overall = m.metric("overall")
        if overall.a_rate is None:
            continue
        if overall.b_rate is None:
            found.append(Regression(m.model, None, "dropped", f"{_rate(overall.a_rate)} -> no rate"))
        elif overall.a_rate - overall.b_rate > max_drop:
            text = f"{_rate(overall.a_rate)} -> {_rate(overall.b_rate)}"
            found.append(Regression(m.model, None, "dropped", text))
    return found


def _lost_text(case: CaseOutcome) -> str:
    where = "absent from B" if case.status_b is None else f"{case.status_b} in B"
    return f"{case.status_a} in A, {where}" + (f": {case.reason_b}" if case.reason_b else "")


def _cases(n: int) -> str:
    return f"{n} {'case' if n == 1 else 'cases'}"


def _ids(cases: tuple[CaseOutcome, ...], limit: int = 10) -> str:
    # The full list is printed above the verdict; the verdict line stays readable in a CI log.
    shown = ", ".join(c.case_id for c in cases[:limit])
    return shown + (f", +{len(cases) - limit} more" if len(cases) > limit else "")


def _rate(rate: float) -> str:
    return f"{rate:.2f}"


def _points(value: float) -> str:
    return f"{value:g}"
