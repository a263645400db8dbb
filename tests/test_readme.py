"""The README and the guides in docs/ work as written: every command of their ``sh`` blocks runs in
a fresh copy of the repository (the files git tracks, nothing else: no .venv, no outputs), in order
(the README, then each page of ``PAGES``), through the real ``uv run``; or it is listed in
``NOT_RUN`` with the reason it cannot run here. A command written on several pages runs once, where
it first appears. Nothing is skipped silently: the test fails on a command that is neither run nor
listed, and on a listed command no page has any more.

Two substitutions, and only these, because tests never use a fixed port or a shared directory: the
stand-in gateway's ``--port 8099`` becomes ``--port 0`` (its URL in later commands becomes the port
it announced), and ``/tmp/`` becomes this test's own temporary directory.
"""

from __future__ import annotations

import csv
import os
import queue
import re
import shutil
import subprocess
import threading
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from tests.conftest import ROOT, clone_files
from tests.record_helpers import stop_group

README = (ROOT / "README.md").read_text(encoding="utf-8")
# The pages the README's text moved to, whose commands run after the README's, in this order.
PAGES = [
    "install.md",
    "guide-recording.md",
    "guide-comparing.md",
    "standin.md",
    "guide-pytest.md",
    "guide-rows.md",
]
DOCS = "\n".join([README, *((ROOT / "docs" / page).read_text(encoding="utf-8") for page in PAGES)])
NOT_RUN = {
    "./scripts/test.sh": "the test suite itself, this test included; CI runs it through .ci/run",
    "export LOBSTACK_API_KEY=...": "needs a real Lobstack API key, which no test has or may print",
    "uv run lobstack-eval record --model "
    "openai/gpt-4o": "records from the real Lobstack gateway (network, key)",
    'uv add --dev "lobstack-eval @ '
    'git+https://github.com/<org>/lobstack-eval"': "installs from a placeholder address (the host "
    "is the reader's) into another project; tests/test_wheel.py installs the built wheel instead",
    "uv run lobstack-eval record --model openai/gpt-4o --repeats "
    "5": "records from the real Lobstack gateway (network, key)",
}
ANNOUNCE = re.compile(r"Stand-in gateway on (http://127\.0\.0\.1:\d+/v1)")
STEP_TIMEOUT_S = 600


def readme_commands(text: str = DOCS) -> list[str]:
    """Every command line of the ``sh`` blocks of ``text`` (the README and its pages), in order,
    once each (where it first appears), without its trailing ``# comment``."""
    commands = []
    for block in re.findall(r"^```sh\n(.*?)^```", text, re.S | re.M):
        for line in block.splitlines():
            command = re.split(r"\s+#\s", line, maxsplit=1)[0].strip()
            if command and not command.startswith("#") and command not in commands:
                commands.append(command)
    return commands


# The pytest guide's commands name cassettes/ as pytest's path, so here too they run the recordings'
# tests only; tests/test_docs.py proves it (it collects them here) and runs each in a project with
# only recordings.
PYTEST_SECTION = (
    "run in full by tests/test_docs.py in a project with only recordings, and collected here by it"
)
_SECTION = (ROOT / "docs" / "guide-pytest.md").read_text(encoding="utf-8")
NOT_RUN.update(
    {
        command: PYTEST_SECTION
        for command in readme_commands(_SECTION)
        if command.startswith("uv run pytest ")
    }
)


def fresh_copy(target: Path) -> Path:
    """The repository as a fresh clone has it: the files git knows (tracked, or new and not
    ignored), copied."""
    for name in clone_files():
        (target / name).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(ROOT / name, target / name)
    return target


def _environment() -> dict[str, str]:
    env = {
        k: v for k, v in os.environ.items() if k not in ("VIRTUAL_ENV", "UV_PROJECT_ENVIRONMENT")
    }
    env.pop("LOBSTACK_API_KEY", None)
    env.pop("LOBSTACK_BASE_URL", None)
    # No compile of every installed file when the copy's .venv is made (13,000 files, ~25 s of
    # CPU): the commands' Pythons cache the bytecode of what they import (tests/conftest.py).
    env.pop("UV_COMPILE_BYTECODE", None)
    return env


