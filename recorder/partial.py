"""Cases recorded but not yet in place: ``<model-dir>/.partial/<run-token>/``.

A worker writes a finished case's cassette there, then its manifest entry beside it (``<case-id>.json.entry``);
only the parent, holding the model dir's lock, moves the cassette into place and adds the entry to run.json.
When the parent dies first (``kill -9``, a CI timeout), those answers are paid for: the next ``record`` adopts
every one that is whole (the entry is there, the cassette holds exactly the requests the entry lists) instead
of paying again, and deletes the rest (half-written files, cases still running when the run died).
"""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path
from typing import Any

from recorder.cassettes import cassette_target
from recorder.files import inside, write_atomic
from recorder.manifest import Manifest, RecordedCase, case_json, parse_case
from recorder.transport import HttpRequest
from scorer.errors import LobstackError

PARTIAL = ".partial"
ENTRY_SUFFIX = ".entry"


def run_dir(model_dir: Path, token: str) -> Path:
    """This run's folder of pending cases (created)."""
    path = inside(model_dir, PARTIAL, token)
    path.mkdir(parents=True, exist_ok=True)
    return path


def pending_cassette(folder: Path, case_id: str) -> Path:
    """Where a worker records a case's cassette."""
    return inside(folder, f"{case_id}.json")


def write_entry(cassette: Path, model: str, base_url: str, case_id: str, case: RecordedCase) -> None:
    """Mark ``cassette`` finished: its manifest entry, written after it (so an entry means a whole cassette)."""
    document = {"model": model, "base_url": base_url, "case_id": case_id, "case": case_json(case)}
    write_atomic(cassette.with_name(cassette.name + ENTRY_SUFFIX), json.dumps(document, sort_keys=True) + "\n")


def _interactions(cassette: Path) -> list[Any] | None:
    try:
        data = json.loads(cassette.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    interactions = data.get("interactions") if isinstance(data, dict) else None
    return interactions if isinstance(interactions, list) else None


def is_whole(cassette: Path, case: RecordedCase) -> bool:
    """True when ``cassette`` holds one interaction per answered attempt of ``case``, each with the very request
    the attempt sent (its body's digest) and an HTTP status."""
    interactions = _interactions(cassette)
    answered = [a for a in case.attempts if a.answered]
    if interactions is None or len(interactions) != len(answered):
        return False
    for interaction, attempt in zip(interactions, answered, strict=True):
        try:
            body = json.loads(interaction["request"]["body"])
            status = interaction["response"]["status"]["code"]
        except (KeyError, TypeError, ValueError):
            return False
        if not isinstance(status, int) or not isinstance(body, dict):
            return False
        if attempt.request_sha256 is not None and HttpRequest("", body).digest() != attempt.request_sha256:
            return False
    return True


def take(entry_path: Path, model_dir: Path, manifest: Manifest) -> str | None:
    """Move one finished case into place and into ``manifest`` (not written); its id, or None when the entry is
    not for this model and endpoint, or its cassette is not whole."""
    try:
        document = json.loads(entry_path.read_text(encoding="utf-8"))
        case_id = document["case_id"]
        case = parse_case(case_id, document["case"], entry_path)
        ours = document["model"] == manifest.model and document["base_url"] == manifest.base_url
    except (OSError, ValueError, KeyError, TypeError, LobstackError):
        return None
    if not ours or not isinstance(case_id, str):
        return None
    try:
        final = cassette_target(model_dir, case_id)
    except LobstackError:
        return None
    pending = entry_path.with_name(entry_path.name.removesuffix(ENTRY_SUFFIX))
    if pending.is_file() and is_whole(pending, case):
        os.replace(pending, final)
    elif not (final.is_file() and is_whole(final, case)):  # moved into place just before the parent died
        return None
    manifest.cases[case_id] = case
    return case_id


def adopt(model_dir: Path, manifest: Manifest) -> list[str]:
    """Adopt every whole case that earlier runs left in ``.partial/`` (writing run.json when any), then delete
    the folder. Only call this holding the model dir's lock: no other run's files are then still being written."""
    root = model_dir / PARTIAL
    if not root.is_dir():
        return []
    before = dict(manifest.cases)
    taken = [
        case_id for entry in sorted(root.glob(f"*/*{ENTRY_SUFFIX}")) if (case_id := take(entry, model_dir, manifest))
    ]
    # A case already in run.json is counted only if its entry is new (the run died before removing its entry).
    adopted = [case_id for case_id in taken if before.get(case_id) != manifest.cases[case_id]]
    if adopted:
        manifest.write(model_dir)
    shutil.rmtree(root, ignore_errors=True)
    return sorted(set(adopted))
