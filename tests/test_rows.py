"""Rows (reports/cases.parquet, calls.parquet): they agree with results.json for every committed
model, every leaderboard figure can be recomputed from them alone, and the edge cases (errored
mid-chain, unrecorded, unpriced, repeats) land in the columns docs/FORMATS.md describes."""

from __future__ import annotations

import csv
import json
import shutil
import statistics
from collections import Counter
from decimal import Decimal
from pathlib import Path

import polars as pl
import pytest

from lobstack_eval.main import main
from recorder.files import read_suite
from recorder.record import record
from recorder.settings import RecordSettings
from replay.rows.build import document_rows, frames
from scorer.stats.wilson import wilson
from scorer.summarize import summarize
from tests.clusterkit import reference_interval
from tests.conftest import MINI_SUITE, ROOT

REPORTS = ROOT / "reports"
SUITE = read_suite(ROOT / "evals" / "suite.json")
SCORED = ["passed", "failed"]
DOCUMENTS = {
    p.parent.name: json.loads(p.read_text()) for p in sorted(REPORTS.glob("*/results.json"))
}


def _text(arguments: object) -> object:
    """FORMATS.md: the arguments as sent; an object as JSON text with sorted keys."""
    if arguments is None or isinstance(arguments, str):
        return arguments
    return json.dumps(arguments, sort_keys=True, ensure_ascii=False)


def test_every_committed_model_has_its_rows_and_they_match_its_results_json() -> None:
    cases = pl.read_parquet(REPORTS / "cases.parquet")
    calls = pl.read_parquet(REPORTS / "calls.parquet")
    assert sorted(set(cases["model_slug"])) == sorted(DOCUMENTS)
    for slug, document in DOCUMENTS.items():
        mine = cases.filter(pl.col("model_slug") == slug).sort("case_index")
        entries = document["results"]
        assert mine["case_id"].to_list() == [e["id"] for e in entries]
        assert mine["status"].to_list() == [e["status"] for e in entries]
        assert mine["reason"].to_list() == [e["reason"] for e in entries]
        assert mine["group"].to_list() == [e["group"] for e in entries]
        assert mine["steps_reached"].to_list() == [len(e["steps"]) for e in entries]
        assert set(mine["repeat"]) == {1} and set(mine["model"]) == {document["model"]}
        assert set(mine["suite_sha256"]) == {document["suite"]["sha256"]}
        sent = [
            (
                e["id"],
                s["index"] + 1,
                c["name"],
                c["offered"],
                c["schema_valid"],
                _text(c["arguments"]),
            )
            for e in entries
            for s in e["steps"]
            for c in s["response"]["tool_calls"]
        ]
        rows = calls.filter(pl.col("model_slug") == slug)
        got = rows.select("case_id", "step", "name", "offered", "schema_valid", "arguments").rows()
        assert got == sent


def _first_call_names() -> dict[str, tuple[int, list[str]]]:
    """Per case of the suite file: its first call step (1-based) and the names it
    expects, sorted."""
    raw = json.loads((ROOT / "evals" / "suite.json").read_text())
    found = {}
    for case in raw["cases"]:
        for number, step in enumerate(case["steps"], 1):
            if step["expect"] == "call":
                found[case["id"]] = (number, sorted(c["name"] for c in step["calls"]))
                break
    return found


def _figures(cases: pl.DataFrame, calls: pl.DataFrame) -> dict[str, tuple[int, int]]:
    """Every (count, of) of the leaderboard recomputed with plain polars from the two files, from
    the method's definitions (not from the metric columns, except where only the rows can
    say it)."""
    raw = {c["id"]: c for c in json.loads((ROOT / "evals" / "suite.json").read_text())["cases"]}
    scored = cases.filter(pl.col("status").is_in(SCORED))
    ids = scored["case_id"].to_list()
    first_fail = dict(zip(ids, scored["first_failing_step"].to_list(), strict=True))
    status = dict(zip(ids, scored["status"].to_list(), strict=True))

    def step_passed(case_id: str, number: int) -> bool:
        return status[case_id] == "passed" or number < first_fail[case_id]

    firsts = _first_call_names()
    with_call = [c for c in ids if c in firsts]
    right = 0
    for case_id in with_call:
        number, want = firsts[case_id]
        got = calls.filter((pl.col("case_id") == case_id) & (pl.col("step") == number))[
            "name"
        ].to_list()
        right += sorted(got) == want
    chains = [c for c in ids if len(raw[c]["steps"]) >= 2]
    parallel = [c for c in ids if any(len(s.get("calls", [])) >= 2 for s in raw[c]["steps"])]
    abstain = [c for c in ids if raw[c]["steps"][0]["expect"] == "none"]
    scored_calls = calls.filter(pl.col("status").is_in(SCORED))
    offered = scored_calls.filter(pl.col("offered"))
    passed = sum(s == "passed" for s in status.values())
    parallel_passed = sum(
        all(
            step_passed(c, n)
            for n, s in enumerate(raw[c]["steps"], 1)
            if len(s.get("calls", [])) >= 2
        )
        for c in parallel
    )
    return {
        "overall": (passed, len(ids)),
        "right_tool": (right, len(with_call)),
        "valid_arguments": (int(offered["schema_valid"].sum()), offered.height),
        "made_up_tool": (int((~scored_calls["offered"]).sum()), scored_calls.height),
        "chains": (sum(status[c] == "passed" for c in chains), len(chains)),
        "parallel": (parallel_passed, len(parallel)),
        "no_call_needed": (sum(step_passed(c, 1) for c in abstain), len(abstain)),
        "scored": (passed, len(ids)),
    }


