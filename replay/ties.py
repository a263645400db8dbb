"""Which models on the leaderboard the cases cannot tell apart: tiers as a compact-letter display (computing
only; no rendering).

Every pair of models with scores is compared on the cases both scored, paired by case: the exact McNemar test
when both have one sample per case, else the exact sign-flip test on the per-case pass rates (``scorer.paired``).
The p-values of all pairs are Holm-corrected together, so the chance that any pair of equally good models is
separated is at most alpha; models that share a letter are not told apart (METHOD.md#leaderboard-tiers).
"""

from __future__ import annotations

import functools
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from scorer.paired import holm, mcnemar_exact, sign_flip_exact

ALPHA = 0.05


Counts = Mapping[
    str, Mapping[str, tuple[int, int]]
]  # model slug -> case id -> (passed, scored) repeats


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


def paired_p(
    a: dict[str, Any], b: dict[str, Any], counts: Counts | None = None
) -> tuple[int, float]:
    """(shared scored cases, two-sided p-value of the paired test) between two results documents (or summaries,
    with their per-case ``counts`` by model slug)."""
    single = a.get("repeats", 1) == 1 and b.get("repeats", 1) == 1
    return _paired(_counts(a, counts), _counts(b, counts), single)


def _paired(
    ca: Mapping[str, tuple[int, int]], cb: Mapping[str, tuple[int, int]], single: bool
) -> tuple[int, float]:
    if single:  # one sample per case: (passed, scored) is (0, 1) or (1, 1)
        return _paired_sets(_sets(ca), _sets(cb))
    shared = [cid for cid in ca if cid in cb and ca[cid][1] and cb[cid][1]]
    differences = [Fraction(cb[c][0], cb[c][1]) - Fraction(ca[c][0], ca[c][1]) for c in shared]
    return len(shared), sign_flip_exact(differences)


def _sets(counts: Mapping[str, tuple[int, int]]) -> tuple[frozenset[str], frozenset[str]]:
    """(scored case ids, passed case ids) of one model with one sample per case."""
    return frozenset(c for c, (_, n) in counts.items() if n), frozenset(
        c for c, (p, n) in counts.items() if n and p
    )


def _paired_sets(
    a: tuple[frozenset[str], frozenset[str]], b: tuple[frozenset[str], frozenset[str]]
) -> tuple[int, float]:
    """The exact McNemar test from each model's (scored, passed) case ids: set operations run in C."""
    both = a[0] & b[0]
    return len(both), _mcnemar(len((a[1] - b[1]) & both), len((b[1] - a[1]) & both))


@functools.lru_cache(
    maxsize=4096
)  # a board of m models asks m (m - 1) / 2 times, of few distinct counts
def _mcnemar(worse: int, better: int) -> float:
    return mcnemar_exact(worse, better)


@dataclass(frozen=True)
class Tiers:
    """A compact-letter display of the board: models that share a letter are not told apart on Overall.

    ``letters`` maps every model to its letters in board order ("" for a model with no scored case: it is left
    out of the family); ``groups`` holds each letter and its models, in letter order; ``separated`` holds the
    pairs (upper, lower) told apart; ``tests`` is the family size."""

    letters: dict[str, str]
    groups: tuple[tuple[str, tuple[str, ...]], ...]
    separated: frozenset[tuple[str, str]]
    tests: int


def _letter(index: int) -> str:
    """a..z, then A..Z, then a numbered mark (boards of more than 52 tiers are not expected)."""
    alphabet = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
    return alphabet[index] if index < len(alphabet) else f"<{index + 1}>"


def letter_groups(names: Sequence[str], separated: set[tuple[str, str]]) -> list[list[str]]:
    """Insert-and-absorb (Piepho 2004): the fewest maximal groups of ``names`` (in that order) such that two names
    share a group exactly when they are not a ``separated`` pair."""
    position = {name: i for i, name in enumerate(names)}
    groups: list[frozenset[str]] = [frozenset(names)] if names else []
    for upper, lower in sorted(separated, key=lambda pair: (position[pair[0]], position[pair[1]])):
        if not any(upper in g and lower in g for g in groups):
            continue  # already apart
        split: list[frozenset[str]] = []
        for group in groups:
            split += (
                [group - {lower}, group - {upper}] if upper in group and lower in group else [group]
            )
        unique = list(dict.fromkeys(split))
        groups = [
            g for g in unique if not any(g < h for h in unique)
        ]  # absorb groups inside another
    ordered_groups = [sorted(g, key=position.__getitem__) for g in groups]
    return sorted(ordered_groups, key=lambda g: [position[n] for n in g])


def tiers(
    ordered: Sequence[dict[str, Any]], alpha: float = ALPHA, counts: Counts | None = None
) -> Tiers:
    """Tiers of the board ``ordered`` (leaderboard order): every pair of models with scores compared by the paired
    test on the cases both scored (``paired_p``), the p-values Holm-corrected together, and the pairs whose
    corrected p is below ``alpha`` separated; the letters are their compact-letter display. Sharing a letter
    means "not told apart", and the family-wise error rate of the whole display is at most ``alpha``."""
    per_model = [(d, _counts(d, counts)) for d in ordered]
    # Each board is drawn several times (terminal, its legend, markdown, CSV, HTML): compute its tiers once.
    key = (
        alpha,
        tuple(
            (str(d["model"]), d.get("repeats", 1), tuple(sorted(c.items()))) for d, c in per_model
        ),
    )
    if key not in _MEMO:
        _MEMO.clear()  # one board at a time is all a command draws
        _MEMO[key] = _tiers(per_model, alpha)
    return _MEMO[key]


_MEMO: dict[Any, Tiers] = {}


def _tiers(
    per_model: Sequence[tuple[dict[str, Any], Mapping[str, tuple[int, int]]]], alpha: float
) -> Tiers:
    """``tiers`` of (document, per-case counts) pairs, uncached."""
    scored = [(d, c) for d, c in per_model if any(n for _, n in c.values())]
    names = [str(d["model"]) for d, _ in scored]
    single = [d.get("repeats", 1) == 1 for d, _ in scored]
    pairs = [(i, j) for i in range(len(scored)) for j in range(i + 1, len(scored))]
    sets = [_sets(c) if one else None for (_, c), one in zip(scored, single, strict=True)]

    def p_value(i: int, j: int) -> float:
        first, second = sets[i], sets[j]
        if first is not None and second is not None:
            return _paired_sets(first, second)[1]
        return _paired(scored[i][1], scored[j][1], False)[1]

    corrected = holm([p_value(i, j) for i, j in pairs])
    separated = {
        (names[i], names[j]) for (i, j), p in zip(pairs, corrected, strict=True) if p < alpha
    }
    letters = {str(d["model"]): "" for d, _ in per_model}
    groups = tuple(
        (_letter(i), tuple(group)) for i, group in enumerate(letter_groups(names, separated))
    )
    for letter, group in groups:
        for name in group:
            letters[name] += letter
    return Tiers(letters, groups, frozenset(separated), len(pairs))


def has_repeats(documents: Sequence[dict[str, Any]]) -> bool:
    """Some model has more than one repeat per case."""
    return any(isinstance(d.get("repeats"), int) and d["repeats"] > 1 for d in documents)
