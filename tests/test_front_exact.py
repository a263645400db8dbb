"""scorer/front.py by exact value on small boards of one sample per case: the statuses and their
p-values (the exact one-sided sign test, 2^-10 for ten cases one way, Holm's doubling of the
smaller of two), the Hsu bounds of two models that agree on every case (-z^2 / (n + z^2), z the
critical value at alpha / (k - 1)), the pick and its saving, and why a model is apart."""

from __future__ import annotations

from dataclasses import replace

import pytest

from scorer.front import Front, FrontRow, Pick, apart_reason, front, x_of
from scorer.stats.front_bootstrap import counts
from scorer.stats.front_paired import critical
from scorer.summarize import empty
from scorer.summary import CaseTally, Counts, ModelSummary, Rate

P10 = 2**-10  # the exact one-sided sign test of ten cases one way, none the other


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


def on_cases(summary: ModelSummary, first: int) -> ModelSummary:
    """``summary`` with its cases renamed from c<first> on (so two models can share no case)."""
    tallies = tuple(replace(t, case_id=f"c{first + i:02d}") for i, t in enumerate(summary.tallies))
    return replace(summary, tallies=tallies)


def test_the_whole_front_of_one_model_without_latency() -> None:
    # 25.0 per 100 cases: 0.25 a case, exact in binary, so every draw's x is exactly 25.0.
    one = model("m/one", ALL, 25.0, latency=None)
    assert front([one], draws=100, seed=7) == Front(
        "cost",
        10.0,
        0.05,
        100,
        7,
        (
            FrontRow(
                "m/one",
                100.0,
                (95.0, 105.0),
                25.0,
                (25.0, 25.0),
                "front",
                None,
                None,
                1.0,
                None,
                True,
                "",
            ),
        ),  # alone: always on the front, no other model to bound
        Pick("m/one", "m/one", None, 0.0),
    )


def test_the_whole_front_of_one_unpriced_model_and_of_one_partial_model() -> None:
    free = model("m/free", ALL, None)
    unpriced_row = FrontRow(
        "m/free",
        100.0,
        (95.0, 105.0),
        None,
        None,
        "apart",
        None,
        None,
        None,
        None,
        False,
        "unpriced",
    )
    found = front([free], draws=100, seed=7)
    assert found == Front(
        "cost", 10.0, 0.05, 100, 7, (unpriced_row,), Pick(None, "m/free", None, None)
    )
    part = model("m/part", ALL, 0.2, scored=15)
    partial_row = replace(unpriced_row, model="m/part", x=0.2, apart="partial 15/20")
    found = front([part], draws=100, seed=7)
    assert found == Front("cost", 10.0, 0.05, 100, 7, (partial_row,), Pick(None, None, None, None))


def test_an_unknown_axis_raises() -> None:
    with pytest.raises(ValueError, match=r"^unknown axis 'speed'$"):
        front([model("m/one", ALL, 0.1)], axis="speed")


def test_models_of_the_same_cost_compare_with_each_other() -> None:
    worse, better = model("m/a", HALF, 0.1), model("m/b", ALL, 0.1)
    found = front([worse, better], draws=100)
    # Placed by x, then Overall (not by name): m/b first.
    assert [(r.model, r.status, r.dominated_by, r.p) for r in found.rows] == [
        ("m/b", "front", None, P10),
        ("m/a", "dominated", "m/b", P10),
    ]


def test_a_model_that_costs_nothing_is_placed_first_and_compared() -> None:
    zero, paid = model("m/zero", HALF, 0.0), model("m/paid", ALL, 0.5)
    found = front([paid, zero], draws=100)
    assert [(r.model, r.x, r.status, r.dominated_by, r.p) for r in found.rows] == [
        ("m/zero", 0.0, "front", None, None),  # nothing costs less than nothing
        ("m/paid", 0.5, "front", None, P10),
    ]


def test_of_two_equal_dominators_the_cheaper_is_named() -> None:
    bad = model("m/bad", HALF, 0.3)
    found = front([bad, model("m/a", ALL, 0.2), model("m/b", ALL, 0.0)], draws=100)
    assert found.rows[2].model == "m/bad"
    # Holm over two equal p-values: both doubled; the tie goes to the lower cost, not the name.
    assert (found.rows[2].status, found.rows[2].dominated_by, found.rows[2].p) == (
        "dominated",
        "m/b",
        2 * P10,
    )


