"""Reading the report's inputs from disk: every problem becomes one ``LobstackError`` line naming the file."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from recorder.files import read_json
from replay.results_file import read_results
from scorer.errors import ResultsError, SuiteError


def load_results(path: Path) -> dict[str, Any]:
    """Load one ``results.json`` (``ResultsError`` naming the file when it is missing, corrupt or misshapen)."""
    return read_results(path)


def load_suite(path: Path) -> dict[str, Any]:
    """Load a suite file as plain JSON; the report only needs its ``cases`` list (and name/version to show)."""
    data = read_json(path, "suite file", SuiteError)
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
