"""The plugin in a project that has packages of its own named like lobstack-eval's (``scorer``,
``recorder``, ``replay``): pytest loads the plugin in every run, so it must import none of them
until one of its options is used, and then say in one line which package shadows which
(docs/commands/README.md#installed-names-stay-out-of-the-way)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from tests.conftest import ROOT
from tests.test_pytest_plugin import INNER

TIMEOUT_S = 300
OWN = ("scorer", "fileio", "recorder", "replay", "standin", "lobstack_eval")


def own_scorer_project(pytester: pytest.Pytester) -> Path:
    """A project with a ``scorer`` package of its own (no ``metrics`` module in it) and a test
    that uses it."""
    package = pytester.path / "scorer"
    package.mkdir()
    (package / "__init__.py").write_text("VALUE = 42\n", encoding="utf-8")
    (package / "core.py").write_text("def score(x):\n    return x * 2\n", encoding="utf-8")
    pytester.makepyfile(
        test_mine="from scorer import VALUE\nfrom scorer.core import score\n\n\n"
        "def test_own_scorer():\n    assert VALUE == 42 and score(2) == 4\n"
    )
    return package


def run(pytester: pytest.Pytester, *args: str) -> pytest.RunResult:
    # runpytest_subprocess runs ``python -m pytest`` in the project: its own dir comes first
    # on sys.path.
    return pytester.runpytest_subprocess(*INNER, *args, timeout=TIMEOUT_S)


def test_loading_the_plugin_imports_none_of_lobstack_evals_packages() -> None:
    code = (
        "import sys, pytest_lobstack.plugin\nprint(sorted(m for m in sys.modules if "
        f"m.split('.')[0] in {OWN!r}))"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=TIMEOUT_S, cwd=ROOT
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "[]"


def test_a_project_with_its_own_scorer_package_runs_its_tests_green(
    pytester: pytest.Pytester,
) -> None:
    own_scorer_project(pytester)
    result = run(pytester)
    result.assert_outcomes(passed=1)
    assert result.ret == 0


@pytest.mark.parametrize(
    "args",
    [
        ["--lobstack-cassettes", "cassettes"],
        ["--lobstack-cassettes", "cassettes", "--lobstack-min", "overall=90"],
    ],
    ids=["cassettes", "metric-floor"],
)
def test_with_a_plugin_option_the_shadowing_package_is_one_line(
    pytester: pytest.Pytester, args: list[str]
) -> None:
    package = own_scorer_project(pytester)
    result = run(pytester, *args)
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    err = result.stderr.str()
    assert "Traceback" not in err + result.stdout.str()
    lines = [line for line in result.stderr.lines if "shadows" in line]
    assert lines == [
        f"ERROR: this project's scorer package ({package}) shadows lobstack-eval's "
        f"({ROOT / 'scorer'}): the lobstack plugin cannot run here; rename the project's package, "
        "or run pytest where it is not importable"
    ], err
