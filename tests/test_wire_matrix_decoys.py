"""A results document is a JSON file: ``model``, ``results`` and each result's ``id`` and
``status`` are read under their own names only, never under a look-alike key (``XXmodelXX``,
``RESULTS``) the document may also hold. Documents and expected values by hand."""

from __future__ import annotations

from typing import Any

from scorer.wire.matrix import WayResult, matrix, way_result


def _doc(decoy: str) -> dict[str, Any]:
    result = {
        "id": "c1",
        "status": "passed",
        "XXidXX": "c9",
        "ID": "c8",
        "XXstatusXX": "failed",
        "STATUS": "failed",
    }
    return {
        "model": "m",
        "XXmodelXX": decoy,
        "MODEL": decoy,
        "results": [result],
        "XXresultsXX": [],
        "RESULTS": [],
    }


def test_a_way_reads_results_ids_and_statuses_under_their_own_names() -> None:
    assert way_result("a", _doc("x")) == WayResult("chat", "a", 1, 1, 0, {"c1": "passed"})


def test_the_matrix_groups_by_the_model_field() -> None:
    found = matrix([("a", _doc("x")), ("b", _doc("y"))])
    assert [(m.model, [way.source for way in m.ways]) for m in found] == [("m", ["a", "b"])]
