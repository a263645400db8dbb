"""Reading a run (the I/O edge of ``diff runs``): a results.json file, a model report dir or a reports dir."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from replay.results_file import read_results
from scorer.errors import ResultsError


def _raise(exc: ResultsError, _path: Path) -> None:
    raise exc


def load_run(
    path: Path, on_error: Callable[[ResultsError, Path], None] = _raise
) -> dict[str, dict[str, Any]]:
    """Read a run: a results.json file, a model report dir holding one, or a reports dir of model dirs.

    Returns model name -> results dict. Anything unreadable is a ResultsError naming the file, raised at once;
    with ``on_error`` each one goes there instead, with the path it is about (the file, or ``path`` when there is
    none), and every other file is still read, so a caller can name every bad file of a run, not only the first.
    """
    if path.is_file():
        files = [path]
    elif path.is_dir():
        direct = path / "results.json"
        files = [direct] if direct.is_file() else sorted(path.glob("*/results.json"))
        if not files:
            on_error(
                ResultsError(f"{path}: no results.json in this directory or its model directories"),
                path,
            )
    else:
        files = []
        on_error(ResultsError(f"{path}: no such file or directory"), path)
    run: dict[str, dict[str, Any]] = {}
    for file in files:
        try:
            results = read_results(file)
        except ResultsError as exc:
            on_error(exc, file)
            continue
        model = results["model"]
        if model in run:
            on_error(ResultsError(f"{file}: model {model!r} appears twice in {path}"), file)
            continue
        run[model] = results
    return dict(sorted(run.items()))
