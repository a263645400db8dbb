"""``rescore``: every metric recomputed from cassettes alone, with the current suite and scorer.
No network.

Each model dir is replayed through the same runner that recorded it (cassette-backed transport),
judged by ``scorer``, summarized from its rows (``replay.scored``), and written as
``<out>/<slug>/results.json``, etc."""

from __future__ import annotations

import sys
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING

from fileio.atomic import write_atomic
from fileio.safe_paths import inside, link_in
from recorder.files import read_suite
from replay.debug import UNFORESEEN, unforeseen
from replay.score_models import (
    ModelReport,
    ScoredModel,
    find_model_dirs,
    model_dirs,
    rescore_model,
    score_all,
    score_model,
    worker_count,
)
from replay.shard import Shard
from replay.stray import hidden_dir_warnings
from replay.version_note import version_lines
from scorer.errors import UsageError
from scorer.suite.model import Suite
from scorer.summary import ModelSummary

if TYPE_CHECKING:
    from replay.results.typed import Results

__all__ = [
    "UNFORESEEN",
    "ModelReport",
    "RescoreSummary",
    "ScoredModel",
    "find_model_dirs",
    "model_dirs",
    "rescore",
    "rescore_model",
    "score_all",
    "score_model",
    "unforeseen",
    "worker_count",
]


@dataclass(frozen=True)
class RescoreSummary:
    """What rescore wrote."""

    suite: Suite
    reports: list[ModelReport]
    out: Path
    files: list[Path]
    removed: list[Path] = field(
        default_factory=list
    )  # results.json files of models this run did not write
    summaries: list[ModelSummary] = field(default_factory=list)  # each written model's, slug order


def rescore(
    cassettes: Path,
    suite_path: Path,
    out: Path,
    workers: int | None = None,
    warn: Callable[[str], None] = lambda text: print(text, file=sys.stderr),
    html: bool = True,
    shard: Shard | None = None,
    rows: Path | None = None,
) -> RescoreSummary:
    """Rescore every model dir under ``cassettes`` and write results, the rows
    (cases/calls.parquet), the leaderboard from the rows, and (unless ``html`` is False) the HTML
    report; ``rows`` also appends the run's partitions to a rows dataset. A ``shard`` scores only
    its cases and writes no leaderboard or HTML. A case-run whose cassette cannot be used is
    unrecorded and listed in its ``ModelReport.unusable``; the model's other cases are scored and
    written. A model that cannot be scored at all (run.json missing or corrupt, another suite, or
    a folder of ``cassettes`` without run.json) is left out, its ``ModelReport.error`` says why,
    every other model is written. ``out`` then holds exactly this run's models: any other (stale)
    results.json there is removed."""
    from replay.leaderboard.report_tables import suite_ref, write_tables
    from replay.out.folder import remove_stale_results
    from replay.results.read import results_of
    from replay.rows.build import add_rows, frames_of_rows
    from replay.rows.schema import Rows
    from replay.rows.wires import wires_of

    if shard is not None and rows is not None:
        raise UsageError(
            "--rows with --shard: merge the shards first (lobstack-eval merge ... --rows DIR)"
        )
    html = html and shard is None
    suite = read_suite(suite_path)
    for line in hidden_dir_warnings(
        cassettes
    ):  # first: they may be why there are no model dirs at all
        warn(line)
    dirs, unusable = find_model_dirs(cassettes)
    if (
        rows is not None
    ):  # before scoring: a rows dir of another suite file refuses the run (METHOD decision 110)
        from replay.rows.dataset import check_suite

        check_suite(rows, suite.version, suite.sha256, {d.name for d in dirs})
    tables: Rows = {"cases": [], "calls": []}
    written: dict[str, Path] = {}

    def keep(report: ModelReport) -> None:
        # Each model as it comes, while a pool scores the next ones: its results.json and its rows.
        if not report.error:
            written[report.slug] = inside(out, report.slug, "results.json")
            write_atomic(written[report.slug], report.text, out)
            if report.rows is None:
                add_rows(tables, suite, report.results)
            else:  # the rows its summary was computed from: the same as add_rows gives
                tables["cases"].extend(report.rows["cases"])
                tables["calls"].extend(report.rows["calls"])

    if workers is not None and (used := worker_count(workers, len(dirs))) < workers:
        warn(f"warning: --workers {workers}: using {used} (at most one per model dir and CPU core)")
    reports = score_all(
        dirs, suite, workers, meanwhile=partial(_prepare, html), shard=shard, each=keep
    )
    reports += [ModelReport(folder.name, {}, "", None, line) for folder, line in unusable]
    reports.sort(key=lambda r: r.slug)
    files, removed = [], []
    # each document checked and typed once: every board, the page and the notes read these
    typed = [results_of(r.results) for r in reports if not r.error]
    for line in version_lines(suite, typed) + [r.warning for r in reports]:
        if line:
            warn(line)
    for report in reports:
        path = inside(out, report.slug, "results.json")
        if (
            report.error and link_in(out, path) is None and path.is_file()
        ):  # an old one must not pass for this run's
            path.unlink()
            removed.append(path)
        elif not report.error:
            files.append(written[report.slug])
    summaries = [t.summary for t in typed]
    wires = wires_of(r.results for r in reports if not r.error)
    files += write_tables(
        out, suite_ref(suite), summaries, frames_of_rows(tables), shard, rows, wires
    )
    if html:
        write_atomic(inside(out, "index.html"), _html(typed, suite_path), out)
        files.append(out / "index.html")
    removed += remove_stale_results(out, {r.slug for r in reports})
    return RescoreSummary(suite, reports, out, files, sorted(removed), summaries)


def _prepare(html: bool) -> None:
    """What this process needs after the pool, imported while the pool works: polars for the rows
    (the workers are forked by then), and for the page jinja2 (matplotlib only if a plot must be
    drawn: replay/html/_cache.py)."""
    import replay.leaderboard.report_tables
    import replay.rows.build

    replay.rows.build.schema("cases")  # imports polars
    if html:
        import replay.html


def _html(typed: list[Results], suite_path: Path) -> str:
    from recorder.files import read_suite_document
    from replay.html import render_report

    return render_report(typed, read_suite_document(suite_path))
