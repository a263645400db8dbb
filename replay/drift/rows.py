"""A model's history read from a rows root (the I/O edge of ``drift``): the root
``rescore RUN --rows DIR`` writes for each run of a history, one partition per run
(``DIR/cases/suite_version=V/model_slug=S/run_id=R/``).

Each run partition holds what ``drift`` needs: every case-run's status, the run's id, date and
recorded identity (``run_id``, ``run_date``, ``run_identity``), the model and the suite, so a watch
keeps only the rows and ``drift`` reads them as it reads the runs' results.json files
(tests/test_drift_e2e.py checks that both give one verdict).
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from replay.rows.partition import has_versions
from scorer import strict_json
from scorer.drift.history import RunRecord, tally_cases
from scorer.errors import ResultsError

COLUMNS = (
    "model",
    "suite_name",
    "suite_version",
    "suite_sha256",
    "case_id",
    "status",
    "run_id",
    "run_date",
    "run_identity",
)


def is_rows_root(path: Path) -> bool:
    """True for a rows root (``cases/suite_version=V/...`` under it) or its ``cases``
    folder itself."""
    return path.is_dir() and (
        has_versions(path / "cases") or (path.name == "cases" and has_versions(path))
    )


def rows_runs(
    path: Path,
    model_slug: str | None,
    problem: Callable[[str], None],
    others: set[str] | None = None,
) -> list[RunRecord]:
    """Every run partition of the rows root ``path`` (only model slug ``model_slug``'s when given),
    one RunRecord each; each unreadable partition is handed to ``problem`` and left out. The slugs
    of the models left out go into ``others`` (folder names: no file opened), so a mistyped
    ``--model`` can be told which models are there."""
    from replay.rows.dataset import partitions
    from replay.rows.store import read_table

    root = path.parent if path.name == "cases" and not (path / "cases").is_dir() else path
    try:
        found = partitions(root)
    except ResultsError as exc:
        problem(exc.message)
        return []
    runs = []
    for partition in found:
        if model_slug is not None and partition.model_slug != model_slug:
            if others is not None:
                others.add(partition.model_slug)
            continue
        file = partition.file("cases")
        if partition.run_id is None:
            problem(
                f"{file}: rows of a plain recording, not a run of a history (no run_id, no date): "
                "drift reads rows written by `rescore cassettes/history/<run-id> --rows DIR`"
            )
            continue
        try:
            runs.append(_record(file, read_table(file, "cases")))
        except ResultsError as exc:
            problem(exc.message)
    return runs


def _record(file: Path, frame: Any) -> RunRecord:
    """One run partition's rows as a dated run: a ResultsError naming the file when it holds none
    or several."""
    from replay.drift.identity import identity_of

    # each column read once as a list, the distinct values counted by Python's sets: the same
    # values and verdicts as polars' unique() (nulls are one value there, None one here), without
    # a polars query per question (a quarter of the CPU of reading a run before)
    column = {name: frame.get_column(name).to_list() for name in COLUMNS}
    key = ("model", "suite_name", "suite_version", "suite_sha256", "run_id")
    keys = set(zip(*(column[name] for name in key), strict=True))
    if len(keys) != 1:
        raise ResultsError(f"{file}: expected the rows of one run of one model, found {len(keys)}")
    model, suite_name, suite_version, sha256, run_id = next(iter(keys))
    dates = {date for date in column["run_date"] if date is not None}
    if len(dates) != 1:
        raise ResultsError(f"{file}: column 'run_date' must hold the run's one date")
    identities = set(column["run_identity"])
    identity, usable = None, len(identities) == 1
    if usable:
        (identity,) = identities
        if isinstance(identity, str):
            try:  # the one bounded parser: text that is not strict JSON is no identity, and is said
                identity = strict_json.loads_file(identity)
            except ValueError:
                usable = False
    if not usable or not (identity is None or isinstance(identity, dict)):
        raise ResultsError(f"{file}: column 'run_identity' must hold the run's one identity (JSON)")
    return RunRecord(
        source=str(file),
        run_id=run_id,
        date=next(iter(dates)).isoformat(),
        model=model,
        suite=f"{suite_name or '?'} {suite_version}",
        identity=identity_of(file, identity),
        cases=tally_cases(zip(column["case_id"], column["status"], strict=True)),
        suite_sha256=sha256,
    )
