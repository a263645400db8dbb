"""``lobstack-eval diff runs A B``: compare two runs case by case and, on request, gate
on regressions. The options are parsed and checked here into a ``DiffRunsJob``;
``lobstack_eval/diff_runs_session.py`` runs it."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from lobstack_eval.options import DETECT, between, finite_number, whole_number
from scorer.errors import UsageError

# The options' types, each with its typer parameter: kept apart so the command's signature stays
# short.
_RUN_A = Annotated[
    Path,
    typer.Argument(metavar="A", help="Run A (the baseline): a results.json file or a report dir."),
]

_RUN_B = Annotated[
    Path,
    typer.Argument(metavar="B", help="Run B (the candidate): a results.json file or a report dir."),
]

_FAIL_ON_REGRESSION = Annotated[
    bool,
    typer.Option(
        "--fail-on-regression",
        help="Exit 1 on a regression: a scoring change, a paired (or, with --history, history) "
        "test finding B worse, a case that broke beyond chance (exact test, Holm over the "
        "cases) (or, with --max-drop, a drop of Overall; with --strict, any case flipped to "
        "failed); also, always, a case scored in A errored or vanished in B, a model of B "
        "scored nothing, or a model of A is missing from B.",
    ),
]

_ALLOW_ERRORED = Annotated[
    int,
    typer.Option(
        "--allow-errored",
        metavar="N",
        parser=whole_number("--allow-errored", minimum=0),
        help="Tolerate up to N cases per model that scored in A and errored, went unrecorded "
        "or vanished in B.",
    ),
]

_MAX_DROP = Annotated[
    float | None,
    typer.Option(
        "--max-drop",
        metavar="PCT",
        parser=finite_number("--max-drop", "points"),
        help="With --fail-on-regression: also exit 1 when Overall dropped more than PCT points.",
    ),
]

_ALPHA = Annotated[
    float,
    typer.Option(
        "--alpha",
        metavar="A",
        parser=between("--alpha", "a number", 1, high_inclusive=False),
        help="False-alarm rate of the gate per model (one-sided; see --family).",
    ),
]

_STRICT = Annotated[
    bool,
    typer.Option(
        "--strict",
        help="With --fail-on-regression: also exit 1 on any case flipped to failed (noise too).",
    ),
]

_DETECT = Annotated[
    float,
    typer.Option(
        "--detect",
        metavar="PTS",
        parser=DETECT,
        help="Say how many repeats would detect an Overall drop of PTS points.",
    ),
]

_JUNIT = Annotated[
    Path | None,
    typer.Option(
        "--junit",
        metavar="FILE",
        help="Write JUnit XML, one testcase per case: failure = regression, error = lost "
        "score, else skipped.",
    ),
]

_ALLOW_SUITE_MISMATCH = Annotated[
    bool,
    typer.Option(
        "--allow-suite-mismatch", help="Compare runs scored with different suite versions."
    ),
]

_HTML = Annotated[
    Path | None,
    typer.Option("--html", metavar="FILE", help="Write an HTML diff (needs one model)."),
]

_MODEL = Annotated[str | None, typer.Option("--model", metavar="M", help="Compare only model M.")]

_SUITE = Annotated[
    Path | None,
    typer.Option(
        "--suite",
        metavar="S",
        help="Suite file for --html (case order and each case's request).",
    ),
]

_QUIET = Annotated[
    bool,
    typer.Option(
        "--quiet", "-q", help="Print the verdict and the summary only (one line per model)."
    ),
]

_VERBOSE = Annotated[
    bool,
    typer.Option(
        "--verbose",
        "-v",
        help="Print every case (unchanged ones too), the metric table and power.",
    ),
]

_HISTORY = Annotated[
    list[str] | None,
    typer.Option(
        "--history",
        metavar="RUN",
        help="An earlier run of the same model(s) (repeatable; a quoted pattern such as "
        "'runs/*/reports' is expanded): A and these runs are the history B is tested against, "
        "so a flip in a case that always passed counts and one in a flaky case does not.",
    ),
]

_FAMILY = Annotated[
    str,
    typer.Option(
        "--family",
        metavar="F",
        help="Where --alpha is spent: model (each model holds it on its own) or run (Holm over "
        "the models).",
    ),
]

_MARKDOWN = Annotated[
    Path | None,
    typer.Option(
        "--markdown",
        metavar="FILE",
        help="Write a pull-request comment (markdown, at most 65,000 characters). With "
        "$GITHUB_STEP_SUMMARY set, the same summary is appended there.",
    ),
]


def diff_runs(
    a: _RUN_A,
    b: _RUN_B,
    fail_on_regression: _FAIL_ON_REGRESSION = False,
    allow_errored: _ALLOW_ERRORED = 0,
    max_drop: _MAX_DROP = None,
    alpha: _ALPHA = 0.05,
    strict: _STRICT = False,
    detect: _DETECT = 5,
    junit: _JUNIT = None,
    allow_suite_mismatch: _ALLOW_SUITE_MISMATCH = False,
    html: _HTML = None,
    model: _MODEL = None,
    suite: _SUITE = None,
    quiet: _QUIET = False,
    verbose: _VERBOSE = False,
    history: _HISTORY = None,
    family: _FAMILY = "model",
    markdown: _MARKDOWN = None,
) -> None:
    """Compare two runs (matched by model, paired by case id by pass rate over repeats) with a
    paired test."""
    from lobstack_eval.diff_runs_session import DiffRunsJob, GateChoice, Outputs, run_diff
    from replay.diff_runs.load import history_paths
    from replay.out.folder import check_writable_file

    _check_regression_options(fail_on_regression, max_drop, strict)
    if quiet and verbose:
        raise UsageError("--quiet and --verbose cannot be combined")
    if family not in ("model", "run"):
        raise UsageError(f"--family: expected model or run, got {family!r}")
    gate = GateChoice(fail_on_regression, allow_errored, max_drop, alpha, strict, family)
    earlier = tuple(history_paths(history or []))
    for option, path in (("--junit", junit), ("--html", html)):
        if path is not None:
            check_writable_file(path, option)  # before reading anything: a bad path is bad usage
    detail = "quiet" if quiet else "verbose" if verbose else "normal"
    outputs = Outputs(detail, junit, html, suite, markdown)
    if run_diff(DiffRunsJob(a, b, earlier, model, detect, allow_suite_mismatch, gate, outputs)):
        raise typer.Exit(1)


def _check_regression_options(
    fail_on_regression: bool, max_drop: float | None, strict: bool
) -> None:
    """--max-drop and --strict only apply with --fail-on-regression."""
    if max_drop is not None and not fail_on_regression:
        raise UsageError("--max-drop only applies with --fail-on-regression")
    if strict and not fail_on_regression:
        raise UsageError("--strict only applies with --fail-on-regression")
