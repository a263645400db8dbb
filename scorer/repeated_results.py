"""The results.json document of a run with K > 1 repeats per case (docs/FORMATS.md, "Repeats").

It is the K = 1 document with every figure taken over all scored case-runs, plus ``repeats``, ``case_runs``,
``pass_k_curve``, the metrics ``pass_all_k``, ``pass_any_k`` and ``flaky``, and per case its repeats. A K = 1
run never goes through here, so its file stays exactly what it was.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import Any

from scorer.answers import answer_digests
from scorer.outcome import CaseOutcome
from scorer.repeated_metrics import compute_repeated_metrics
from scorer.repeats import aggregate_status, pass_k_curve, repeat_metrics, representative
from scorer.results import FORMAT_VERSION, case_document, dropped_temperature, routed_models, suite_ref
from scorer.suite_model import Suite

SCORED = ("passed", "failed")


def repeated_case_document(repeats: Sequence[CaseOutcome]) -> dict[str, Any]:
    """One entry of ``results``: the case over its repeats, the representative repeat's steps and attempts, and
    every repeat under ``runs``."""
    runs = [case_document(o) for o in repeats]
    statuses = [o.status for o in repeats]
    shown = runs[representative(statuses)]
    for number, run in enumerate(runs, start=1):
        run["repeat"] = number
        run["answers_sha256"] = list(answer_digests(run["steps"]) or ())
        del run["id"], run["group"]
    return {
        **{k: v for k, v in shown.items() if k not in ("repeat", "answers_sha256")},
        "id": repeats[0].case.id,
        "group": repeats[0].case.group,
        "status": aggregate_status(statuses),
        "reason": None if shown["reason"] is None else f"repeat {shown['repeat']}: {shown['reason']}",
        "repeat_statuses": statuses,
        "passed_repeats": statuses.count("passed"),
        "scored_repeats": sum(1 for s in statuses if s in SCORED),
        "runs": runs,
    }


def repeated_results_document(
    suite: Suite,
    model: str,
    model_slug: str,
    runs: Sequence[Sequence[CaseOutcome]],
    repeats: int,
    recorded_suite: dict[str, str] | None = None,
) -> dict[str, Any]:
    """The whole results.json of a repeated run; ``runs[i]`` holds the ``repeats`` outcomes of one case."""
    from scorer.metrics import cost_per_100_cases, latency_p50_ms, total_cost_usd

    order = {case.id: i for i, case in enumerate(suite.cases)}
    runs = sorted(runs, key=lambda r: order.get(r[0].case.id, len(order)))
    flat = [o for repeats_of_case in runs for o in repeats_of_case]
    documents = [repeated_case_document(r) for r in runs]
    by_case = Counter(d["status"] for d in documents)
    by_run = Counter(o.status for o in flat)
    scored_runs = by_run["passed"] + by_run["failed"]
    metrics, groups = compute_repeated_metrics(runs)
    counts = [(d["passed_repeats"], d["scored_repeats"]) for d in documents]
    metrics.update(repeat_metrics(counts))
    total = total_cost_usd(flat)
    return {
        "format_version": FORMAT_VERSION,
        "suite": suite_ref(suite),
        "recorded_suite": recorded_suite,
        "model": model,
        "model_slug": model_slug,
        "repeats": repeats,
        "temperature_ignored": dropped_temperature(flat),
        "routed_models": routed_models(flat),
        "cases": {
            "total": len(documents),
            "scored": by_case["passed"] + by_case["failed"],
            "errored": by_case["errored"],
            "unrecorded": by_case["unrecorded"],
        },
        "case_runs": {
            "total": len(flat),
            "scored": scored_runs,
            "errored": by_run["errored"],
            "unrecorded": by_run["unrecorded"],
        },
        "metrics": metrics,
        "groups": groups,
        "pass_k_curve": pass_k_curve(counts, repeats),
        "latency_p50_ms": latency_p50_ms(flat),
        "cost_per_100_cases_usd": cost_per_100_cases(total, scored_runs),
        "cost_usd": float(total) if total is not None else None,
        "results": documents,
    }
