"""scorer/front.py by exact value on small boards of one sample per case: the statuses and their
p-values (the exact one-sided sign test, 2^-10 for ten cases one way, Holm's doubling of the
smaller of two), the Hsu bounds of two models that agree on every case (-z^2 / (n + z^2), z the
critical value at alpha / (k - 1)), the pick and its saving, and why a model is apart."""

from __future__ import annotations

from dataclasses import replace

import pytest

from scorer.front import apart_reason, front, x_of
from scorer.stats.front_paired import critical
from scorer.summarize import empty
from scorer.summary import CaseTally, Counts, ModelSummary, Rate


def model(
    name: str,
    passed: list[int],
    cost: float | None,
    latency: float | None = 10.0,
    scored: int | None = None,
) -> ModelSummary:
    """Case c passed ``passed[c]`` of 1; ``cost``: the billed cost per 100 cases (None:
    unpriced)."""
    n = len(passed)
    tallies = tuple(
        CaseTally(f"c{i:02d}", p, 1, (cost or 0.0) / 100, (latency or 0.0,))
        for i, p in enumerate(passed)
    )
    rate = 100 * sum(passed) / n
    runs = n if scored is None else scored
    return replace(
        empty(name, name.replace("/", "_")),
        metrics={"overall": Rate(sum(passed), n, rate, (rate - 5, rate + 5))},
        case_runs=Counts(n, runs, n - runs, 0),
        cost_per_100_cases_usd=cost,
        latency_p50_ms=latency,
        tallies=tallies,
    )


HALF = [1] * 10 + [0] * 10
ALL = [1] * 20


def test_statuses_and_p_values_of_three_models() -> None:
    cheap, dear, bad = (
        model("m/cheap", HALF, 0.1),
        model("m/dear", ALL, 0.2),
        model("m/bad", HALF, 0.3),
    )
    found = front([bad, cheap, dear], draws=200)
    assert [r.model for r in found.rows] == ["m/cheap", "m/dear", "m/bad"]  # by x
    assert [(r.status, r.dominated_by, r.p) for r in found.rows] == [
        ("front", None, None),  # nothing cheaper to compare with
        ("front", None, 2**-10),  # better than m/cheap on 10 cases, worse on none
        ("dominated", "m/dear", 2 * 2**-10),  # Holm: the smaller of two p-values doubled
    ]
    assert [r.x for r in found.rows] == [0.1, 0.2, 0.3]
    assert [r.overall for r in found.rows] == [50.0, 100.0, 50.0]
    assert [r.overall_ci for r in found.rows] == [(45.0, 55.0), (95.0, 105.0), (45.0, 55.0)]
    assert [r.apart for r in found.rows] == ["", "", ""]
    assert (found.axis, found.delta, found.alpha, found.draws) == ("cost", 10.0, 0.05, 200)
    assert [r.within for r in found.rows] == [False, True, False]
    assert found.pick.model == "m/dear" and found.pick.leader == "m/dear"
    assert found.pick.saving == 0.0 and found.pick.lower == found.rows[1].lower
    assert found.pick.lower is not None and found.pick.lower > 0
    assert found.rows[0].lower is not None and found.rows[0].lower < -10


def test_two_models_that_agree_everywhere_and_the_pick_within_delta() -> None:
    dear, twin = model("m/dear", ALL, 0.2), model("m/twin", ALL, 0.1)
    z = critical(0.05, 20)  # k = 2: alpha / (k - 1)
    bound = -100 * z * z / (20 + z * z)  # about -12.6 points
    near = front([dear, twin], delta=20, draws=100)
    assert [r.model for r in near.rows] == ["m/twin", "m/dear"]
    assert [r.lower for r in near.rows] == [pytest.approx(bound, abs=1e-9)] * 2
    assert near.pick.model == "m/twin" and near.pick.leader == "m/dear"
    assert near.pick.saving == pytest.approx(0.5)  # 1 - 0.1 / 0.2
    far = front([dear, twin], delta=10, draws=100)
    assert far.pick.model is None and far.pick.leader == "m/dear"
    assert (far.pick.lower, far.pick.saving) == (None, None)
    assert far.pick.closest == "m/twin"  # the same bound: the cheaper one
    assert far.pick.closest_lower == pytest.approx(bound, abs=1e-9)
    # Three that agree: each bound at alpha / 2, a larger critical value.
    z3 = critical(0.025, 20)
    three = front([dear, twin, model("m/third", ALL, 0.3)], delta=20, draws=100)
    assert [r.lower for r in three.rows] == [pytest.approx(-100 * z3 * z3 / (20 + z3 * z3))] * 3


def test_apart_reasons_and_x() -> None:
    priced = model("m/p", ALL, 0.2, latency=None)
    assert (x_of(priced, "cost"), x_of(priced, "latency")) == (0.2, None)
    assert (apart_reason(priced, "cost"), apart_reason(priced, "latency")) == ("", "no latency")
    free = model("m/free", ALL, None)
    assert (apart_reason(free, "cost"), apart_reason(free, "latency")) == ("unpriced", "")
    assert apart_reason(model("m/part", ALL, 0.2, scored=15), "cost") == "partial 15/20"
    assert apart_reason(empty("m/none", "m_none"), "cost") == "nothing scored"


def test_apart_models_follow_in_board_order_and_the_unpriced_leader_counts() -> None:
    free = model("m/free", ALL, None)
    part = model("m/part", HALF, 0.01, scored=19)
    cheap = model("m/cheap", [1] * 19 + [0], 0.1)
    found = front([cheap, part, free], delta=25, draws=100)  # m/cheap: about -20.7
    assert [(r.model, r.status, r.apart) for r in found.rows] == [
        ("m/cheap", "front", ""),
        ("m/free", "apart", "unpriced"),
        ("m/part", "apart", "partial 19/20"),
    ]
    rows = {r.model: r for r in found.rows}
    assert rows["m/free"].within is False and rows["m/free"].lower is not None
    assert rows["m/part"].lower is None and rows["m/part"].x_ci is None
    assert rows["m/part"].p_front is None and rows["m/part"].dominated_by is None
    assert found.pick.leader == "m/free" and found.pick.model == "m/cheap"
    assert found.pick.saving is None  # the leader has no cost


def test_the_latency_axis_and_an_unknown_axis() -> None:
    slow, fast = model("m/slow", ALL, 0.1, latency=900.0), model("m/fast", HALF, 0.2, latency=20.0)
    found = front([slow, fast], axis="latency", draws=100)
    assert [(r.model, r.x) for r in found.rows] == [("m/fast", 20.0), ("m/slow", 900.0)]
    assert found.rows[0].x_ci == (20.0, 20.0)
    with pytest.raises(ValueError, match=r"^unknown axis 'speed'$"):
        front([slow], axis="speed")
