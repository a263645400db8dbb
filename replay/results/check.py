"""What a results document must hold to be read at all (its format version, model, suite, metrics'
rates and case entries with known statuses): one check, one error style. ``replay.results.read``
runs it on every file it loads; the typed summary (``replay.results.summary``) checks its own
fields."""

from __future__ import annotations

from typing import Any

from scorer.errors import ResultsError
from scorer.format_version import format_version_problem
from scorer.results import FORMAT_VERSION
from scorer.status import STATUSES
from scorer.suite.file import VERSION_RE
from scorer.summary import METRICS


def _is_status(value: Any) -> bool:
    # Type first: only a string is a status (STATUSES holds strings).
    return isinstance(value, str) and value in STATUSES


def results_problem(data: Any) -> str | None:
    """The first reason ``data`` is not a usable results document, or None."""
    if not isinstance(data, dict):
        return "not a results object"
    # first: another version may have another shape
    version = format_version_problem(data, FORMAT_VERSION)
    if version:
        return version
    if not isinstance(data.get("model"), str):
        return "missing string field 'model'"
    suite = data.get("suite")
    if not isinstance(suite, dict) or not isinstance(suite.get("version"), str):
        return "missing field 'suite.version'"
    # it names a rows partition: "1.1.0\n" must not reach one
    if not VERSION_RE.fullmatch(suite["version"]):
        return f"field 'suite.version': {suite['version']!r} is not MAJOR.MINOR.PATCH"
    metrics = data.get("metrics")
    if not isinstance(metrics, dict):
        return "missing object field 'metrics'"
    for name in METRICS:
        metric = metrics.get(name)
        if not isinstance(metric, dict) or "rate" not in metric:
            return f"missing field 'metrics.{name}.rate'"
    repeats = data.get("repeats", 1)
    if isinstance(repeats, bool) or not isinstance(repeats, int) or repeats < 1:
        return "field 'repeats' must be a whole number >= 1"
    results = data.get("results")
    if not isinstance(results, list):
        return "missing list field 'results'"
    seen: set[str] = set()
    for i, result in enumerate(results):
        if not isinstance(result, dict) or not isinstance(result.get("id"), str):
            return f"results[{i}]: missing string field 'id'"
        if not _is_status(result.get("status")):
            return f"results[{i}] ({result['id']}): status must be one of {sorted(STATUSES)}"
        if result["id"] in seen:
            return f"results[{i}]: duplicate case id {result['id']!r}"
        seen.add(result["id"])
        runs = result.get("runs")
        if runs is not None and not (
            isinstance(runs, list)
            and runs
            and all(isinstance(r, dict) and _is_status(r.get("status")) for r in runs)
        ):
            return (
                f"results[{i}] ({result['id']}): 'runs' must be a list of repeats, each with a "
                "status"
            )
    return None


def check_results(data: Any, where: str = "") -> None:
    """Raise ResultsError (``where`` first, when given) for ``data`` that ``results_problem``
    refuses."""
    problem = results_problem(data)
    if problem:
        raise ResultsError(f"{where}: {problem}" if where else problem)
