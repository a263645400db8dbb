"""Reading a run (the I/O edge of ``diff runs``): a results.json file, a model report dir or a
reports dir; and a history of earlier runs as side A."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from pathlib import Path

from replay.diff_runs.compare import HISTORY_NOTES
from replay.diff_runs.history import merge_history
from replay.diff_runs.window import check_window
from replay.results.read import expand_pattern, read_results
from replay.results.typed import ResultsDocument
from scorer.errors import ResultsError, UsageError


def _raise(exc: ResultsError, _path: Path) -> None:
    raise exc


def load_run(
    path: Path,
    on_error: Callable[[ResultsError, Path], None] = _raise,
    given: str | None = None,
) -> dict[str, ResultsDocument]:
    """Read a run: a results.json file, a model report dir holding one, or a reports dir of
    model dirs.

    Returns model name -> results dict. Anything unreadable is a ResultsError naming the file,
    raised at once; with ``on_error`` each one goes there instead, with the path it is about (the
    file, or ``path`` when there is none), and every other file is still read, so a caller can name
    every bad file of a run, not only the first. ``given`` says where ``path`` came from (``run A
    (the baseline) old``, ``--lobstack-baseline old``): a path with nothing in it is named so, as
    a bare path does not say which of two runs is missing.
    """
    named = given or str(path)
    if path.is_file():
        files = [path]
    elif path.is_dir():
        direct = path / "results.json"
        files = [direct] if direct.is_file() else sorted(path.glob("*/results.json"))
        if not files:
            on_error(
                ResultsError(
                    f"{named}: no results.json in this directory or its model directories"
                ),
                path,
            )
    else:
        files = []
        on_error(ResultsError(f"{named}: no such file or directory"), path)
    run: dict[str, ResultsDocument] = {}
    for file in files:
        try:
            results = read_results(file)
        except ResultsError as exc:
            on_error(exc, file)
            continue
        if results.model in run:
            on_error(ResultsError(f"{file}: model {results.model!r} appears twice in {path}"), file)
            continue
        # diff runs reads each case's entries itself, leniently across format versions (a file of
        # an older lobstack-eval still compares: docs/FORMATS.md), so it keeps the document
        run[results.model] = results.document
    return dict(sorted(run.items()))


def history_paths(patterns: Sequence[str], option: str = "--history") -> list[Path]:
    """The paths of ``--history`` options: a pattern with ``*``, ``?`` or ``[`` is expanded
    (sorted), so a CI step can pass ``'runs/*/reports'`` quoted; one that matches nothing is a
    UsageError (an empty history is a mistake, not a comparison against nothing)."""
    paths: list[Path] = []
    for pattern in patterns:
        found = expand_pattern(pattern)
        if found is None:
            paths.append(Path(pattern))
        elif not found:
            raise UsageError(f"{option} {pattern}: matches nothing")
        else:
            paths += found
    return paths


def load_history(
    paths: Sequence[Path],
    b_models: Sequence[str],
    on_error: Callable[[ResultsError, Path], None] = _raise,
    given: Sequence[str] = (),
    b: tuple[Path, dict[str, ResultsDocument]] | None = None,
) -> dict[str, ResultsDocument]:
    """Side A as a history: the runs at ``paths`` (the first is A; the same path twice counts once),
    each model's runs checked for a change (``replay.diff_runs.window``) and merged by
    ``merge_history``. A run holding none of B's models (``b_models``) is an error: a history is
    earlier runs of the same model. ``b`` (B's path and run): B found in its own history (the same
    path, or a run with B's run id and date) is left out of it with a note. Errors go to
    ``on_error`` like ``load_run``'s; ``given`` (one per path) says where each came from, as
    ``load_run``'s does."""
    seen: set[Path] = set() if b is None else {b[0].resolve()}
    notes: dict[str, list[str]] = {}
    if b is not None and any(p.resolve() == b[0].resolve() for p in paths):
        for model in b[1]:
            notes.setdefault(model, []).append(
                f"note: {model}: B ({b[0]}) is in its own history; left out of it"
            )
    runs: dict[str, list[tuple[str, ResultsDocument]]] = {}
    for index, path in enumerate(paths):
        key = path.resolve()
        if key in seen:
            continue
        seen.add(key)
        run = load_run(path, on_error, given[index] if index < len(given) else None)
        if run and not set(run) & set(b_models):
            on_error(
                ResultsError(
                    f"{path}: holds {_names(run)}, none of B's models ({_names(b_models)}): a "
                    "history is earlier runs of the same model"
                ),
                path,
            )
            continue
        for model, results in run.items():
            if b is not None and model in b[1] and same_run(results, b[1][model]):
                notes.setdefault(model, []).append(
                    f"note: {model}: {path} is B's own run (run id {results['run']['id']!r}); "
                    "left out of its history"
                )
                continue
            runs.setdefault(model, []).append((str(path), results))
    merged: dict[str, ResultsDocument] = {}
    for model, model_runs in sorted(runs.items()):
        try:
            kept, window_notes = check_window(model, model_runs)
            history = merge_history(model, kept)
        except ResultsError as exc:
            on_error(exc, Path(model_runs[0][0]))
            continue
        merged[model] = {**history, HISTORY_NOTES: [*notes.get(model, []), *window_notes]}
    return merged


def same_run(a: ResultsDocument, b: ResultsDocument) -> bool:
    """Two results documents of one recorded run: the same ``run`` id and date."""
    run_a, run_b = a.get("run"), b.get("run")
    if not isinstance(run_a, dict) or not isinstance(run_b, dict):
        return False
    return run_a.get("id") is not None and (run_a.get("id"), run_a.get("date")) == (
        run_b.get("id"),
        run_b.get("date"),
    )


def _names(models: Iterable[str]) -> str:
    return ", ".join(repr(m) for m in sorted(models))
