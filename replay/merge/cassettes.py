"""Merging cassette dirs (``record --shard`` outputs): every case exactly once, one consistent
run.json per model.

Shards of one model must agree on everything run.json says about the run (model, base URL, recorder
version, suite); their cases must not overlap. Every cassette (``*.json``) of a model dir but
run.json, in any subfolder but dot-folders (partial recordings), is copied byte for byte, so
whatever per-case files a layout has (repeats too) travel with their case; two shards holding the
same file name overlap. run.json is written whole, sorted.

Repeated runs (``record --repeats K --shard I/N``): a shard owns a case with all its repeats
(``replay.shard``), so a case's entries under ``cases`` and under every ``repeat_cases.<n>`` come
from the one shard that holds it, its ``repeat-<n>/`` cassettes travel as files, and the merged
``repeats`` is the largest K of the shards (one of them may have recorded no case of a repeat).
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from fileio.atomic import write_bytes_atomic
from fileio.safe_paths import unlinked
from recorder.files import read_suite
from recorder.manifest import MANIFEST, Manifest
from recorder.manifest_read import read_manifest
from replay.score_models import model_dirs
from scorer.errors import CassetteError
from scorer.suite.model import Suite

# What every shard of a model must say alike, as (run.json field, Manifest attribute).
_RUN_FIELDS = (
    ("model", "model"),
    ("base_url", "base_url"),
    ("recorder_version", "recorder_version"),
    ("cost_header", "cost_header"),
    ("wire (dialect, stream, params)", "wire"),
)
_SUITE_FIELDS = ("name", "version", "sha256")


@dataclass(frozen=True)
class Merged:
    """What a merge wrote: the kind, model count, case count and the files."""

    kind: str
    models: int
    cases: int
    files: tuple[Path, ...]
    warnings: tuple[str, ...] = ()
    errors: tuple[
        str, ...
    ] = ()  # error lines (without `error: `): the merge is written, the command exits 1


def _check_alike(parts: Sequence[tuple[Path, Manifest]]) -> None:
    first_dir, first = parts[0]
    for folder, manifest in parts[1:]:
        pairs = [
            (name, getattr(first, attr), getattr(manifest, attr)) for name, attr in _RUN_FIELDS
        ]
        pairs += [(f"suite {key}", first.suite[key], manifest.suite[key]) for key in _SUITE_FIELDS]
        for name, a, b in pairs:
            if a != b:
                raise CassetteError(
                    f"inconsistent shards: {first_dir}/run.json and {folder}/run.json disagree on "
                    f"{name} ({a!r} vs {b!r}); merge shards of one run"
                )


def _overlap(a: Path, b: Path, what: str, model: str) -> CassetteError:
    return CassetteError(
        f"overlapping shards: {a} and {b} both hold {what} of {model}; each case must be in "
        "exactly one shard"
    )


def _files(model_dir: Path) -> tuple[list[Path], list[Path]]:
    """The files to copy (relative): every ``*.json`` but run.json, outside dot-files and
    dot-folders; and those whose name is not UTF-8 (no case id is such a name, so no case's
    cassette: not copied, warned of). A symbolic link among them (or the model dir itself) is
    refused: merge copies only the shard's own regular files."""
    unlinked(
        model_dir.parent, model_dir.name, MANIFEST, what="merge copies only a shard's own files"
    )
    found, undecodable = [], []
    for path in sorted(model_dir.rglob("*.json")):
        relative = path.relative_to(model_dir)
        if relative != Path(MANIFEST) and not any(p.startswith(".") for p in relative.parts):
            unlinked(model_dir, *relative.parts, what="merge copies only a shard's own files")
            if not path.is_file():
                continue
            try:
                str(relative).encode("utf-8")
            except UnicodeEncodeError:  # os.fsdecode kept the bad bytes as lone surrogates
                undecodable.append(path)
                continue
            found.append(relative)
    return found, undecodable


def shown_path(path: Path) -> str:
    """A path for a printed line, its bytes that are not UTF-8 written as ``\\xNN``."""
    return os.fsencode(path).decode("utf-8", "backslashreplace")


