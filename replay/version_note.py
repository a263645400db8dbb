"""The note that models were recorded with an older version of the suite they are re-scored with."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

from recorder.manifest import MANIFEST, Manifest
from scorer.errors import CassetteError
from scorer.suite.model import Suite

if TYPE_CHECKING:
    from replay.results.typed import Results


def version_lines(suite: Suite, results: Iterable[Results]) -> list[str]:
    """One warning per suite version the models were recorded with, other than ``suite``'s:
    re-scoring old recordings with a newer suite is what rescore is for, so twelve models say it
    in one line, not twelve."""
    recorded = [
        (r.model_slug or "?", r.recorded_suite.version)
        for r in results
        if r.recorded_suite is not None and r.recorded_suite.version != suite.version
    ]
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


def suite_name_version(suite: Mapping[str, Any]) -> tuple[str, str]:
    """(name, version) of a suite file's data or a results document's ``suite`` field, ``?`` for
    a missing one."""
    return str(suite.get("name", "?")), str(suite.get("version", "?"))


def scored_with_other_suite(
    results: Iterable[Results], suite: Mapping[str, Any]
) -> list[tuple[str, str, str]]:
    """(model slug, suite name, suite version) of each results document scored with another suite
    than ``suite`` (a suite file's data): the page of ``report`` shows that suite's cases, not
    theirs (the page's note and the command's warning both come from here)."""
    shown = suite_name_version(suite)
    other = []
    for result in results:
        scored = (result.suite.name, result.suite.version)
        if scored != shown:
            other.append((result.model_slug or "?", *scored))
    return other


def shown_suite_lines(
    results: Iterable[Results], suite: Mapping[str, Any], source: str
) -> list[str]:
    """The warnings of ``report`` and ``diff runs --html`` when the suite file a page shows
    (``source``, holding ``suite``) is not the one the results were scored with: one line per
    suite they were scored with, as rescore says an older recording's version
    (``older_suite_lines``). A model is named once per suite (diff runs' A and B may be one
    model's two runs)."""
    name, version = suite_name_version(suite)
    by_suite: dict[tuple[str, str], list[str]] = {}
    for slug, other_name, other_version in scored_with_other_suite(results, suite):
        slugs = by_suite.setdefault((other_name, other_version), [])
        if slug not in slugs:
            slugs.append(slug)
    shown = version if all(n == name for n, _ in by_suite) else f"{name} {version}"
    lines = []
    for (other_name, other_version), slugs in sorted(by_suite.items()):
        scored = other_version if other_name == name else f"{other_name} {other_version}"
        who = slugs[0] if len(slugs) == 1 else f"{len(slugs)} models"
        lines.append(
            f"warning: {who} {'was' if len(slugs) == 1 else 'were'} scored with suite {scored}; "
            f"the page shows the cases of {shown} ({source})"
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
