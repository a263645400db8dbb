"""Reading the report's inputs from disk: every problem becomes one ``LobstackError`` line naming the file."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from scorer.errors import ResultsError, SuiteError


def _read_json(path: Path, error: type[ResultsError] | type[SuiteError], what: str) -> Any:
    """Parse ``path`` as JSON, turning a missing or corrupt file into ``error`` naming it."""
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise error(f"{what} not found: {path}") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise error(f"cannot read {what} {path}: {exc}") from None
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise error(f"{what} {path} is not valid JSON: line {exc.lineno} column {exc.colno}: {exc.msg}") from None


def load_results(path: Path) -> dict[str, Any]:
    """Load one ``results.json``; it must be an object with ``model``, ``metrics`` and a ``results`` list."""
    data = _read_json(path, ResultsError, "results file")
    if not isinstance(data, dict):
        raise ResultsError(f"results file {path} is not a JSON object")
    for key, kind in (("model", str), ("metrics", dict), ("results", list)):
        if not isinstance(data.get(key), kind):
            raise ResultsError(f"results file {path}: field {key!r} is missing or not a {kind.__name__}")
    return data


def load_suite(path: Path) -> dict[str, Any]:
    """Load a suite file as plain JSON; the report only needs its ``cases`` list (and name/version to show)."""
    data = _read_json(path, SuiteError, "suite file")
    if not isinstance(data, dict) or not isinstance(data.get("cases"), list):
        raise SuiteError(f"suite file {path}: field 'cases' is missing or not a list")
    return data


def results_paths(reports_dir: Path) -> list[Path]:
    """``<dir>/results.json`` for every model directory of ``reports_dir``, sorted by directory name."""
    if not reports_dir.is_dir():
        raise ResultsError(f"reports directory not found: {reports_dir}")
    # Hidden directories (editor or tool caches) are not model directories.
    dirs = sorted(p for p in reports_dir.iterdir() if p.is_dir() and not p.name.startswith("."))
    if not dirs:
        raise ResultsError(f"no model directories in {reports_dir}")
    return [d / "results.json" for d in dirs]
