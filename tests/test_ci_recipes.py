"""docs/ci.md's workflows work: their YAML parses, the pull-request job needs no secret, and every
``run:`` command of both jobs runs in a project holding a copy of the committed recordings, against
the stand-in gateway.

The project is set up as the doc's ``sh`` block says: its ``uv add`` (a placeholder address) is the
install and is not run, its ``lobstack-eval suite export`` writes the project's evals/suite.json.

What is substituted, and only this: ``LOBSTACK_BASE_URL`` points at the stand-in (port 0); the
workflow's ``${{ ... }}`` expressions get the values of a manual run for ``ref/oracle``; ``uv run``
runs in this checkout's environment (``VIRTUAL_ENV``), which stands for the install step
``uv sync --locked``; steps that use an action (checkout, setup-uv, comment, create-pull-request)
are GitHub's and are not run.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
import yaml

from recorder.endpoint import stored_uri
from standin import StandInGateway
from tests.conftest import ROOT, outside_env

CI_DOC = ROOT / "docs" / "ci.md"
INSTALL = "uv sync --locked"
ADD = 'uv add --dev "lobstack-eval @ git+https://github.com/<org>/lobstack-eval" pytest'
# The values of a manual run that records ref/oracle; the key is empty because a loopback URL
# needs none.
EXPRESSIONS = {
    "inputs.model || 'openai/gpt-4o'": "ref/oracle",
    "inputs.rerecord && '--rerecord' || ''": "",
    "secrets.LOBSTACK_API_KEY": "",
}
ACTIONS = {
    "actions/checkout@v4",
    "astral-sh/setup-uv@v6",
    "marocchino/sticky-pull-request-comment@v2",
    "peter-evans/create-pull-request@v7",
}


def workflows() -> list[dict[str, Any]]:
    """Every ```yaml block of docs/ci.md, parsed (YAML 1.1 reads the key ``on`` as True)."""
    blocks = re.findall(r"```yaml\n(.*?)```", CI_DOC.read_text(encoding="utf-8"), re.DOTALL)
    return [yaml.safe_load(block) | {"_text": block} for block in blocks]


def setup_commands() -> list[str]:
    """The command lines of the doc's one
    ```sh block (how a project sets up), without trailing comments."""
    (block,) = re.findall(r"```sh\n(.*?)```", CI_DOC.read_text(encoding="utf-8"), re.DOTALL)
    return [
        re.split(r"\s+#\s", line, maxsplit=1)[0].strip()
        for line in block.splitlines()
        if line.strip()
    ]


def checkout_env() -> dict[str, str]:
    """This checkout's uv environment (standing for the installed lobstack-eval), nothing of this
    pytest or a key."""
    env = outside_env()
    bin_dir = str(Path(sys.executable).parent)
    return env | {"VIRTUAL_ENV": sys.prefix, "PATH": bin_dir + os.pathsep + env.get("PATH", "")}


def triggers(workflow: dict[str, Any]) -> dict[str, Any]:
    return workflow.get("on") or workflow[True]


def only_job(workflow: dict[str, Any]) -> dict[str, Any]:
    (job,) = workflow["jobs"].values()
    return job


def substitute(value: str) -> str:
    def one(match: re.Match[str]) -> str:
        expression = match.group(1).strip()
        assert expression in EXPRESSIONS, (
            f"docs/ci.md uses ${{{{ {expression} }}}}: give the test its value"
        )
        return EXPRESSIONS[expression]

    return re.sub(r"\$\{\{(.*?)\}\}", one, value)


def run_job(job: dict[str, Any], project: Path, env: dict[str, str]) -> list[str]:
    """Run the job's commands in ``project`` as Actions would (bash -eo pipefail); returns the
    skipped steps."""
    skipped = []
    job_env = {k: substitute(str(v)) for k, v in (job.get("env") or {}).items()}
    for step in job["steps"]:
        if "uses" in step:
            assert step["uses"] in ACTIONS
            skipped.append(step["uses"])
            continue
        if step["run"].strip() == INSTALL:
            skipped.append(INSTALL)
            continue
        step_env = {k: substitute(str(v)) for k, v in (step.get("env") or {}).items()}
        done = subprocess.run(
            ["bash", "--noprofile", "--norc", "-eo", "pipefail", "-c", substitute(step["run"])],
            cwd=project,
            env=env | job_env | step_env,
            capture_output=True,
            text=True,
            timeout=600,
        )
        assert done.returncode == 0, (
            f"{step.get('name')}: exit {done.returncode}\n{done.stdout}\n{done.stderr}"
        )
    return skipped


@pytest.fixture
def project(tmp_path: Path) -> Path:
    """A repository as the workflows expect it: the suite (written by the doc's setup commands),
    ref/noisy's recordings and their reports."""
    project = tmp_path / "repo"
    project.mkdir()
    install, *commands = setup_commands()
    assert (
        install == ADD
    )  # the install: a placeholder address, so not run (the checkout's environment stands in)
    for command in commands:
        done = subprocess.run(
            ["bash", "--noprofile", "--norc", "-eo", "pipefail", "-c", command],
            cwd=project,
            env=checkout_env(),
            capture_output=True,
            text=True,
            timeout=600,
        )
        assert done.returncode == 0, (
            f"{command}: exit {done.returncode}\n{done.stdout}\n{done.stderr}"
        )
    assert (project / "evals" / "suite.json").read_bytes() == (
        ROOT / "evals" / "suite.json"
    ).read_bytes()
    shutil.copytree(ROOT / "cassettes" / "ref_noisy", project / "cassettes" / "ref_noisy")
    shutil.copytree(ROOT / "reports" / "ref_noisy", project / "reports" / "ref_noisy")
    return project


@pytest.fixture
def stand_in(start_gateway: Callable[..., StandInGateway]) -> StandInGateway:
    return start_gateway(suite=ROOT / "evals" / "suite.json")


@pytest.fixture
def ci_env(tmp_path: Path, stand_in: StandInGateway) -> dict[str, str]:
    """The environment of a CI step: this checkout's uv environment, the stand-in, a job
    summary file."""
    return checkout_env() | {
        "LOBSTACK_BASE_URL": stand_in.url,
        "GITHUB_STEP_SUMMARY": str(tmp_path / "step-summary.md"),
    }


def test_the_doc_has_a_pull_request_gate_and_a_recording_job() -> None:
    gate, recording = workflows()
    assert set(triggers(gate)) == {"pull_request"}
    assert "secrets." not in gate["_text"]  # runs for forks: no secret, no network
    assert {"schedule", "workflow_dispatch"} <= set(triggers(recording))
    steps = only_job(recording)["steps"]
    keyed = [s for s in steps if "secrets." in json.dumps(s)]
    assert len(keyed) == 1 and keyed[0]["env"] == {
        "LOBSTACK_API_KEY": "${{ secrets.LOBSTACK_API_KEY }}"
    }
    assert "lobstack-eval record" in keyed[0]["run"]
    opener = next(
        s for s in steps if s.get("uses", "").startswith("peter-evans/create-pull-request")
    )
    assert opener["with"]["add-paths"].split() == ["cassettes/", "reports/"]


def test_the_pull_request_gate_runs_offline_and_writes_the_comment(  # type: ignore[no-untyped-def]
    project: Path, ci_env: dict[str, str], stand_in
) -> None:
    gate, _ = workflows()
    skipped = run_job(only_job(gate), project, ci_env)
    assert stand_in.requests_seen == []
    assert skipped == [
        "actions/checkout@v4",
        "astral-sh/setup-uv@v6",
        INSTALL,
        "marocchino/sticky-pull-request-comment@v2",
    ]
    comment = (project / "comment.md").read_text(encoding="utf-8")
    assert comment.startswith("### lobstack-eval: no regression\n")
    assert Path(ci_env["GITHUB_STEP_SUMMARY"]).read_text(encoding="utf-8") == comment + "\n"
    junit = (project / "junit.xml").read_text(encoding="utf-8")
    assert (
        junit.count("<testcase ") == 80 + 1
    )  # each case, and the model's (whole run) test against its baseline


def test_the_gate_fails_on_a_regressed_case(project: Path, ci_env: dict[str, str]) -> None:
    baseline = project / "reports" / "ref_noisy" / "results.json"
    data = json.loads(baseline.read_text(encoding="utf-8"))
    failing = next(r for r in data["results"] if r["status"] == "failed")
    failing.update(
        status="passed", reason=None
    )  # the baseline says it passed: now it is a regression
    baseline.write_text(json.dumps(data), encoding="utf-8")
    gate, _ = workflows()
    with pytest.raises(AssertionError, match=rf"FAILED cassettes/ref_noisy::{failing['id']}"):
        run_job(only_job(gate), project, ci_env)


def test_the_recording_job_records_rescores_and_the_gate_then_passes(  # type: ignore[no-untyped-def]
    project: Path, ci_env: dict[str, str]
) -> None:
    gate, recording = workflows()
    skipped = run_job(only_job(recording), project, ci_env)
    assert skipped == [
        "actions/checkout@v4",
        "astral-sh/setup-uv@v6",
        INSTALL,
        "peter-evans/create-pull-request@v7",
    ]
    manifest = json.loads(
        (project / "cassettes" / "ref_oracle" / "run.json").read_text(encoding="utf-8")
    )
    assert len(manifest["cases"]) == 80 and manifest["base_url"] == stored_uri(
        ci_env["LOBSTACK_BASE_URL"]
    )
    oracle = json.loads(
        (project / "reports" / "ref_oracle" / "results.json").read_text(encoding="utf-8")
    )
    assert oracle["metrics"]["overall"]["rate"] == 100.0
    run_job(only_job(gate), project, ci_env)  # the pull request it opens passes the gate
    assert (project / "junit.xml").read_text(encoding="utf-8").count("<testcase ") == 2 * (80 + 1)
