"""Reading a model's history for ``drift`` (the I/O edge): run dirs, results files, globs or a
parent dir of runs, each results.json carrying its ``run`` object (id, recorded date, recorded
identity; docs/FORMATS.md).

Every unreadable file is named on its own line before stopping (as ``diff runs`` does, METHOD
decision 93).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from pathlib import Path

from recorder.slug import model_slug
from replay.drift.identity import identity_of
from replay.results.cases import CaseEntry
from replay.results.read import expand_pattern, read_results
from replay.results.typed import ResultsDocument
from scorer.drift.history import RunRecord, tally_cases
from scorer.errors import HistoryError, ResultsError
from scorer.iso_date import is_iso_date
from scorer.wire.settings import results_wire


def results_files(paths: Sequence[Path], problem: Callable[[str], None]) -> list[Path]:
    """The results.json files that ``paths`` name: a file; a run dir holding results.json; a dir of
    run dirs (``*/results.json``) or of run dirs of model dirs (``*/*/results.json``); a quoted
    glob of any of these."""
    files: list[Path] = []
    for path in paths:
        matches = None if path.exists() else expand_pattern(str(path))
        if matches is not None:
            if not matches:
                problem(f"{path}: the pattern matches nothing")
            files.extend(f for m in matches for f in _files(m, problem))
        else:
            files.extend(_files(path, problem))
    return list(dict.fromkeys(files))  # a run named twice (a dir and its file) is one run


def _files(path: Path, problem: Callable[[str], None]) -> list[Path]:
    if path.is_file():
        return [path]
    if not path.is_dir():
        problem(f"{path}: no such file or directory")
        return []
    for pattern in ("results.json", "*/results.json", "*/*/results.json"):
        found = sorted(p for p in path.glob(pattern) if p.is_file())
        if found:
            if pattern != "results.json":
                _name_unscored_runs(path, found, problem)
            return found
    if any(path.glob("*/run.json")) or any(path.glob("*/*/run.json")):
        problem(
            f"{path}: recordings (run.json), not scored runs: rescore each run first, "
            f'e.g. for run in {path}/*; do lobstack-eval rescore "$run" --rows rows-history -q '
            "--no-html; done, then drift rows-history (docs/commands/drift.md)"
        )
        return []
    problem(f"{path}: no results.json in this directory, its run dirs or their model dirs")
    return []


def _name_unscored_runs(path: Path, found: list[Path], problem: Callable[[str], None]) -> None:
    """A parent of runs: each run dir with no results.json under it is named, not skipped. Linear
    in the runs: each file's first folder below ``path`` is looked up in a set (testing every run
    dir against every file was quadratic: 10,000 runs took minutes)."""
    scored = {f.relative_to(path).parts[0] for f in found}
    for run in sorted(c for c in path.iterdir() if c.is_dir() and c.name[0] != "."):
        if run.name not in scored:
            problem(f"{run}: no results.json (a run that was never scored?)")


def load_history(paths: Sequence[Path], model: str | None = None) -> list[RunRecord]:
    """Every run that ``paths`` name (only model ``model``'s when given); a HistoryError when any
    file is unreadable or undated: its message names the last one, its ``earlier`` every
    one before."""
    from replay.drift.rows import is_rows_root, rows_runs

    problems: list[str] = []
    runs = []
    seen: set[str] = set()
    slug = None if model is None else model_slug(model)
    for path in (p for p in paths if is_rows_root(p)):
        for run in rows_runs(path, slug, problems.append, seen):
            seen.add(run.model)
            if model is None or model in (run.model, model_slug(run.model)):
                runs.append(run)
    others = [p for p in paths if not is_rows_root(p)]
    wires: dict[str, str] = {}  # a run's dialect, streaming and --param: never pooled
    for file in results_files(others, problems.append):
        try:
            data = read_results(file).document
            run = run_record(file, data)
        except ResultsError as exc:
            problems.append(exc.message)
            continue
        wires.setdefault(results_wire(data), str(file))
        seen.add(run.model)
        if model is None or model in (run.model, model_slug(run.model)):
            runs.append(run)
    if len(wires) > 1:
        listed = ", ".join(f"{wire!r} ({source})" for wire, source in sorted(wires.items()))
        problems.append(
            f"a history holds runs of one dialect, streaming and --param; these runs have "
            f"{len(wires)}: {listed}"
        )
    if problems:
        raise HistoryError(problems[-1], tuple(problems[:-1]))
    if not runs:
        where = " ".join(str(p) for p in paths)
        raise HistoryError(
            f"no run of model {model!r} in {where}; models there: {', '.join(sorted(seen))}"
            if model and seen
            else f"no run of model {model!r} in {where}"
            if model
            else f"no run in {where}"
        )
    return runs


def run_record(file: Path, data: ResultsDocument) -> RunRecord:
    """One results document as a dated run; a ResultsError naming the file and field when ``run`` is
    missing or misshapen (the date must be the recording's own: there is no fallback to a
    file time)."""
    run = data.get("run")
    if not isinstance(run, dict):
        raise ResultsError(
            f"{file}: no 'run' object (id and recorded date): rescore the recording with a "
            "lobstack-eval that records runs"
        )
    run_id, date = run.get("id"), run.get("date")
    if not isinstance(run_id, str) or not run_id.strip():
        raise ResultsError(f"{file}: field 'run.id' must be a non-empty string")
    if not isinstance(date, str) or not is_iso_date(date):
        raise ResultsError(f"{file}: field 'run.date' must be a date YYYY-MM-DD, got {date!r}")
    suite = data["suite"]
    return RunRecord(
        source=str(file),
        run_id=run_id,
        date=date,
        model=data["model"],
        suite=f"{suite.get('name', '?')} {suite['version']}",
        identity=identity_of(file, run.get("identity")),
        cases=tally_cases(_statuses(data["results"])),
        suite_sha256=suite["sha256"] if isinstance(suite.get("sha256"), str) else None,
    )


def _statuses(results: list[CaseEntry]) -> Iterator[tuple[str, str]]:
    """Each repeat's (case id, status) of a checked document's entries, read in place: the
    ``CaseResult`` objects ``case_entries`` builds cost more than the tally (10,000 runs)."""
    for entry in results:
        runs = entry.get("runs")
        if runs:
            case_id = entry["id"]
            for run in runs:
                yield case_id, run["status"]
        else:
            yield entry["id"], entry["status"]
