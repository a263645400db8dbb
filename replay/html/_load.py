"""Reading the report's inputs from disk: every problem becomes one ``LobstackError`` line naming
the file."""

from __future__ import annotations

from pathlib import Path

from recorder.files import read_suite, read_suite_document
from replay.results.typed import SuiteData
from scorer.errors import ResultsError, SuiteError


def load_suite(path: Path) -> SuiteData:
    """Load a suite file (JSON, or YAML by its name) as plain data, the page's view of its cases
    (read-only: the same bytes at the same path give the same dict, once per process). An invalid
    suite is the error ``suite check`` gives (its first problem, with the case, field and YAML
    line): a page would show a broken case, or a misspelt field as if it were absent."""
    read_suite(path)
    data = read_suite_document(path)
    if not isinstance(data, dict):  # read_suite refused it; the file changed since
        raise SuiteError(f"{path}: the suite file changed while it was read")
    return data


def results_paths(reports_dir: Path) -> list[Path]:
    """``<dir>/results.json`` for every model directory of ``reports_dir``, sorted by
    directory name.

    A model directory is a folder holding a results.json; any other folder (plots, notes, an
    editor's cache) is not a model's results and is ignored."""
    if not reports_dir.is_dir():
        raise ResultsError(f"reports directory not found: {reports_dir}")
    paths = sorted(
        p / "results.json" for p in reports_dir.iterdir() if (p / "results.json").is_file()
    )
    if not paths and (reports_dir / "results.json").is_file():  # a model dir, not its parent
        raise ResultsError(
            f"{reports_dir}: one model's results (it holds a results.json), not a reports dir of "
            f"model dirs: name the dir it is in, {reports_dir.parent}"
        )
    if not paths:
        raise ResultsError(f"no model directories (folders with a results.json) in {reports_dir}")
    return paths
