"""The self-contained HTML report across models: ``reports/index.html``."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any

import replay.html._env as _env
import replay.html._grid as _grid
import replay.html._view as _view
from fileio.atomic import write_atomic
from replay.drift.timeline import Timeline, read_history, timelines
from replay.html._cache import cached_svg
from replay.html._front_view import FrontPlot, front_plot, section
from replay.html._labels import CAVEATS, OWN_CAVEATS, STATUS_MARKS
from replay.html._load import load_suite, results_paths
from replay.html._plot_model import drawn
from replay.partial import partial_line
from replay.power_text import LEGEND as POWER_LEGEND
from replay.power_text import power_cells
from replay.results.read import read_results, results_of
from replay.results.typed import Results, SuiteData
from replay.ties import has_repeats, tiers
from replay.version_note import scored_with_other_suite, shown_suite_lines, suite_name_version
from replay.wire_rows import anomaly_line, board_rows
from scorer.errors import LobstackError, ResultsError
from scorer.front import front
from scorer.suite.kind import is_lobstack


def _suite_file_note(results: Sequence[Results], suite: SuiteData) -> str:
    """A warning when the suite file shown for the cases is not the one the results were
    scored against."""
    if not scored_with_other_suite(results, suite):
        return ""
    name, version = suite_name_version(suite)
    return (
        f"The case texts come from suite {name} {version}, not the suite these results were "
        "scored against."
    )


def _drawings(
    plot_models: list[_view.PlotModel], picking: FrontPlot
) -> dict[str, tuple[Any, Callable[[], str]]]:
    """Each plot of the page with what it is drawn from, drawn only when called (matplotlib is
    imported then, and only then)."""

    def plots() -> Any:
        import replay.html._plots as _plots

        return _plots

    def front_plot() -> Any:
        import replay.html._front_plot as _front_plot

        return _front_plot

    # each plot keyed by, and drawn from, only what it shows (``drawn``)
    rates, groups = drawn(plot_models, "rates"), drawn(plot_models, "groups")
    cost, latency = drawn(plot_models, "cost"), drawn(plot_models, "latency")
    return {
        "rates": (rates, lambda: plots().rates_svg(rates)),
        "cost": (cost, lambda: plots().tradeoff_svg(cost, "cost")),
        "latency": (latency, lambda: plots().tradeoff_svg(latency, "latency")),
        "groups": (groups, lambda: plots().heatmap_svg(groups)),
        "pick": (picking, lambda: front_plot().front_svg(picking)),
    }


def render_report(
    results: Sequence[Mapping[str, Any] | Results],
    suite: SuiteData,
    history: Sequence[Timeline] = (),
) -> str:
    """The report page for ``results`` (the ``Results`` of a caller that has read them, or
    results.json documents made in this process; any order) and ``suite`` (the suite file's dict).

    Pure: the same inputs give the same bytes. Models are listed by Overall (best first), then by
    name. When some model has repeats the page also shows K, pass^k and flaky, each case's repeats
    as a strip in the grid (every repeat in its drill-down, by ``repeats.js``). Under the
    leaderboard: the tiers (models the cases cannot tell apart) and each model's re-run power
    (``replay.power_text``, for a 5-point drop). With ``history`` (models' timelines,
    ``replay.drift.timeline``), a Timeline section after the plots: Overall per run, the change
    point marked. Each document is checked and typed once (``replay.results.read``): rescore,
    merge and ``write_report`` pass theirs typed.
    """
    # every leaderboard figure and grid cell, read once
    typed = [r if isinstance(r, Results) else results_of(r) for r in results]
    reads = [typed[i] for i in _view.leaderboard_order([t.summary for t in typed])]
    board_models = board_rows([r.summary for r in reads])
    cases = [r.cases for r in reads]
    repeated = has_repeats(board_models)
    case_ids = _grid.grid_case_ids(cases, suite)
    group_order = list(dict.fromkeys(group for _, group in case_ids))
    plot_models = [_view.plot_model(s, group_order) for s in board_models]
    picked = front(board_models)  # the one computation the note, the rows and pick read too
    plots = {
        name: _env.safe(cached_svg(name, inputs, draw))
        for name, (inputs, draw) in _drawings(plot_models, front_plot(picked)).items()
    }
    js = _env.static_text("report.js")
    scripts = [js, _env.static_text("repeats.js")] if repeated else [js]
    css = _env.static_text("report.css") + (_env.static_text("repeats.css") if repeated else "")
    board = tiers(board_models)
    power = [(s.model, str(s.repeats), *power_cells(s, 5.0)) for s in board_models]
    suites = _view.suite_lines(reads)
    partial_note = partial_line(board_models)
    title = "Tool-calling report" + (
        f": {suites[0].name} {suites[0].version}" if len(suites) == 1 else ""
    )
    return _env.render(
        "report.html.j2",
        title=title,
        csp=_env.csp(scripts),
        css=_env.safe(css),
        js=_env.safe(js),
        extra_js=_env.safe(scripts[1]) if repeated else "",
        repeated=repeated,
        tiers=board.groups if board.tests else (),
        power=power,
        power_legend=POWER_LEGEND,
        suites=suites,
        suite_file_note=_suite_file_note(reads, suite),
        caveats=CAVEATS if any(is_lobstack(s.name) for s in suites) else OWN_CAVEATS,
        models=[s.model for s in board_models],
        case_ids=case_ids,
        columns=_view.columns(repeated),
        rows=[_view.leaderboard_row(s, repeated) for s in board_models],
        partial_note=partial_note or "",
        anomaly_note=anomaly_line(board_models) or "",
        front_note="; a partial model (hollow, scored/total by its name) is never on it"
        if partial_note
        else "",
        plots=plots,
        spans=_grid.group_spans(case_ids),
        grid=_grid.grid_rows(board_models, cases, case_ids),
        marks=STATUS_MARKS,
        data=_env.json_block(_grid.details([r.document for r in reads], suite, case_ids)),
        timelines=_timeline_views(history),
        pick=section(picked),
    )


def _timeline_views(history: Sequence[Timeline]) -> list[Any]:
    if not history:
        return []
    from replay.html._timeline import timeline_view

    views = [timeline_view(t, i) for i, t in enumerate(history)]
    return [replace(v, svg=_env.safe(v.svg)) for v in views]


def write_report(
    reports_dir: Path,
    suite_path: Path,
    on_error: Callable[[LobstackError], None] | None = None,
    history: Path | None = None,
    warn: Callable[[str], None] | None = None,
) -> Path:
    """Render every ``reports_dir/<model-slug>/results.json`` with ``suite_path`` into
    ``reports_dir/index.html``.

    Raises ``ResultsError`` naming the file for a corrupt results.json, ``SuiteError`` for the
    suite. With ``on_error``, a corrupt results.json is handed to it instead and the page shows the
    other models (it still raises when none is readable). ``history`` (report dirs of a history's
    runs, ``<run-id>/<model-slug>/``) adds each model's timeline, with the change point the drift
    test finds in its runs marked. ``warn`` is given each ``warning:`` line: results scored with
    another suite than ``suite_path``'s (the page notes it too).
    """
    suite = load_suite(suite_path)
    results = []
    for path in results_paths(reports_dir):
        try:
            read = read_results(path)
            _ = read.summary  # a summary field of the wrong type is this file's error, here
            results.append(read)
        except ResultsError as exc:
            if on_error is None:
                raise
            on_error(exc)
    if not results:
        raise ResultsError(f"{reports_dir}: no readable results.json, so no report was written")
    if warn is not None:
        for line in shown_suite_lines(results, suite, str(suite_path)):
            warn(line)
    lines = timelines(read_history(history)) if history is not None else []
    out = reports_dir / "index.html"
    write_atomic(out, render_report(results, suite, lines))
    return out
