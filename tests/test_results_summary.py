"""results.json's summary fields read once into a typed ModelSummary, strictly."""

from __future__ import annotations

import copy
import json
from pathlib import Path

import pytest

from replay.results.read import results_of
from scorer.errors import ResultsError
from scorer.summary import CaseTally

REPORTS = Path(__file__).resolve().parent.parent / "reports"
FILES = sorted(REPORTS.glob("*/results.json"))


def _load(path: Path) -> dict:
    return json.loads(path.read_text(encoding="utf-8"))


@pytest.mark.parametrize("path", FILES, ids=[p.parent.name for p in FILES])
def test_committed_results_read_back_to_their_own_fields(path: Path) -> None:
    """The typed summary of each committed results.json writes back exactly its summary fields."""
    document = _load(path)
    summary = results_of(document).summary
    written = summary.document()
    assert set(written) <= set(document)  # a field misnamed fails here, not as a KeyError below
    assert written == {key: document[key] for key in written}
    assert len(summary.tallies) == len(document["results"])


def test_tallies_of_repeats_and_single_samples() -> None:
    document = _load(FILES[0])
    document["results"] = [
        {"id": "a", "status": "passed"},
        {"id": "b", "status": "failed"},
        {"id": "c", "status": "errored"},
        {"id": "d", "status": "failed", "passed_repeats": 2, "scored_repeats": 3},
    ]
    assert results_of(document).summary.tallies == (
        CaseTally("a", 1, 1),
        CaseTally("b", 0, 1),
        CaseTally("c", 0, 0),
        CaseTally("d", 2, 3),
    )


@pytest.mark.parametrize(
    ("path", "value", "fragment"),
    [
        (("metrics", "overall", "count"), "3", "metrics.overall.count"),
        (("metrics", "overall", "rate"), "50", "metrics.overall.rate"),
        (("metrics", "overall", "ci"), [1], "metrics.overall.ci"),
        (("cases", "errored"), None, "cases.errored"),
        (("latency_p50_ms",), "fast", "latency_p50_ms"),
        (("temperature_ignored",), "no", "temperature_ignored"),
        (("format_version",), "99", "format"),
    ],
)
def test_a_field_of_the_wrong_type_is_named(path: tuple, value: object, fragment: str) -> None:
    document = copy.deepcopy(_load(FILES[0]))
    target = document
    for key in path[:-1]:
        target = target[key]
    target[path[-1]] = value
    with pytest.raises(ResultsError, match=fragment.replace(".", r"\.")):
        _ = results_of(document).summary


def test_case_results_keep_order_status_group_and_repeats() -> None:
    from replay.results.cases import CaseResult

    document = _load(FILES[0])
    document["results"] = [
        {"id": "b", "status": "failed", "group": "chains"},
        {"id": "a", "status": "passed", "runs": [{"status": "passed"}, {"status": "failed"}]},
    ]
    assert results_of(document).cases == (
        CaseResult("b", "chains", "failed"),
        CaseResult("a", "", "passed", ("passed", "failed")),
    )
    document["results"][1]["runs"] = [{"status": "maybe"}]
    with pytest.raises(ResultsError, match="runs"):
        _ = results_of(document).cases


def test_a_read_file_names_itself_and_the_field_when_its_summary_is_read(tmp_path: Path) -> None:
    """The typed value of a file: its header fields typed at once; a summary field of the wrong
    type is an error naming the file and the field when the summary is read (diff runs and drift
    compare cases and never ask for it)."""
    from replay.results.read import read_results
    from replay.results.typed import SuiteRef

    document = _load(FILES[0])
    document["latency_p50_ms"] = "fast"
    path = tmp_path / "results.json"
    path.write_text(json.dumps(document), encoding="utf-8")
    results = read_results(path)
    assert (results.model, results.model_slug) == (document["model"], document["model_slug"])
    suite = document["suite"]
    assert results.suite == SuiteRef(suite["name"], suite["version"], suite["sha256"])
    assert [c.case_id for c in results.cases] == [e["id"] for e in document["results"]]
    with pytest.raises(ResultsError, match=rf"^{path}: field 'latency_p50_ms' must be a number"):
        _ = results.summary


def test_an_old_files_suite_without_name_or_sha256_reads_leniently() -> None:
    from replay.results.typed import SuiteRef

    assert SuiteRef.of({"version": "1.0.0"}) == SuiteRef("?", "1.0.0", None)
    assert SuiteRef.of({"name": 3, "version": "1.0.0", "sha256": None}).name == "?"
