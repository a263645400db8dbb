"""A case's repeats in one results document as samples (pure): each repeat's status and, where asked
for, the digests of its answers (``scorer.answers``), which ``compare`` reads to pair two runs case
by case and ``merge_history`` to merge earlier runs."""

from __future__ import annotations

from typing import Any

from replay.diff_runs.model import Sample
from replay.results.cases import CaseEntry
from scorer.answers import answer_digests
from scorer.status import STATUSES


def case_samples(result: CaseEntry | None, digests: bool = True) -> tuple[Sample, ...]:
    """Every repeat of a case (``runs`` of a repeated run, else the case itself as one sample).
    ``digests=False``: the steps' answers are not digested (a repeat's ``answers`` is None unless
    the file stored its digests)."""
    return samples_and_undigested(result, digests)[0]


def samples_and_undigested(
    result: CaseEntry | None, digests: bool
) -> tuple[tuple[Sample, ...], bool]:
    """``case_samples``, and whether some repeat's steps were left undigested (``digests=False``
    and steps to digest: only then does asking again with digests give other samples)."""
    if result is None:
        return (), False
    runs = result.get("runs")
    if not isinstance(runs, list) or not runs:
        steps = result.get("steps")
        undigested = not digests and isinstance(steps, list)
        return (_digested(result["status"], steps, digests),), undigested
    # The common case, every repeat plain (no stored digests, no steps, a known status: the shared
    # plain Sample), in one comprehension: a merged history holds thousands of repeats a case. A
    # repeat of another kind leaves it shorter, a status that is no known one (or a repeat that is
    # no mapping) raises: then the loop below, which handles (or raises on) each repeat as before.
    plain = _PLAIN
    try:
        samples = [
            plain[run["status"]]
            for run in runs
            if "answers_sha256" not in run and "steps" not in run
        ]
        if len(samples) == len(runs):
            return tuple(samples), False
    except (KeyError, TypeError):
        pass
    samples, undigested = [], False
    for run in runs:
        if "answers_sha256" not in run and "steps" not in run:
            status = run["status"]
            if isinstance(status, str) and status in plain:
                samples.append(plain[status])
                continue
        samples.append(_sample(run, digests))
        undigested = undigested or (not digests and isinstance(run.get("steps"), list))
    return tuple(samples), undigested


# One shared Sample per status for the repeats that carry no answers (frozen, so sharing is safe):
# a merged history holds thousands of them, and building each anew was most of its comparison.
_PLAIN = {status: Sample(status) for status in STATUSES}


def _sample(run: CaseEntry, digests: bool = True) -> Sample:
    """One repeat: its stored digests when it kept them, else those of its steps' answers."""
    stored = run.get("answers_sha256")
    if isinstance(stored, list) and all(isinstance(d, str) for d in stored):
        return Sample(run["status"], tuple(stored))
    return _digested(run["status"], run.get("steps"), digests)


def _digested(status: Any, steps: Any, digests: bool = True) -> Sample:
    """A sample with the digests of its steps' answers (None without steps, or not asked for)."""
    if (
        (not digests or not isinstance(steps, list))
        and isinstance(status, str)
        and status in _PLAIN
    ):
        return _PLAIN[status]  # no steps: no digests (answer_digests gives None)
    return Sample(status, answer_digests(steps) if digests else None)
