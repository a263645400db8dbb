"""The case statuses and which of them are scored: the one definition every package reads.

A case-run is ``passed`` or ``failed`` when the judge decided it (it is *scored* and counts towards
every rate), ``errored`` when the gateway or the run broke before a verdict, ``unrecorded`` when
its cassette lacks the exchange it needs. Errored and unrecorded case-runs are never scored.
"""

from __future__ import annotations

from typing import Literal

Status = Literal["passed", "failed", "errored", "unrecorded"]
# Every status, in the order reports list them.
STATUSES: tuple[Status, ...] = ("passed", "failed", "errored", "unrecorded")
SCORED: tuple[Status, ...] = ("passed", "failed")


def is_scored(status: object) -> bool:
    """True when ``status`` is passed or failed: only scored case-runs count towards a rate.
    Anything else (errored, unrecorded, a value that is no status) is not scored."""
    # A tuple, not a set: an unhashable value answers False instead of raising.
    return status in SCORED
