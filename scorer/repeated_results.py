"""The results.json document of a run with K > 1 repeats per case (docs/FORMATS.md, "Repeats").

It is the K = 1 document with every figure taken over all scored case-runs, plus ``repeats``, ``case_runs``,
``pass_k_curve``, the metrics ``pass_all_k``, ``pass_any_k`` and ``flaky``, and per case its repeats. A K = 1
run never goes through here, so its file stays exactly what it was.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from scorer.answers import answer_digests
from scorer.outcome import CaseOutcome
from scorer.repeated_metrics import compute_repeated_metrics
from scorer.repeats import aggregate_status, pass_k_curve, repeat_metrics, representative
from scorer.results import case_document, in_suite_order, run_fields, status_counts
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
    runs = in_suite_order(suite, runs, lambda r: r[0].case.id)
    flat = [o for repeats_of_case in runs for o in repeats_of_case]
    documents = [repeated_case_document(r) for r in runs]
    case_runs = status_counts([o.status for o in flat])
    metrics, groups = compute_repeated_metrics(runs)
    counts = [(d["passed_repeats"], d["scored_repeats"]) for d in documents]
    metrics.update(repeat_metrics(counts))
    return {
        **run_fields(suite, model, model_slug, recorded_suite, flat, case_runs["scored"]),
        "repeats": repeats,
        "cases": status_counts([d["status"] for d in documents]),
        "case_runs": case_runs,
        "metrics": metrics,
        "groups": groups,
        "pass_k_curve": pass_k_curve(counts, repeats),
        "results": documents,
    }
