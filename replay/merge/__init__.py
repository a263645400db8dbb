"""``lobstack-eval merge``: union shard dirs (of ``record --shard`` or ``rescore --shard``) into one dir that is
equivalent to one run on one machine, refusing overlapping or inconsistent shards before writing anything."""

from __future__ import annotations

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
    if kind == CASSETTES:
        if rows is not None:
            raise UsageError(
                "--rows: cassettes have no rows; rescore the merged cassettes with --rows"
            )
        return merge_cassettes(inputs, out, suite)
    return merge_reports(inputs, out, suite, html, rows)
