"""Shards: a deterministic 1/n of the work, by (model dir, case id), for ``record --shard`` and ``rescore --shard``.

A case belongs to shard ``1 + int(sha256("<model-slug>/<case-id>")[:16], 16) % n``: the same on every run and
machine (no Python ``hash``, no dependence on which other cases exist), every case in exactly one shard, and a
chain is one case, so its steps are never split. Repeats of a case stay together too.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Iterable
from dataclasses import dataclass

from scorer.errors import UsageError

_SPEC = re.compile(r"^\s*(\d+)\s*/\s*(\d+)\s*$")
MAX_SHARDS = 10_000


@dataclass(frozen=True)
class Shard:
    """Shard ``index`` of ``count`` (1-based, as written on the command line: ``2/3``)."""

    index: int
    count: int

    def __str__(self) -> str:
        return f"{self.index}/{self.count}"

    def owns(self, model_slug: str, case_id: str) -> bool:
        """True when the case ``case_id`` of the model dir ``model_slug`` is this shard's work."""
        return shard_of(model_slug, case_id, self.count) == self.index

    def select(self, model_slug: str, case_ids: Iterable[str]) -> list[str]:
        """The ids of ``case_ids`` this shard owns, in their order."""
        return [case_id for case_id in case_ids if self.owns(model_slug, case_id)]


def shard_of(model_slug: str, case_id: str, count: int) -> int:
    """The 1-based shard that owns a case when the work is cut into ``count`` shards."""
    digest = hashlib.sha256(f"{model_slug}/{case_id}".encode()).hexdigest()
    return 1 + int(digest[:16], 16) % count


def parse_shard(text: str | None) -> Shard | None:
    """``"2/3"`` -> Shard(2, 3); None stays None. Anything else is a UsageError naming the value."""
    if text is None:
        return None
    match = _SPEC.match(text)
    if not match:
        raise UsageError(f"--shard {text!r}: expected I/N, e.g. 2/3")
    index, count = int(match.group(1)), int(match.group(2))
    if not 1 <= count <= MAX_SHARDS:
        raise UsageError(f"--shard {text!r}: N must be from 1 to {MAX_SHARDS}")
    if not 1 <= index <= count:
        raise UsageError(f"--shard {text!r}: I must be from 1 to {count}")
    return Shard(index, count)
