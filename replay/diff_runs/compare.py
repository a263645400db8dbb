"""Pairing two runs model by model and case by case (pure): flips, unpaired cases, metric deltas,
paired tests.

Each case is compared by its pass rate over its scored repeats. The paired test over cases is the
exact McNemar test when both runs have one sample per case, else the exact sign-flip test on the
per-case differences (which is McNemar's when every rate is 0 or 1). A case whose same model answers
got another verdict is a scoring change (see ``scorer.answers``).
"""

from __future__ import annotations

from collections.abc import Mapping
from fractions import Fraction
from typing import Any

from replay.diff_runs.model import CasePair, MetricDelta, ModelDiff, RunDiff, Sample
from replay.diff_runs.samples import case_samples, samples_and_undigested
from replay.results.cases import CaseEntry
from replay.results.typed import ResultsDocument, SuiteRef, document_repeats
from scorer.answers import same_answers
from scorer.repeats import REPEAT_METRICS
from scorer.stats.case_exact import paired_difference
from scorer.stats.history_exact import CaseMargins, history_test
from scorer.stats.paired import mcnemar_exact, mcnemar_worse, sign_flip, sign_flip_exact
from scorer.stats.power import paired_power, within_variance
from scorer.status import SCORED
from scorer.summary import METRICS
from scorer.wire.settings import results_wire

HISTORY_KEY = "history"  # {"runs": [source, ...]} in a merged history (replay.diff_runs.history)
HISTORY_NOTES = "history_notes"  # what the window check did (replay.diff_runs.window), as notes
DEFAULT_DETECT = 5.0  # points: the drop the power line says how many repeats it takes to detect


def compare(
    a: dict[str, ResultsDocument], b: dict[str, ResultsDocument], detect: float = DEFAULT_DETECT
) -> RunDiff:
    """Compare two runs (model -> results dict, as from ``load_run``), matching models by name.

    Two runs of one model each, under different names, are compared with each other: that is how a
    model change (the same suite, another model) is gated. ``detect`` (points) is the drop the power
    estimate aims at."""
    if len(a) == 1 and len(b) == 1 and set(a) != set(b):
        return RunDiff(
            models=(compare_model(*a.values(), *b.values(), detect=detect),), only_a=(), only_b=()
        )
    common = sorted(set(a) & set(b))
    return RunDiff(
        models=tuple(compare_model(a[m], b[m], detect=detect) for m in common),
        only_a=tuple(sorted(set(a) - set(b))),
        only_b=tuple(sorted(set(b) - set(a))),
    )


def compare_model(
    a: ResultsDocument, b: ResultsDocument, detect: float = DEFAULT_DETECT
) -> ModelDiff:
    """Compare one model's results in run A and run B."""
    by_id_a = {r["id"]: r for r in a["results"]}
    by_id_b = {r["id"]: r for r in b["results"]}
    order = [r["id"] for r in b["results"]] + [
        r["id"] for r in a["results"] if r["id"] not in by_id_b
    ]
    cases = tuple(_outcome(cid, by_id_a.get(cid), by_id_b.get(cid)) for cid in order)
    to_failed = tuple(c for c in cases if c.kind == "to_failed")
    to_passed = tuple(c for c in cases if c.kind == "to_passed")
    repeats_a, repeats_b = document_repeats(a), document_repeats(b)
    paired = [c for c in cases if c.difference is not None]
    differences = [c.difference for c in paired if c.difference is not None]
    single = repeats_a == 1 and repeats_b == 1
    names = [*METRICS, *(n for n in REPEAT_METRICS if n in a["metrics"] or n in b["metrics"])]
    runs_a = history_runs(a)
    worse = _worse_p(paired, single, runs_a)
    return ModelDiff(
        model=b["model"] if a["model"] == b["model"] else f"{a['model']} -> {b['model']}",
        suite_a=SuiteRef.of(a["suite"]),
        suite_b=SuiteRef.of(b["suite"]),
        cases=cases,
        to_failed=to_failed,
        to_passed=to_passed,
        unpaired=tuple(c for c in cases if c.kind == "unpaired"),
        both_passed=sum(1 for c in cases if c.kind == "same" and c.status_b == "passed"),
        both_failed=sum(1 for c in cases if c.kind == "same" and c.status_b == "failed"),
        metrics=tuple(
            _metric_delta(n, a["metrics"].get(n) or {}, b["metrics"].get(n) or {}) for n in names
        ),
        mcnemar_p=mcnemar_exact(len(to_failed), len(to_passed)),
        repeats_a=repeats_a,
        repeats_b=repeats_b,
        paired_p=(
            worse if runs_a > 1 else _paired_p(paired) if single else sign_flip_exact(differences)
        ),
        mean_change=float(100 * _exact_sum(differences) / len(differences))
        if differences
        else None,
        power=paired_power(
            [d.numerator / d.denominator for d in differences],  # float(d), without the call
            within_variance([c.counts("a") for c in paired]) if repeats_a >= 2 else None,
            within_variance([c.counts("b") for c in paired]) if repeats_b >= 2 else None,
            _mean_scored(paired, "a"),
            _mean_scored(paired, "b"),
            detect,
        ),
        difference=paired_difference(differences),
        history_runs=runs_a,
        worse_p=worse,
        wire_a=results_wire(a),
        wire_b=results_wire(b),
        history_notes=tuple(a.get(HISTORY_NOTES) or ()),
    )


