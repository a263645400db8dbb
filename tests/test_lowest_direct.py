"""The declared lower bounds are true (issue 26): a fresh environment with every direct dependency
at the lowest version pyproject.toml allows (``uv pip install --resolution lowest-direct``, from the
package registry into an empty uv cache of its own) runs a handful of core tests of this checkout:
the judge, the checks, the metrics, rescore through the CLI, the rows, every command's help. Marked
slow (tests/conftest.py): it downloads and installs.

Not the golden files: parquet files carry the writing polars' version, so they are byte-identical
only with the locked one."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.conftest import ROOT

TIMEOUT_S = 1200
CORE_TESTS = [
    "tests/test_judge.py",
    "tests/test_checks.py",
    "tests/test_rescore.py",
    "tests/test_rows.py",
    "tests/test_cli_help.py",
]


def _env(**extra: str) -> dict[str, str]:
    dropped = (
        "VIRTUAL_ENV",
        "UV_PROJECT_ENVIRONMENT",
        "UV_OFFLINE",
        "UV_NO_CACHE",
        "UV_CACHE_DIR",
        "PYTHONPATH",
    )
    return {k: v for k, v in os.environ.items() if k not in dropped} | extra


def _uv(cache: Path, *args: str) -> str:
    if shutil.which("uv") is None:
        pytest.fail("uv is not on PATH: run the tests with ./scripts/test.sh (it installs uv)")
    env = _env(UV_CACHE_DIR=str(cache), UV_LINK_MODE="copy")
    done = subprocess.run(
        ["uv", *args], cwd=ROOT, env=env, capture_output=True, text=True, timeout=TIMEOUT_S
    )
    assert done.returncode == 0, (
        f"uv {' '.join(args)}: exit {done.returncode}\n{done.stdout}\n{done.stderr}"
    )
    return done.stdout


def test_core_tests_pass_with_every_direct_dependency_at_its_lower_bound(tmp_path: Path) -> None:
    cache, venv = tmp_path / "uv-cache", tmp_path / "env"
    python = venv / "bin" / "python"
    try:
        _uv(cache, "venv", "--quiet", "--python", sys.executable, str(venv))
        _uv(
            cache,
            "pip",
            "install",
            "--quiet",
            "--python",
            str(python),
            "--resolution",
            "lowest-direct",
            "-r",
            "pyproject.toml",
            "--group",
            "dev",
        )
    finally:
        shutil.rmtree(cache, ignore_errors=True)
    versions = _uv(cache, "pip", "list", "--python", str(python), "--format", "freeze", "--offline")
    assert "typer==0.27.2" in versions.split(), (
        versions
    )  # really the lowest: pyproject's bound for typer
    # This checkout's packages (python -m puts the cwd first), the environment's dependencies; no
    # xdist, no plugin of an installed lobstack-eval (there is none in that environment).
    done = subprocess.run(
        [
            str(python),
            "-m",
            "pytest",
            "-p",
            "no:cacheprovider",
            "--basetemp",
            str(tmp_path / "t"),
            "-q",
            "-x",
            *CORE_TESTS,
        ],
        cwd=ROOT,
        env=_env(),
        capture_output=True,
        text=True,
        timeout=TIMEOUT_S,
    )
    assert done.returncode == 0, done.stdout[-4000:] + done.stderr[-2000:]
