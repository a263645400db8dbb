"""One model's summary from hand-built per-case rows (what scorer/summarize.py's group_bys yield),
every figure counted by hand (issue 43: tests that fail by a checked value, not a crash)."""

from __future__ import annotations

import dataclasses
from decimal import Decimal
from typing import Any

from scorer.summarize import _group_names, empty, summary_of
from scorer.summary import CaseTally, Counts, CurvePoint, ModelSummary, Rate

NONE = Rate(0, 0, None, None)
CASE = ("overall", "right_tool", "chains", "parallel", "no_call_needed")
CALL = ("valid_arguments", "made_up_tool")


def row(case_id: str, index: int, group: str, statuses: dict[str, int], **sums: Any) -> dict:
    """A per-case row: status counts, then each metric's sum and ``_of`` (0 unless given)."""
    out: dict[str, Any] = {"model_slug": "m", "case_id": case_id, "case_index": index}
    out["group"] = group
    for status in ("passed", "failed", "errored", "unrecorded"):
        out[status] = statuses.get(status, 0)
    for name in CASE + CALL:
        out[name], out[f"{name}_of"] = sums.get(name, (0, 0))
    return out


ROWS = [
    row("a", 0, "selection", {"passed": 2}, overall=(2, 2), right_tool=(2, 2),
        valid_arguments=(2, 2), made_up_tool=(0, 2)),
    row("b", 1, "no_call", {"failed": 1, "errored": 1}, overall=(0, 1), no_call_needed=(0, 1)),
    row("c", 2, "chains", {"errored": 1, "unrecorded": 1}, chains=(None, 0)),
    row("d", 3, "parallel", {"unrecorded": 2}, parallel=(None, None)),
]  # fmt: skip
MODEL = {
    "model": "Model M",
    "model_slug": "m",
    "repeats": 2,
    "temperature_ignored": None,
    "unpriced": False,
    "cost_total": Decimal("0.5"),
    "latency_p50_ms": 120,
}


def test_summary_of_counts_every_figure() -> None:
    s = summary_of(MODEL, ROWS, {"vendor/m-1": 3})
    assert (s.model, s.model_slug, s.repeats, s.temperature_ignored) == ("Model M", "m", 2, None)
    assert s.routed_models == {"vendor/m-1": 3}
    # Cases: a passed, b failed (one scored repeat failed), c errored, d unrecorded.
    assert s.cases == Counts(4, 2, 1, 1)
    # Case-runs: p p / f e / e u / u u.
    assert s.case_runs == Counts(8, 3, 2, 3)
    assert s.tallies == (
        CaseTally("a", 2, 2),
        CaseTally("b", 0, 1),
        CaseTally("c", 0, 0),
        CaseTally("d", 0, 0),
    )
    figures = {name: (r.count, r.of, r.rate) for name, r in s.metrics.items()}
    assert list(figures)[:7] == [
        "overall", "right_tool", "valid_arguments", "made_up_tool", "chains", "parallel",
        "no_call_needed",
    ]  # fmt: skip
    assert figures["overall"] == (2, 3, 200 / 3)
    assert figures["right_tool"] == (2, 2, 100.0)
    assert figures["valid_arguments"] == (2, 2, 100.0)
    assert figures["made_up_tool"] == (0, 2, 0.0)
    assert figures["no_call_needed"] == (0, 1, 0.0)
    assert s.metrics["chains"] == NONE and s.metrics["parallel"] == NONE
    assert {name: (r.count, r.of) for name, r in s.groups.items()} == {
        "selection": (2, 2),
        "arguments": (0, 0),
        "near_misses": (0, 0),
        "no_call": (0, 1),
        "parallel": (0, 0),
        "chains": (0, 0),
    }
    assert list(s.groups) == [
        "selection",
        "arguments",
        "near_misses",
        "no_call",
        "parallel",
        "chains",
    ]
    assert s.latency_p50_ms == 120.0 and isinstance(s.latency_p50_ms, float)
    assert s.cost_usd == 0.5
    # $0.5 over 3 scored case-runs, per 100.
    assert s.cost_per_100_cases_usd == 50 / 3


def test_summary_of_groups_given_by_the_suite() -> None:
    s = summary_of(MODEL, ROWS, {}, groups=("no_call", "mine"))
    assert {name: (r.count, r.of) for name, r in s.groups.items()} == {
        "no_call": (0, 1),
        "mine": (0, 0),
    }