def _start_background(
    command: str, cwd: Path, env: dict[str, str]
) -> tuple[subprocess.Popen[str], str]:
    """Start ``command`` (the gateway) in its own process group; return it and the URL
    it announced."""
    process = subprocess.Popen(
        ["bash", "-c", command],
        cwd=cwd,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        start_new_session=True,
    )
    lines: queue.Queue[str] = queue.Queue()
    assert process.stdout is not None
    threading.Thread(
        target=lambda: [lines.put(line) for line in process.stdout], daemon=True
    ).start()  # type: ignore[union-attr]
    seen = []
    while True:
        try:
            line = lines.get(timeout=STEP_TIMEOUT_S)
        except queue.Empty:
            break
        seen.append(line)
        match = ANNOUNCE.search(line)
        if match:
            return process, match.group(1)
    stop_group(process)
    raise AssertionError(f"{command!r} announced no URL: {''.join(seen)[-2000:]}")


def test_every_listed_exception_is_still_a_readme_command() -> None:
    """NOT_RUN names only commands the README or its pages have (a stale excuse would hide a
    new command)."""
    assert set(NOT_RUN) <= set(readme_commands())


def test_readme_commands_run_as_written_in_a_fresh_copy(tmp_path: Path) -> None:
    if shutil.which("uv") is None:
        pytest.fail("uv is not on PATH: run the tests with ./scripts/test.sh (it installs uv)")
    repo = fresh_copy(tmp_path / "repo")
    scratch = tmp_path / "tmp"
    scratch.mkdir()
    env = _environment()
    commands = readme_commands()
    ran: list[str] = []
    background: list[subprocess.Popen[str]] = []
    url = None
    try:
        for command in commands:
            if command in NOT_RUN:
                continue
            line = command.replace("--port 8099", "--port 0").replace("/tmp/", f"{scratch}/")
            if url is not None:
                line = line.replace("http://127.0.0.1:8099/v1", url)
            if line.endswith("&"):
                process, url = _start_background(line[:-1].strip(), repo, env)
                background.append(process)
            else:
                done = subprocess.run(
                    ["bash", "-c", line],
                    cwd=repo,
                    env=env,
                    capture_output=True,
                    text=True,
                    timeout=STEP_TIMEOUT_S,
                )
                assert done.returncode == 0, (command, done.stdout[-3000:], done.stderr[-3000:])
                assert "Traceback" not in done.stderr, command
            if not ran:  # the main job installs the runtime dependencies only (issue 45)
                assert _installed(repo) == _runtime_packages(repo), command
            ran.append(command)
    finally:
        for process in background:
            stop_group(process)
    assert sorted(set(ran) | set(NOT_RUN)) == sorted(
        set(commands)
    )  # every command: run, or listed with why

    # What the commands made is what the README says they make.
    assert _tree(repo / "reports") == _tree(
        ROOT / "reports"
    )  # rescore of a fresh clone: the committed reports
    suites = ET.parse(repo / "junit.xml").getroot()
    assert (suites.get("failures"), suites.get("errors")) == ("0", "0")  # no change, no regression
    with (scratch / "reports" / "leaderboard.csv").open(newline="") as handle:
        assert [row["model"] for row in csv.DictReader(handle)] == [
            "ref/noisy"
        ]  # recorded from the stand-in


def _installed(repo: Path) -> set[str]:
    """The distributions in ``repo``'s .venv (normalised names), the project itself left out."""
    found = set()
    for info in (repo / ".venv").glob("lib/python*/site-packages/*.dist-info"):
        found.add(re.sub(r"[-_.]+", "-", info.name.split("-")[0]).lower())
    return found - {"lobstack-eval"}


def _runtime_packages(repo: Path) -> set[str]:
    """What ``uv export --no-dev`` says the runtime needs (on this platform: what the lock
    installs, markers aside, is checked against the venv by the caller)."""
    done = subprocess.run(
        ["uv", "export", "--no-dev", "--locked", "--no-hashes", "--no-emit-project"],
        cwd=repo,
        capture_output=True,
        text=True,
        timeout=STEP_TIMEOUT_S,
        check=True,
    )
    names = set()
    for line in done.stdout.splitlines():
        if line and not line.startswith((" ", "#")) and "==" in line:
            requirement, _, marker = line.partition(";")
            name = requirement.split("==")[0].strip()
            if not marker.strip() or _marker_holds(marker):
                names.add(re.sub(r"[-_.]+", "-", name).lower())
    return names


def _marker_holds(marker: str) -> bool:
    from packaging.markers import Marker

    return Marker(marker.strip()).evaluate()


def _tree(root: Path) -> dict[str, bytes]:
    return {
        str(p.relative_to(root)): p.read_bytes() for p in sorted(root.rglob("*")) if p.is_file()
    }
