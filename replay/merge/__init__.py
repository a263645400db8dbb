"""``lobstack-eval merge``: union shard dirs (of ``record --shard`` or ``rescore --shard``) into one
dir that is equivalent to one run on one machine, refusing overlapping or inconsistent shards before
writing anything.

The merge is written whole: into a hidden staging dir beside ``--out`` (``.<out>.merging-*``, same
file system), whose entries are renamed into ``--out`` only once every file is written. A full
disk or any failure on the way leaves ``--out`` as it was (empty) and removes the staging dir; a
reader never sees a model dir half copied."""

from __future__ import annotations

import dataclasses
import os
import shutil
import tempfile
from collections.abc import Sequence
from pathlib import Path

from replay.merge.cassettes import Merged, merge_cassettes
from replay.merge.inputs import CASSETTES, check_out, common_kind
from replay.merge.reports import merge_reports
from scorer.errors import UsageError

__all__ = ["Merged", "merge"]


def merge(
    inputs: Sequence[Path],
    out: Path,
    suite: Path | None = None,
    html: bool = True,
    rows: Path | None = None,
) -> Merged:
    """Merge cassette dirs or report dirs (all of one kind) into the new or empty dir ``out``."""
    kind = common_kind(inputs)
    check_out(out, inputs)
    if kind == CASSETTES and rows is not None:
        raise UsageError("--rows: cassettes have no rows; rescore the merged cassettes with --rows")
    out.mkdir(parents=True, exist_ok=True)
    staging = Path(tempfile.mkdtemp(dir=out.parent, prefix=f".{out.name}.merging-"))
    try:
        if kind == CASSETTES:
            merged = merge_cassettes(inputs, staging, suite)
        else:
            merged = merge_reports(inputs, staging, suite, html, rows)
        for entry in sorted(staging.iterdir()):
            os.replace(entry, out / entry.name)  # check_out: nothing of that name is in --out
    finally:
        shutil.rmtree(staging, ignore_errors=True)
    return _moved(merged, staging, out)


def _moved(merged: Merged, staging: Path, out: Path) -> Merged:
    """``merged`` as it names its files and dirs once they are in ``out`` (rows files stay where
    they are)."""
    files = tuple(
        out / f.relative_to(staging) if f.is_relative_to(staging) else f for f in merged.files
    )
    lines = lambda texts: tuple(t.replace(str(staging), str(out)) for t in texts)  # noqa: E731
    return dataclasses.replace(
        merged, files=files, warnings=lines(merged.warnings), errors=lines(merged.errors)
    )