def _call_clusters(calls: pl.DataFrame, name: str) -> list[tuple[int, int]]:
    """Per scored case with a call: (successes, calls) of a per-call metric, from the calls
    table alone."""
    scored = calls.filter(pl.col("status").is_in(SCORED))
    if name == "valid_arguments":
        scored = scored.filter(pl.col("offered"))
        success = pl.col("schema_valid").sum()
    else:
        success = (~pl.col("offered")).sum()
    per_case = (
        scored.group_by("case_index")
        .agg(success.alias("y"), pl.len().alias("m"))
        .sort("case_index")
    )
    return [(int(y), int(m)) for y, m in per_case.select("y", "m").iter_rows()]


def _num(text: str) -> float | None:
    return None if text == "" else float(text)


def test_every_leaderboard_figure_recomputed_from_the_parquet_files_alone() -> None:
    cases_all = pl.read_parquet(REPORTS / "cases.parquet")
    calls_all = pl.read_parquet(REPORTS / "calls.parquet")
    committed = list(csv.DictReader((REPORTS / "leaderboard.csv").open(encoding="utf-8")))
    assert len(committed) == len(DOCUMENTS)
    for row in committed:
        cases = cases_all.filter(pl.col("model") == row["model"])
        calls = calls_all.filter(pl.col("model") == row["model"])
        figures = _figures(cases, calls)
        for name in (
            "overall",
            "right_tool",
            "valid_arguments",
            "made_up_tool",
            "chains",
            "parallel",
        ):
            count, of = figures[name]
            assert (int(row[f"{name}_count"]), int(row[f"{name}_of"])) == (count, of), (
                row["model"],
                name,
            )
            assert _num(row[name]) == (100 * count / of if of else None)
            interval = wilson(count, of) or [None, None]
            if name in (
                "valid_arguments",
                "made_up_tool",
            ):  # clustered by case (METHOD.md#clustered-interval-rule)
                interval = pytest.approx(
                    reference_interval(_call_clusters(calls, name)) or [None, None], abs=1e-9
                )
            assert [_num(row[f"{name}_ci_lo"]), _num(row[f"{name}_ci_hi"])] == interval
        walls = cases["attempt_wall_ms"].explode().drop_nulls()
        assert _num(row["latency_p50_ms"]) == walls.median()
        total = sum(Decimal(t) for t in cases["cost_usd_text"].to_list())
        assert _num(row["cost_per_100_cases_usd"]) == float(total * 100 / figures["scored"][1])
        assert int(row["scored"]) == figures["scored"][1]
        assert int(row["errored"]) == (cases["status"] == "errored").sum()
        assert int(row["unrecorded"]) == (cases["status"] == "unrecorded").sum()
        assert row["temperature_ignored"] == str(bool(cases["temperature_ignored"].any())).lower()


def test_leaderboard_command_on_the_committed_reports_reproduces_their_leaderboard(
    tmp_path: Path,
) -> None:
    assert main(["leaderboard", str(REPORTS), "--out", str(tmp_path), "-q"]) == 0
    for name in ("leaderboard.md", "leaderboard.csv"):
        assert (tmp_path / name).read_bytes() == (REPORTS / name).read_bytes(), name


def test_summary_query_gives_every_summary_field_of_every_committed_results_json() -> None:
    tables = frames(SUITE, list(DOCUMENTS.values()))
    found = summarize(tables["cases"].lazy(), engine="streaming")
    for slug, document in DOCUMENTS.items():
        for key, value in found[slug].document().items():
            assert document[key] == value, (slug, key)