def history_runs(results: ResultsDocument) -> int:
    """How many runs a (merged) results document holds: 1 for a plain run."""
    history = results.get(HISTORY_KEY)
    return len(history["runs"]) if isinstance(history, dict) else 1


def _worse_p(paired: list[CasePair], single: bool, runs_a: int) -> float:
    """The one-sided p-value that B is worse: the history test when A is a history, else the
    one-sided side of the paired test (exact McNemar with one sample a side, exact sign-flip
    with repeats)."""
    if runs_a > 1:
        margins = []
        for c in paired:
            (passed_a, scored_a), (passed_b, scored_b) = c.counts("a"), c.counts("b")
            margins.append(
                CaseMargins(scored_a - passed_a, scored_a, scored_b - passed_b, scored_b)
            )
        return history_test(margins).p
    if single:
        return mcnemar_worse(
            sum(1 for c in paired if c.change == "worse"),
            sum(1 for c in paired if c.change == "better"),
        )
    return sign_flip([c.difference for c in paired if c.difference is not None], lower=True).p


def _exact_sum(values: list[Fraction]) -> Fraction:
    """sum(values), exactly: numerators added per denominator (few), then one Fraction each."""
    numerators: dict[int, int] = {}
    for v in values:
        numerators[v.denominator] = numerators.get(v.denominator, 0) + v.numerator
    return sum((Fraction(n, q) for q, n in numerators.items()), Fraction(0))


def _paired_p(paired: list[CasePair]) -> float:
    worse = sum(1 for c in paired if c.change == "worse")
    return mcnemar_exact(worse, sum(1 for c in paired if c.change == "better"))


def _mean_scored(paired: list[CasePair], side: str) -> float:
    counts = [c.counts(side)[1] for c in paired]
    return sum(counts) / len(counts) if counts else 1.0


def _verdicts_differ(samples_a: tuple[Sample, ...], samples_b: tuple[Sample, ...]) -> bool:
    """Some scored repeat in A and some scored repeat in B got different verdicts: only then can a
    scoring change (the same answers, another verdict) be seen."""
    # is_scored inline (a status among SCORED): a history holds thousands of samples a case
    scored_a = {s.status for s in samples_a if s.status in SCORED}
    scored_b = {s.status for s in samples_b if s.status in SCORED}
    return bool(scored_a and scored_b) and not (len(scored_a) == 1 and scored_a == scored_b)


def _scoring_change(samples_a: tuple[Sample, ...], samples_b: tuple[Sample, ...]) -> bool:
    """Some repeat in A and some repeat in B got the same answers and different verdicts."""
    # Only repeats with answers can match, and each distinct (status, answers) once: against a
    # history A holds hundreds of repeats a case, most of them alike.
    answered_b = {(s.status, s.answers) for s in samples_b if s.answers and s.scored}
    if not answered_b:
        return False
    answered_a = {(s.status, s.answers) for s in samples_a if s.answers and s.scored}
    return any(
        same_answers(answers_a, answers_b)
        for status_a, answers_a in answered_a
        for status_b, answers_b in answered_b
        if status_a != status_b
    )


def _outcome(case_id: str, ra: CaseEntry | None, rb: CaseEntry | None) -> CasePair:
    group = (rb or ra or {}).get("group")
    # The answers are digested (a JSON text and a sha256 a step) only where a scoring change could
    # be seen; most cases got the same verdict on both sides.
    samples_a, undigested_a = samples_and_undigested(ra, False)
    samples_b, undigested_b = samples_and_undigested(rb, False)
    if _verdicts_differ(samples_a, samples_b):  # asked again only where some answer is undigested
        samples_a = case_samples(ra) if undigested_a else samples_a
        samples_b = case_samples(rb) if undigested_b else samples_b
    return CasePair(
        case_id=case_id,
        group=group if isinstance(group, str) else None,
        status_a=ra["status"] if ra else None,
        status_b=rb["status"] if rb else None,
        reason_a=_reason(ra),
        reason_b=_reason(rb),
        samples_a=samples_a,
        samples_b=samples_b,
        scoring_change=_scoring_change(samples_a, samples_b),
    )


def _reason(result: CaseEntry | None) -> str | None:
    """The result's ``reason``; for contract-minimal files without it, the first failing
    step's reason."""
    if result is None or result["status"] == "passed":
        return None
    reason = result.get("reason")
    if isinstance(reason, str):
        return reason
    for i, step in enumerate(result.get("steps") or []):
        if (
            isinstance(step, dict)
            and step.get("passed") is False
            and isinstance(step.get("reason"), str)
        ):
            return f"step {i + 1}: {step['reason']}"
    return None


def _metric_delta(name: str, ma: Mapping[str, Any], mb: Mapping[str, Any]) -> MetricDelta:
    # free JSON: a metric's entry as written (``rate``, ``ci``), read across format versions
    a_rate, b_rate = _number(ma.get("rate")), _number(mb.get("rate"))
    return MetricDelta(
        name=name,
        a_rate=a_rate,
        b_rate=b_rate,
        delta=None if a_rate is None or b_rate is None else b_rate - a_rate,
        a_ci=_ci(ma.get("ci")),
        b_ci=_ci(mb.get("ci")),
    )


def _number(value: Any) -> float | None:
    if isinstance(value, bool) or not isinstance(value, int | float):
        return None
    return float(value)


def _ci(value: Any) -> tuple[float, float] | None:
    if isinstance(value, list) and len(value) == 2:
        lo, hi = _number(value[0]), _number(value[1])
        if lo is not None and hi is not None:
            return (lo, hi)
    return None
