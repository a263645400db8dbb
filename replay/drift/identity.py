"""A run's recorded identity (results.json's ``run.identity``: the answers' models, fingerprints
and routing headers), read and checked, for drift's runs from report dirs and from rows alike."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from scorer.drift.history import Identity
from scorer.errors import ResultsError


def _strings(file: Path, field: str, value: Any) -> tuple[str, ...]:
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise ResultsError(f"{file}: field '{field}' must be a list of strings")
    return tuple(sorted(set(value)))


def identity_of(file: Path, value: Any) -> Identity | None:
    """A run's recorded identity object (results.json's ``run.identity``) checked; None when it
    recorded none."""
    if value is None:
        return None
    if not isinstance(value, dict):
        raise ResultsError(f"{file}: field 'run.identity' must be an object")
    routing = value.get("routing", {})
    if not isinstance(routing, dict):
        raise ResultsError(f"{file}: field 'run.identity.routing' must be an object")
    return Identity(
        model=_strings(file, "run.identity.model", value.get("model", [])),
        system_fingerprint=_strings(
            file, "run.identity.system_fingerprint", value.get("system_fingerprint", [])
        ),
        routing=tuple(
            (name, _strings(file, f"run.identity.routing.{name}", values))
            for name, values in sorted(routing.items())
        ),
    )