def test_repeat_statuses_give_one_row_per_repeat() -> None:
    document = json.loads(json.dumps(DOCUMENTS["ref_noisy"]))
    entry = document["results"][0]
    entry["repeat_statuses"] = [entry["status"], "passed", "errored"]
    cases, calls = document_rows(SUITE, document)
    mine = [r for r in cases if r["case_id"] == entry["id"]]
    assert [(r["repeat"], r["status"], r["overall"]) for r in mine] == [
        (1, entry["status"], entry["status"] == "passed"),
        (2, "passed", True),
        (3, "errored", None),
    ]
    assert mine[0]["steps_reached"] == len(entry["steps"]) and "steps_reached" not in mine[1]
    assert all(r["repeat"] == 1 for r in cases if r["case_id"] != entry["id"])
    assert {r["repeat"] for r in calls} == {1}
    table = frames(SUITE, [document])["cases"]
    overall = summarize(table)["ref_noisy"].metrics["overall"]
    base = DOCUMENTS["ref_noisy"]["metrics"]["overall"]
    assert (overall.count, overall.of) == (base["count"] + 1, base["of"] + 1)


@pytest.fixture(scope="module")
def mini_cassettes(tmp_path_factory: pytest.TempPathFactory) -> Path:
    from standin import GatewayConfig, StandInGateway

    cassettes = tmp_path_factory.mktemp("mini") / "cassettes"
    ids = [case.id for case in read_suite(MINI_SUITE).cases]
    with StandInGateway(GatewayConfig(suite_path=MINI_SUITE)) as gateway:
        for model in ("ref/oracle", "ref/noisy"):
            record(
                MINI_SUITE,
                model,
                cassettes,
                gateway.url,
                ids,
                RecordSettings(concurrency=1),
                sleep=lambda _s: None,
            )
    return cassettes


def test_errored_mid_chain_unrecorded_and_unpriced_cases(
    mini_cassettes: Path, tmp_path: Path
) -> None:
    cassettes = tmp_path / "cassettes"
    shutil.copytree(mini_cassettes, cassettes)
    oracle = cassettes / "ref_oracle"
    # The chain's second answer becomes a 500: errored at step 2, after one judged step with
    # one call.
    chain = json.loads((oracle / "chains-01.json").read_text())
    chain["interactions"][1]["response"]["status"] = {
        "code": 500,
        "message": "Internal Server Error",
    }
    (oracle / "chains-01.json").write_text(json.dumps(chain))
    manifest = json.loads((oracle / "run.json").read_text())
    manifest["cases"]["chains-01"]["attempts"][1].update(outcome="http_500", status=500)
    del manifest["cases"]["no_call-02"]  # never recorded
    (oracle / "run.json").write_text(json.dumps(manifest))
    # One answer of ref/noisy without a price: its whole run is unpriced.
    noisy = cassettes / "ref_noisy" / "selection-01.json"
    data = json.loads(noisy.read_text())
    del data["interactions"][0]["response"]["headers"]["x-lobstack-cost-usd"]
    noisy.write_text(json.dumps(data))
    # One price of ref/oracle written as a float (as LiteLLM does), finer than decimal(38, 18)
    # holds.
    priced = oracle / "selection-01.json"
    data = json.loads(priced.read_text())
    data["interactions"][0]["response"]["headers"]["x-lobstack-cost-usd"] = [
        "3.1415926535897933e-05"
    ]
    priced.write_text(json.dumps(data))

    out = tmp_path / "out"  # rescore itself refuses rows that disagree with a results.json
    assert (
        main(
            [
                "rescore",
                str(cassettes),
                "--suite",
                str(MINI_SUITE),
                "--out",
                str(out),
                "-q",
                "--no-html",
            ]
        )
        == 0
    )
    cases = pl.read_parquet(out / "cases.parquet")
    by = {(r["model_slug"], r["case_id"]): r for r in cases.iter_rows(named=True)}
    chain_row = by["ref_oracle", "chains-01"]
    assert chain_row["status"] == "errored" and chain_row["first_failing_step"] == 2
    assert (chain_row["steps_reached"], chain_row["calls"], chain_row["overall"]) == (1, 1, None)
    assert (chain_row["valid_arguments_of"], chain_row["made_up_tool_of"], chain_row["chains"]) == (
        0,
        0,
        None,
    )
    missing = by["ref_oracle", "no_call-02"]
    assert (
        missing["status"] == "unrecorded"
        and missing["attempts"] == 0
        and missing["no_call_needed"] is None
    )
    assert by["ref_noisy", "selection-01"]["cost_usd_text"] is None
    fine = by["ref_oracle", "selection-01"]
    assert (fine["cost_usd_text"], fine["cost_usd"]) == ("0.000031415926535897933", None)
    results = json.loads((out / "ref_oracle" / "results.json").read_text())
    assert Decimal(str(results["cost_usd"])) == Decimal(
        str(
            float(
                sum(
                    Decimal(t)
                    for t in cases.filter(pl.col("model_slug") == "ref_oracle")["cost_usd_text"]
                )
            )
        )
    )
    board = {r["model"]: r for r in csv.DictReader((out / "leaderboard.csv").open())}
    assert board["ref/noisy"]["cost_per_100_cases_usd"] == ""
    assert (board["ref/oracle"]["errored"], board["ref/oracle"]["unrecorded"]) == ("1", "1")
    calls = pl.read_parquet(out / "calls.parquet").filter(pl.col("case_id") == "chains-01")
    assert calls.filter(pl.col("model_slug") == "ref_oracle")["status"].to_list() == ["errored"]


