"""A pytest plugin for benchmarks/mutation.py: how each mutant was killed.

mutmut runs the tests of one mutant at a time with ``MUTANT_UNDER_TEST`` naming it. On the first
failing test of a mutant, this plugin appends one JSON line to the file ``LOBSTACK_MUTATION_LOG``
names: the mutant, the test, the exception's type, and whether the failure was an assertion (an
``assert``, ``pytest.raises`` that did not raise, ``pytest.fail``) or a crash (any other exception:
the mutant broke the code so that it could not run, and no test checked a value). A crash does not
stop the run: the mutant's other tests still run (within AFTER_CRASH_BUDGET_S of their recorded
time), so that one of them may kill it by assertion; the session fails at its end.
"""

from __future__ import annotations

import functools
import json
import os
import re
import sys
from collections.abc import Iterator
from typing import Any

import pytest

# mutmut's own phases, not mutants.
_PHASES = {"", "stats", "list_all_tests", "fail", "mutant_generation"}
_crashed: list[str] = []
# The test functions (a node id without its parameters) of other files than the module's own that
# crashed: their other cases run the same code on other data and, under a mutant that raises,
# mostly raise too. Skipped after a crash, so that a suite-wide table of cheap cases
# (tests/test_suite_answers.py's hundreds) does not use up MAX_CRASHES. The module's own tests are
# never skipped so: one case of a table may raise where the next checks a value.
_crashed_functions: set[str] = set()
# The mutated module's own test files, ``tests/test_<leaf>`` or ``tests/test_<package>_<leaf>``
# (``scorer.wire.streams``: tests/test_wire_streams.py; set at collection): they run first, and
# their crashes do not count towards MAX_CRASHES.
_own: list[tuple[str, ...]] = [()]
# After a crash, the mutant's remaining tests run only within this much of their recorded time
# (mutmut-stats.json): a slow test would push the run past mutmut's CPU limit (a timeout).
AFTER_CRASH_BUDGET_S = 5.0
# A failed test's report (its traceback) is costly to build: after this many crashes in other files
# than the module's own, the next one stops the run as mutmut's -x would.
MAX_CRASHES = 10
_spent = [0.0]


@functools.cache
def _durations() -> dict[str, float]:
    try:
        with open("mutmut-stats.json", encoding="utf-8") as handle:
            return json.load(handle).get("duration_by_test", {})
    except (OSError, ValueError):
        return {}


def _function(nodeid: str) -> str:
    """The test function of a node id: ``file::name`` without ``[parameters]``."""
    return nodeid.split("[", 1)[0]


def _is_own(nodeid: str) -> bool:
    return bool(_own[0]) and nodeid.removeprefix("mutants/").startswith(_own[0])


def pytest_runtest_setup(item: pytest.Item) -> None:
    if not _crashed:
        return
    if not _is_own(item.nodeid) and _function(item.nodeid) in _crashed_functions:
        pytest.skip("after a crash: another case of a test function that crashed")
    # Read at the first crash: mutmut writes the file after its first pytest run imported us.
    cost = _durations().get(item.nodeid, AFTER_CRASH_BUDGET_S)
    if getattr(getattr(item, "obj", None), "is_hypothesis_test", False):
        # A property test that crashes searches and shrinks for many times its recorded time.
        cost = float("inf")
    if _spent[0] + cost > AFTER_CRASH_BUDGET_S:
        pytest.skip("after a crash: beyond the time budget for looking for an assertion")
    _spent[0] += cost


