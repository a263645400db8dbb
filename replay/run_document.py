"""results.json's ``run`` for a model dir recorded as a run of a history: the recorded answers read
from its cassettes, their date and identity computed by ``scorer.run_identity``."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import orjson

from recorder.manifest import Manifest
from recorder.repeats import run_cassette_path
from replay.cassettes.transport import Interaction, load_interactions
from scorer.errors import CassetteError
from scorer.run_identity import RecordedAnswer, run_object


def recorded_answers(
    model_dir: Path, manifest: Manifest, loaded: dict[Path, list[Interaction]] | None = None
) -> Iterator[RecordedAnswer]:
    """Every 2xx answer of the cassettes run.json lists (every repeat), in case and attempt order. A
    cassette that cannot be read is skipped here: replay already makes its case-run unrecorded
    and says so. ``loaded``: cassettes replay has already parsed, by path (the same
    interactions ``load_interactions`` gives, not read twice)."""
    runs = [(case_id, 1) for case_id in sorted(manifest.cases)] + [
        (case_id, n)
        for n, cases in sorted(manifest.repeat_cases.items())
        for case_id in sorted(cases)
    ]
    for case_id, repeat in runs:
        path = run_cassette_path(model_dir, case_id, repeat)
        try:
            interactions = loaded[path] if loaded and path in loaded else load_interactions(path)
        except CassetteError:
            continue
        for _request, response in interactions:
            if not 200 <= response["status"]["code"] < 300:
                continue
            text = response.get("body", {}).get("string")
            try:
                body = orjson.loads(text) if isinstance(text, str) else None
            except orjson.JSONDecodeError:
                body = None
            headers = {
                name: value if isinstance(value, list) else [value]
                for name, value in response["headers"].items()
            }
            yield RecordedAnswer(headers, body)


def run_document(
    model_dir: Path, manifest: Manifest, loaded: dict[Path, list[Interaction]] | None = None
) -> dict[str, Any] | None:
    # free JSON: results.json's ``run`` as written (``scorer.run_identity.run_object``)
    """The ``run`` object of a run of a history (run.json has ``run``), else None (a
    plain recording); ``loaded`` as ``recorded_answers`` takes it."""
    if manifest.run is None:
        return None
    answers = recorded_answers(model_dir, manifest, loaded)
    return run_object(manifest.run.id, manifest.run.recorded_at, answers)
