"""The code stays ruff-clean (lint and format), checked in CI like everything else."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

from tests.conftest import ROOT


def ruff(*args: str) -> subprocess.CompletedProcess[str]:
    beside = (
        Path(sys.executable).parent / "ruff"
    )  # the project's pinned ruff, in the same venv as pytest
    binary = str(beside) if beside.exists() else shutil.which("ruff") or "ruff"
    return subprocess.run([binary, *args], cwd=ROOT, capture_output=True, text=True, check=False)


def test_ruff_check() -> None:
    result = ruff("check", ".")
    assert result.returncode == 0, result.stdout + result.stderr


def test_ruff_format() -> None:
    result = ruff("format", "--check", ".")
    assert result.returncode == 0, result.stdout + result.stderr
