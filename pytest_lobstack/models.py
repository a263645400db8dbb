"""The models of a plugin session: a model's name and dir, and the baseline's models the cassettes
lack (which the gate counts as regressions)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pytest_lobstack.options import Settings
from recorder.manifest import MANIFEST
from recorder.slug import model_slug


@dataclass(frozen=True)
class ModelRef:
    """A model of the run: its exact name (from run.json, or as asked for when not recorded yet)
    and its dir."""

    name: str
    slug: str
    model_dir: Path


def missing_models(settings: Settings, baseline: Mapping[str, Any]) -> list[ModelRef]:
    """The baseline's models with no model dir in the cassettes (none when ``--lobstack-model``
    chose the models): the gate counts each as a regression, a model of A missing from B, as
    ``diff runs`` does."""
    if settings.models or not settings.baselines:
        return []
    found = []
    for name in sorted(baseline):
        model_dir = settings.cassettes / model_slug(name)
        if not (model_dir / MANIFEST).is_file():
            found.append(ModelRef(name, model_dir.name, model_dir))
    return found
