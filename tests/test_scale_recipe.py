"""docs/scale.md's GitHub Actions matrix works: every ``run:`` command of its record jobs (one per
shard) and of its score job runs against the stand-in, with the artifacts passed between them as
Actions would lay them out.

What is substituted, and only this: the matrix's models become ``ref/noisy`` (a model the stand-in
serves; the shards stay the doc's); ``LOBSTACK_BASE_URL`` points at the stand-in (port 0) and the
key is empty (a loopback URL needs none); ``uv run`` runs in this checkout's environment; checkout
and setup-uv are GitHub's and are not run; upload-artifact copies ``path`` to ``artifacts/<name>/``
and download-artifact copies each artifact matching ``pattern`` into ``<path>/<name>/`` (its layout
without ``merge-multiple``).
"""

from __future__ import annotations

import fnmatch
import json
import os
import re
import shutil
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import polars as pl
import yaml

from standin import StandInGateway
from tests.conftest import ROOT, outside_env

DOC = ROOT / "docs" / "scale.md"
MODEL = "ref/noisy"
SKIPPED = {"actions/checkout@v4", "astral-sh/setup-uv@v6"}


def workflow() -> dict[str, Any]:
    (block,) = re.findall(r"```yaml\n(.*?)```", DOC.read_text(encoding="utf-8"), re.DOTALL)
    return yaml.safe_load(block)


def run_job(
    job: dict[str, Any], values: dict[str, str], workdir: Path, artifacts: Path, env: dict[str, str]
) -> None:
    """Run one job's steps in ``workdir`` as Actions would (bash -eo pipefail), ``values`` for
    its expressions."""
    outputs: dict[str, str] = {}

    def substitute(text: str) -> str:
        def one(match: re.Match[str]) -> str:
            expression = match.group(1).strip()
            if expression.startswith("steps."):
                _, step, _, key = expression.split(".")
                return outputs[f"{step}.{key}"]
            assert expression in values, (
                f"docs/scale.md uses ${{{{ {expression} }}}}: give the test its value"
            )
            return values[expression]

        return re.sub(r"\$\{\{(.*?)\}\}", one, text)

    for step in job["steps"]:
        uses = step.get("uses")
        if uses in SKIPPED:
            continue
        options = {k: substitute(str(v)) for k, v in (step.get("with") or {}).items()}
        if uses == "actions/upload-artifact@v4":
            for path in options["path"].split():
                target = (
                    artifacts
                    / options["name"]
                    / (path if "\n" in str(step["with"]["path"]) else "")
                )
                shutil.copytree(workdir / path, target, dirs_exist_ok=True)
            continue
        if uses == "actions/download-artifact@v4":
            for artifact in sorted(artifacts.iterdir()):
                if fnmatch.fnmatch(artifact.name, options["pattern"]):
                    shutil.copytree(artifact, workdir / options["path"] / artifact.name)
            continue
        assert uses is None, f"docs/scale.md uses {uses}: teach the test what it does"
        output = workdir / ".github-output"
        output.write_text("")
        step_env = {k: substitute(str(v)) for k, v in (step.get("env") or {}).items()}
        done = subprocess.run(
            ["bash", "--noprofile", "--norc", "-eo", "pipefail", "-c", substitute(step["run"])],
            cwd=workdir,
            env=env | step_env | {"GITHUB_OUTPUT": str(output)},
            capture_output=True,
            text=True,
            timeout=600,
        )
        assert done.returncode == 0, (
            f"{step['run']}: exit {done.returncode}\n{done.stdout}\n{done.stderr}"
        )
        for line in output.read_text().splitlines():
            key, _, value = line.partition("=")
            outputs[f"{step['id']}.{key}"] = value


def test_the_matrix_records_in_shards_then_merges_rescores_and_keeps_rows(
    tmp_path: Path, start_gateway: Callable[..., StandInGateway]
) -> None:
    stand_in = start_gateway(suite=ROOT / "evals" / "suite.json")
    env = outside_env()
    env |= {
        "VIRTUAL_ENV": sys.prefix,
        "PATH": str(Path(sys.executable).parent) + os.pathsep + env.get("PATH", ""),
        "LOBSTACK_BASE_URL": stand_in.url,
    }
    jobs = workflow()["jobs"]
    shards = jobs["record"]["strategy"]["matrix"]["shard"]
    artifacts = tmp_path / "artifacts"
    for shard in shards:
        checkout = tmp_path / f"record-{shard}"
        (checkout / "evals").mkdir(parents=True)
        shutil.copy(ROOT / "evals" / "suite.json", checkout / "evals" / "suite.json")
        values = {"matrix.model": MODEL, "matrix.shard": str(shard), "secrets.LOBSTACK_API_KEY": ""}
        run_job(jobs["record"], values, checkout, artifacts, env)
    uploaded = sorted(p.name for p in artifacts.iterdir())
    assert uploaded == [f"cassettes-ref_noisy-{shard}" for shard in shards]
    held = [
        set(json.loads((artifacts / a / "ref_noisy" / "run.json").read_text())["cases"])
        for a in uploaded
    ]
    assert all(18 <= len(cases) <= 22 for cases in held)  # 80 cases dealt out over 4 shards

    score = tmp_path / "score"
    (score / "evals").mkdir(parents=True)
    shutil.copy(ROOT / "evals" / "suite.json", score / "evals" / "suite.json")
    assert "needs" in jobs["score"]
    run_job(jobs["score"], {}, score, artifacts, env)
    results = json.loads((score / "reports" / "ref_noisy" / "results.json").read_text())
    assert results["cases"] == {"total": 80, "scored": 80, "errored": 0, "unrecorded": 0}
    assert set(
        json.loads((score / "merged" / "ref_noisy" / "run.json").read_text())["cases"]
    ) == set().union(*held)
    cases = pl.read_parquet(
        next((score / "rows").glob("cases/suite_version=*/model_slug=ref_noisy/part-0.parquet"))
    )
    assert cases.height == 80 and (artifacts / "reports" / "rows").is_dir()
