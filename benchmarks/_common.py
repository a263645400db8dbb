"""What the benchmark scripts share: timing, the CLI to run, and the bytecode-cache re-run."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))  # the scripts run as plain files from anywhere


def best_of(repeat: int, run: Callable[[], Any]) -> tuple[float, Any]:
    """The fastest of ``repeat`` runs (seconds) and the last run's value."""
    best, value = float("inf"), None
    for _ in range(repeat):
        started = time.perf_counter()
        value = run()
        best = min(best, time.perf_counter() - started)
    return best, value


def load_average() -> str:
    """The 1-minute load average (``/proc/loadavg``), printed with every figure."""
    return Path("/proc/loadavg").read_text(encoding="utf-8").split()[0]


def cli_command() -> list[str]:
    """The installed console script next to this interpreter, else ``python -m lobstack_eval``."""
    script = Path(sys.executable).with_name("lobstack-eval")
    return [str(script)] if script.is_file() else [sys.executable, "-m", "lobstack_eval"]


def bytecode_mode() -> str:
    """How this process's Pythons cache bytecode, for the printed figures."""
    if os.environ.get("PYTHONPYCACHEPREFIX"):
        return "yes (temp PYTHONPYCACHEPREFIX, warmed by the first repetition)"
    return (
        "none (PYTHONDONTWRITEBYTECODE)"
        if os.environ.get("PYTHONDONTWRITEBYTECODE")
        else "yes (__pycache__)"
    )


def rerun_with_bytecode_cache(script: str, argv: list[str]) -> int | None:
    """Re-run ``script`` in a child whose Pythons may cache bytecode, in a temp
    ``PYTHONPYCACHEPREFIX``.

    With ``PYTHONDONTWRITEBYTECODE`` set (as in this sandbox) and no ``.pyc`` shipped, every
    interpreter start compiles every module it imports (seconds for matplotlib, polars, vcrpy): not
    what a user's second run costs. Returns the child's exit code, or None when this process should
    measure (already cached, or ``--no-bytecode-cache``).
    """
    if not os.environ.get("PYTHONDONTWRITEBYTECODE") or "--no-bytecode-cache" in argv:
        return None
    cache = tempfile.mkdtemp(prefix="bench-pycache-")
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    env["PYTHONPYCACHEPREFIX"] = cache
    try:
        return subprocess.call([sys.executable, script, *argv], env=env)
    finally:
        shutil.rmtree(cache, ignore_errors=True)
