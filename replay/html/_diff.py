"""The run-diff page: one model's two results.json side by side, each case with the gate's verdict
(the one ``diff runs`` prints, ``replay.diff_runs.verdict``), never a rule of its own."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import replay.html._env as _env
import replay.html._format as fmt
from fileio.atomic import write_atomic
from replay.diff_runs import CasePair, ModelDiff, ModelVerdict, compare, decide, verdicts
from replay.diff_runs.render import difference_text
from replay.html._labels import GROUP_LABELS, LOWER_IS_BETTER, METRIC_LABELS
from replay.html._load import load_suite
from replay.results.read import read_results
from replay.results.typed import ResultsDocument, SuiteData


@dataclass(frozen=True)
class MetricLine:
    """One metric in A and B: rates with intervals, the change in points and whether it is better
    or worse."""

    label: str
    a: str
    a_ci: str
    b: str
    b_ci: str
    delta: str
    trend: str  # "better", "worse" or ""


@dataclass(frozen=True)
class CaseLine:
    """One case in A and B as the gate judged it: ``change`` is its verdict kind
    (``replay.diff_runs.verdict``), ``a`` and ``b`` its status, or with repeats how many scored
    repeats passed (``2/3``)."""

    case_id: str
    group: str
    a: str
    b: str
    change: str
    verdict: str  # the verdict's message: why it is (or is not) a regression
    reason_a: str
    reason_b: str
    request: str


_CHANGE_TEXT = {
    "regression": "regression",
    "lost": "lost score",
    "counted": "worse (counted in the paired test)",
    "noise": "worse (noise)",
    "fix": "fixed",
    "allowed_loss": "lost (allowed)",
    "not_scored": "not scored in A",
    "known_failure": "known failure",
    "unchanged": "",
}
# The report's row styles (report.css): red for what the gate counts, orange for what got worse
# without counting.
_ROW_CLASS = {
    "regression": "regression",
    "lost": "regression",
    "counted": "changed",
    "noise": "changed",
    "fix": "fix",
}


def _metric_line(key: str, a: ResultsDocument, b: ResultsDocument) -> MetricLine:
    # read as diff runs reads A and B (a history's merged document, an older file): leniently
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


def _first_user_text(case: dict[str, Any] | None) -> str:  # free JSON: a suite file's case
    for msg in (case or {}).get("messages", []):
        if (
            isinstance(msg, dict)
            and msg.get("role") == "user"
            and isinstance(msg.get("content"), str)
        ):
            return msg["content"]
    return ""


def _side(case: CasePair, side: str) -> str:
    """The case's status on one side, or with repeats ``passed/scored``."""
    samples = case.samples(side)
    if not samples:
        return "absent"
    if len(samples) == 1:
        return samples[0].status
    passed, scored = case.counts(side)
    return f"{passed}/{scored}"


def _case_lines(judged: ModelVerdict, suite: SuiteData | None) -> list[CaseLine]:
    suite_cases = {
        str(c.get("id")): c for c in (suite or {}).get("cases", []) if isinstance(c, dict)
    }
    # Suite order when there is a suite, then the verdict's order (B's, then what only A has).
    rank = {cid: i for i, cid in enumerate(suite_cases)}
    ordered = sorted(judged.cases, key=lambda v: rank.get(v.case_id, len(rank)))
    lines = []
    for v in ordered:
        case = v.case
        group = case.group or str(suite_cases.get(v.case_id, {}).get("group", ""))
        shown = v.kind != "unchanged"
        lines.append(
            CaseLine(
                case_id=v.case_id,
                group=GROUP_LABELS.get(group, group),
                a=_side(case, "a"),
                b=_side(case, "b"),
                change=v.kind,
                verdict=v.message,
                reason_a=(case.reason_a or "") if shown else "",
                reason_b=(case.reason_b or "") if shown else "",
                request=_first_user_text(suite_cases.get(v.case_id)) if shown else "",
            )
        )
    return lines


def judge(a: ResultsDocument, b: ResultsDocument) -> tuple[ModelDiff, ModelVerdict]:
    """The gate's verdict on one model's two results documents with ``diff runs``'
    default options."""
    diff = compare({str(a.get("model", "?")): a}, {str(b.get("model", "?")): b})
    return diff.models[0], verdicts(diff, decide(diff))[0]


def _suite_text(result: ResultsDocument) -> str:
    s = result.get("suite") if isinstance(result.get("suite"), dict) else {}
    return f"{s.get('name', '?')} {s.get('version', '?')} (sha256 {s.get('sha256', '?')})"


def render_run_diff(
    a: ResultsDocument,
    b: ResultsDocument,
    suite: SuiteData | None,
    judged: tuple[ModelDiff, ModelVerdict] | None = None,
) -> str:
    """The diff page for two results.json dicts of one model (A the baseline, B the new run). Pure.

    ``judged`` is the gate's verdict on the model (``diff runs`` passes the one it printed, with its
    options); without it the gate is run with its defaults. Every case is shown with its verdict
    and, with repeats, how many scored repeats passed on each side. ``suite`` (optional) orders the
    cases as the suite does and shows each changed case's request.
    """
    model, verdict = judged if judged is not None else judge(a, b)
    cases = _case_lines(verdict, suite)
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
        counts={kind: counts.get(kind, 0) for kind in _CHANGE_TEXT},
        change_text=_CHANGE_TEXT,
        row_class=_ROW_CLASS,
        regressed=verdict.failed,
        whole_run=[r.message for r in verdict.whole_run],
        difference=difference_text(model.difference),
        paired=f"{model.paired_test} p = {model.paired_p:.4g}",
        repeats="" if model.single_sample else f"repeats: A {model.repeats_a}, B {model.repeats_b}",
    )


def write_run_diff(a_path: Path, b_path: Path, out: Path, suite_path: Path | None = None) -> Path:
    """Render the diff of two results.json files into ``out`` (written whole); returns ``out``.

    Raises ``ResultsError`` naming the file for a missing or corrupt results file, ``SuiteError``
    for the suite.
    """
    a, b = read_results(a_path).document, read_results(b_path).document
    suite = load_suite(suite_path) if suite_path is not None else None
    write_atomic(out, render_run_diff(a, b, suite))
    return out