def test_group_names_of_a_suite_of_ones_own_in_row_order() -> None:
    rows = [{"group": "b"}, {"group": "a"}, {"group": "b"}]
    assert _group_names(rows) == ("b", "a")
    assert _group_names([{"group": "chains"}]) == (
        "selection", "arguments", "near_misses", "no_call", "parallel", "chains",
    )  # fmt: skip
    assert _group_names([{"group": "chains"}, {"group": "mine"}]) == ("chains", "mine")
    assert _group_names([]) == (
        "selection", "arguments", "near_misses", "no_call", "parallel", "chains",
    )  # fmt: skip


def test_cost_unpriced_missing_and_beyond_a_double() -> None:
    unpriced = summary_of({**MODEL, "unpriced": True}, ROWS, {})
    assert (unpriced.cost_usd, unpriced.cost_per_100_cases_usd) == (None, None)
    free = summary_of({**MODEL, "cost_total": None}, ROWS, {})
    assert (free.cost_usd, free.cost_per_100_cases_usd) == (0.0, 0.0)
    huge = summary_of({**MODEL, "cost_total": Decimal("1e400")}, ROWS, {})
    assert (huge.cost_usd, huge.cost_per_100_cases_usd) == (None, None)
    no_scored = summary_of(MODEL, ROWS[2:], {})
    assert (no_scored.cost_usd, no_scored.cost_per_100_cases_usd) == (0.5, None)


def test_tallies_of_cases_with_nothing_scored() -> None:
    # c: errored and unrecorded, d: unrecorded twice: no case-run passed, none scored.
    s = summary_of(MODEL, ROWS[2:], {})
    assert s.tallies == (CaseTally("c", 0, 0), CaseTally("d", 0, 0))


def test_missing_latency_and_repeats() -> None:
    s = summary_of({**MODEL, "latency_p50_ms": None, "repeats": None}, ROWS[:1], {})
    assert (s.latency_p50_ms, s.repeats) == (None, 1)


def test_empty_summary_written_out() -> None:
    metrics = (CASE[0], CASE[1], *CALL, *CASE[2:], "pass_all_k", "pass_any_k", "flaky")
    assert empty("Model M", "m", ("x", "y")) == ModelSummary(
        model="Model M",
        model_slug="m",
        repeats=1,
        temperature_ignored=False,
        routed_models={},
        cases=Counts(0, 0, 0, 0),
        case_runs=Counts(0, 0, 0, 0),
        metrics=dict.fromkeys(metrics, NONE),
        groups={"x": NONE, "y": NONE},
        latency_p50_ms=None,
        cost_usd=0.0,
        cost_per_100_cases_usd=None,
        pass_k_curve=(CurvePoint(1, None, None),),
        tallies=(),
    )
    assert list(empty("M", "m").groups) == [
        "selection", "arguments", "near_misses", "no_call", "parallel", "chains",
    ]  # fmt: skip


def _frame() -> Any:
    """Case-run rows (docs/FORMATS.md, "Rows") of two models, written out by hand."""
    import polars as pl

    columns: dict[str, tuple[Any, list[Any]]] = {
        "model_slug": (pl.String, ["m", "m", "m", "n"]),
        "model": (pl.String, ["Model M", "Model M", "Model M", "Model N"]),
        "case_id": (pl.String, ["a", "a", "b", "a"]),
        "case_index": (pl.Int64, [0, 0, 1, 0]),
        "group": (pl.String, ["selection", "selection", "no_call", "selection"]),
        "repeat": (pl.Int64, [1, 2, 1, 1]),
        "status": (pl.String, ["passed", "failed", "errored", "passed"]),
        "overall": (pl.Boolean, [True, False, None, True]),
        "right_tool": (pl.Boolean, [True, True, None, True]),
        "chains": (pl.Boolean, [None, None, None, None]),
        "parallel": (pl.Boolean, [None, None, None, None]),
        "no_call_needed": (pl.Boolean, [None, None, None, None]),
        "valid_arguments": (pl.Int64, [1, 0, None, 1]),
        "valid_arguments_of": (pl.Int64, [1, 1, None, 1]),
        "made_up_tool": (pl.Int64, [0, 0, None, 0]),
        "made_up_tool_of": (pl.Int64, [1, 1, None, 1]),
        "temperature_ignored": (pl.Boolean, [None, False, None, True]),
        "cost_usd_text": (pl.String, ["0.1", "0.2", None, "0.0000000000000000001"]),
        "cost_usd": (pl.Float64, [0.1, 0.2, None, None]),
        "attempts": (pl.Int64, [1, 1, None, 1]),
        "attempt_wall_ms": (pl.List(pl.Float64), [[100.0], [300.0, 200.0], [], [50.0]]),
        "routed_models": (pl.List(pl.String), [["x"], ["x", "y"], None, []]),
    }
    return pl.DataFrame(
        {name: values for name, (_, values) in columns.items()},
        schema={name: dtype for name, (dtype, _) in columns.items()},
    )


