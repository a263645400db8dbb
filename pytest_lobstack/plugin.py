"""The pytest plugin (entry point ``pytest11: lobstack``): regression tests from recorded cassettes.

``pytest --lobstack-cassettes DIR`` adds one test per (model, case) to whatever else pytest
collects; without that option every hook here returns at once, so installing lobstack-eval never
changes another test run.
"""

from __future__ import annotations

import contextlib
import sys
from collections.abc import Callable, Generator
from typing import Any

import pytest

from pytest_lobstack.options import add_options, read_settings

# Only pytest and this package's light modules are imported here: the plugin is loaded by every
# pytest run.
RUN_KEY = pytest.StashKey[Any]()
MISSES_KEY = pytest.StashKey[list[Any]]()


def pytest_addoption(parser: pytest.Parser) -> None:
    add_options(parser)


def pytest_configure(config: pytest.Config) -> None:
    settings = read_settings(config)
    if settings is None:
        return
    from pytest_lobstack.state import LobstackRun

    if (
        settings.suite_note is not None
    ):  # once, before anything is collected (pytest's capture is not on yet)
        print(settings.suite_note, file=sys.stderr)

    def say(text: str) -> None:
        # Progress while a test sets up (recording takes minutes): past the capture, as pytest's
        # live log does.
        reporter = config.pluginmanager.get_plugin("terminalreporter")
        capture = config.pluginmanager.get_plugin("capturemanager")
        if reporter is None:
            return
        with capture.global_and_fixture_disabled() if capture else contextlib.nullcontext():
            reporter.ensure_newline()
            reporter.write_line(text)

    config.stash[RUN_KEY] = LobstackRun(settings, say)


def pytest_report_header(config: pytest.Config) -> str | None:
    run = config.stash.get(RUN_KEY, None)
    if run is None:
        return None
    from pytest_lobstack.summary import header

    return header(run.settings)


@pytest.hookimpl(wrapper=True)
def pytest_make_collect_report(collector: pytest.Collector) -> Generator[None, Any, Any]:
    """Adds the cassettes dir to what the session collects, so no conftest or test file
    is needed."""
    report = yield
    run = collector.config.stash.get(RUN_KEY, None)
    if run is not None and isinstance(collector, pytest.Session) and report.passed:
        from pytest_lobstack.items import CassettesCollector

        report.result.append(CassettesCollector.create(collector, run))
    return report


def pytest_collection_finish(session: pytest.Session) -> None:
    """Records which cases were selected (after ``-k``/``-m``), so a record mode records only those;
    then, unless only collecting, plans what to record: a missing key stops the run only when
    something is to be recorded."""
    run = session.config.stash.get(RUN_KEY, None)
    if run is None:
        return
    from pytest_lobstack.items import CaseItem
    from pytest_lobstack.whole_run import MissingModelItem

    for item in session.items:
        if isinstance(item, CaseItem):
            run.selected.setdefault(item.model.name, []).append(item.name)
        elif isinstance(
            item, MissingModelItem
        ):  # judged by the gate: in the baseline, not recorded
            run.selected.setdefault(item.model.name, [])
    if run.settings.record_mode != "none" and not session.config.option.collectonly:
        from scorer.errors import GatewayError

        try:
            run.plan()
        except (
            GatewayError
        ) as exc:  # record's own line, as the usage error it was when asked for up front
            raise pytest.UsageError(exc.message) from None


@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(
    item: pytest.Item, call: pytest.CallInfo[None]
) -> Generator[None, Any, Any]:
    """An errored case errors at setup, where pytest would print a traceback: show the case's
    reason instead."""
    report = yield
    if (
        call.when == "setup"
        and call.excinfo is not None
        and report.failed
        and RUN_KEY in item.config.stash
    ):
        from pytest_lobstack.items import BrokenModel, CaseItem

        if isinstance(item, CaseItem | BrokenModel):
            report.longrepr = item.repr_failure(call.excinfo)
    return report


@pytest.hookimpl(wrapper=True)
def pytest_runtestloop(session: pytest.Session) -> Generator[None, Any, Any]:
    """After the tests: the metric bounds of every model that had a selected test; a miss fails
    the run."""
    result = yield
    run = session.config.stash.get(RUN_KEY, None)
    if run is None or session.config.option.collectonly or not run.settings.bounds:
        return result
    from pytest_lobstack.floors import misses
    from replay.results.read import results_of

    found = []
    for results in run.scored().values():
        if results["model"] in run.selected:
            found += misses(results_of(results).summary, run.settings.bounds)
    session.config.stash[MISSES_KEY] = found
    if found:
        session.testsfailed += 1  # pytest then exits 1, like a failed test
    return result


def pytest_terminal_summary(terminalreporter: Any, config: pytest.Config) -> None:
    run = config.stash.get(RUN_KEY, None)
    if run is None:
        return
    from pytest_lobstack.summary import closing_lines

    # Cases that pass now and did not in the baseline: the gate's fixes (with a baseline),
    # else XPASSes.
    fixed = sum(
        1 for v in run.verdicts() for c in v.cases if c.kind == "fix" and c.outcome == "passed"
    )
    xpassed = len(terminalreporter.stats.get("xpassed", [])) + fixed
    lines = closing_lines(
        config.stash.get(MISSES_KEY, []), xpassed, run.refresh_hint(), run.warnings
    )
    if lines:
        terminalreporter.section("lobstack-eval")
        for line in lines:
            terminalreporter.write_line(line)


@pytest.fixture(scope="session")
def lobstack_results(request: pytest.FixtureRequest) -> Callable[[str], dict[str, Any]]:
    """``lobstack_results("openai/gpt-4o")``: the model's scored run (the results.json document
    ``rescore`` writes, a copy), for custom assertions. Needs ``--lobstack-cassettes``; the model
    is its name or slug. Rates are in PERCENT (``["metrics"]["overall"]["rate"]`` is 16.7 for
    16.7%): each is a ``Percent`` with ``.share`` and ``.percent``, and comparing one with a
    share (``rate > 0.5``) raises instead of passing."""
    run = request.config.stash.get(RUN_KEY, None)
    if run is None:
        pytest.fail(
            "lobstack_results needs --lobstack-cassettes DIR (on the command line or in addopts)",
            False,
        )

    handed: dict[str, dict[str, Any]] = {}

    def results(model: str) -> dict[str, Any]:
        from pytest_lobstack.rates import with_percent_rates
        from scorer.errors import LobstackError

        try:
            ref = run.find_model(model)
            if (
                ref.name not in handed
            ):  # one document per model, so a name and its slug give the same one
                handed[ref.name] = with_percent_rates(run.results(ref))
            return handed[ref.name]
        except LobstackError as exc:
            message = exc.message
        pytest.fail(f"error: {message}", pytrace=False)  # outside the except: no chained traceback

    return results
