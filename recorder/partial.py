"""Cases recorded but not yet in place: ``<model-dir>/.partial/<run-token>/``.

A worker writes a finished case-run's cassette there (repeat n >= 2 under ``repeat-<n>/``, as in the
model dir), then its manifest entry beside it (``<case-id>.json.entry``, naming the case and the
repeat); only the parent, holding the model dir's lock, moves the cassette into place and adds the
entry to run.json. When the parent dies first (``kill -9``, a CI timeout), those answers are paid
for: the next ``record`` adopts every one that is whole (the entry is there, the cassette holds
exactly the requests the entry lists) instead of paying again, and deletes the rest (half-written
files, cases still running when the run died).
"""

from __future__ import annotations

import json
import os
import shutil
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from fileio.atomic import write_atomic
from fileio.safe_paths import LinkRefused, inside
from recorder.manifest import Manifest, RecordedCase, case_json
from recorder.manifest_read import parse_case
from recorder.repeats import CaseRun, run_cassette_target
from recorder.transport import HttpRequest
from scorer import strict_json
from scorer.errors import CassetteError, LobstackError

PARTIAL = ".partial"
ENTRY_SUFFIX = ".entry"


def run_dir(model_dir: Path, token: str) -> Path:
    """This run's folder of pending cases (created)."""
    path = inside(model_dir, PARTIAL, token)
    path.mkdir(parents=True, exist_ok=True)
    return path


def pending_cassette(folder: Path, run: CaseRun) -> Path:
    """Where a worker records a case-run's cassette (repeat n >= 2 in ``repeat-<n>/``,
    made here)."""
    if run.repeat == 1:
        return inside(folder, f"{run.case_id}.json")
    sub = inside(folder, f"repeat-{run.repeat}")
    sub.mkdir(exist_ok=True)
    return inside(sub, f"{run.case_id}.json")


def entry_path(cassette: Path) -> Path:
    """The manifest entry beside a pending cassette."""
    return cassette.with_name(cassette.name + ENTRY_SUFFIX)


def write_entry(
    cassette: Path,
    model: str,
    base_url: str,
    run: CaseRun,
    case: RecordedCase,
    unreachable: str | None = None,
) -> None:
    """Mark ``cassette`` finished: its manifest entry, written after it (so an entry means a
    whole cassette). ``unreachable``: why no attempt of the case-run could connect, when none
    could (``recorder.unreachable``); only the recording run reads it."""
    document: dict[str, Any] = {
        "model": model,
        "base_url": base_url,
        "case_id": run.case_id,
        "repeat": run.repeat,
        "case": case_json(case),
    }
    if unreachable is not None:
        document["unreachable"] = unreachable
    write_atomic(
        entry_path(cassette), json.dumps(document, sort_keys=True) + "\n"
    )  # ASCII: surrogates escaped


def read_run(entry: Path) -> CaseRun | None:
    """The case-run an entry file is for; None when it cannot be read (a half-written or
    foreign file)."""
    return _run_of(_entry_document(entry))


def _entry_document(entry: Path) -> Any:
    """The entry file's JSON, or None when it cannot be read."""
    try:
        return strict_json.loads_file(entry.read_bytes())  # bounded: a deep file is refused
    except (OSError, ValueError):
        return None


def _run_of(document: Any) -> CaseRun | None:
    """The case-run an entry document names (entries before repeats name no repeat), or None."""
    if not isinstance(document, dict) or "case_id" not in document:
        return None
    case_id, repeat = document["case_id"], document.get("repeat", 1)
    if (
        not isinstance(case_id, str)
        or isinstance(repeat, bool)
        or not isinstance(repeat, int)
        or repeat < 1
    ):
        return None
    return CaseRun(case_id, repeat)


@dataclass(frozen=True)
class Taken:
    """A case-run ``take`` moved into place, and why none of its attempts could connect when none
    could (``write_entry``'s ``unreachable``; only the recording run reads it)."""

    run: CaseRun
    unreachable: str | None = None


