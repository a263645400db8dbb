"""The run-diff page: one model's two results.json side by side, case flips highlighted."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from replay.html import _env
from replay.html import _format as fmt
from replay.html._labels import GROUP_LABELS, LOWER_IS_BETTER, METRIC_LABELS
from replay.html._load import load_results, load_suite
from replay.html._report import write_text_atomic


@dataclass(frozen=True)
class MetricLine:
    """One metric in A and B: rates with intervals, the change in points and whether it is better or worse."""

    label: str
    a: str
    a_ci: str
    b: str
    b_ci: str
    delta: str
    trend: str  # "better", "worse" or ""


@dataclass(frozen=True)
class CaseLine:
    """One case in A and B; ``change`` is ``regression``, ``fix``, ``changed`` or ``same``."""

    case_id: str
    group: str
    a: str
    b: str
    change: str
    reason_a: str
    reason_b: str
    request: str


_CHANGE_TEXT = {"regression": "passed → failed", "fix": "failed → passed", "changed": "status changed", "same": ""}


def change_kind(a: str | None, b: str | None) -> str:
    """passed->failed is a regression, failed->passed a fix, any other difference (errors, absences) a change."""
    if a == b:
        return "same"
    if (a, b) == ("passed", "failed"):
        return "regression"
    if (a, b) == ("failed", "passed"):
        return "fix"
    return "changed"


def _metric_line(key: str, a: dict[str, Any], b: dict[str, Any]) -> MetricLine:
    ma = (a.get("metrics") or {}).get(key) or {}
    mb = (b.get("metrics") or {}).get(key) or {}
    ra, rb = ma.get("rate"), mb.get("rate")
    trend = ""
    delta = fmt.delta(ra, rb)
    if delta not in (fmt.DASH, "0.0 pp"):
        up = rb > ra
        trend = "worse" if up == (key in LOWER_IS_BETTER) else "better"
    return MetricLine(
        METRIC_LABELS[key],
        fmt.rate(ra),
        fmt.interval(ma.get("ci")),
        fmt.rate(rb),
        fmt.interval(mb.get("ci")),
        delta,
        trend,
    )


def _first_user_text(case: dict[str, Any] | None) -> str:
    for msg in (case or {}).get("messages", []):
        if isinstance(msg, dict) and msg.get("role") == "user" and isinstance(msg.get("content"), str):
            return msg["content"]
    return ""


def _case_lines(a: dict[str, Any], b: dict[str, Any], suite: dict[str, Any] | None) -> list[CaseLine]:
    by_a = {str(r.get("id")): r for r in a.get("results", []) if isinstance(r, dict)}
    by_b = {str(r.get("id")): r for r in b.get("results", []) if isinstance(r, dict)}
    suite_cases = {str(c.get("id")): c for c in (suite or {}).get("cases", []) if isinstance(c, dict)}
    # Suite order when there is a suite, else A's order, then what only B has.
    order = list(suite_cases) + [i for i in by_a if i not in suite_cases]
    order += [i for i in by_b if i not in set(order)]
    lines = []
    for cid in order:
        ra, rb = by_a.get(cid), by_b.get(cid)
        if ra is None and rb is None:
            continue
        sa = str(ra.get("status")) if ra else None
        sb = str(rb.get("status")) if rb else None
        kind = change_kind(sa, sb)
        group = str((ra or rb or {}).get("group") or suite_cases.get(cid, {}).get("group", ""))
        lines.append(
            CaseLine(
                case_id=cid,
                group=GROUP_LABELS.get(group, group),
                a=sa or "absent",
                b=sb or "absent",
                change=kind,
                reason_a=str((ra or {}).get("reason") or "") if kind != "same" else "",
                reason_b=str((rb or {}).get("reason") or "") if kind != "same" else "",
                request=_first_user_text(suite_cases.get(cid)) if kind != "same" else "",
            )
        )
    return lines


def _suite_text(result: dict[str, Any]) -> str:
    s = result.get("suite") if isinstance(result.get("suite"), dict) else {}
    return f"{s.get('name', '?')} {s.get('version', '?')} (sha256 {s.get('sha256', '?')})"


def render_run_diff(a: dict[str, Any], b: dict[str, Any], suite: dict[str, Any] | None) -> str:
    """The diff page for two results.json dicts of one model (A the baseline, B the new run). Pure.

    ``suite`` (optional) orders the cases as the suite does and shows each changed case's request.
    """
    cases = _case_lines(a, b, suite)
    counts = Counter(c.change for c in cases)
    return _env.render(
        "run_diff.html.j2",
        title=f"Run diff: {a.get('model', '?')}",
        csp=_env.csp([]),
        css=_env.safe(_env.static_text("report.css")),
        model_a=str(a.get("model", "?")),
        model_b=str(b.get("model", "?")),
        suite_a=_suite_text(a),
        suite_b=_suite_text(b),
        metrics=[_metric_line(k, a, b) for k in METRIC_LABELS],
        cases=cases,
        counts={k: counts.get(k, 0) for k in ("regression", "fix", "changed", "same")},
        change_text=_CHANGE_TEXT,
    )


def write_run_diff(a_path: Path, b_path: Path, out: Path, suite_path: Path | None = None) -> Path:
    """Render the diff of two results.json files into ``out`` (written whole); returns ``out``.

    Raises ``ResultsError`` naming the file for a missing or corrupt results file, ``SuiteError`` for the suite.
    """
    a, b = load_results(a_path), load_results(b_path)
    suite = load_suite(suite_path) if suite_path is not None else None
    write_text_atomic(out, render_run_diff(a, b, suite))
    return out
