"""A model's history as side A (pure): several earlier runs of the same model merged into one
results document.

Each case's repeats are every scored or unscored sample the runs hold (each run's repeats, in the
order given), so the gate sees a case that passed 20 of 20 earlier runs apart from one that flipped
6 times in 20. The merged document is the first run's (its metrics, its suite, its case order, then
the cases only later runs have) with ``results[].runs`` holding every sample, ``repeats`` the total,
and ``history`` naming the runs. Rules (docs/decisions/history-gate.md): every run must be of the
same model and the same suite name and version as B (another model or suite version is an error, not
a comparison); a case missing or unscored in some runs is judged on the runs that scored it (under
"same model" the rest stay exchangeable).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from replay.diff_runs.compare import HISTORY_KEY
from replay.diff_runs.samples import case_samples
from replay.results.cases import CaseEntry
from replay.results.typed import ResultsDocument, document_repeats
from scorer.errors import ResultsError
from scorer.repeats import aggregate_status
from scorer.status import STATUSES
from scorer.wire.settings import results_wire


def merge_history(model: str, runs: Sequence[tuple[str, ResultsDocument]]) -> ResultsDocument:
    """One document for ``model`` from its earlier runs (source name, results document), first
    run first.

    A run of another model, or of another suite name or version than the first, is a ResultsError
    naming its source. One run is returned as it is."""
    if not runs:
        raise ResultsError(f"the history of {model!r} holds no run")
    first_source, first = runs[0]
    suite = _suite(first)
    for source, doc in runs:
        if doc["model"] != model:
            raise ResultsError(
                f"{source}: holds model {doc['model']!r}, not {model!r}: a history is earlier runs "
                "of the same model (compare two models with two runs, not a history)"
            )
        if results_wire(doc) != results_wire(first):
            raise ResultsError(
                f"{source}: recorded as {results_wire(doc)}, but {first_source} as "
                f"{results_wire(first)}: a history is runs of one dialect, streaming and --param "
                "(compare two wires with two runs, not a history)"
            )
        if _suite(doc) != suite:
            raise ResultsError(
                f"{source}: scored with suite {_name(_suite(doc))}, but {first_source} with "
                f"{_name(suite)}: a history is runs of one suite version (rescore them with one "
                "suite)"
            )
    if len(runs) == 1:
        return first
    samples: dict[str, list[CaseEntry]] = {}
    merged: dict[str, CaseEntry] = {}
    for _, doc in runs:
        for result in doc["results"]:
            case_id = result["id"]
            if case_id not in merged:
                merged[case_id] = {k: v for k, v in result.items() if k != "runs"}
                samples[case_id] = []
            status = result["status"]
            if "runs" in result or "steps" in result or status not in STATUSES:
                samples[case_id].extend(_samples(result))
            else:  # a run without repeats or steps, the common case: its status alone
                samples[case_id].append({"status": status})
    results = []
    for case_id, result in merged.items():
        runs_of_case = samples[case_id]
        result["runs"] = runs_of_case
        result["status"] = aggregate_status([s["status"] for s in runs_of_case])
        results.append(result)
    return {
        **first,
        "results": results,
        "repeats": sum(document_repeats(doc) for _, doc in runs),
        HISTORY_KEY: {"runs": [source for source, _ in runs]},
    }


def _samples(result: CaseEntry) -> list[CaseEntry]:
    """A case's samples in one run, with the digests of their answers where the run kept them."""
    runs, plain = result.get("runs"), []
    for run in runs if isinstance(runs, list) else ():
        # A repeat with neither stored digests nor steps: its status alone, as case_samples gives
        # it, without building the Sample (a history merges thousands of repeats).
        if "answers_sha256" in run or "steps" in run or run["status"] not in STATUSES:
            break
        plain.append({"status": run["status"]})
    else:
        if plain:
            return plain
    return [
        {"status": s.status}
        if s.answers is None
        else {"status": s.status, "answers_sha256": list(s.answers)}
        for s in case_samples(result)
    ]


def _suite(doc: ResultsDocument) -> tuple[Any, Any]:
    return doc["suite"].get("name"), doc["suite"].get("version")


def _name(suite: tuple[Any, Any]) -> str:
    return f"{suite[0]} {suite[1]}"
