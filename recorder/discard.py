"""A futile run leaves nothing behind in a model dir it made: ``record --model <typo>`` against a
gateway that refuses it (or a base URL where no gateway answers) used to leave
``cassettes/<typo>/`` holding only refusals, which every later ``rescore`` failed on.

Only a dir that did not exist before the run is removed, only when nothing in it ever got a model's
answer (every attempt a refusal or a transport error), and only the files this run wrote (the
cassettes run.json lists, run.json, the lock); a folder is removed only once empty, so a file put
there by anything else keeps it (decision ``recording.md#a-futile-run-leaves-no-new-dir``).
"""

from __future__ import annotations

import contextlib
from pathlib import Path

from recorder.lock import LOCK
from recorder.manifest import MANIFEST, REFUSED_OUTCOMES, TRANSPORT_OUTCOMES, Manifest
from recorder.repeats import repeat_dir, run_cassette_path

NO_ANSWER = REFUSED_OUTCOMES | TRANSPORT_OUTCOMES


def first_missing(model_dir: Path) -> Path | None:
    """The outermost folder on the way to ``model_dir`` (itself included) that does not exist
    yet, i.e. the one a run that creates ``model_dir`` makes first; None when it exists."""
    if model_dir.exists() or model_dir.is_symlink():
        return None
    missing = model_dir
    for parent in model_dir.parents:
        if parent.exists() or parent.is_symlink():
            break
        missing = parent
    return missing


def holds_no_answer(manifest: Manifest) -> bool:
    """True when no attempt of any case-run in ``manifest`` got a model's answer (each one a
    refusal, HTTP 401/403/404, or a transport error)."""
    entries = [*manifest.cases.values()]
    entries += [entry for cases in manifest.repeat_cases.values() for entry in cases.values()]
    return all(attempt.outcome in NO_ANSWER for entry in entries for attempt in entry.attempts)


def discard_new_dir(model_dir: Path, manifest: Manifest, made: Path) -> bool:
    """Remove ``model_dir``, which this run made (``made``: the outermost folder it made on the
    way, from ``first_missing``), when it holds no answer; True when it is gone. Call it holding
    the dir's lock, after the run's pending files are cleaned up."""
    if not holds_no_answer(manifest) or not (made == model_dir or made in model_dir.parents):
        return False
    runs = [(case_id, 1) for case_id in manifest.cases]
    runs += [(c, n) for n, cases in manifest.repeat_cases.items() for c in cases]
    for case_id, repeat in runs:
        with contextlib.suppress(OSError, ValueError):
            run_cassette_path(model_dir, case_id, repeat).unlink(missing_ok=True)
    repeats = sorted({repeat for _case, repeat in runs if repeat > 1})
    for path in (model_dir / MANIFEST, model_dir / LOCK):  # the lock is released as missing
        with contextlib.suppress(OSError):
            path.unlink(missing_ok=True)
    for folder in [*(repeat_dir(model_dir, n) for n in repeats), model_dir]:
        with contextlib.suppress(OSError):
            folder.rmdir()
    if model_dir.exists():
        return False
    for parent in model_dir.parents:  # the folders this run made on the way, when empty
        if parent == made.parent:
            break
        with contextlib.suppress(OSError):
            parent.rmdir()
    return True
