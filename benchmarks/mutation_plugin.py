"""A pytest plugin for benchmarks/mutation.py: how each mutant was killed.

mutmut runs the tests of one mutant at a time with ``MUTANT_UNDER_TEST`` naming it. On the first
failing test of a mutant, this plugin appends one JSON line to the file ``LOBSTACK_MUTATION_LOG``
names: the mutant, the test, the exception's type, and whether the failure was an assertion (an
``assert``, ``pytest.raises`` that did not raise, ``pytest.fail``) or a crash (any other exception:
the mutant broke the code so that it could not run, and no test checked a value). A crash does not
stop the run: the mutant's other tests still run, so that one of them may kill it by assertion; the
session fails at its end.
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterator
from typing import Any

import pytest

# mutmut's own phases, not mutants.
_PHASES = {"", "stats", "list_all_tests", "fail", "mutant_generation"}
_crashed: list[str] = []


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
    if kind == "crash":
        # mutmut stops at the first failure (-x) and runs the fastest tests first, so a crash
        # would hide a later test's failed assertion: go on, and fail the session at its end.
        _crashed.append(item.nodeid)
        report.outcome = "passed"


@pytest.hookimpl(hookwrapper=True)
def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> Iterator[None]:
    yield
    if _crashed and session.exitstatus == 0:
        session.exitstatus = pytest.ExitCode.TESTS_FAILED
