"""Reading a run (the I/O edge of ``diff runs``): a results.json file, a model report dir or a reports dir."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from replay.results_file import read_results
from scorer.errors import ResultsError


def load_run(path: Path) -> dict[str, dict[str, Any]]:
    """Read a run: a results.json file, a model report dir holding one, or a reports dir of model dirs.

    Returns model name -> results dict. Raises ResultsError naming the file for anything unreadable.
    """
    if path.is_file():
        files = [path]
    elif path.is_dir():
        direct = path / "results.json"
        files = [direct] if direct.is_file() else sorted(path.glob("*/results.json"))
        if not files:
            raise ResultsError(f"{path}: no results.json in this directory or its model directories")
    else:
        raise ResultsError(f"{path}: no such file or directory")
    run: dict[str, dict[str, Any]] = {}
    for file in files:
        results = read_results(file)
        model = results["model"]
        if model in run:
            raise ResultsError(f"{file}: model {model!r} appears twice in {path}")
        run[model] = results
    return dict(sorted(run.items()))
