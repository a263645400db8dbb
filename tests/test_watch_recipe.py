"""docs/guide-watch.md's workflow works: its YAML parses, it runs daily and only its record step has the key, and
its ``run:`` steps, run in order as Actions would, record one dated run a day into the history against the
stand-in (port 0), score it into its report dir, append its rows and draw the timelines.

What is substituted, and only this: ``LOBSTACK_BASE_URL`` points at the stand-in serving day N (``run=N``: the
provider's day, when ``ref/drifting`` may have changed); ``date`` is a shim that prints day N (the clock of the day
the job runs); the ``${{ ... }}`` expressions get the values of a run watching ``ref/drifting``; ``$GITHUB_ENV``
is carried from step to step as Actions does; steps that use an action are GitHub's and are not run, nor is the
install (``uv sync --locked``: this checkout's environment stands for it).

The drift step runs every day: with 3 runs it says ``not tested yet`` (the test needs 11) and passes, and its
markdown reaches the job summary; ``drift`` itself on a longer history is tested in tests/test_drift*.py.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import polars as pl
import pytest
import yaml

from standin import StandInGateway
from tests.conftest import ROOT
from tests.test_ci_recipes import checkout_env, triggers

DOC = ROOT / "docs" / "guide-watch.md"
INSTALL = "uv sync --locked"
EXPRESSIONS = {
    "vars.LOBSTACK_WATCH_MODEL || 'openai/gpt-4o'": "ref/drifting",
    "secrets.LOBSTACK_API_KEY": "",
    "env.RUN_ID": "",
}
ACTIONS = {
    "actions/checkout@v4",
    "astral-sh/setup-uv@v6",
    "stefanzweifel/git-auto-commit-action@v5",
}
DRIFT = "lobstack-eval drift"
DAYS = ("2026-10-21", "2026-10-22", "2026-10-23")


def workflow() -> dict[str, Any]:
    (block,) = re.findall(r"```yaml\n(.*?)```", DOC.read_text(encoding="utf-8"), re.DOTALL)
    return yaml.safe_load(block) | {"_text": block}


def substitute(value: str) -> str:
    def one(match: re.Match[str]) -> str:
        expression = match.group(1).strip()
        assert expression in EXPRESSIONS, f"the doc uses ${{{{ {expression} }}}}: give it a value"
        return EXPRESSIONS[expression]

    return re.sub(r"\$\{\{(.*?)\}\}", one, value)


def run_day(job: dict[str, Any], project: Path, env: dict[str, str]) -> list[str]:
    """Run the job's steps in ``project`` (bash -eo pipefail, ``$GITHUB_ENV`` carried); returns the steps not run."""
    import subprocess

    github_env = project / "github-env"
    github_env.write_text("", encoding="utf-8")
    carried: dict[str, str] = {}
    job_env = {k: substitute(str(v)) for k, v in (job.get("env") or {}).items()}
    skipped = []
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
            env=env | job_env | carried | step_env | {"GITHUB_ENV": str(github_env)},
            capture_output=True,
            text=True,
            timeout=600,
        )
        assert done.returncode == 0, (
            f"{step.get('name')}: exit {done.returncode}\n{done.stdout}\n{done.stderr}"
        )
        for line in github_env.read_text(encoding="utf-8").splitlines():
            key, _, value = line.partition("=")
            carried[key] = value
    return skipped


def date_shim(folder: Path, day: str) -> Path:
    """A ``date`` that prints ``day`` for ``date -u +%F``, the job's clock on that day."""
    folder.mkdir(parents=True, exist_ok=True)
    shim = folder / "date"
    shim.write_text(f'#!/bin/sh\n[ "$*" = "-u +%F" ] && echo {day} && exit 0\nexit 1\n')
    shim.chmod(0o755)
    return folder


def test_the_watch_runs_daily_and_only_its_record_step_has_the_key() -> None:
    flow = workflow()
    assert {"schedule", "workflow_dispatch"} <= set(triggers(flow))
    assert triggers(flow)["schedule"] == [{"cron": "0 6 * * *"}]
    (job,) = flow["jobs"].values()
    keyed = [s for s in job["steps"] if "secrets." in json.dumps(s)]
    assert len(keyed) == 1 and "lobstack-eval record" in keyed[0]["run"]
    assert "--run-id" in keyed[0]["run"]
    assert any(DRIFT in s.get("run", "") for s in job["steps"])


def test_three_days_of_the_watch_keep_three_dated_runs_and_their_rows(
    tmp_path: Path, start_gateway: Callable[..., StandInGateway]
) -> None:
    project = tmp_path / "repo"
    project.mkdir()
    (project / "evals").mkdir()
    (project / "evals" / "suite.json").write_bytes((ROOT / "evals" / "suite.json").read_bytes())
    (job,) = workflow()["jobs"].values()
    base = checkout_env()
    for number, day in enumerate(DAYS, 1):
        gateway = start_gateway(suite=ROOT / "evals" / "suite.json", run=number, drift_from=3)
        shim = date_shim(tmp_path / f"bin-{number}", day)
        env = base | {
            "LOBSTACK_BASE_URL": gateway.url,
            "GITHUB_STEP_SUMMARY": str(tmp_path / "summary.md"),
            "PATH": f"{shim}:{base['PATH']}",
        }
        skipped = run_day(job, project, env)
        gateway.stop()
        expected = ["actions/checkout@v4", "astral-sh/setup-uv@v6", INSTALL]
        assert skipped == [*expected, "stefanzweifel/git-auto-commit-action@v5"]
        summary = (tmp_path / "summary.md").read_text("utf-8")
        verdicts = re.findall(r"\*\*not tested yet: (\d+) runs since", summary)
        assert verdicts == [str(n) for n in range(1, number + 1)]
    history = project / "cassettes" / "history"
    assert sorted(p.name for p in history.iterdir()) == list(DAYS)
    runs = {}
    for day in DAYS:
        manifest = json.loads((history / day / "ref_drifting" / "run.json").read_text("utf-8"))
        assert manifest["run"]["id"] == day and len(manifest["cases"]) == 80
        results = json.loads(
            (project / "reports" / "history" / day / "ref_drifting" / "results.json").read_text(
                "utf-8"
            )
        )
        assert results["run"]["id"] == day
        runs[day] = results
    # the stand-in's day 3 is ref/drifting's version 2: another model behind the name, fewer cases passed
    assert [runs[d]["run"]["identity"]["model"] for d in DAYS] == [
        ["ref/drifting-v1"],
        ["ref/drifting-v1"],
        ["ref/drifting-v2"],
    ]
    rows = project / "rows-history"
    keys = {
        "suite_version": pl.String,
        "model_slug": pl.String,
        "run_id": pl.String,
    }  # guide-rows.md
    cases = pl.scan_parquet(str(rows / "cases" / "**" / "*.parquet"), hive_schema=keys)
    per_run = (
        cases.filter(pl.col("overall").is_not_null())
        .group_by("run_id")
        .agg((100 * pl.col("overall").mean()).alias("overall"))
        .sort("run_id")
        .collect()
    )
    assert per_run["run_id"].to_list() == list(DAYS)
    assert per_run["overall"].to_list() == pytest.approx(
        [runs[d]["metrics"]["overall"]["rate"] for d in DAYS]
    )
    assert per_run["overall"][2] < min(per_run["overall"][:2])
    page = (project / "reports" / "history" / DAYS[-1] / "index.html").read_text("utf-8")
    assert '<section id="timeline">' in page and "ref/drifting-v2 (changed)" in page
