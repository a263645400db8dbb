"""What K repeats of a case say together: its aggregate status, pass^k, pass@k and whether it
is flaky.

Everything here works on per-case counts: ``passed`` of ``scored`` repeats (errored and unrecorded
repeats are left out, as in every rate). The estimators are exact fractions, turned into
floats once.

- pass^k (every one of k repeats passes; tau-bench): per case C(passed, k) / C(scored, k), the
  chance that k repeats drawn without replacement from the recorded ones all passed. pass@k (at
  least one of k passes; Chen et al. 2021): 1 - C(scored - passed, k) / C(scored, k). A case with
  fewer scored repeats than k uses all of them (k' = min(k, scored)), so at k = K the curves equal
  the counts of ``pass_all_k`` and ``pass_any_k``.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from fractions import Fraction

from scorer.metrics import REGISTRY, REPEAT_METRICS
from scorer.stats.wilson import wilson
from scorer.summary import CurvePoint, Rate

CaseCounts = tuple[int, int]  # (passed repeats, scored repeats)


def aggregate_status(statuses: Sequence[str]) -> str:
    """A case's status over its repeats: ``passed`` when every scored repeat passed, ``failed`` when
    one failed; with no scored repeat, ``errored`` when one errored, else ``unrecorded``."""
    # Membership, not a filtered copy (a history's case holds hundreds of repeats): a failed
    # repeat is a scored one, and with none, a passed one makes the case passed.
    if "failed" in statuses:
        return "failed"
    if "passed" in statuses:
        return "passed"
    return "errored" if "errored" in statuses else "unrecorded"


def representative(statuses: Sequence[str]) -> int:
    """The index of the repeat that stands for the case: the first whose status is the
    aggregate one."""
    return statuses.index(aggregate_status(statuses))


def pass_all(passed: int, scored: int, k: int) -> Fraction:
    """Unbiased pass^k of one case (k' = min(k, scored)); ``scored`` must be at least 1."""
    k = min(k, scored)
    return Fraction(math.comb(passed, k), math.comb(scored, k))


def pass_any(passed: int, scored: int, k: int) -> Fraction:
    """Unbiased pass@k of one case (k' = min(k, scored)); ``scored`` must be at least 1."""
    k = min(k, scored)
    return 1 - Fraction(math.comb(scored - passed, k), math.comb(scored, k))


def _mean_percent(values: Sequence[Fraction]) -> float | None:
    return float(100 * sum(values, Fraction(0)) / len(values)) if values else None


def pass_k_curve(cases: Sequence[CaseCounts], repeats: int) -> tuple[CurvePoint, ...]:
    """pass^k and pass@k in percent for k = 1..``repeats``, averaged over cases with a
    scored repeat."""
    scored = [(p, n) for p, n in cases if n > 0]
    return tuple(
        CurvePoint(
            k,
            _mean_percent([pass_all(p, n, k) for p, n in scored]),
            _mean_percent([pass_any(p, n, k) for p, n in scored]),
        )
        for k in range(1, repeats + 1)
    )


def share(count: int, of: int) -> Rate:
    """``count`` of ``of`` values, one per case, with Wilson's interval."""
    ci = wilson(count, of)
    return Rate(count, of, 100 * count / of if of else None, None if ci is None else (ci[0], ci[1]))


def repeat_metrics(cases: Sequence[CaseCounts]) -> dict[str, Rate]:
    """Each repeat metric of the registry (``pass_all_k``, ``pass_any_k`` over cases with a scored
    repeat, ``flaky``: 0 < passed < scored over cases with at least two scored repeats): one
    value per case, Wilson intervals."""
    found = {}
    for name in REPEAT_METRICS:
        values = [REGISTRY[name].compute(p, n) for p, n in cases]
        counted = [v for v in values if v is not None]
        found[name] = share(sum(1 for v in counted if v), len(counted))
    return found