_MODULE = re.compile(r"^(?P<module>.+?)\.x[_ǁ]")


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """The mutated module's own test files (``tests/test_<leaf>*.py`` and
    ``tests/test_<package>_<leaf>*.py``) first, then every test fastest first by its recorded
    time, ties by node id. Own tests check its values one by one,
    where the fastest tests of other files (a table of hundreds of sub-millisecond suite cases)
    mostly crash under a mutant that raises, and used up MAX_CRASHES before the module's own tests
    ran. The times give one order in every run: mutmut 3.8 passes the tests in the order of a set
    of strings, which changes with each process's hash seed."""
    match = _MODULE.match(os.environ.get("MUTANT_UNDER_TEST", ""))
    if not match:
        return
    parts = match.group("module").split(".")
    _own[0] = tuple(f"tests/test_{'_'.join(parts[-n:])}" for n in (1, 2) if n <= len(parts))
    durations = _durations()
    items.sort(
        key=lambda item: (
            not _is_own(item.nodeid),
            durations.get(item.nodeid, float("inf")),
            item.nodeid,
        )
    )


def pytest_configure(config: pytest.Config) -> None:
    """No shrinking of property tests' failures: a mutant's failing example is proof enough, and
    shrinking it takes many times the test's recorded time (mutmut's CPU limit: a timeout).
    A higher recursion limit: mutmut's trampoline adds frames to every call of a mutated function,
    so a recursive one (the YAML suite reader's composer, refused at 200 levels, three frames a
    level) passed Python's 1,000 under a mutant and the clean run failed."""
    sys.setrecursionlimit(max(sys.getrecursionlimit(), 5000))
    try:
        from hypothesis import Phase, settings
    except ImportError:
        return
    phases = (Phase.explicit, Phase.reuse, Phase.generate)
    settings.register_profile("lobstack-mutation", phases=phases, database=None)
    settings.load_profile("lobstack-mutation")


def failure_kind(excinfo: pytest.ExceptionInfo[BaseException]) -> str:
    """``assertion`` when the test failed on a checked value, else ``crash``."""
    if isinstance(excinfo.value, AssertionError):
        return "assertion"
    # pytest.fail and pytest.raises' "DID NOT RAISE" raise pytest's Failed (an OutcomeException).
    if type(excinfo.value).__name__ == "Failed":
        return "assertion"
    return "crash"


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo[Any]) -> Iterator[None]:
    outcome = yield
    report = outcome.get_result()
    mutant = os.environ.get("MUTANT_UNDER_TEST", "")
    log = os.environ.get("LOBSTACK_MUTATION_LOG")
    if not report.failed or mutant in _PHASES or not log or not call.excinfo:
        return
    kind = failure_kind(call.excinfo)
    line = {"mutant": mutant, "test": item.nodeid, "type": call.excinfo.typename, "kind": kind}
    with open(log, "a", encoding="utf-8") as handle:
        handle.write(json.dumps(line, sort_keys=True) + "\n")
    own = _is_own(item.nodeid)
    others = sum(not _is_own(nodeid) for nodeid in _crashed)
    if kind == "crash" and (own or others < MAX_CRASHES):
        # mutmut stops at the first failure (-x) and runs the fastest tests first, so a crash
        # would hide a later test's failed assertion: go on, and fail the session at its end.
        _crashed.append(item.nodeid)
        if not own:
            _crashed_functions.add(_function(item.nodeid))
        report.outcome = "passed"


def pytest_collectreport(report: pytest.CollectReport) -> None:
    """A test module that fails to import under the mutant (its module-level code ran the mutated
    function) is a crash: the run stops there, before any test checks a value."""
    mutant = os.environ.get("MUTANT_UNDER_TEST", "")
    log = os.environ.get("LOBSTACK_MUTATION_LOG")
    if not report.failed or mutant in _PHASES or not log:
        return
    line = {"mutant": mutant, "test": report.nodeid, "type": "collection error", "kind": "crash"}
    with open(log, "a", encoding="utf-8") as handle:
        handle.write(json.dumps(line, sort_keys=True) + "\n")


@pytest.hookimpl(hookwrapper=True)
def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> Iterator[None]:
    yield
    if _crashed and session.exitstatus == 0:
        session.exitstatus = pytest.ExitCode.TESTS_FAILED