def _interactions(cassette: Path) -> list[Any] | None:
    try:
        data = strict_json.loads_file(cassette.read_bytes())
    except (OSError, ValueError):
        return None
    interactions = data.get("interactions") if isinstance(data, dict) else None
    return interactions if isinstance(interactions, list) else None


def is_whole(cassette: Path, case: RecordedCase) -> bool:
    """True when ``cassette`` holds one interaction per answered attempt of ``case``, each with the
    very request the attempt sent (its body's digest) and an HTTP status."""
    interactions = _interactions(cassette)
    answered = [a for a in case.attempts if a.answered]
    if interactions is None or len(interactions) != len(answered):
        return False
    for interaction, attempt in zip(interactions, answered, strict=True):
        try:
            body = strict_json.loads_file(interaction["request"]["body"])
            status = interaction["response"]["status"]["code"]
        except (KeyError, TypeError, ValueError):
            return False
        if not isinstance(status, int) or not isinstance(body, dict):
            return False
        if (
            attempt.request_sha256 is not None
            and HttpRequest("", body).digest() != attempt.request_sha256
        ):
            return False
    return True


def take(entry: Path, model_dir: Path, manifest: Manifest) -> Taken | None:
    """Move one finished case-run into place and into ``manifest`` (not written); what was taken,
    or None when the entry is not for this model and endpoint, or its cassette is not whole."""
    pending = entry.with_name(entry.name.removesuffix(ENTRY_SUFFIX))
    if entry.is_symlink() or pending.is_symlink():
        return None  # not the recorder's own file: never moved into the cassettes
    document = _entry_document(entry)  # read once: the run, the case and the cause come from it
    run = _run_of(document)
    try:
        field_name = "cases" if run is None or run.repeat == 1 else f"repeat_cases.{run.repeat}"
        case = parse_case(str(document["case_id"]), document["case"], entry, field_name)
        ours = document["model"] == manifest.model and document["base_url"] == manifest.base_url
    except (OSError, ValueError, KeyError, TypeError, LobstackError):
        return None
    if not ours or run is None:
        return None
    try:
        final = run_cassette_target(model_dir, run.case_id, run.repeat)
    except LinkRefused:
        raise  # one line naming the link, not "not whole"
    except LobstackError:
        return None
    if pending.is_file() and is_whole(pending, case):
        # a move, not a write: the pending cassette was written whole by write_atomic, and a rename
        # within the model dir keeps it whole
        os.replace(pending, final)
    elif not (
        final.is_file() and is_whole(final, case)
    ):  # moved into place just before the parent died
        return None
    manifest.set_entry(run.case_id, run.repeat, case)
    unreachable = document.get("unreachable")
    return Taken(run, unreachable if isinstance(unreachable, str) else None)


def adopt(model_dir: Path, manifest: Manifest) -> list[CaseRun]:
    """Adopt every whole case-run that earlier runs left in ``.partial/`` (writing run.json when
    any), then delete the folder. Only call this holding the model dir's lock: no other run's
    files are then still being written."""
    root = model_dir / PARTIAL
    if root.is_symlink():
        raise CassetteError(
            f"{root} is a symlink; remove it (pending recordings are the recorder's own files)"
        )
    if not root.is_dir():
        return []
    entries = sorted([*root.glob(f"*/*{ENTRY_SUFFIX}"), *root.glob(f"*/repeat-*/*{ENTRY_SUFFIX}")])
    before = {run: manifest.entry(run.case_id, run.repeat) for e in entries if (run := read_run(e))}
    taken = [t.run for e in entries if (t := take(e, model_dir, manifest))]
    # A case-run already in run.json is counted only if its entry is new (the run died before
    # removing its entry).
    adopted = [run for run in taken if before.get(run) != manifest.entry(run.case_id, run.repeat)]
    if adopted:
        manifest.write(model_dir)
    shutil.rmtree(root, ignore_errors=True)
    return sorted(set(adopted))
