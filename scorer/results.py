"""The results.json document (docs/FORMATS.md, "results.json"), deterministic to the byte."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, TypeVar

from scorer.json_text import dumps_indented
from scorer.outcome import Attempt, CaseOutcome, StepRecord
from scorer.suite.model import Suite
from scorer.wire.headers import dropped_params

T = TypeVar("T")

FORMAT_VERSION = 1


def dropped_temperature(outcomes: Sequence[CaseOutcome]) -> bool | None:
    """True when any answer said (in ``x-lobstack-dropped-params``) that it dropped
    ``temperature``; else False when some answer came from a gateway that would have said so
    (``Attempt.lobstack``), and None (unknown) when none did (METHOD.md#temperature-unknown)."""
    attempts = [a for o in outcomes for a in o.attempts]
    if any("temperature" in dropped_params(a.dropped_params) for a in attempts):
        return True
    return False if any(a.lobstack for a in attempts) else None


def _step_document(step: StepRecord) -> dict[str, Any]:
    verdict, response = step.verdict, step.response
    calls = []
    if response is not None:
        for i, call in enumerate(response.tool_calls):
            facts = verdict.calls[i] if verdict is not None else None
            calls.append(
                {
                    "id": call.id,
                    "name": call.name,
                    "arguments": call.arguments,
                    "arguments_form": facts.arguments_form if facts else None,
                    "offered": facts.offered if facts else None,
                    "parsed": facts.parsed if facts else None,
                    "schema_valid": facts.schema_valid if facts else None,
                }
            )
    document = {
        "index": step.index,
        "passed": bool(verdict and verdict.passed),
        "reason": verdict.reason if verdict else None,
        "response": None
        if response is None
        else {"content": response.content, "model": response.model, "tool_calls": calls},
    }
    if response is not None and response.anomalies:  # streamed answers only: else as always
        document["transport_anomalies"] = list(response.anomalies)
    return document


def first_byte_p50(document: dict[str, Any]) -> float | None:
    """The median time to first byte of a streamed run's answered attempts (ms), None without
    one; latency p50 stays the whole answer's."""
    import statistics

    values = [
        a["first_byte_ms"]
        for entry in document.get("results", [])
        for a in entry.get("attempts", [])
        if a.get("first_byte_ms") is not None
    ]
    return float(statistics.median(values)) if values else None


def anomaly_counts(document: dict[str, Any]) -> dict[str, Any]:
    """results.json's ``transport_anomalies``: how many case-runs' answers had one, by kind."""
    kinds: dict[str, int] = {}
    cases = 0
    for entry in document.get("results", []):
        seen = [a for step in entry.get("steps", []) for a in step.get("transport_anomalies", [])]
        cases += bool(seen)
        for kind in seen:
            kinds[kind] = kinds.get(kind, 0) + 1
    return {"cases": cases, "kinds": dict(sorted(kinds.items()))}


def _attempt_document(attempt: Attempt) -> dict[str, Any]:
    document = {
        "step": attempt.step,
        "attempt": attempt.attempt,
        "outcome": attempt.outcome,
        "status": attempt.status,
        "wall_ms": attempt.wall_ms,
        "cost_usd": attempt.cost_usd,
    }
    if attempt.cost_source is not None:  # only then: a header-priced attempt reads as it always did
        document["cost_source"] = attempt.cost_source
    if attempt.first_byte_ms is not None:  # streamed runs only
        document["first_byte_ms"] = attempt.first_byte_ms
    return document


def case_document(outcome: CaseOutcome) -> dict[str, Any]:
    """One entry of ``results``."""
    return {
        "id": outcome.case.id,
        "group": outcome.case.group,
        "status": outcome.status,
        "reason": outcome.reason,
        "steps": [_step_document(step) for step in outcome.steps],
        "attempts": [_attempt_document(a) for a in outcome.attempts],
    }


def suite_ref(suite: Suite) -> dict[str, str]:
    """The ``suite`` block of a results file."""
    return {"name": suite.name, "version": suite.version, "sha256": suite.sha256}


def results_document(
    suite: Suite,
    model: str,
    model_slug: str,
    outcomes: Sequence[CaseOutcome],
    recorded_suite: dict[str, str] | None = None,
) -> dict[str, Any]:
    """The results.json document of one model without its summary fields: the run's facts and one
    entry per case. ``replay.scored.summarized`` adds the summary, computed from the document's
    own rows."""
    outcomes = in_suite_order(suite, outcomes, lambda o: o.case.id)
    return {
        **run_fields(suite, model, model_slug, recorded_suite, outcomes),
        "results": [case_document(o) for o in outcomes],
    }


def in_suite_order(suite: Suite, items: Sequence[T], case_id: Callable[[T], str]) -> list[T]:
    """``items`` in the suite's case order (anything the suite lacks last, in its given order)."""
    order = {case.id: i for i, case in enumerate(suite.cases)}
    return sorted(items, key=lambda item: order.get(case_id(item), len(order)))


def run_fields(
    suite: Suite,
    model: str,
    model_slug: str,
    recorded_suite: dict[str, str] | None,
    outcomes: Sequence[CaseOutcome],
) -> dict[str, Any]:
    """The fields every results.json has about the run as a whole that its rows do not compute: what
    was scored with what, and whether the gateway dropped the temperature (each row carries it)."""
    return {
        "format_version": FORMAT_VERSION,
        "suite": suite_ref(suite),
        "recorded_suite": recorded_suite,
        "model": model,
        "model_slug": model_slug,
        "temperature_ignored": dropped_temperature(outcomes),
    }


def dumps(document: Any) -> str:
    """Deterministic JSON text: sorted keys, two-space indent, UTF-8 text, floats by repr
    (``json.dumps``'s text)."""
    return dumps_indented(document) + "\n"
