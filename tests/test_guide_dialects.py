"""docs/guide-dialects.md's commands, run as a new user would, against a stand-in gateway (on a
free port instead of 8099, and two cases per record to stay cheap)."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
from pathlib import Path

from tests.test_docs import ROOT, _uv_env

GUIDE = ROOT / "docs" / "guide-dialects.md"
CASES = " --case selection-01 --case chains-01 --concurrency 1"


def _blocks() -> list[str]:
    return re.findall(r"```sh\n(.*?)```", GUIDE.read_text(encoding="utf-8"), re.S)


def test_the_guide_commands_run_and_name_the_anomaly(start_gateway, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    gateway = start_gateway(suite=ROOT / "evals" / "suite.json")
    port = gateway.url.rsplit(":", 1)[1].split("/")[0]
    shutil.copytree(ROOT / "evals", tmp_path / "evals")
    blocks = _blocks()
    assert blocks[0].strip() == "lobstack-eval gateway --port 8099"  # started by the test instead
    script = "set -e\n"
    for line in "".join(blocks[1:]).splitlines():
        line = line.replace("8099", port)  # lobstack-eval is on PATH (_uv_env)
        script += line + (CASES if line.startswith("lobstack-eval record") else "") + "\n"
    done = subprocess.run(
        ["bash", "-c", script], cwd=tmp_path, env=_uv_env(), capture_output=True, text=True,
        timeout=300,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    run = json.loads((tmp_path / "runs/messages-stream/ref_oracle/run.json").read_text())
    assert (run["dialect"], run["stream"]) == ("messages", True)
    results = json.loads(next((tmp_path / "reports-dropcall").glob("*/results.json")).read_text())
    assert results["transport_anomalies"]["kinds"] == {
        "the stop reason says calls, and no call came": 2
    }
    board = (tmp_path / "reports-all/leaderboard.md").read_text(encoding="utf-8")
    rows = [line.split(" | ")[0][2:] for line in board.splitlines() if line.startswith("| ref/")]
    assert rows == [
        "ref/oracle",
        "ref/oracle (messages+stream)",
        "ref/oracle~stream-dropcall (chat+stream)",
    ]
    assert "): ref/oracle~stream-dropcall (chat+stream) 2.\n" in board  # the anomaly line
    scored = json.loads((tmp_path / "reports-messages-stream/ref_oracle/results.json").read_text())
    assert [r["status"] for r in scored["results"] if r["id"] in ("selection-01", "chains-01")] == [
        "passed",
        "passed",
    ]
