"""Which models on the leaderboard the cases cannot tell apart: tiers as a compact-letter display
(computing only; no rendering).

Every pair of models with scores is compared on the cases both scored, paired by case: the exact
McNemar test when both have one sample per case, else the exact sign-flip test on the per-case pass
rates (``scorer.stats.paired``). The p-values of all pairs are Holm-corrected together, so the
chance that
any pair of equally good models is separated is at most alpha; models that share a letter are not
told apart (METHOD.md#leaderboard-tiers).
"""

from __future__ import annotations

import functools
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from scorer.stats.paired import holm, mcnemar_exact, sign_flip_exact
from scorer.summary import ModelSummary

ALPHA = 0.05


CaseCounts = Mapping[str, tuple[int, int]]  # case id -> (passed, scored) repeats


def case_counts(summary: ModelSummary) -> dict[str, tuple[int, int]]:
    """Case id -> (passed, scored) case-runs of one model (its tallies)."""
    return {t.case_id: (t.passed, t.scored) for t in summary.tallies}


def _paired(
    ca: Mapping[str, tuple[int, int]], cb: Mapping[str, tuple[int, int]], single: bool
) -> tuple[int, float]:
    if single:  # one sample per case: (passed, scored) is (0, 1) or (1, 1)
        return _paired_sets(_sets(ca), _sets(cb))
    shared = [cid for cid in ca if cid in cb and ca[cid][1] and cb[cid][1]]
    differences = [_difference(*cb[c], *ca[c]) for c in shared]
    return len(shared), sign_flip_exact(differences)


@functools.lru_cache(maxsize=4096)  # few distinct (passed, scored) pairs: K + 1 per K
def _difference(passed_b: int, scored_b: int, passed_a: int, scored_a: int) -> Fraction:
    """passed_b / scored_b - passed_a / scored_a, exactly, as one Fraction (one gcd, not three)."""
    return Fraction(passed_b * scored_a - passed_a * scored_b, scored_b * scored_a)


def _sets(counts: Mapping[str, tuple[int, int]]) -> tuple[frozenset[str], frozenset[str]]:
    """(scored case ids, passed case ids) of one model with one sample per case."""
    return frozenset(c for c, (_, n) in counts.items() if n), frozenset(
        c for c, (p, n) in counts.items() if n and p
    )


def _paired_sets(
    a: tuple[frozenset[str], frozenset[str]], b: tuple[frozenset[str], frozenset[str]]
) -> tuple[int, float]:
    """The exact McNemar test from each model's (scored, passed) case ids: set operations run
    in C."""
    both = a[0] & b[0]
    return len(both), _mcnemar(len((a[1] - b[1]) & both), len((b[1] - a[1]) & both))


@functools.lru_cache(
    maxsize=4096
)  # a board of m models asks m (m - 1) / 2 times, of few distinct counts
def _mcnemar(worse: int, better: int) -> float:
    return mcnemar_exact(worse, better)


@dataclass(frozen=True)
class Tiers:
    """A compact-letter display of the board: models that share a letter are not told apart
    on Overall.

    ``letters`` maps every model to its letters in board order ("" for a model with no scored case:
    it is left out of the family); ``groups`` holds each letter and its models, in letter order;
    ``separated`` holds the pairs (upper, lower) told apart; ``tests`` is the family size."""

    letters: dict[str, str]
    groups: tuple[tuple[str, tuple[str, ...]], ...]
    separated: frozenset[tuple[str, str]]
    tests: int


def _letter(index: int) -> str:
    """a..z, then A..Z, then a numbered mark (boards of more than 52 tiers are not expected)."""
    alphabet = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
    return alphabet[index] if index < len(alphabet) else f"<{index + 1}>"


def letter_groups(names: Sequence[str], separated: set[tuple[str, str]]) -> list[list[str]]:
    """Insert-and-absorb (Piepho 2004): the fewest maximal groups of ``names`` (in that order) such
    that two names share a group exactly when they are not a ``separated`` pair."""
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


def tiers(ordered: Sequence[ModelSummary], alpha: float = ALPHA) -> Tiers:
    """Tiers of the board ``ordered`` (leaderboard order): every pair of models with scores compared
    by the paired test on the cases both scored (paired by case), the p-values Holm-corrected
    together, and the pairs whose corrected p is below ``alpha`` separated; the letters are their
    compact-letter display. Sharing a letter means "not told apart", and the family-wise error rate
    of the whole display is at most ``alpha``."""
    per_model = [(s.model, s.repeats, case_counts(s)) for s in ordered]
    # Each board is drawn several times (terminal, legend, markdown, CSV, HTML): its tiers once.
    key = (alpha, tuple((name, k, tuple(sorted(c.items()))) for name, k, c in per_model))
    if key not in _MEMO:
        _MEMO.clear()  # one board at a time is all a command draws
        _MEMO[key] = _tiers(per_model, alpha)
    return _MEMO[key]


_MEMO: dict[Any, Tiers] = {}


def _tiers(per_model: Sequence[tuple[str, int, CaseCounts]], alpha: float) -> Tiers:
    """``tiers`` of (model, repeats, per-case counts), uncached."""
    scored = [(name, k, c) for name, k, c in per_model if any(n for _, n in c.values())]
    names = [name for name, _, _ in scored]
    single = [k == 1 for _, k, _ in scored]
    pairs = [(i, j) for i in range(len(scored)) for j in range(i + 1, len(scored))]
    sets = [_sets(c) if one else None for (_, _, c), one in zip(scored, single, strict=True)]

    def p_value(i: int, j: int) -> float:
        first, second = sets[i], sets[j]
        if first is not None and second is not None:
            return _paired_sets(first, second)[1]
        return _paired(scored[i][2], scored[j][2], False)[1]

    corrected = holm([p_value(i, j) for i, j in pairs])
    separated = {
        (names[i], names[j]) for (i, j), p in zip(pairs, corrected, strict=True) if p < alpha
    }
    letters = {name: "" for name, _, _ in per_model}
    groups = tuple(
        (_letter(i), tuple(group)) for i, group in enumerate(letter_groups(names, separated))
    )
    for letter, group in groups:
        for name in group:
            letters[name] += letter
    return Tiers(letters, groups, frozenset(separated), len(pairs))


def has_repeats(summaries: Sequence[ModelSummary]) -> bool:
    """Some model has more than one repeat per case."""
    return any(s.repeats > 1 for s in summaries)
