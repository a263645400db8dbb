"""Shards: a deterministic 1/n of the work, by (model dir, case id), for ``record --shard`` and
``rescore --shard``.

Within each model dir the suite's case ids are ordered by ``sha256("<model-slug>/<case-id>")`` and
dealt out in turn: the case at rank r goes to shard ``1 + r mod n``. So every case is in exactly one
shard, shards differ by at most one case per model dir, and the order is the same on every run and
machine (no Python ``hash``). A chain is one case, so its steps are never split; a case's repeats
stay together too. The assignment depends on the suite's set of case ids: the shards of one run must
use one suite (``merge`` checks it).
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from scorer.errors import UsageError

_SPEC = re.compile(r"\s*([0-9]{1,9})\s*/\s*([0-9]{1,9})\s*")  # int() refuses 4,301 digits
MAX_SHARDS = 10_000


def _rank_key(model_slug: str, case_id: str) -> tuple[str, str]:
    return hashlib.sha256(f"{model_slug}/{case_id}".encode()).hexdigest(), case_id


@dataclass(frozen=True)
class Shard:
    """Shard ``index`` of ``count`` (1-based, as written on the command line: ``2/3``)."""

    index: int
    count: int

    def __str__(self) -> str:
        return f"{self.index}/{self.count}"

    def owned(self, model_slug: str, suite_case_ids: Sequence[str]) -> frozenset[str]:
        """The case ids (of all the suite's ``suite_case_ids``) that this shard owns for one
        model dir."""
        ranked = sorted(suite_case_ids, key=lambda case_id: _rank_key(model_slug, case_id))
        return frozenset(ranked[self.index - 1 :: self.count])

    def select(
        self, model_slug: str, suite_case_ids: Sequence[str], wanted: Iterable[str] = ()
    ) -> list[str]:
        """The ids of ``wanted`` (default: every suite case) that this shard owns, in
        their order."""
        mine = self.owned(model_slug, suite_case_ids)
        return [case_id for case_id in (wanted or suite_case_ids) if case_id in mine]


def parse_shard(text: str | None) -> Shard | None:
    """``"2/3"`` -> Shard(2, 3); None stays None. Anything else is a UsageError naming the value."""
    if text is None:
        return None
    match = _SPEC.fullmatch(text)
    if not match:
        raise UsageError(f"--shard {text!r}: expected I/N, e.g. 2/3")
    index, count = int(match.group(1)), int(match.group(2))
    if not 1 <= count <= MAX_SHARDS:
        raise UsageError(f"--shard {text!r}: N must be from 1 to {MAX_SHARDS}")
    if not 1 <= index <= count:
        raise UsageError(f"--shard {text!r}: I must be from 1 to {count}")
    return Shard(index, count)
