"""The commands that rescore suggests: what to paste to record the cases a run still needs."""

from __future__ import annotations

import shlex
from pathlib import Path
from typing import Any

from recorder.bundled_suite import is_default
from recorder.endpoint import DEFAULT_BASE_URL, is_loopback
from recorder.manifest import read_manifest
from scorer.errors import LobstackError

DEFAULT_CASSETTES = Path("cassettes")


def record_command(doc: dict[str, Any], model_dir: Path, suite: Path) -> str:
    """``lobstack-eval record ...`` that records what ``doc`` (a results document) left unrecorded: the same model,
    repeats, cassettes dir, suite and gateway as the recording, every value shell-quoted (a model name may hold
    anything). A loopback gateway is stored without its port, so the command asks for it."""
    command = f"lobstack-eval record --model {shlex.quote(str(doc['model']))}"
    if "case_runs" in doc:
        command += f" --repeats {doc['repeats']}"
    if model_dir.parent != DEFAULT_CASSETTES:
        command += f" --cassettes {shlex.quote(str(model_dir.parent))}"
    if not is_default(suite):  # evals/suite.json here, or the bundled suite where there is none
        command += f" --suite {shlex.quote(str(suite))}"
    try:
        base_url = read_manifest(model_dir).base_url
    except LobstackError:  # rescore already scored this dir; a hint never fails the run
        return command
    if is_loopback(base_url):
        host, _, path = base_url.partition("://")[2].partition("/")
        base_url = f"http://{host}:<port>/{path}"
    if base_url != DEFAULT_BASE_URL:
        command += f" --base-url {shlex.quote(base_url)}"
    return command


def nothing_scored(doc: dict[str, Any]) -> bool:
    """True when a results document has cases but not one of them was scored: every case (or case-run) is
    unrecorded, so its metrics say nothing about the model (METHOD decision 116)."""
    runs = doc.get("case_runs", doc["cases"])
    return runs["total"] > 0 and runs["unrecorded"] == runs["total"]


def nothing_scored_line(doc: dict[str, Any], where: Path, command: str | None = None) -> str:
    """The error line of a model none of whose cases could be scored, naming its dir and what would record it."""
    runs = doc.get("case_runs", doc["cases"])
    what = "case-run" if "case_runs" in doc else "case"
    line = f"{where}: no {what} of model {doc['model']} could be scored ({runs['unrecorded']} unrecorded)"
    return f"{line}; record it: {command}" if command else line
