"""The docs match the behaviour: README's commands, the leaderboard docs/reports.md shows, the
pytest guide's commands, and every command's --help."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from lobstack_eval.main import main
from tests.conftest import ROOT, outside_env

README = (ROOT / "README.md").read_text(encoding="utf-8")
COMMANDS = [
    ["suite", "check"],
    ["suite", "audit"],
    ["suite", "export"],
    ["record"],
    ["rescore"],
    ["suite", "new"],
    ["report"],
    ["diff", "suites"],
    ["diff", "runs"],
    ["gateway"],
    ["merge"],
    ["leaderboard"],
    ["drift"],
    ["pick"],
]


@pytest.mark.parametrize("command", COMMANDS, ids=" ".join)
def test_every_command_has_help_and_is_in_the_readme(
    command: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    assert main([*command, "--help"]) == 0
    assert "Usage:" in capsys.readouterr().out
    assert f"`lobstack-eval {' '.join(command)}" in README


def test_top_level_help_lists_the_contract_commands(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--help"]) == 0
    out = capsys.readouterr().out
    for name in ("suite", "record", "rescore", "diff", "gateway", "report"):
        assert re.search(rf"^\s+{name}\s", out, re.MULTILINE), name


def _commands(path: Path) -> list[str]:
    """A shell script's command lines (no comments, blank lines or ``set``/``cd`` housekeeping)."""
    lines = [line.split("#")[0].strip() for line in path.read_text(encoding="utf-8").splitlines()]
    return [line for line in lines if line and not line.startswith(("set ", "cd "))]


def test_readme_opens_with_the_main_job_and_the_ci_test_command() -> None:
    """The first block: the main job, then the one test command, which is exactly what CI runs; that
    command installs uv when missing and the browser, then runs the locked pytest."""
    block = README.split("```sh\n", 1)[1].split("```", 1)[0].splitlines()
    # Only the runtime dependencies: the main job needs none of the test tools (issue 45).
    assert block[0].startswith("uv run --no-dev lobstack-eval rescore cassettes/")
    test_command = block[1].split("#")[0].strip()
    assert test_command == "./scripts/test.sh"
    assert _commands(ROOT / ".ci" / "run") == [f"exec {test_command}"]
    script = ROOT / test_command
    assert os.access(script, os.X_OK)
    steps = _commands(script)
    assert any(
        step.startswith("python3 -m pip install --quiet uv") for step in steps
    )  # when uv is not on PATH
    assert "bash .ci/browser-setup.sh" in steps
    assert 'uv run --locked pytest -n auto --dist loadfile "$@"' in steps


def test_readme_leaderboard_is_the_committed_one() -> None:
    table = (
        (ROOT / "reports" / "leaderboard.md")
        .read_text(encoding="utf-8")
        .split("\n\n", 2)[2]
        .strip()
    )
    assert table in (ROOT / "docs" / "reports.md").read_text(encoding="utf-8")


def _pytest_section() -> list[str]:
    section = (ROOT / "docs" / "guide-pytest.md").read_text(encoding="utf-8")
    return [
        line.split("  #")[0].strip()
        for line in section.split("```sh\n", 1)[1].split("```", 1)[0].splitlines()
    ]


def _uv_env() -> dict[str, str]:
    """A child pytest's environment: this checkout's uv environment, nothing of this pytest or of
    the user's key."""
    env = outside_env()
    return env | {
        "VIRTUAL_ENV": sys.prefix,
        "PATH": str(Path(sys.executable).parent) + os.pathsep + env.get("PATH", ""),
    }


def test_readme_pytest_section_commands_collect_only_the_recordings_here() -> None:
    """Run in this repository, which has a test suite of its own, each command of
    docs/guide-pytest.md collects the recordings' tests and nothing else: one per committed model
    and case, none of tests/."""
    cassettes = sorted(p.parent.name for p in (ROOT / "cassettes").glob("*/run.json"))
    expected = {f"cassettes/{model}::{case['id']}" for model in cassettes for case in json.loads(
        (ROOT / "evals" / "suite.json").read_text(encoding="utf-8"))["cases"]}  # fmt: skip
    commands = _pytest_section()
    assert len(commands) == 3
    for command in commands:
        done = subprocess.run(
            ["bash", "-c", f"{command} --collect-only --verbosity=-1 -p no:cacheprovider"],
            cwd=ROOT,
            env=_uv_env(),
            capture_output=True,
            text=True,
            timeout=600,
        )
        assert done.returncode == 0, f"{command}\n{done.stdout[-3000:]}\n{done.stderr[-3000:]}"
        collected = {line.strip() for line in done.stdout.splitlines() if "::" in line}
        assert collected, command
        if "--lobstack-baseline" in command:  # with a baseline, one (whole run) test per model too
            expected_here = expected | {f"cassettes/{model}::(whole run)" for model in cassettes}
        else:
            expected_here = expected
        assert collected <= expected_here, (command, sorted(collected - expected_here)[:5])
        if " -k " not in command:
            assert collected == expected_here, command


