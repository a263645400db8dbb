"""Reading results.json files back (diff runs, the HTML report, merge, the plugin's baseline): one
check of their format version and shape, one error style."""

from __future__ import annotations

import glob
from pathlib import Path
from typing import Any

from fileio.reading import read_json
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
    version = format_version_problem(
        data, FORMAT_VERSION
    )  # first: another version may have another shape
    if version:
        return version
    if not isinstance(data.get("model"), str):
        return "missing string field 'model'"
    suite = data.get("suite")
    if not isinstance(suite, dict) or not isinstance(suite.get("version"), str):
        return "missing field 'suite.version'"
    if not VERSION_RE.fullmatch(
        suite["version"]
    ):  # it names a rows partition: "1.1.0\n" must not reach one
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


def read_results(path: Path) -> dict[str, Any]:
    """Load one results.json; a missing, corrupt or misshapen file is a ResultsError naming it."""
    data = read_json(path, "results file", ResultsError)
    check_results(data, str(path))
    return data


GLOB_CHARS = frozenset("*?[")


def expand_pattern(text: str) -> list[Path] | None:
    """The paths a quoted glob of runs matches, sorted (a CI step passes ``'runs/*/reports'``);
    None when ``text`` has no ``*``, ``?`` or ``[`` (a plain path). An empty list is for the
    caller to refuse: ``diff runs --history`` and ``drift`` each say it in their own words."""
    if not GLOB_CHARS & set(text):
        return None
    return sorted(Path(found) for found in glob.glob(text))