def test_a_p_value_equal_to_alpha_decides_nothing() -> None:
    ahead = front([model("m/cheap", HALF, 0.1), model("m/dear", ALL, 0.2)], alpha=P10, draws=100)
    assert (ahead.rows[1].model, ahead.rows[1].status, ahead.rows[1].p) == (
        "m/dear",
        "ambiguous",
        None,
    )
    behind = front([model("m/dear", ALL, 0.1), model("m/bad", HALF, 0.2)], alpha=P10, draws=100)
    assert [(r.status, r.dominated_by, r.p) for r in behind.rows] == [
        ("front", None, None),
        ("ambiguous", None, None),
    ]


def test_the_bound_is_the_smallest_over_the_other_models() -> None:
    # m/dear and m/twin agree everywhere: their bound against each other, -z^2 / (n + z^2) at
    # alpha / 2 (k = 3), is below their bound against m/half (which they beat on ten cases).
    z = critical(0.05 / 2, 20)
    agree = -100 * z * z / (20 + z * z)
    found = front(
        [model("m/dear", ALL, 0.2), model("m/twin", ALL, 0.1), model("m/half", HALF, 0.3)],
        delta=20,
        draws=100,
    )
    rows = {r.model: r for r in found.rows}
    assert rows["m/dear"].lower == pytest.approx(agree, abs=1e-9)
    assert rows["m/twin"].lower == pytest.approx(agree, abs=1e-9)


def test_models_that_share_no_case() -> None:
    # m/a fails its ten cases, m/b passes ten others: no case to compare them on, so each
    # bound is -100 points; the bootstrap counts each model on its own cases only.
    a = on_cases(model("m/a", [0] * 10, 0.1), 0)
    b = on_cases(model("m/b", [1] * 10, 0.2), 10)
    found = front([a, b], delta=100, draws=200)
    assert [r.model for r in found.rows] == ["m/a", "m/b"]
    assert [r.lower for r in found.rows] == [-100.0, -100.0]
    assert [r.within for r in found.rows] == [False, False]  # -100 is not above -delta
    assert [r.x_ci for r in found.rows] == [
        (pytest.approx(0.1), pytest.approx(0.1)),
        (pytest.approx(0.2), pytest.approx(0.2)),
    ]
    # m/a is the cheapest; m/b passes every case it has, m/a none: both on the front every draw.
    assert [r.p_front for r in found.rows] == [1.0, 1.0]
    assert found.pick == Pick(None, "m/b", None, None, "m/a", -100.0)


def test_the_closest_of_two_equal_bounds_is_the_cheaper_even_at_no_cost() -> None:
    found = front([model("m/dear", ALL, 0.2), model("m/free", ALL, 0.0)], delta=10, draws=100)
    assert (found.pick.model, found.pick.closest) == (None, "m/free")


def test_the_closest_is_a_placed_model_not_an_unpriced_one() -> None:
    found = front([model("m/free", ALL, None), model("m/cheap", HALF, 0.1)], draws=100)
    assert (found.pick.model, found.pick.leader, found.pick.closest) == (None, "m/free", "m/cheap")


def test_a_model_without_latency_leads_on_the_latency_axis() -> None:
    fast = model("m/fast", HALF, 0.1, latency=20.0)
    found = front([fast, model("m/nolat", ALL, 0.2, latency=None)], axis="latency", draws=100)
    assert [(r.model, r.apart) for r in found.rows] == [("m/fast", ""), ("m/nolat", "no latency")]
    assert found.pick.leader == "m/nolat" and found.rows[1].lower is not None


def test_apart_models_of_equal_overall_follow_by_name() -> None:
    found = front([model("m/y", ALL, None), model("m/x", ALL, None)], draws=100)
    assert [r.model for r in found.rows] == ["m/x", "m/y"]
    assert found.pick.leader == "m/x"


def test_the_share_of_draws_on_the_front_follows_the_seeded_draws() -> None:
    # A seed not the default (44). m/b passes both cases, the cheaper m/a only c00: m/a beats m/b
    # (cheaper, as good) exactly in the draws without c01, so m/b's share is that of the draws
    # holding c01 (counts: one row a draw, one column a case, in suite order).
    import numpy as np

    found = front([model("m/a", [1, 0], 0.1), model("m/b", [1, 1], 0.2)], draws=400, seed=7)
    holding = float((np.asarray(counts(2, 400, 7))[:, 1] > 0).mean())
    assert 0.5 < holding < 1
    assert [r.p_front for r in found.rows] == [1.0, holding]