def test_readme_pytest_section_commands_run_in_a_project_with_only_recordings(
    tmp_path: Path,
) -> None:
    """Every command of docs/guide-pytest.md, in a project with only cassettes/, the suite and
    reports/ (``uv run`` runs in this checkout's environment)."""
    commands = _pytest_section()
    for name in ("cassettes", "reports", "evals"):
        shutil.copytree(ROOT / name, tmp_path / name)
    env = _uv_env()
    summaries = []
    for command in commands:
        done = subprocess.run(
            ["bash", "-c", command],
            cwd=tmp_path,
            env=env,
            capture_output=True,
            text=True,
            timeout=600,
        )
        assert done.returncode == 0, f"{command}\n{done.stdout}\n{done.stderr}"
        summaries.append(done.stdout.splitlines()[-1])
    # What rescore wrote for the committed recordings (reports/ is golden: tests/test_golden.py).
    statuses = [
        r["status"]
        for f in (ROOT / "reports").glob("*/results.json")
        for r in json.loads(f.read_text())["results"]
    ]
    passed, total = statuses.count("passed"), len(statuses)
    models = len(
        list((ROOT / "reports").glob("*/results.json"))
    )  # one (whole run) test each, with the baseline
    assert re.search(rf"=+ {passed + models} passed, {total - passed} xfailed in ", summaries[0])
    assert re.search(rf"=+ 1 passed, {total - 1} deselected in ", summaries[1])
    assert re.search(rf"=+ 80 passed, {total - 80} deselected in ", summaries[2])


ANCHOR = re.compile(r'<a id="([^"]+)"></a>')
CITED = re.compile(r"(METHOD\.md|(?:commands|decisions)/[A-Za-z-]+\.md)#([A-Za-z0-9_-]+)")
SKIP = frozenset({".venv", ".git", "node_modules", "__pycache__"})


def _anchors(path: Path) -> set[str]:
    """The anchors a markdown file defines: its <a id> tags and its headings' GitHub slugs."""
    text = path.read_text(encoding="utf-8")
    headings = re.findall(r"^#+ (.+)$", text, re.MULTILINE)
    slugs = {re.sub(r"[^\w\- ]", "", h.lower()).replace(" ", "-") for h in headings}
    return set(ANCHOR.findall(text)) | slugs


def _repo_texts() -> list[Path]:
    """Every .py, then every .md file under ROOT outside SKIP's folders, which the walk does not
    enter (.venv alone holds thousands of files: globbing it and dropping them afterwards was most
    of the test's CPU)."""
    found: dict[str, list[Path]] = {".py": [], ".md": []}
    for folder, dirs, files in os.walk(ROOT):
        dirs[:] = sorted(d for d in dirs if d not in SKIP)
        for name in sorted(files):
            suffix = name[-3:]
            if suffix in found:
                found[suffix].append(Path(folder, name))
    return found[".py"] + found[".md"]


def test_every_cited_method_and_command_anchor_exists() -> None:
    """A METHOD.md, docs/commands/<page>.md or docs/decisions/<page>.md anchor cited anywhere in the
    repo finds its anchor, and every relative link between the docs pages finds its file."""
    broken = []
    known: dict[Path, set[str]] = {}  # each page's anchors, read once

    def anchors(page: Path) -> set[str]:
        if page not in known:
            known[page] = _anchors(page)
        return known[page]

    for path in _repo_texts():
        text = path.read_text(encoding="utf-8")
        # Every CITED match holds ".md#": a text without it has none (the regex scans slowly).
        for target, anchor in CITED.findall(text) if ".md#" in text else ():
            if anchor not in anchors(ROOT / "docs" / target):
                broken.append(f"{path.relative_to(ROOT)}: {target}#{anchor}")
        if path.parent.name in ("docs", "commands", "decisions"):
            for anchor in re.findall(r"\]\(#([A-Za-z0-9_-]+)\)", text):
                if anchor not in anchors(path):
                    broken.append(f"{path.relative_to(ROOT)}: #{anchor}")
        if path.parent.name in ("commands", "decisions"):  # a link to a sibling page
            for page, anchor in re.findall(r"\]\(([A-Za-z-]+\.md)#([A-Za-z0-9_-]+)\)", text):
                if anchor not in anchors(path.parent / page):
                    broken.append(f"{path.relative_to(ROOT)}: {page}#{anchor}")
        if path.parent.name in ("docs", "commands", "decisions"):
            for target in re.findall(r"\]\(((?:\.\./)?[A-Za-z/-]+\.md)(?:#[^)]*)?\)", text):
                if not (path.parent / target).is_file():
                    broken.append(f"{path.relative_to(ROOT)}: {target}")
    assert broken == []


def test_every_numbered_decision_keeps_its_anchor() -> None:
    """Decisions 1-120 are found by number forever (commits cite "decision 92"): each has
    #decision-N in METHOD.md, in place or in the table of where it went."""
    anchors = _anchors(ROOT / "docs" / "METHOD.md")
    assert [n for n in range(1, 121) if f"decision-{n}" not in anchors] == []


def test_method_page_reads_in_one_sitting() -> None:
    """METHOD.md is the method and a short statement of each decision, read in one sitting (at most
    6,000 words as read: anchors and link targets are not read). The decisions' full texts
    (docs/decisions/) and command behaviour (docs/commands/) have no cap."""
    text = (ROOT / "docs" / "METHOD.md").read_text(encoding="utf-8")
    read = re.sub(r"\]\([^)]*\)", "]", ANCHOR.sub("", text))
    assert len(read.split()) <= 6000
