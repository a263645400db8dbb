"""The dialect matrix (``scorer.wire.matrix``) on small results documents written by hand: each
way's Overall and anomalies, each later way against the first on the cases scored in both, with
the exact McNemar p computed by hand (two-sided: ``min(1, 2 * P[X <= min(b, c)])``,
``X ~ Bin(b + c, 1/2)``)."""

from __future__ import annotations

from typing import Any

from scorer.wire.matrix import SCORED, ModelMatrix, WayPair, WayResult, matrix, pair, way_result


def _doc(model: str, statuses: dict[str, str], **extra: Any) -> dict[str, Any]:
    results = [{"id": case, "status": status} for case, status in statuses.items()]
    return {"model": model, "results": results, **extra}


BASE = {"a": "passed", "b": "passed", "c": "passed", "d": "failed", "e": "errored", "f": "passed"}
STREAMED = {
    "a": "failed",
    "b": "failed",
    "c": "failed",
    "d": "passed",
    "e": "passed",
    "g": "passed",
}


def test_a_way_is_its_wire_overall_and_anomalies() -> None:
    doc = _doc(
        "m",
        STREAMED,
        wire={"dialect": "messages", "stream": True, "params": {}},
        transport_anomalies={"cases": 2, "kinds": {"z kind": 1, "a kind": 2}},
    )
    assert way_result("runs/m-stream", doc) == WayResult(
        "messages+stream",
        "runs/m-stream",
        3,
        6,
        2,
        STREAMED,
        (("a kind", 2), ("z kind", 1)),
    )
    assert way_result("x", _doc("m", BASE)) == WayResult("chat", "x", 4, 5, 0, BASE, ())
    nulls = _doc("m", {"a": "skipped"}, transport_anomalies={"cases": 0, "kinds": None})
    assert way_result("y", nulls) == WayResult("chat", "y", 0, 0, 0, {"a": "skipped"}, ())
    assert SCORED == ("passed", "failed")


def test_a_pair_counts_the_cases_scored_in_both() -> None:
    base = way_result("base", _doc("m", BASE))
    other = way_result("other", _doc("m", STREAMED))
    got = pair(base, other)
    # a, b, c lost; d gained; e errored in base, f and g in one way only
    assert got == WayPair(base, other, ("a", "b", "c"), ("d",), 0.625)
    assert pair(other, base) == WayPair(other, base, ("d",), ("a", "b", "c"), 0.625)
    assert pair(base, base).p == 1.0 and pair(base, base).lost == ()


def test_the_matrix_keeps_models_with_two_ways_sorted_by_name() -> None:
    runs = [
        ("z1", _doc("z/model", BASE)),
        ("a1", _doc("a/model", {"a": "passed", "b": "passed", "c": "passed"})),
        ("solo", _doc("b/model", BASE)),
        ("a2", _doc("a/model", {"a": "failed", "b": "failed", "c": "failed"},
                    wire={"dialect": "chat", "stream": True})),
        ("z2", _doc("z/model", BASE, wire={"dialect": "responses", "stream": False})),
        ("a3", _doc("a/model", {"a": "passed", "b": "failed", "c": "passed"})),
    ]  # fmt: skip
    out = matrix(runs)
    assert [m.model for m in out] == ["a/model", "z/model"]
    a_model = out[0]
    assert isinstance(a_model, ModelMatrix)
    assert [w.source for w in a_model.ways] == ["a1", "a2", "a3"]
    assert [w.wire for w in a_model.ways] == ["chat", "chat+stream", "chat"]
    assert [(p.other.source, p.lost, p.gained, p.p) for p in a_model.pairs] == [
        ("a2", ("a", "b", "c"), (), 0.25),
        ("a3", ("b",), (), 1.0),
    ]
    assert all(p.base is a_model.ways[0] for p in a_model.pairs)
    assert [(p.other.wire, p.lost, p.gained, p.p) for p in out[1].pairs] == [
        ("responses", (), (), 1.0)
    ]
    assert matrix([]) == [] and matrix(runs[2:3]) == []


def test_no_model_with_two_ways_is_an_empty_list() -> None:
    assert matrix([]) == []


def test_the_matrix_of_one_model_written_out_whole() -> None:
    first = _doc("m", {"a": "passed", "b": "failed"})
    second = _doc("m", {"a": "failed", "b": "failed"}, wire={"dialect": "chat", "stream": True})
    base = WayResult("chat", "one", 1, 2, 0, {"a": "passed", "b": "failed"}, ())
    other = WayResult("chat+stream", "two", 0, 2, 0, {"a": "failed", "b": "failed"}, ())
    # one case lost, none gained: p = min(1, 2 * P[X <= 0]), X ~ Bin(1, 1/2), = 1.0
    assert matrix([("one", first), ("two", second)]) == [
        ModelMatrix("m", (base, other), (WayPair(base, other, ("a",), (), 1.0),))
    ]
