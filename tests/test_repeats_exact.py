"""scorer/repeats.py by exact value: the curve, the shares and the repeat metrics of a few cases
counted by hand (pass^k: every one of k repeats drawn passes; pass@k: at least one does; flaky:
0 < passed < scored over cases with two scored repeats or more), Wilson's interval by its closed
form."""

from __future__ import annotations

import math

import pytest

from scorer.repeats import aggregate_status, pass_k_curve, repeat_metrics, representative, share
from scorer.summary import CurvePoint, Rate

Z = 1.959963984540054  # the 95% normal quantile (METHOD.md)


def wilson_by_hand(count: int, of: int) -> tuple[float, float]:
    p, n = count / of, of
    centre = (p + Z * Z / (2 * n)) / (1 + Z * Z / n)
    half = Z * math.sqrt(p * (1 - p) / n + Z * Z / (4 * n * n)) / (1 + Z * Z / n)
    return (100 * (centre - half), 100 * (centre + half))


def test_the_curve_of_three_cases_by_hand() -> None:
    # (1 of 2), (2 of 2), and a case with nothing scored (left out of every mean).
    # k = 1: pass^1 = pass@1 = (1/2 + 1) / 2 = 75%. k = 2: pass^2 = (0 + 1) / 2 = 50%,
    # pass@2 = (1 + 1) / 2 = 100%. k = 3 uses every scored repeat: the same as k = 2.
    assert pass_k_curve([(1, 2), (0, 0), (2, 2)], 3) == (
        CurvePoint(1, 75.0, 75.0),
        CurvePoint(2, 50.0, 100.0),
        CurvePoint(3, 50.0, 100.0),
    )
    # (1 of 4): pass^1 = 1/4, pass^2 = 0, pass@2 = 1 - C(3,2)/C(4,2) = 1/2.
    assert pass_k_curve([(1, 4)], 2) == (CurvePoint(1, 25.0, 25.0), CurvePoint(2, 0.0, 50.0))
    assert pass_k_curve([(3, 3)], 1) == (CurvePoint(1, 100.0, 100.0),)
    assert pass_k_curve([(1, 1)], 0) == ()


def test_share_with_its_interval() -> None:
    third = share(1, 3)
    assert (third.count, third.of) == (1, 3)
    assert third.rate == pytest.approx(100 / 3, rel=1e-15)
    assert third.ci == pytest.approx(wilson_by_hand(1, 3), rel=1e-12)
    assert isinstance(third.ci, tuple)
    assert third.ci[0] < third.ci[1]
    assert share(0, 0) == Rate(0, 0, None, None)
    assert share(2, 2).rate == 100.0 and share(2, 2).ci[1] == 100.0  # type: ignore[index]


def test_repeat_metrics_with_nothing_counted() -> None:
    assert repeat_metrics([]) == {
        "pass_all_k": Rate(0, 0, None, None),
        "pass_any_k": Rate(0, 0, None, None),
        "flaky": Rate(0, 0, None, None),
    }
    # A case of one scored repeat counts for pass^k and pass@k, not for flaky.
    one = repeat_metrics([(1, 1)])
    assert all(isinstance(rate, Rate) for rate in one.values())
    assert [(r.count, r.of) for r in one.values()] == [(1, 1), (1, 1), (0, 0)]


def test_repeat_metrics_of_one_flaky_case_in_four() -> None:
    # (1 of 2) is flaky and passes some repeat; the three (0 of 2) never pass.
    found = repeat_metrics([(1, 2), (0, 2), (0, 2), (0, 2)])
    assert all(isinstance(rate, Rate) for rate in found.values())
    assert [(r.count, r.of, r.rate) for r in found.values()] == [
        (0, 4, 0.0),
        (1, 4, 25.0),
        (1, 4, 25.0),
    ]


def test_the_curve_counts_a_case_of_one_scored_repeat() -> None:
    # (1 of 1) and (0 of 2): 50% at k = 1; at k = 2 the first uses its one repeat: 50% again.
    assert pass_k_curve([(1, 1), (0, 2)], 2) == (
        CurvePoint(1, 50.0, 50.0),
        CurvePoint(2, 50.0, 50.0),
    )


def test_repeat_metrics_of_four_cases_by_hand() -> None:
    # (2 of 2) passes every repeat, (1 of 3) is flaky, (0 of 1) never passes, (0 of 0) counts
    # nowhere.
    found = repeat_metrics([(2, 2), (1, 3), (0, 1), (0, 0)])
    assert list(found) == ["pass_all_k", "pass_any_k", "flaky"]
    assert [(r.count, r.of) for r in found.values()] == [(1, 3), (2, 3), (1, 2)]
    assert found["pass_all_k"].rate == pytest.approx(100 / 3, rel=1e-15)
    assert found["pass_any_k"].rate == pytest.approx(200 / 3, rel=1e-15)
    assert found["flaky"].rate == 50.0
    assert found["flaky"].ci == pytest.approx(wilson_by_hand(1, 2), rel=1e-12)


@pytest.mark.parametrize(
    ("statuses", "aggregate", "shown"),
    [
        (("failed", "passed"), "failed", 0),
        (("passed", "errored", "failed"), "failed", 2),
        (("unrecorded", "errored"), "errored", 1),
        (("unrecorded",), "unrecorded", 0),
        ((), "unrecorded", None),
    ],
)
def test_aggregate_status_and_the_repeat_shown(
    statuses: tuple[str, ...], aggregate: str, shown: int | None
) -> None:
    assert aggregate_status(statuses) == aggregate
    if shown is None:
        with pytest.raises(ValueError):
            representative(statuses)
    else:
        assert representative(statuses) == shown
