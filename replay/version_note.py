"""The note that models were recorded with an older version of the suite they are re-scored with."""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path
from typing import Any

from recorder.manifest import MANIFEST, Manifest
from scorer.errors import CassetteError
from scorer.suite_model import Suite


def version_lines(suite: Suite, documents: list[dict[str, Any]]) -> list[str]:
    """One warning per suite version the models were recorded with, other than ``suite``'s:
    re-scoring old recordings with a newer suite is what rescore is for, so twelve models say it
    in one line, not twelve."""
    recorded = []
    for document in documents:
        version = (document.get("recorded_suite") or {}).get("version")
        if version not in (None, suite.version):
            recorded.append((str(document.get("model_slug", "?")), str(version)))
    return older_suite_lines(suite, recorded)


def older_suite_lines(suite: Suite, recorded: Iterable[tuple[str, str]]) -> list[str]:
    """The warnings for (model slug, recorded suite version) pairs: one line per version other than
    ``suite``'s (rescore and the pytest plugin say it alike)."""
    by_version: dict[str, list[str]] = {}
    for slug, version in recorded:
        if version != suite.version:
            by_version.setdefault(version, []).append(slug)
    lines = []
    for version, slugs in sorted(by_version.items()):
        if len(slugs) == 1:
            lines.append(
                f"warning: {slugs[0]} was recorded with {suite.name} {version}, re-scored with "
                f"{suite.version}; results carry both versions"
            )
        else:  # short enough for an 80-column terminal; each results.json names its recorded_suite
            lines.append(
                f"warning: {len(slugs)} models were recorded with suite {version}, re-scored with "
                f"{suite.version}"
            )
    return lines


def check_manifest_suite(manifest: Manifest, suite: Suite, model_dir: Path) -> str | None:
    """CassetteError when recorded with another suite; a warning text when only the
    version differs."""
    recorded = manifest.suite
    if recorded["name"] != suite.name:
        raise CassetteError(
            f"{model_dir / MANIFEST}: recorded with suite {recorded['name']!r}, but the suite is "
            f"{suite.name!r}; pass --suite with the file it was recorded with"
        )
    if recorded["version"] != suite.version:
        return (
            f"warning: {model_dir.name} was recorded with {recorded['name']} "
            f"{recorded['version']}, re-scored with {suite.version}; results carry both versions"
        )
    return None
