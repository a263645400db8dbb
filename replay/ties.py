"""Which neighbours on the leaderboard are statistically indistinguishable (computing only; no rendering).

Each pair of adjacent models (in leaderboard order) is compared on the cases both scored, paired by case: the
exact McNemar test when both have one sample per case, else the exact sign-flip test on the per-case pass rates
(``scorer.paired``). The p-values of the m - 1 adjacent pairs are Holm-corrected together, and a pair whose
corrected p is at least alpha is marked indistinguishable: the board does not claim an order between them.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from scorer.paired import holm, mcnemar_exact, sign_flip_exact

ALPHA = 0.05


@dataclass(frozen=True)
class Neighbours:
    """The comparison of a model with the next one down the board."""

    upper: str
    lower: str
    cases: int  # cases both scored
    p: float  # the paired test's two-sided p-value
    p_holm: float  # corrected over every adjacent pair of the board
    indistinguishable: bool


Counts = Mapping[str, Mapping[str, tuple[int, int]]]  # model slug -> case id -> (passed, scored) repeats


def case_counts(document: dict[str, Any]) -> dict[str, tuple[int, int]]:
    """Case id -> (passed, scored) repeats; a run without repeats counts its one status."""
    counts = {}
    for result in document.get("results", []):
        if "scored_repeats" in result:
            counts[result["id"]] = (int(result["passed_repeats"]), int(result["scored_repeats"]))
        else:
            status = result.get("status")
            counts[result["id"]] = (int(status == "passed"), int(status in ("passed", "failed")))
    return counts


def _counts(document: dict[str, Any], counts: Counts | None) -> Mapping[str, tuple[int, int]]:
    """A model's per-case counts: from ``counts`` (computed from rows) when given, else from its results."""
    if counts is not None and document.get("model_slug") in counts:
        return counts[document["model_slug"]]
    return case_counts(document)


def paired_p(a: dict[str, Any], b: dict[str, Any], counts: Counts | None = None) -> tuple[int, float]:
    """(shared scored cases, two-sided p-value of the paired test) between two results documents (or summaries,
    with their per-case ``counts`` by model slug)."""
    ca, cb = _counts(a, counts), _counts(b, counts)
    shared = [cid for cid in ca if cid in cb and ca[cid][1] and cb[cid][1]]
    differences = [Fraction(cb[c][0], cb[c][1]) - Fraction(ca[c][0], ca[c][1]) for c in shared]
    if a.get("repeats", 1) == 1 and b.get("repeats", 1) == 1:
        return len(shared), mcnemar_exact(sum(1 for d in differences if d < 0), sum(1 for d in differences if d > 0))
    return len(shared), sign_flip_exact(differences)


def neighbours(
    ordered: Sequence[dict[str, Any]], alpha: float = ALPHA, counts: Counts | None = None
) -> list[Neighbours]:
    """One entry per adjacent pair of ``ordered`` (leaderboard order), Holm-corrected together; ``counts`` are
    the models' per-case counts when the documents are summaries without results."""
    pairs = [(ordered[i], ordered[i + 1]) for i in range(len(ordered) - 1)]
    tests = [paired_p(upper, lower, counts) for upper, lower in pairs]
    corrected = holm([p for _, p in tests])
    return [
        Neighbours(str(upper["model"]), str(lower["model"]), cases, p, p_holm, p_holm >= alpha)
        for (upper, lower), (cases, p), p_holm in zip(pairs, tests, corrected, strict=True)
    ]


def has_repeats(documents: Sequence[dict[str, Any]]) -> bool:
    """Some model has more than one repeat per case."""
    return any(isinstance(d.get("repeats"), int) and d["repeats"] > 1 for d in documents)