def test_summarize_a_frame_of_two_models() -> None:
    from scorer.summarize import summarize

    summaries = summarize(_frame())
    assert list(summaries) == ["m", "n"]
    m, n = summaries["m"], summaries["n"]
    assert (m.model, m.repeats, m.temperature_ignored) == ("Model M", 2, False)
    assert m.routed_models == {"x": 2, "y": 1}
    # Case a: passed then failed (failed); case b: errored.
    assert m.cases == Counts(2, 1, 1, 0)
    assert m.case_runs == Counts(3, 2, 1, 0)
    # Per case: its case-runs' billed cost and answered attempts' wall times (the pick's unit).
    assert m.tallies == (
        CaseTally("a", 1, 2, 0.1 + 0.2, (100.0, 300.0, 200.0)),
        CaseTally("b", 0, 0, 0.0, ()),
    )
    figures = {name: (r.count, r.of, r.rate) for name, r in m.metrics.items()}
    assert figures["overall"] == (1, 2, 50.0)
    assert figures["right_tool"] == (2, 2, 100.0)
    assert figures["valid_arguments"] == (1, 2, 50.0)
    assert figures["made_up_tool"] == (0, 2, 0.0)
    assert figures["chains"] == (0, 0, None)
    assert {g: (r.count, r.of) for g, r in m.groups.items()} == {
        "selection": (1, 2),
        "arguments": (0, 0),
        "near_misses": (0, 0),
        "no_call": (0, 0),
        "parallel": (0, 0),
        "chains": (0, 0),
    }
    # Attempt wall times 100, 300, 200 ms (an errored case-run with none): the median is 200.
    assert m.latency_p50_ms == 200.0
    assert m.cost_usd == 0.1 + 0.2
    assert m.cost_per_100_cases_usd == (0.1 + 0.2) * 100 / 2
    # Model N: a price finer than a double's sum holds, summed from its exact text.
    assert (n.model, n.repeats, n.temperature_ignored) == ("Model N", 1, True)
    assert n.routed_models == {}
    assert n.cost_usd == 1e-19
    assert n.latency_p50_ms == 50.0
    assert n.tallies == (CaseTally("a", 1, 1, 0.0, (50.0,)),)


def test_summarize_without_routes_and_with_the_suites_groups() -> None:
    from scorer.summarize import summarize

    summaries = summarize(_frame().lazy(), routed=False, groups=("selection",))
    assert summaries["m"].routed_models == {}
    assert {g: (r.count, r.of) for g, r in summaries["m"].groups.items()} == {"selection": (1, 2)}


def test_unpriced_case_run_makes_the_model_unpriced() -> None:
    import polars as pl

    from scorer.summarize import summarize

    frame = _frame().with_columns(
        cost_usd_text=pl.Series(["0.1", None, None, "0.0000000000000000001"]),
        cost_usd=pl.Series([0.1, None, None, None]),
    )
    summaries = summarize(frame)
    assert (summaries["m"].cost_usd, summaries["m"].cost_per_100_cases_usd) == (None, None)
    assert summaries["n"].cost_usd == 1e-19


def test_known_any_over_unknown_flags() -> None:
    import polars as pl

    from scorer.summarize import known_any

    frame = pl.DataFrame(
        {"k": ["a", "a", "b", "b", "c"], "flag": [None, True, None, False, None]},
        schema={"k": pl.String, "flag": pl.Boolean},
    )
    got = frame.group_by("k").agg(known_any("flag").alias("any")).sort("k")
    assert got.to_dict(as_series=False) == {"k": ["a", "b", "c"], "any": [True, False, None]}


def test_cases_in_suite_order_and_routes_by_name() -> None:
    """Rows given in reverse suite order (and answering models in reverse name order) come out
    in suite order (the tallies, the front's cases) and by name (``routed_models``)."""
    import polars as pl

    from scorer.summarize import summarize

    one = _frame().filter(pl.col("model_slug") == "n")
    frame = pl.concat(
        [
            one.with_columns(
                case_id=pl.lit(f"c{i:02}"),
                case_index=pl.lit(i, dtype=pl.Int64),
                routed_models=pl.Series([[f"r{i:02}"]], dtype=pl.List(pl.String)),
            )
            for i in range(11, -1, -1)
        ]
    )
    n = summarize(frame)["n"]
    assert [t.case_id for t in n.tallies] == [f"c{i:02}" for i in range(12)]
    assert list(n.routed_models.items()) == [(f"r{i:02}", 1) for i in range(12)]


