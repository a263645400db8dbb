"""One ``diff runs`` comparison on the terminal: load both runs (A as a history with --history),
check that they compare, decide, write the files asked for and print the report.
``lobstack_eval/cmd_diff_runs.py`` parses the options into a ``DiffRunsJob``; the files a CI step
reads are written by ``lobstack_eval/ci_outputs.py``."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

import typer

from lobstack_eval.ci_outputs import CiOutputs, publish, write_output
from scorer.errors import UsageError

if TYPE_CHECKING:
    from replay.diff_runs import ModelDiff, RunDiff
    from replay.diff_runs.verdict import ModelVerdict


@dataclass(frozen=True)
class GateChoice:
    """How ``diff runs`` gates: the exit code on a regression, cases tolerated to lose their
    score, the drop of Overall allowed, the false-alarm rate, --strict and where alpha is spent."""

    fail_on_regression: bool
    tolerated: int
    drop: float | None
    alpha: float
    strict: bool
    family: str  # model or run


@dataclass(frozen=True)
class Outputs:
    """What ``diff runs`` writes: how much of the report it prints and the files asked for."""

    detail: str  # quiet, normal or verbose
    junit: Path | None
    html: Path | None
    suite: Path | None  # the suite file --html reads
    markdown: Path | None


@dataclass(frozen=True)
class DiffRunsJob:
    """What ``diff runs`` was asked to do, its options parsed and checked."""

    a: Path
    b: Path
    earlier: tuple[Path, ...]  # --history, patterns expanded: A and these are B's history
    model: str | None
    detect: float  # points of Overall whose detection the power note sizes
    allow_suite_mismatch: bool
    gate: GateChoice
    outputs: Outputs


def run_diff(job: DiffRunsJob) -> int:
    """Compare the runs of ``job``, write the files asked for and print the report; the exit
    code: 1 on a regression with --fail-on-regression, else 0. Runs that cannot be compared are
    an error, raised once the files a CI step reads say why."""
    from replay.diff_runs import compare, decide, format_text, to_markdown, verdicts
    from replay.junit import to_junit
    from scorer.safe_text import for_terminal

    out, gate = job.outputs, job.gate
    reports = CiOutputs(out.junit, out.markdown, str(job.a), str(job.b))
    run_a, run_b = _load(job, reports)
    if job.model is not None:
        run_a = {m: r for m, r in run_a.items() if m == job.model}
        run_b = {m: r for m, r in run_b.items() if m == job.model}
    diff = compare(run_a, run_b, detect=job.detect)
    _check_comparable(job, diff, reports)
    decision = decide(
        diff, gate.drop, gate.tolerated, alpha=gate.alpha, strict=gate.strict, family=gate.family
    )
    judged = verdicts(diff, decision)  # the one verdict every output below renders
    if out.html is not None:
        _write_html(out.html, out.suite, (run_a, run_b), diff.models[0], judged[0])
    if out.junit is not None:
        write_output(out.junit, to_junit(diff, decision, judged))
    publish(
        out.markdown, lambda: to_markdown(diff, decision, str(job.a), str(job.b), judged=judged)
    )
    # a reason holds what a model or gateway wrote: shown, never interpreted
    typer.echo(for_terminal(format_text(diff, decision, judged, out.detail)), nl=False)
    return 1 if gate.fail_on_regression and decision.regression else 0


def _load(
    job: DiffRunsJob, reports: CiOutputs
) -> tuple[dict[str, dict[str, Any]], dict[str, dict[str, Any]]]:
    """Runs A and B, model -> results document; every unreadable file of either run is named,
    one line each, before stopping (METHOD decision 93)."""
    from replay.diff_runs import NotCompared, load_run
    from replay.diff_runs.load import load_history
    from scorer.errors import ResultsError

    unreadable: list[NotCompared] = []

    def bad_file(exc: ResultsError, path: Path) -> None:
        unreadable.append(NotCompared(str(path), "unreadable", exc.message))

    # A missing run is named by its side: "nosuch: no such file or directory" does not say which
    given_a, given_b = f"run A (the baseline) {job.a}", f"run B (the candidate) {job.b}"
    if job.earlier:  # B first: a history is checked against B's models
        run_b = load_run(job.b, bad_file, given_b)
        given = [given_a, *(f"--history {path}" for path in job.earlier)]
        run_a = load_history([job.a, *job.earlier], list(run_b), bad_file, given, (job.b, run_b))
    else:
        run_a, run_b = load_run(job.a, bad_file, given_a), load_run(job.b, bad_file, given_b)
    if unreadable:
        raise reports.not_compared(unreadable)
    return run_a, run_b


def _check_comparable(job: DiffRunsJob, diff: RunDiff, reports: CiOutputs) -> None:
    """Raise unless the runs share a model, scored with the same suite (or
    --allow-suite-mismatch), and --html has its one model."""
    from replay.diff_runs import NotCompared
    from replay.junit import WHOLE_RUN

    if not diff.models:
        which = "no model appears" if job.model is None else f"model {job.model!r} is not"
        raise reports.not_compared(
            [NotCompared(WHOLE_RUN, "no_common_model", f"{which} in both {job.a} and {job.b}")]
        )
    mismatched = [
        NotCompared(
            m.model,
            "suite_mismatch",
            f"{m.model}: A was scored with suite {m.suite_a.name} {m.suite_a.version}, B with "
            f"{m.suite_b.name} {m.suite_b.version}; pass --allow-suite-mismatch to compare anyway",
        )
        for m in diff.models
        if m.suite_mismatch and not job.allow_suite_mismatch
    ]
    if mismatched:
        raise reports.not_compared(mismatched)
    if job.outputs.html is not None and len(diff.models) != 1:
        raise UsageError(
            f"--html needs one model; {len(diff.models)} are in both runs (use --model)"
        )


def _write_html(
    html: Path,
    suite: Path | None,
    runs: tuple[dict[str, Any], dict[str, Any]],
    model: ModelDiff,
    judged: ModelVerdict,
) -> None:
    """The HTML diff of the one compared model; ``suite`` gives case order and requests, with a
    warning when the runs were scored with another suite (as ``report --suite`` says it)."""
    from replay.diff_suites import read_suite_json
    from replay.html import render_run_diff
    from replay.results.read import results_of
    from replay.version_note import shown_suite_lines

    suite_data = read_suite_json(suite)[1] if suite is not None else None
    doc_a, doc_b = _documents(*runs, model.model)
    if suite_data is not None:
        typed = (results_of(doc_a), results_of(doc_b))
        for line in shown_suite_lines(typed, suite_data, str(suite)):
            typer.echo(line, err=True)
    write_output(html, render_run_diff(doc_a, doc_b, suite_data, (model, judged)).encode("utf-8"))


def _documents(run_a: dict[str, Any], run_b: dict[str, Any], model: str) -> tuple[Any, Any]:
    """The two results documents behind one compared model; a model change ("a -> b") pairs the
    only two."""
    if model in run_a and model in run_b:
        return run_a[model], run_b[model]
    return next(iter(run_a.values())), next(iter(run_b.values()))