def _case_ids(manifest: Manifest) -> list[str]:
    """Every case with an entry in any repeat (a case may lack repeat 1, e.g. when only later
    repeats were kept)."""
    ids = set(manifest.cases).union(*(set(cases) for cases in manifest.repeat_cases.values()))
    return sorted(ids)


def _owners(
    parts: Sequence[tuple[Path, Manifest]],
) -> tuple[dict[str, Path], dict[Path, Path], list[Path]]:
    """Which input dir holds each case and each file, and the files not copied (names not UTF-8); a
    CassetteError when two hold the same case or file."""
    cases: dict[str, Path] = {}
    files: dict[Path, Path] = {}
    skipped: list[Path] = []
    for folder, manifest in parts:
        for case_id in _case_ids(manifest):
            if case_id in cases:
                raise _overlap(cases[case_id], folder, f"case {case_id!r}", manifest.model)
            cases[case_id] = folder
        found, undecodable = _files(folder)
        skipped += undecodable
        for relative in found:
            if relative in files:
                raise _overlap(files[relative], folder, f"file {relative}", manifest.model)
            files[relative] = folder
    return cases, files, skipped


def _missing(target: Path, merged: Manifest, suite: Suite | None) -> str | None:
    """A warning when the merged model lacks cases of the suite it recorded (None when the suite is
    not at hand).

    A cassette shard does not record which I/N it is, so a missing shard cannot be refused (a lost
    job is filled later: rescore lists its cases as unrecorded); this warning keeps the gap from
    being silent."""
    if suite is None or suite.sha256 != merged.suite["sha256"]:
        return None
    held = set(_case_ids(merged))  # a case counts when any of its repeats was recorded
    missing = [case.id for case in suite.cases if case.id not in held]
    if not missing:
        return None
    return (
        f"warning: {target}: {len(suite.cases) - len(missing)} of the {len(suite.cases)} cases of "
        f"{suite.name} {suite.version}, {len(missing)} missing (first {missing[0]}): a shard may "
        "be missing; rescore lists the unrecorded cases and the record command that fills them"
    )


def merge_cassettes(inputs: Sequence[Path], out: Path, suite_path: Path | None = None) -> Merged:
    """Union the model dirs of ``inputs`` into ``out`` after checking every shard (nothing is
    written before). With ``suite_path``, warns for each model that lacks cases of that suite (a
    suite that cannot be read is an error: a misspelt ``--suite`` would otherwise silence
    the warning)."""
    suite = read_suite(suite_path) if suite_path is not None else None
    by_slug: dict[str, list[tuple[Path, Manifest]]] = {}
    for root in inputs:
        for model_dir in model_dirs(root):
            by_slug.setdefault(model_dir.name, []).append((model_dir, read_manifest(model_dir)))
    plans = []
    for slug, parts in sorted(by_slug.items()):
        _check_alike(parts)
        plans.append((slug, parts, *_owners(parts)))
    files: list[Path] = []
    warnings: list[str] = []
    cases = 0
    for slug, parts, owner, copies, skipped in plans:
        warnings += [
            f"warning: {shown_path(path)}: the file name is not UTF-8, so it is no case's "
            "cassette; not copied"
            for path in skipped
        ]
        first = parts[0][1]
        manifests = {folder: manifest for folder, manifest in parts}
        merged = Manifest(
            first.model,
            first.model_slug,
            first.base_url,
            first.recorder_version,
            dict(first.suite),
            temperature_ignored=any(m.temperature_ignored for _, m in parts),
            cost_header=first.cost_header,
            wire=first.wire,
            repeats=max(m.repeat_count for _, m in parts),
        )
        target = out / slug
        for case_id, folder in sorted(owner.items()):
            source = manifests[folder]
            for repeat in range(1, source.repeat_count + 1):
                if (entry := source.entry(case_id, repeat)) is not None:
                    merged.set_entry(case_id, repeat, entry)
        for relative, folder in sorted(copies.items()):
            write_bytes_atomic(target / relative, (folder / relative).read_bytes(), out)
            files.append(target / relative)
        target.mkdir(parents=True, exist_ok=True)
        merged.write(target)
        files.append(target / "run.json")
        cases += len(owner)
        warnings += filter(None, [_missing(target, merged, suite)])
    return Merged("cassettes", len(plans), cases, tuple(files), tuple(warnings))
