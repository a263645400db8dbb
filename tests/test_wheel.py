"""A new user's install: the wheel ``uv build`` makes ships the current suite (byte-identical to
evals/suite.json), and lobstack-eval installed from it into a fresh environment works in an empty
project: it uses the bundled suite, says so, re-scores the committed recordings into the committed
results, records from the stand-in, and exports the suite.

Installed the way a user would, from the package registry: hatchling for the build and the locked
versions of the dependencies (``uv export``) are downloaded into a uv cache of this module's own,
empty at the start, so the test never depends on what the machine's cache happens to hold
(package registries are the one network a test may use)."""

from __future__ import annotations

import json
import os
import queue
import re
import shutil
import subprocess
import sys
import threading
import zipfile
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.conftest import ROOT
from tests.record_helpers import stop_group

SUITE = ROOT / "evals" / "suite.json"
_DOC = json.loads(SUITE.read_text(encoding="utf-8"))
TITLE = f"{_DOC['name']} {_DOC['version']}"
TIMEOUT_S = 600


@pytest.fixture(scope="module")
def uv_cache(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """An empty uv cache for this module: whatever the build and the install need comes from the
    registry. Removed at the end (the environment holds copies, UV_LINK_MODE=copy): a few hundred
    MB per run would pile up."""
    cache = tmp_path_factory.mktemp("uv-cache")
    yield cache
    shutil.rmtree(cache, ignore_errors=True)


def _uv(cache: Path, *args: str, cwd: Path = ROOT) -> str:
    if shutil.which("uv") is None:
        pytest.fail("uv is not on PATH: run the tests with ./scripts/test.sh (it installs uv)")
    # Nothing of the caller's uv settings that would bend the install: no offline mode, no other
    # cache or venv.
    dropped = ("VIRTUAL_ENV", "UV_PROJECT_ENVIRONMENT", "UV_OFFLINE", "UV_NO_CACHE", "UV_CACHE_DIR")
    env = {k: v for k, v in os.environ.items() if k not in dropped}
    done = subprocess.run(
        ["uv", *args],
        cwd=cwd,
        env=env | {"UV_CACHE_DIR": str(cache), "UV_LINK_MODE": "copy"},
        capture_output=True,
        text=True,
        timeout=TIMEOUT_S,
    )
    assert done.returncode == 0, (
        f"uv {' '.join(args)}: exit {done.returncode}\n{done.stdout}\n{done.stderr}"
    )
    return done.stdout


@pytest.fixture(scope="module")
def wheel(uv_cache: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("dist")
    _uv(uv_cache, "build", "--wheel", "--python", sys.executable, "--out-dir", str(out))
    (built,) = out.glob("lobstack_eval-*.whl")
    return built


@pytest.fixture(scope="module")
def installed(wheel: Path, uv_cache: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A fresh environment holding the wheel and the locked versions of its dependencies; returns
    its bin dir."""
    root = tmp_path_factory.mktemp("venv")
    requirements = root / "requirements.txt"
    requirements.write_text(
        _uv(
            uv_cache,
            "export",
            "--frozen",
            "--no-dev",
            "--no-emit-project",
            "--no-hashes",
            "--quiet",
        ),
        encoding="utf-8",
    )
    venv = root / "env"
    _uv(uv_cache, "venv", "--quiet", "--python", sys.executable, str(venv))
    _uv(
        uv_cache,
        "pip",
        "install",
        "--quiet",
        "--python",
        str(venv / "bin" / "python"),
        "-r",
        str(requirements),
        str(wheel),
    )
    return venv / "bin"


def test_the_wheel_ships_the_suite_byte_identical(wheel: Path) -> None:
    with zipfile.ZipFile(wheel) as archive:
        names = archive.namelist()
        assert archive.read("recorder/bundled_suite.json") == SUITE.read_bytes()
    assert [n for n in names if n.endswith(".json")] == [
        "recorder/bundled_suite.json"
    ]  # one suite, the current one


def _env(bin_dir: Path) -> dict[str, str]:
    """The installed environment only: nothing of this checkout's (no VIRTUAL_ENV, no
    PYTHONPATH), no key."""
    env = {
        k: v
        for k, v in os.environ.items()
        if not k.startswith(("LOBSTACK_", "VIRTUAL_ENV", "PYTHON"))
    }
    return env | {"PATH": str(bin_dir) + os.pathsep + env.get("PATH", "")}


def _run(bin_dir: Path, cwd: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [str(bin_dir / "lobstack-eval"), *args],
        cwd=cwd,
        env=_env(bin_dir),
        capture_output=True,
        text=True,
        timeout=TIMEOUT_S,
    )


def _notice(bin_dir: Path) -> str:
    version = _run(bin_dir, ROOT, "--version").stdout.split()[-1]
    return (
        f"using the suite bundled with lobstack-eval {version}: {TITLE} "
        "(no evals/suite.json, .yaml or .yml here; lobstack-eval suite export writes "
        "evals/suite.json)"
    )


def test_an_empty_project_uses_the_bundled_suite(installed: Path, tmp_path: Path) -> None:
    done = _run(installed, tmp_path, "suite", "check")
    assert done.returncode == 0, done.stderr
    assert done.stderr.splitlines() == [_notice(installed)]
    # The file it checked is the installed package's, not this checkout's.
    assert (
        done.stdout.startswith(f"{installed.parent}/lib/")
        and "/recorder/bundled_suite.json: " in done.stdout
    )
    assert f"{TITLE} ({_DOC['released']}) is valid" in done.stdout


def test_rescore_in_a_project_with_only_cassettes_gives_the_committed_results(
    installed: Path, tmp_path: Path
) -> None:
    shutil.copytree(ROOT / "cassettes", tmp_path / "cassettes")
    done = _run(installed, tmp_path, "rescore", "--no-html", "-q")
    assert done.returncode == 0, done.stderr
    assert done.stderr.splitlines().count(_notice(installed)) == 1
    committed = sorted(
        p.relative_to(ROOT / "reports") for p in (ROOT / "reports").glob("*/results.json")
    )
    assert sorted(
        p.relative_to(tmp_path / "reports") for p in (tmp_path / "reports").glob("*/results.json")
    ) == (committed)
    for name in committed:
        assert (tmp_path / "reports" / name).read_bytes() == (
            ROOT / "reports" / name
        ).read_bytes(), name
    for name in ("leaderboard.csv", "leaderboard.md"):
        assert (tmp_path / "reports" / name).read_bytes() == (
            ROOT / "reports" / name
        ).read_bytes(), name


def test_export_writes_the_suite_a_project_commits(installed: Path, tmp_path: Path) -> None:
    done = _run(installed, tmp_path, "suite", "export")
    assert done.returncode == 0 and done.stderr == "", done.stderr
    assert (tmp_path / "evals" / "suite.json").read_bytes() == SUITE.read_bytes()
    again = _run(installed, tmp_path, "suite", "check")
    assert again.returncode == 0 and again.stderr == ""
    assert again.stdout.startswith(f"evals/suite.json: {TITLE} ")


@pytest.fixture
def gateway(installed: Path, tmp_path: Path) -> Iterator[tuple[str, str]]:
    """``lobstack-eval gateway --port 0`` of the installed wheel in an empty dir: its URL and the
    line it printed before the announcement. Stopped (its process group, by id) at the end."""
    where = tmp_path / "gateway"
    where.mkdir()
    process = subprocess.Popen(
        [str(installed / "lobstack-eval"), "gateway", "--port", "0"],
        cwd=where,
        env=_env(installed),
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        start_new_session=True,
    )
    lines: queue.Queue[str | None] = queue.Queue()

    def read() -> None:
        assert process.stdout is not None
        for line in process.stdout:
            lines.put(line.rstrip("\n"))
        lines.put(None)  # the gateway ended: fail at once instead of waiting

    threading.Thread(target=read, daemon=True).start()
    try:
        seen: list[str] = []
        found = None
        while (line := lines.get(timeout=120)) is not None:
            seen.append(line)
            found = re.search(r"Stand-in gateway on (http://127\.0\.0\.1:\d+/v1)", line)
            if found:
                break
        assert found and len(seen) == 2, (
            seen
        )  # one line before the announcement: the bundled-suite notice
        yield found.group(1), seen[0]
    finally:
        stop_group(process)


def test_record_and_rescore_against_the_stand_in_from_the_wheel(  # type: ignore[no-untyped-def]
    installed: Path, tmp_path: Path, gateway
) -> None:
    url, said = gateway
    assert said == _notice(installed)  # the gateway answers from the bundled suite, and said so
    project = tmp_path / "project"
    project.mkdir()
    done = _run(
        installed,
        project,
        "record",
        "--model",
        "ref/oracle",
        "--case",
        "arguments-03",
        "--base-url",
        url,
    )
    assert done.returncode == 0, done.stderr
    assert done.stderr.splitlines()[0] == _notice(installed)
    assert f"Recording 1 case(s) of {TITLE} for ref/oracle" in done.stderr
    scored = _run(installed, project, "rescore", "--no-html", "-q")
    assert scored.returncode == 0, scored.stderr
    results = json.loads(
        (project / "reports" / "ref_oracle" / "results.json").read_text(encoding="utf-8")
    )
    assert [r["status"] for r in results["results"] if r["status"] != "unrecorded"] == ["passed"]
    missing = len(_DOC["cases"]) - 1
    # The suggested command needs no --suite: run there, it finds the bundled suite again.
    assert (
        f"{missing} case(s) of ref/oracle need recording: lobstack-eval record --model ref/oracle "
        "--base-url " in (scored.stderr)
    )
    assert "--suite" not in scored.stderr
