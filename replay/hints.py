"""The commands that rescore suggests: what to paste to record the cases a run still needs."""

from __future__ import annotations

import shlex
from pathlib import Path

from recorder.bundled_suite import is_default
from recorder.endpoint import DEFAULT_BASE_URL, is_loopback
from recorder.manifest import REFUSED_OUTCOMES
from recorder.manifest_read import read_manifest
from replay.results.typed import ResultsDocument
from scorer.errors import LobstackError
from scorer.summary import ModelSummary

DEFAULT_CASSETTES = Path("cassettes")


def record_command(summary: ModelSummary, model_dir: Path, suite: Path) -> str:
    """``lobstack-eval record ...`` that records what a model's run left unrecorded: the same model,
    repeats, cassettes dir, suite and gateway as the recording, every value shell-quoted (a model
    name may hold anything). A loopback gateway is stored without its port, so the command asks
    for it."""
    command = f"lobstack-eval record --model {shlex.quote(summary.model)}"
    if summary.repeats > 1:
        command += f" --repeats {summary.repeats}"
    if model_dir.parent != DEFAULT_CASSETTES:
        command += f" --cassettes {shlex.quote(str(model_dir.parent))}"
    if not is_default(suite):  # the default suite here (JSON or YAML), else the bundled one
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


def refused(doc: ResultsDocument) -> bool:
    """True when some case-run errored because the gateway refused it (HTTP 401, 403, 404):
    ``record`` asks again."""
    entries = [run for entry in doc["results"] for run in entry.get("runs") or [entry]]
    return any(
        run["status"] == "errored"
        and run.get("attempts")
        and run["attempts"][-1].get("outcome") in REFUSED_OUTCOMES
        for run in entries
    )


def only_refused(doc: ResultsDocument) -> bool:
    """True when the document's every recorded attempt was refused by the gateway (HTTP 401, 403,
    404) and none answered: what ``record --model <typo>`` leaves (an older version kept the
    dir), so deleting the dir is as likely the fix as recording it again."""
    entries = [run for entry in doc["results"] for run in entry.get("runs") or [entry]]
    outcomes = [attempt.get("outcome") for run in entries for attempt in run.get("attempts") or []]
    return bool(outcomes) and all(outcome in REFUSED_OUTCOMES for outcome in outcomes)


def needs_recording(doc: ResultsDocument) -> bool:
    """True when ``record`` would record some case-run of the document again: one is unrecorded
    or refused."""
    return bool(doc.get("case_runs", doc["cases"])["unrecorded"]) or refused(doc)


def nothing_scored_line(
    summary: ModelSummary, where: Path, command: str | None = None, refused_only: bool = False
) -> str:
    """The error line of a model none of whose case-runs could be scored, naming its dir, how many
    errored and were unrecorded (each when not 0), and what would record it (when recording would
    change anything). ``refused_only`` (``only_refused``): the model name may be a typo, so the
    line also says the dir can be deleted."""
    runs = summary.case_runs
    what = "case-run" if summary.repeats > 1 else "case"
    counts = ", ".join(
        f"{n} {k}" for k, n in (("errored", runs.errored), ("unrecorded", runs.unrecorded)) if n
    )
    line = f"{where}: no {what} of model {summary.model} could be scored ({counts})"
    if refused_only:
        line += (
            "; the gateway refused every attempt (HTTP 401/403/404), none was answered: if "
            f"{summary.model} is a typo, delete {where}"
        )
        return f"{line}, else record it: {command}" if command else line
    return f"{line}; record it: {command}" if command else line
