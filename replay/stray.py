"""Cassette files of a model dir that run.json does not list: replay never reads them, so rescore
says so.

A copy made by hand (``selection-05 (copy).json``) or a cassette whose run.json entry was never
written would otherwise be ignored without a word. Only the model dir's own ``*.json`` files are
looked at: dot-files and folders (partial recordings, the lock, repeat folders) belong to
the recorder.
"""

from __future__ import annotations

import os
from pathlib import Path

from recorder.cassettes import cassette_path
from recorder.manifest import MANIFEST, Manifest

_NAMED = 5  # file names in the warning; more are counted


def stray_warning(model_dir: Path, manifest: Manifest) -> str | None:
    """One warning line naming the cassette files run.json does not list, or None when there
    are none."""
    listed = {cassette_path(model_dir, case_id).name for case_id in manifest.cases}
    listed.add(MANIFEST)
    # One directory read (file types come with it): a glob plus a stat per file cost more than a
    # model's judging.
    with os.scandir(model_dir) as entries:
        strays = sorted(
            entry.name
            for entry in entries
            if entry.name.endswith(".json")
            and entry.name not in listed
            and not entry.name.startswith(".")
            and entry.is_file()
        )
    if not strays:
        return None
    names = ", ".join(repr(name) for name in strays[:_NAMED])
    more = f" and {len(strays) - _NAMED} more" if len(strays) > _NAMED else ""
    verb, pronoun = ("is", "it") if len(strays) == 1 else ("are", "them")
    return (
        f"warning: {model_dir}: {names}{more} {verb} not listed in run.json, so no case reads "
        f"{pronoun} (ignored)"
    )


def hidden_dir_warnings(cassettes: Path) -> list[str]:
    """One warning line per hidden folder of ``cassettes`` that holds a run.json: it looks recorded,
    but hidden folders are not model dirs, so rescore does not read it and says so rather than
    nothing (decision 117)."""
    if not cassettes.is_dir():
        return []
    hidden = sorted(
        p for p in cassettes.iterdir() if p.name.startswith(".") and (p / MANIFEST).is_file()
    )
    return [
        f"warning: {p}: a hidden folder holding {MANIFEST} is not a model dir, so it was skipped"
        for p in hidden
    ]