def test_cost_summed_as_doubles_unless_a_price_is_finer() -> None:
    """A model whose every price a double holds sums ``cost_usd`` (0.1 + 0.2 is
    0.30000000000000004); one with a finer price sums every exact text (1e-19 + 2e-19)."""
    import polars as pl

    from scorer.summarize import summarize

    frame = _frame()
    n = frame.filter(pl.col("model_slug") == "n")
    finer = n.with_columns(
        case_id=pl.lit("b"),
        case_index=pl.lit(1, dtype=pl.Int64),
        cost_usd_text=pl.lit("0.0000000000000000002"),
    )
    priced = frame.filter(pl.col("status") != "errored")  # m's priced case-runs only
    summaries = summarize(pl.concat([priced.filter(pl.col("model_slug") == "m"), n, finer]))
    assert summaries["m"].cost_usd == 0.30000000000000004
    assert summaries["n"].cost_usd == 3e-19


def test_document_of_a_repeated_run_has_the_repeat_fields() -> None:
    """K = 2 adds repeats, case_runs, pass_k_curve and the repeat metrics; K = 1 leaves them out."""
    document = summary_of(MODEL, ROWS, {}).document()
    assert sorted(document) == [
        "case_runs", "cases", "cost_per_100_cases_usd", "cost_usd", "groups", "latency_p50_ms",
        "metrics", "model", "model_slug", "pass_k_curve", "repeats", "routed_models",
        "temperature_ignored",
    ]  # fmt: skip
    assert document["repeats"] == 2
    assert document["case_runs"] == {"total": 8, "scored": 3, "errored": 2, "unrecorded": 3}
    # Scored cases: a passed 2 of 2, b 0 of 1 (k' = 1 at k = 2): 50% at every k.
    assert document["pass_k_curve"] == [
        {"k": 1, "pass_all": 50.0, "pass_any": 50.0},
        {"k": 2, "pass_all": 50.0, "pass_any": 50.0},
    ]
    assert list(document["metrics"]) == [
        "overall", "right_tool", "valid_arguments", "made_up_tool", "chains", "parallel",
        "no_call_needed", "pass_all_k", "pass_any_k", "flaky",
    ]  # fmt: skip
    single = summary_of({**MODEL, "repeats": 1}, ROWS[:1], {}).document()
    assert "repeats" not in single and "case_runs" not in single and "pass_k_curve" not in single
    assert len(single["metrics"]) == 7


def test_document_of_a_single_sample_run_written_out() -> None:
    rate = {"count": 0, "of": 0, "rate": None, "ci": None}
    assert empty("Model M", "m", ("x",)).document() == {
        "model": "Model M",
        "model_slug": "m",
        "temperature_ignored": False,
        "routed_models": {},
        "cases": {"total": 0, "scored": 0, "errored": 0, "unrecorded": 0},
        "metrics": dict.fromkeys(CASE[:2] + CALL + CASE[2:], rate),
        "groups": {"x": rate},
        "latency_p50_ms": None,
        "cost_usd": 0.0,
        "cost_per_100_cases_usd": None,
    }


def test_nothing_scored_only_when_there_are_case_runs_and_none_scored() -> None:
    # docs/commands/rescore.md#no-scored-case-fails: a run with case-runs, none of them scored.
    base = empty("M", "m")

    def runs(total: int, scored: int) -> bool:
        counts = Counts(total, scored, total - scored, 0)
        return dataclasses.replace(base, case_runs=counts).nothing_scored

    assert [runs(0, 0), runs(1, 0), runs(2, 0), runs(1, 1), runs(3, 1), runs(3, 2)] == [
        False, True, True, False, False, False,
    ]  # fmt: skip


def test_a_rate_written_out_with_and_without_its_interval() -> None:
    assert Rate(3, 4, 75.0, (30.1, 95.4)).document() == {
        "count": 3, "of": 4, "rate": 75.0, "ci": [30.1, 95.4],
    }  # fmt: skip
    assert Rate(0, 0, None, None).document() == {"count": 0, "of": 0, "rate": None, "ci": None}
