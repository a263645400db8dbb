"""docs/guide-watch.md's workflow works: its YAML parses, it runs daily and only its record step has
the key, and its ``run:`` steps, run in order as Actions would, record one dated run a day into the
history against the stand-in (port 0), score it into its report dir, append its rows and draw
the timelines.

What is substituted, and only this: ``LOBSTACK_BASE_URL`` points at the stand-in serving day N
(``run=N``: the provider's day, when ``ref/drifting`` may have changed, its ``Date`` header day N);
the clock of the day the job runs is day N, 06:00 UTC, both for the shell (``date`` is a shim that
prints day N) and for the recorder (tests/fixtures/job_clock: ``record`` reads that time as its
clock); the ``${{ ... }}`` expressions get the values of a
run watching ``ref/drifting``; ``$GITHUB_ENV`` is carried from step to step as Actions does; steps
that use an action are GitHub's and are not run, nor is the install (``uv sync --locked``: this
checkout's environment stands for it).

The history is seeded with the first 14 committed runs of ``ref/drifting`` (cassettes/history/,
recorded with the same stand-in, changed from run 16), each scored into its report dir and the rows
as the job would have done; the job then runs days 15-18. The drift step's exit code is what that
history implies: 0 on days 15-16 (no change, then a change not yet certain), 1 on days 17-18 (the
alarm, naming the change between runs 15 and 16); every other step passes every day. A step that
fails stops the steps after it that are not ``if: always()``, as in Actions. The job's runs are
dated by the recording (run.json's ``recorded_at``, the recorder's clock when it started: day N),
as in a real watch, so the verdict names them by run id (their date) whatever day the test runs on.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
from collections.abc import Callable
from pathlib import Path
from typing import Any

import polars as pl
import pytest
import yaml

from replay.rescore import rescore
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
HISTORY = ROOT / "cassettes" / "history"
DAYS = tuple(sorted(p.name for p in HISTORY.iterdir()))[:18]  # runs 1..18, dated 2026-10-21 on
JOB_CLOCK = ROOT / "tests" / "fixtures" / "job_clock"  # the recorder's clock on the job's day
SEEDED = 14  # runs 1..14 come from the committed history; the job records 15..18
CHANGED_FROM, DETECTED = 16, 17  # ref/drifting's change (scripts/record_history.py), drift's alarm


def workflow() -> dict[str, Any]:
    (block,) = re.findall(r"```yaml\n(.*?)```", DOC.read_text(encoding="utf-8"), re.DOTALL)
    return yaml.safe_load(block) | {"_text": block}


def substitute(value: str) -> str:
    def one(match: re.Match[str]) -> str:
        expression = match.group(1).strip()
        assert expression in EXPRESSIONS, f"the doc uses ${{{{ {expression} }}}}: give it a value"
        return EXPRESSIONS[expression]

    return re.sub(r"\$\{\{(.*?)\}\}", one, value)


def run_day(
    job: dict[str, Any], project: Path, env: dict[str, str]
) -> tuple[list[str], subprocess.CompletedProcess[str] | None]:
    """Run the job's steps in ``project`` (bash -eo pipefail, ``$GITHUB_ENV`` carried); returns the
    steps not run and the drift step's outcome. Every other step must pass; after a failed step
    only ``if: always()`` steps run, as in Actions."""
    github_env = project / "github-env"
    github_env.write_text("", encoding="utf-8")
    carried: dict[str, str] = {}
    job_env = {k: substitute(str(v)) for k, v in (job.get("env") or {}).items()}
    skipped = []
    drift = None
    failed = False
    for step in job["steps"]:
        if failed and step.get("if") != "always()":
            skipped.append(f"after a failure: {step.get('name') or step.get('uses')}")
            continue
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
        if DRIFT in step["run"]:
            drift = done
            failed = done.returncode != 0
        else:
            assert done.returncode == 0, (
                f"{step.get('name')}: exit {done.returncode}\n{done.stdout}\n{done.stderr}"
            )
        for line in github_env.read_text(encoding="utf-8").splitlines():
            key, _, value = line.partition("=")
            carried[key] = value
    return skipped, drift


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


def seed(project: Path) -> None:
    """Runs 1..SEEDED of ref/drifting from the committed history, scored as the job would have
    scored them."""
    suite = project / "evals" / "suite.json"
    for day in DAYS[:SEEDED]:
        run_dir = project / "cassettes" / "history" / day
        shutil.copytree(HISTORY / day / "ref_drifting", run_dir / "ref_drifting")
        rescore(
            run_dir, suite, project / "reports" / "history" / day, rows=project / "rows-history"
        )


def test_the_watch_keeps_dated_runs_and_its_drift_step_fails_on_the_change(
    tmp_path: Path, start_gateway: Callable[..., StandInGateway]
) -> None:
    project = tmp_path / "repo"
    project.mkdir()
    (project / "evals").mkdir()
    (project / "evals" / "suite.json").write_bytes((ROOT / "evals" / "suite.json").read_bytes())
    seed(project)
    (job,) = workflow()["jobs"].values()
    base = checkout_env()
    summary = tmp_path / "summary.md"
    for number in range(SEEDED + 1, len(DAYS) + 1):
        day = DAYS[number - 1]
        gateway = start_gateway(
            suite=ROOT / "evals" / "suite.json", run=number, drift_from=CHANGED_FROM
        )
        shim = date_shim(tmp_path / f"bin-{number}", day)
        env = base | {
            "LOBSTACK_BASE_URL": gateway.url,
            "GITHUB_STEP_SUMMARY": str(summary),
            "PATH": f"{shim}:{base['PATH']}",
            "PYTHONPATH": os.pathsep.join(filter(None, [str(JOB_CLOCK), base.get("PYTHONPATH")])),
            "JOB_CLOCK": f"{day}T06:00:00+00:00",
        }
        skipped, drift = run_day(job, project, env)
        gateway.stop()
        expected = ["actions/checkout@v4", "astral-sh/setup-uv@v6", INSTALL]
        assert skipped == [*expected, "stefanzweifel/git-auto-commit-action@v5"]
        assert drift is not None
        verdict = drift.stdout.splitlines()[0]
        # the markdown of every day's verdict lands in the job summary, after the earlier days'
        comments = summary.read_text("utf-8").split("### lobstack-eval drift: ")[1:]
        assert len(comments) == number - SEEDED
        if number < DETECTED:
            assert drift.returncode == 0, drift.stdout + drift.stderr
            assert verdict == f"drift: no change in {number} runs since {DAYS[0]}"
            assert comments[-1].startswith("ref/drifting: no change\n")
        else:
            assert drift.returncode == 1, drift.stdout + drift.stderr
            # each run named by its id, here its recorded date: shown once
            before, after = DAYS[CHANGED_FROM - 2], DAYS[CHANGED_FROM - 1]
            assert verdict == (
                f"drift: changed between run {before} and run {after}; "
                f"detected at run {DAYS[DETECTED - 1]}"
            )
            assert "cases that moved (6):" in drift.stdout
            assert "model: ref/drifting-v1 -> ref/drifting-v2" in drift.stdout
            assert comments[-1].startswith("ref/drifting: changed\n")
            assert (project / "drift.md").read_text("utf-8") == "### lobstack-eval drift: " + (
                comments[-1].removesuffix("\n")
            )
    history = project / "cassettes" / "history"
    assert sorted(p.name for p in history.iterdir()) == list(DAYS)
    runs = {}
    for day in DAYS:
        manifest = json.loads((history / day / "ref_drifting" / "run.json").read_text("utf-8"))
        assert manifest["run"] == {"id": day, "recorded_at": f"{day}T06:00:00+00:00"}
        assert len(manifest["cases"]) == 80
        results = json.loads(
            (project / "reports" / "history" / day / "ref_drifting" / "results.json").read_text(
                "utf-8"
            )
        )
        assert (results["run"]["id"], results["run"]["date"]) == (day, day)
        runs[day] = results
    # from run 16 the stand-in serves ref/drifting's version 2: another model behind the name
    assert [runs[d]["run"]["identity"]["model"] for d in DAYS] == [
        [f"ref/drifting-v{1 if n < CHANGED_FROM else 2}"] for n in range(1, len(DAYS) + 1)
    ]
    rows = project / "rows-history"
    keys = {"suite_version": pl.String, "model_slug": pl.String, "run_id": pl.String}
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
    page = (project / "reports" / "history" / DAYS[-1] / "index.html").read_text("utf-8")
    assert '<section id="timeline">' in page and "ref/drifting-v2 (changed)" in page
    # the timeline's caption is the drift step's verdict, its dashed line the same change point
    assert f"ref/drifting: {verdict}." in page and page.count(">change<") == 1
