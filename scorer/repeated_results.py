"""The results.json document of a run with K > 1 repeats per case (docs/FORMATS.md, "Repeats").

Each case entry is the case over its repeats, with every repeat under ``runs``. As for a K = 1 run,
the summary fields (figures over every scored case-run, plus the repeat fields) are added by
``replay.scored.summarized`` from the document's own rows.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from scorer.answers import answer_digests
from scorer.outcome import CaseOutcome
from scorer.repeats import aggregate_status, representative
from scorer.results import case_document, in_suite_order, run_fields
from scorer.status import is_scored
from scorer.suite.model import Suite


def repeated_case_document(repeats: Sequence[CaseOutcome]) -> dict[str, Any]:
    """One entry of ``results``: the case over its repeats, the representative repeat's steps and
    attempts, and every repeat under ``runs``."""
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
        "reason": None
        if shown["reason"] is None
        else f"repeat {shown['repeat']}: {shown['reason']}",
        "repeat_statuses": statuses,
        "passed_repeats": statuses.count("passed"),
        "scored_repeats": sum(1 for s in statuses if is_scored(s)),
        "runs": runs,
    }


def repeated_results_document(
    suite: Suite,
    model: str,
    model_slug: str,
    runs: Sequence[Sequence[CaseOutcome]],
    recorded_suite: dict[str, str] | None = None,
) -> dict[str, Any]:
    """A repeated run's results.json without its summary fields; ``runs[i]`` holds every outcome
    of one case."""
    runs = in_suite_order(suite, runs, lambda r: r[0].case.id)
    flat = [o for repeats_of_case in runs for o in repeats_of_case]
    fields = run_fields(suite, model, model_slug, recorded_suite, flat)
    return {**fields, "results": [repeated_case_document(r) for r in runs]}
