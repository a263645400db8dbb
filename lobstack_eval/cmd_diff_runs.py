"""``lobstack-eval diff runs A B``: compare two runs case by case and, on request, gate
on regressions."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

from lobstack_eval.ci_outputs import CiOutputs, publish, write_output
from scorer.errors import UsageError

if TYPE_CHECKING:
    from replay.diff_runs import ModelDiff, NotCompared
    from replay.diff_runs.verdict import ModelVerdict


def diff_runs(
    a: Annotated[
        Path,
        typer.Argument(
            metavar="A", help="Run A (the baseline): a results.json file or a report dir."
        ),
    ],
    b: Annotated[
        Path,
        typer.Argument(
            metavar="B", help="Run B (the candidate): a results.json file or a report dir."
        ),
    ],
    fail_on_regression: Annotated[
        bool,
        typer.Option(
            "--fail-on-regression",
            help="Exit 1 on a regression: a scoring change, a paired (or, with --history, history) "
            "test finding B worse, a case that broke beyond chance (exact test, Holm over the "
            "cases) (or, with --max-drop, a drop of Overall; with --strict, any case flipped to "
            "failed); also, always, a case scored in A errored or vanished in B, a model of B "
            "scored nothing, or a model of A is missing from B.",
        ),
    ] = False,
    allow_errored: Annotated[
        str,
        typer.Option(
            "--allow-errored",
            metavar="N",
            help="Tolerate up to N cases per model that scored in A and errored, went unrecorded "
            "or vanished in B.",
        ),
    ] = "0",
    max_drop: Annotated[
        str | None,
        typer.Option(
            "--max-drop",
            metavar="PCT",
            help="With --fail-on-regression: also exit 1 when Overall dropped more than PCT "
            "points.",
        ),
    ] = None,
    alpha: Annotated[
        str,
        typer.Option(
            "--alpha",
            metavar="A",
            help="False-alarm rate of the gate per model (one-sided; see --family).",
        ),
    ] = "0.05",
    strict: Annotated[
        bool,
        typer.Option(
            "--strict",
            help="With --fail-on-regression: also exit 1 on any case flipped to failed (noise "
            "too).",
        ),
    ] = False,
    detect: Annotated[
        str,
        typer.Option(
            "--detect",
            metavar="PTS",
            help="Say how many repeats would detect an Overall drop of PTS points.",
        ),
    ] = "5",
    junit: Annotated[
        Path | None,
        typer.Option(
            "--junit",
            metavar="FILE",
            help="Write JUnit XML, one testcase per case: failure = regression, error = lost "
            "score, else skipped.",
        ),
    ] = None,
    allow_suite_mismatch: Annotated[
        bool,
        typer.Option(
            "--allow-suite-mismatch", help="Compare runs scored with different suite versions."
        ),
    ] = False,
    html: Annotated[
        Path | None,
        typer.Option("--html", metavar="FILE", help="Write an HTML diff (needs one model)."),
    ] = None,
    model: Annotated[
        str | None, typer.Option("--model", metavar="M", help="Compare only model M.")
    ] = None,
    suite: Annotated[
        Path | None,
        typer.Option(
            "--suite",
            metavar="S",
            help="Suite file for --html (case order and each case's request).",
        ),
    ] = None,
    quiet: Annotated[
        bool,
        typer.Option(
            "--quiet", "-q", help="Print the verdict and the summary only (one line per model)."
        ),
    ] = False,
    verbose: Annotated[
        bool,
        typer.Option(
            "--verbose",
            "-v",
            help="Print every case (unchanged ones too), the metric table and power.",
        ),
    ] = False,
    history: Annotated[
        list[str] | None,
        typer.Option(
            "--history",
            metavar="RUN",
            help="An earlier run of the same model(s) (repeatable; a quoted pattern such as "
            "'runs/*/reports' is expanded): A and these runs are the history B is tested against, "
            "so a flip in a case that always passed counts and one in a flaky case does not.",
        ),
    ] = None,
    family: Annotated[
        str,
        typer.Option(
            "--family",
            metavar="F",
            help="Where --alpha is spent: model (each model holds it on its own) or run (Holm over "
            "the models).",
        ),
    ] = "model",
    markdown: Annotated[
        Path | None,
        typer.Option(
            "--markdown",
            metavar="FILE",
            help="Write a pull-request comment (markdown, at most 65,000 characters). With "
            "$GITHUB_STEP_SUMMARY set, the same summary is appended there.",
        ),
    ] = None,
) -> None:
    """Compare two runs (matched by model, paired by case id by pass rate over repeats) with a
    paired test."""
    from lobstack_eval.options import finite_number, whole_number
    from replay.diff_runs import (
        NotCompared,
        compare,
        decide,
        format_text,
        load_run,
        to_markdown,
        verdicts,
    )
    from replay.diff_runs.load import history_paths, load_history
    from replay.diff_suites import read_suite_json
    from replay.junit import WHOLE_RUN, to_junit
    from replay.out_dir import check_writable_file
    from scorer.errors import ResultsError

    drop = finite_number(max_drop, "--max-drop", "points") if max_drop is not None else None
    tolerated = whole_number(allow_errored, "--allow-errored", minimum=0)
    if drop is not None and not fail_on_regression:
        raise UsageError("--max-drop only applies with --fail-on-regression")
    if strict and not fail_on_regression:
        raise UsageError("--strict only applies with --fail-on-regression")
    if quiet and verbose:
        raise UsageError("--quiet and --verbose cannot be combined")
    level = _share(alpha)
    if family not in ("model", "run"):
        raise UsageError(f"--family: expected model or run, got {family!r}")
    earlier = history_paths(history or [])
    target = _detect(detect)
    for option, path in (("--junit", junit), ("--html", html)):
        if path is not None:
            check_writable_file(path, option)  # before reading anything: a bad path is bad usage
    # Every unreadable file of either run is named, one line each, before stopping (METHOD
    # decision 93).
    unreadable: list[NotCompared] = []

    def bad_file(exc: ResultsError, path: Path) -> None:
        unreadable.append(NotCompared(str(path), "unreadable", exc.message))

    if earlier:  # B first: a history is checked against B's models
        run_b = load_run(b, on_error=bad_file)
        run_a = load_history([a, *earlier], list(run_b), on_error=bad_file)
    else:
        run_a, run_b = (load_run(path, on_error=bad_file) for path in (a, b))
    reports = CiOutputs(junit, markdown, str(a), str(b))
    if unreadable:
        raise reports.not_compared(unreadable)
    if model is not None:
        run_a = {m: r for m, r in run_a.items() if m == model}
        run_b = {m: r for m, r in run_b.items() if m == model}
    diff = compare(run_a, run_b, detect=target)
    if not diff.models:
        which = "no model appears" if model is None else f"model {model!r} is not"
        raise reports.not_compared(
            [NotCompared(WHOLE_RUN, "no_common_model", f"{which} in both {a} and {b}")]
        )
    mismatched = [
        NotCompared(
            m.model,
            "suite_mismatch",
            f"{m.model}: A was scored with suite {m.suite_a.name} {m.suite_a.version}, B with "
            f"{m.suite_b.name} {m.suite_b.version}; pass --allow-suite-mismatch to compare anyway",
        )
        for m in diff.models
        if m.suite_mismatch and not allow_suite_mismatch
    ]
    if mismatched:
        raise reports.not_compared(mismatched)
    if html is not None and len(diff.models) != 1:
        raise UsageError(
            f"--html needs one model; {len(diff.models)} are in both runs (use --model)"
        )
    decision = decide(diff, drop, tolerated, alpha=level, strict=strict, family=family)
    judged = verdicts(diff, decision)  # the one verdict every output below renders
    if html is not None:
        suite_data = read_suite_json(suite)[1] if suite is not None else None
        doc_a, doc_b = _documents(run_a, run_b, diff.models[0].model)
        write_output(
            html, _render_html(doc_a, doc_b, suite_data, diff.models[0], judged[0]).encode("utf-8")
        )
    if junit is not None:
        write_output(junit, to_junit(diff, decision))
    publish(markdown, lambda: to_markdown(diff, decision, str(a), str(b)))
    from scorer.safe_text import for_terminal

    detail = "quiet" if quiet else "verbose" if verbose else "normal"
    # a reason holds what a model or gateway wrote: shown, never interpreted
    typer.echo(for_terminal(format_text(diff, decision, judged, detail)), nl=False)
    if fail_on_regression and decision.regression:
        raise typer.Exit(1)


def _detect(text: str) -> float:
    # Parsed here rather than by typer so the message can name the bad value (docs/FORMATS.md,
    # "Stable interface").
    try:
        value = float(text)
    except ValueError:
        value = -1.0
    if not 0 < value <= 100:  # also rejects nan and inf
        raise UsageError(f"--detect: expected points between 0 and 100, got {text!r}")
    return value


def _share(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        value = -1.0
    if not 0 < value < 1:  # also rejects nan
        raise UsageError(f"--alpha: expected a number between 0 and 1, got {text!r}")
    return value


def _documents(run_a: dict[str, Any], run_b: dict[str, Any], model: str) -> tuple[Any, Any]:
    """The two results documents behind one compared model; a model change ("a -> b") pairs the
    only two."""
    if model in run_a and model in run_b:
        return run_a[model], run_b[model]
    return next(iter(run_a.values())), next(iter(run_b.values()))


def _render_html(
    a: dict[str, Any],
    b: dict[str, Any],
    suite: dict[str, Any] | None,
    model: ModelDiff,
    judged: ModelVerdict,
) -> str:
    from replay.html import render_run_diff

    return render_run_diff(a, b, suite, (model, judged))