def _documented_columns(table: str) -> list[str]:
    """The column names in the first cells of FORMATS.md's table for ``table``."""
    text = (ROOT / "docs" / "FORMATS.md").read_text(encoding="utf-8")
    section = text.split(f"`{table}.parquet`: one row per", 1)[1].split("\n\n", 2)[1]
    names = []
    for line in section.splitlines()[2:]:
        first = line.split("|")[1]
        names += [] if "..." in first else [n for n in first.split("`")[1::2]]
    return names


def test_formats_md_lists_every_column() -> None:
    from replay.rows.schema import schema

    assert sorted(_documented_columns("cases")) == sorted(schema("cases"))
    key = list(schema("cases"))[:10]
    assert sorted(key + _documented_columns("calls")) == sorted(schema("calls"))


def _repeated_document() -> dict:
    """A K = 3 document in the repeats format (issue 17): per case ``runs``, one case document per
    repeat; here ref/noisy's answers, ref/oracle's, then ref/noisy's again. Its counts are the
    three runs' pooled counts."""
    noisy, oracle = DOCUMENTS["ref_noisy"], DOCUMENTS["ref_oracle"]
    document = json.loads(json.dumps(noisy))
    document["repeats"] = 3
    for entry, other in zip(document["results"], oracle["results"], strict=True):
        entry["runs"] = [
            json.loads(json.dumps(e)) | {"repeat": n}
            for n, e in enumerate((entry, other, entry), 1)
        ]
        entry["repeat_statuses"] = [run["status"] for run in entry["runs"]]
    for part in ("metrics", "groups"):
        for name, figure in document[part].items():
            figure["count"] = 2 * figure["count"] + oracle[part][name]["count"]
            figure["of"] = 2 * figure["of"] + oracle[part][name]["of"]
    walls = [a["wall_ms"] for e in document["results"] for r in e["runs"] for a in r["attempts"]]
    document["latency_p50_ms"] = statistics.median(walls)
    prices = [
        Decimal(a["cost_usd"])
        for e in document["results"]
        for r in e["runs"]
        for a in r["attempts"]
    ]
    document["cost_usd"] = float(sum(prices))
    routed = [
        s["response"]["model"] for e in document["results"] for r in e["runs"] for s in r["steps"]
    ]
    document["routed_models"] = dict(sorted(Counter(routed).items()))
    return document


def test_repeated_runs_give_full_rows_per_repeat_and_their_counts_are_pooled() -> None:
    document = _repeated_document()
    cases, calls = document_rows(SUITE, document)
    assert len(cases) == 3 * len(document["results"])
    oracle = {e["id"]: e for e in DOCUMENTS["ref_oracle"]["results"]}
    second = [r for r in cases if r["repeat"] == 2]
    assert [r["status"] for r in second] == [oracle[r["case_id"]]["status"] for r in second]
    assert all(r["steps_reached"] is not None for r in cases)
    assert (
        len([c for c in calls if c["repeat"] == 2])
        == DOCUMENTS["ref_oracle"]["metrics"]["made_up_tool"]["of"]
    )
    summary = summarize(frames(SUITE, [document])["cases"])["ref_noisy"]
    assert summary.repeats == 3 and summary.case_runs.total == 3 * len(document["results"])
    assert (
        [summary.metrics[m].count for m in ("overall", "chains")]
        == [document["metrics"][m]["count"] for m in ("overall", "chains")]
        # the pooled counts; its intervals are clustered by case, which the hand-made document does
        # not say
    )


def test_rows_reproduce_every_figure_of_a_repeated_results_file(
    repeat_cassettes: Path, tmp_path: Path
) -> None:
    """A K = 5 results.json as rescore writes it (clustered intervals, case and case-run counts,
    pass^k, pass@k, flaky, the curve): the rows of its entries, through parquet, give back every
    summary field."""
    from replay.rescore import rescore_model
    from replay.rows.store import read_table, write_table

    mini = read_suite(MINI_SUITE)
    document = rescore_model(repeat_cassettes / "ref_flaky", mini)
    assert document["repeats"] == 5 and document["metrics"]["flaky"]["count"] > 0
    path = write_table(tmp_path / "cases.parquet", frames(mini, [document])["cases"], "cases")
    summary = summarize(read_table(path, "cases"))["ref_flaky"].document()
    carried = ("format_version", "suite", "recorded_suite", "results")
    assert summary == {k: v for k, v in document.items() if k not in carried}
