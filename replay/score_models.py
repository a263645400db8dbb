"""Scoring model dirs: each replayed through the runner that recorded it, judged and summarized, in
a process pool when there are many (``rescore`` writes what this returns)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from recorder.files import read_suite
from recorder.manifest import MANIFEST
from recorder.manifest_read import read_manifest
from recorder.run_stamp import HISTORY
from replay.case_replay import UnusableCassette, replay_case_run
from replay.cassettes.transport import Interaction
from replay.debug import UNFORESEEN, unforeseen
from replay.results.typed import ResultsDocument
from replay.rows.build import document_rows, run_columns
from replay.rows.schema import Rows
from replay.run_document import run_document
from replay.scored import summary_of_rows
from replay.shard import Shard
from replay.stray import stray_warning
from replay.version_note import check_manifest_suite
from scorer.errors import CassetteError, LobstackError
from scorer.json_text import loads_text
from scorer.repeated_results import repeated_results_document
from scorer.results import anomaly_counts, dumps, first_byte_p50, results_document
from scorer.suite.model import Suite

POOL_THRESHOLD = 4  # below this many model dirs, a process pool costs more than it saves


def find_model_dirs(cassettes: Path) -> tuple[list[Path], list[tuple[Path, str]]]:
    """The model dirs (folders holding run.json) under ``cassettes``, sorted by name, and every
    other visible folder with one error line: a folder without run.json is said out loud, never
    skipped silently. Hidden folders, plain files and ``history/`` (the dated runs,
    docs/FORMATS.md "Histories") are not model dirs."""
    if not cassettes.is_dir():
        raise CassetteError(f"{cassettes}: no such cassettes directory")
    folders = sorted(p for p in cassettes.iterdir() if p.is_dir() and not p.name.startswith("."))
    # history/ (without a run.json of its own) holds dated runs, each a cassettes dir: rescore reads
    # one run at a time (rescore cassettes/history/<run-id>), never the history as models of
    # this dir.
    folders = [p for p in folders if p.name != HISTORY or (p / MANIFEST).is_file()]
    dirs = [p for p in folders if (p / MANIFEST).is_file()]
    if not dirs:
        runs = (
            f"; {cassettes / HISTORY} holds dated runs: rescore one with `lobstack-eval rescore "
            f"{cassettes / HISTORY}/<run-id>`"
            if (cassettes / HISTORY).is_dir()
            else ""
        )
        # the history dir itself (rescore cassettes/history): its folders are runs, each a
        # cassettes dir
        dated = [p.name for p in folders if any(q.is_file() for q in p.glob(f"*/{MANIFEST}"))]
        if dated:
            raise CassetteError(
                f"{cassettes}: a history of {len(dated)} dated run(s), not a cassettes dir: "
                f"rescore one run at a time, e.g. `lobstack-eval rescore {cassettes / dated[-1]}` "
                f"(runs: {', '.join(dated[:10])}{', ...' if len(dated) > 10 else ''})"
            )
        if (cassettes / MANIFEST).is_file():  # a model dir given for the dir of model dirs
            raise CassetteError(
                f"{cassettes}: one model's recordings (it holds a {MANIFEST}), not a cassettes dir "
                f"of model dirs: name the dir it is in, {cassettes.parent}"
            )
        raise CassetteError(
            f"{cassettes}: no model dirs (folders with a {MANIFEST}); record one with "
            "`lobstack-eval record`" + runs
        )
    why = f"no {MANIFEST}, so not a recorded model dir: record it again or move it away"
    return dirs, [(p, f"{p}: {why}") for p in folders if p not in dirs]


def default_out(cassettes: Path) -> Path:
    """rescore's reports dir when none is given: ``reports``, or for a run of a history
    (``.../history/<run-id>``, not a model dir itself) ``reports/history/<run-id>``, so scoring a
    run never replaces the plain reports."""
    if cassettes.parent.name == HISTORY and not (cassettes / MANIFEST).is_file():
        return Path("reports") / HISTORY / cassettes.name
    return Path("reports")


def model_dirs(cassettes: Path) -> list[Path]:
    """Every model dir (a folder holding run.json) under ``cassettes``, sorted by name."""
    return find_model_dirs(cassettes)[0]


@dataclass(frozen=True)
class ScoredModel:
    """One model dir scored: its results document, a warning (another suite version, stray files)
    and every case-run whose cassette could not be used (unrecorded in the document; rescore
    still reports each); with the summary, the rows it was computed from (``add_rows`` of the
    document gives the same rows: rescore writes these, not built twice)."""

    results: ResultsDocument  # what results.json will say, written byte for byte as built
    warning: str | None
    unusable: tuple[UnusableCassette, ...]
    rows: Rows | None = None


def score_model(
    model_dir: Path, suite: Suite, shard: Shard | None = None, summary: bool = True
) -> ScoredModel:
    """Score one model dir (only ``shard``'s cases when given). A CassetteError only for what fails
    the whole model: run.json missing or corrupt, or recorded with another suite. ``summary``
    False leaves out the summary fields (metrics, groups, costs): ``drift`` reads only the
    cases' statuses, and the summary's rows and polars frames were half its CPU (issue 41)."""
    manifest = read_manifest(model_dir)
    check_manifest_suite(
        manifest, suite, model_dir
    )  # another suite fails the model; another version is said once
    warning = stray_warning(model_dir, manifest)
    mine = shard.owned(model_dir.name, [c.id for c in suite.cases]) if shard else None
    cases = [c for c in suite.cases if mine is None or c.id in mine]
    repeats = manifest.repeat_count
    loaded: dict[Path, list[Interaction]] = {}  # each cassette parsed once, for the run's identity
    runs = [
        [
            replay_case_run(suite, case, manifest, model_dir, n, loaded)
            for n in range(1, repeats + 1)
        ]
        for case in cases
    ]
    unusable = tuple(bad for case_runs in runs for _outcome, bad in case_runs if bad is not None)
    if repeats == 1:
        outcomes = [case_runs[0][0] for case_runs in runs]
        document = results_document(
            suite, manifest.model, model_dir.name, outcomes, recorded_suite=manifest.suite
        )
    else:
        outcome_runs = [[outcome for outcome, _bad in case_runs] for case_runs in runs]
        document = repeated_results_document(
            suite, manifest.model, model_dir.name, outcome_runs, manifest.suite
        )
    rows: Rows | None = None
    if summary:
        # The rows the summary is computed from are the document's rows: its summary fields,
        # ``wire`` and the anomalies are read by no column, and a run's columns are added below.
        case_rows, call_rows = document_rows(suite, document)
        results = {**document, **summary_of_rows(suite, document, case_rows).document()}
        rows = {"cases": case_rows, "calls": call_rows}
    else:
        results = dict(document)
    run = run_document(model_dir, manifest, loaded)
    if run is not None:  # a plain recording's results.json is what it always was
        results["run"] = run
        if rows is not None:
            extra = run_columns(run)
            for row in (*rows["cases"], *rows["calls"]):
                row.update(extra)
    if not manifest.wire.is_default:  # so is a run of the method's own request
        results["wire"] = manifest.wire.to_json()
    if manifest.wire.stream:
        results["transport_anomalies"] = anomaly_counts(document)
        results["first_byte_p50_ms"] = first_byte_p50(document)
    return ScoredModel(results, warning, unusable, rows)


def rescore_model(model_dir: Path, suite: Suite) -> ResultsDocument:
    """The results.json document of one model dir under ``suite``."""
    return score_model(model_dir, suite).results


@dataclass(frozen=True)
class ModelReport:
    """One model's results document, its file text, any warning and the case-runs whose cassette
    could not be used (written as unrecorded; each is an error line); or, for a model that could
    not be scored at all (run.json missing or corrupt, another suite), ``error`` and no results.
    ``rows``: the document's rows when this process scored it with its summary (a pool worker's
    come back without them: the parent builds them from the document)."""

    slug: str
    results: ResultsDocument
    text: str
    warning: str | None
    error: str | None = None
    unusable: tuple[UnusableCassette, ...] = ()
    rows: Rows | None = None


_SUITE_CACHE: dict[str, Suite] = {}


def _report(
    model_dir: Path, suite: Suite, shard: Shard | None = None, summary: bool = True
) -> ModelReport:
    """Score one model dir; whatever stops it fails this model alone, with one line naming
    its dir."""
    try:
        scored = score_model(model_dir, suite, shard, summary)
        text = dumps(scored.results)
    except LobstackError as exc:
        return ModelReport(model_dir.name, {}, "", None, exc.message)
    except UNFORESEEN as exc:
        return ModelReport(model_dir.name, {}, "", None, unforeseen(model_dir, exc).message)
    return ModelReport(
        model_dir.name,
        scored.results,
        text,
        scored.warning,
        unusable=scored.unusable,
        rows=scored.rows,
    )


def _score_one(args: tuple[str, str, str, Shard | None, bool]) -> ModelReport:
    """Pool worker: loads the suite once per process (checked against the parent's sha256). The
    report goes back without its results dict: the parent reads it from the text, cheaper than
    pickling it both ways."""
    model_dir, suite_path, sha256 = Path(args[0]), args[1], args[2]
    suite = _SUITE_CACHE.get(suite_path) or _SUITE_CACHE.setdefault(
        suite_path, read_suite(Path(suite_path))
    )
    if suite.sha256 != sha256:
        raise CassetteError(f"{suite_path} changed while rescoring; run rescore again")
    report = _report(model_dir, suite, args[3], args[4])
    return replace(report, results={}, rows=None) if report.text else report


def _with_results(report: ModelReport) -> ModelReport:
    """A report from a pool worker with its results dict read back from its text."""
    return replace(report, results=loads_text(report.text)) if report.text else report


def worker_count(asked: int | None, dirs: int) -> int:
    """The processes to score ``dirs`` model dirs with: ``asked`` (automatic when None: one per core
    once there are POOL_THRESHOLD dirs) capped at the model dirs and the CPU cores (decision
    115). Scoring is CPU-bound, so more processes than cores only add start-up and contention,
    and a pool of more than the dirs idles."""
    import os

    cores = os.cpu_count() or 1
    if asked is None:
        return min(dirs, cores) if dirs >= POOL_THRESHOLD else 1
    return max(1, min(asked, dirs, cores))


def score_all(
    dirs: list[Path],
    suite: Suite,
    workers: int | None = None,
    meanwhile: Callable[[], Any] | None = None,
    shard: Shard | None = None,
    each: Callable[[ModelReport], None] | None = None,
    summary: bool = True,
) -> list[ModelReport]:
    """Score every model dir; in a process pool when there are many. The output does not depend on
    the pool.

    ``meanwhile`` runs in this process while a pool works (rescore imports what it needs next then);
    ``each`` is called here with every report as it comes, in ``dirs`` order, while the pool
    scores the next ones; ``summary`` False: documents without the summary fields
    (``score_model``)."""
    workers = worker_count(workers, len(dirs))
    done: list[ModelReport] = []

    def take(report: ModelReport) -> None:
        if each:
            each(report)
        done.append(report)

    if workers <= 1:
        for model_dir in dirs:
            take(_report(model_dir, suite, shard, summary))
        return done
    jobs = [(str(d), suite.source, suite.sha256, shard, summary) for d in dirs]
    from concurrent.futures import ProcessPoolExecutor

    from recorder.processes import pool_context

    # polars is not preloaded: it must not be forked after use, and each worker imports it when
    # it scores.
    context = pool_context(["replay.score_models"])
    with ProcessPoolExecutor(max_workers=workers, mp_context=context) as pool:
        # Small chunks: a model takes ~20 ms, and a worker left alone with a big last chunk would
        # idle the other.
        results = pool.map(_score_one, jobs, chunksize=max(1, len(jobs) // (workers * 16)))
        if meanwhile:
            meanwhile()
        for report in results:
            take(_with_results(report))
        return done
