"""``record --repeats K`` and what rescore makes of it: the layout, resume per repeat, kill -9,
plain vcrpy, the results of repeated runs (counted here independently from ``repeat_statuses``),
byte-identical rescoring."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from lobstack_eval.main import main
from recorder.files import read_suite
from recorder.manifest_read import read_manifest
from recorder.repeats import CaseRun
from replay.plan import runs_to_record
from replay.rescore import rescore, rescore_model
from tests.conftest import MINI_SUITE, interactions
from tests.record_helpers import wait_until

SUITE = read_suite(MINI_SUITE)
ALL = [case.id for case in SUITE.cases]


def record_cli(url: str, cassettes: Path, model: str, repeats: int, *extra: str) -> int:
    args = ["record", "--model", model, "--suite", str(MINI_SUITE), "--cassettes", str(cassettes)]
    return main([*args, "--base-url", url, "--repeats", str(repeats), "--concurrency", "1", *extra])


@pytest.fixture
def recorded(repeat_cassettes: Path) -> Path:
    return repeat_cassettes


# --- recording ------------------------------------------------------------------------------------


def test_layout_one_cassette_per_case_and_repeat(recorded: Path) -> None:
    flaky = recorded / "ref_flaky"
    assert sorted(p.stem for p in flaky.glob("*.json") if p.name != "run.json") == sorted(ALL)
    for n in range(2, 6):
        assert sorted(p.stem for p in (flaky / f"repeat-{n}").glob("*.json")) == sorted(ALL)
    assert not (flaky / "repeat-1").exists() and not (flaky / "repeat-6").exists()
    manifest = json.loads((flaky / "run.json").read_text())
    assert manifest["repeats"] == 5
    assert sorted(manifest["repeat_cases"]) == ["2", "3", "4", "5"]
    assert all(sorted(cases) == sorted(ALL) for cases in manifest["repeat_cases"].values())
    for n, cases in manifest[
        "repeat_cases"
    ].items():  # each repeat's cassette agrees with its manifest entry
        for case_id, entry in cases.items():
            answered = sum(a["status"] is not None for a in entry["attempts"])
            assert len(interactions(flaky / f"repeat-{n}" / f"{case_id}.json")) == answered


def test_a_single_run_dir_keeps_the_k1_manifest(recorded: Path) -> None:
    manifest = json.loads((recorded / "ref_first-tool" / "run.json").read_text())
    assert "repeats" not in manifest and "repeat_cases" not in manifest
    assert not list((recorded / "ref_first-tool").glob("repeat-*"))


def test_every_repeat_cassette_plays_back_under_plain_vcrpy(recorded: Path) -> None:
    import requests
    import vcr

    from recorder.cassettes import json_body

    plain = vcr.VCR(serializer="json", record_mode="none", match_on=("method", "uri", "json_body"))
    plain.register_matcher("json_body", json_body)
    for cassette in sorted((recorded / "ref_flaky").glob("repeat-*/*.json")):
        recorded_interactions = interactions(cassette)
        with plain.use_cassette(str(cassette)):
            for interaction in recorded_interactions:
                request = interaction["request"]
                response = requests.post(
                    request["uri"],
                    data=request["body"].encode(),
                    headers={"Content-Type": "application/json"},
                )
                assert response.content.decode() == interaction["response"]["body"]["string"]


def test_resume_across_k_records_only_the_new_repeats(
    gateway, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:  # type: ignore[no-untyped-def]
    cassettes = tmp_path / "cas"
    assert record_cli(gateway.url, cassettes, "ref/oracle", 3) == 0
    progress = [line for line in capsys.readouterr().err.splitlines() if line.startswith("[")]
    assert progress[0] == f"[1/{3 * len(ALL)}] {ALL[0]} passed"
    assert progress[len(ALL)] == f"[{len(ALL) + 1}/{3 * len(ALL)}] {ALL[0]} (repeat 2) passed"
    assert runs_to_record(cassettes, "ref/oracle", SUITE, repeats=5) == [
        CaseRun(case_id, n) for n in (4, 5) for case_id in ALL
    ]
    before = {
        p: p.read_bytes()
        for p in (cassettes / "ref_oracle").rglob("*.json")
        if p.name != "run.json"
    }
    assert record_cli(gateway.url, cassettes, "ref/oracle", 5) == 0
    err = capsys.readouterr().err
    assert f"Recording {2 * len(ALL)} case-run(s) (5 repeats per case)" in err
    assert f"[{2 * len(ALL)}/{2 * len(ALL)}] {ALL[-1]} (repeat 5) passed" in err
    assert all(p.read_bytes() == data for p, data in before.items())  # repeats 1-3 untouched
    assert read_manifest(cassettes / "ref_oracle").repeat_count == 5
    assert record_cli(gateway.url, cassettes, "ref/oracle", 5) == 0
    assert (
        f"Nothing to record: all {len(ALL)} case(s) of ref/oracle are recorded in "
        f"{cassettes / 'ref_oracle'}, each 5 times; --rerecord records them again."
    ) in capsys.readouterr().err
    # A repeat lost in between (a deleted cassette) is planned again, alone.
    (cassettes / "ref_oracle" / "repeat-4" / f"{ALL[2]}.json").unlink()
    assert runs_to_record(cassettes, "ref/oracle", SUITE, repeats=5) == [CaseRun(ALL[2], 4)]
    assert runs_to_record(cassettes, "ref/oracle", SUITE, [ALL[0]], rerecord=True, repeats=2) == [
        CaseRun(ALL[0], 1),
        CaseRun(ALL[0], 2),
    ]


def test_kill_9_keeps_whole_case_runs_and_resume_completes(  # type: ignore[no-untyped-def]
    start_gateway,
    tmp_path: Path,
) -> None:
    import os
    import signal
    import subprocess
    import sys

    gateway = start_gateway(latency_ms=150)
    cassettes = tmp_path / "killed"
    command = [
        sys.executable,
        "-m",
        "lobstack_eval",
        "record",
        "--model",
        "ref/oracle",
        "--suite",
        str(MINI_SUITE),
        "--cassettes",
        str(cassettes),
        "--base-url",
        gateway.url,
        "--concurrency",
        "2",
        "--repeats",
        "3",
    ]
    process = subprocess.Popen(
        command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True
    )
    manifest_path = cassettes / "ref_oracle" / "run.json"

    def in_repeat_2() -> bool:
        text = manifest_path.read_text() if manifest_path.exists() else ""
        return bool(text) and len(json.loads(text).get("repeat_cases", {}).get("2", {})) >= 2

    try:
        wait_until(in_repeat_2, "two cases of repeat 2 in the manifest")
    finally:
        os.killpg(process.pid, signal.SIGKILL)  # the recorder and its workers, in repeat 2
        process.wait(timeout=30)
    killed = read_manifest(cassettes / "ref_oracle")
    done = [(c, 1) for c in killed.cases] + [
        (c, n) for n, cases in killed.repeat_cases.items() for c in cases
    ]
    assert len(ALL) + 2 <= len(done) < 3 * len(ALL), "the kill should land in repeat 2"
    for case_id, n in done:  # whatever survived is whole and agrees with the manifest
        folder = cassettes / "ref_oracle" / ("" if n == 1 else f"repeat-{n}")
        entry = killed.entry(case_id, n)
        assert entry is not None
        assert len(interactions(folder / f"{case_id}.json")) == sum(
            a.answered for a in entry.attempts
        )
    todo = runs_to_record(cassettes, "ref/oracle", SUITE, repeats=3)
    assert set(todo) == {CaseRun(c, n) for n in (1, 2, 3) for c in ALL} - {
        CaseRun(c, n) for c, n in done
    }
    assert record_cli(gateway.url, cassettes, "ref/oracle", 3) == 0
    results = rescore_model(cassettes / "ref_oracle", SUITE)
    assert [r["repeat_statuses"] for r in results["results"]] == [["passed"] * 3] * len(ALL)
    assert not (cassettes / "ref_oracle" / ".partial").exists()


# --- scoring --------------------------------------------------------------------------------------


def test_oracle_x3_is_never_flaky_and_passes_every_repeat(recorded: Path) -> None:
    results = rescore_model(recorded / "ref_oracle", SUITE)
    metrics = results["metrics"]
    assert results["repeats"] == 3
    assert (metrics["flaky"]["count"], metrics["flaky"]["of"]) == (0, len(ALL))
    assert metrics["pass_all_k"]["rate"] == 100.0 and metrics["pass_any_k"]["rate"] == 100.0
    assert (metrics["overall"]["count"], metrics["overall"]["of"]) == (3 * len(ALL), 3 * len(ALL))
    assert results["case_runs"] == {
        "total": 3 * len(ALL),
        "scored": 3 * len(ALL),
        "errored": 0,
        "unrecorded": 0,
    }
    assert [p["pass_all"] for p in results["pass_k_curve"]] == [100.0, 100.0, 100.0]


def test_flaky_x5_counts_match_the_repeat_statuses(recorded: Path) -> None:
    results = rescore_model(recorded / "ref_flaky", SUITE)
    metrics, cases = results["metrics"], results["results"]
    assert results["repeats"] == 5 and all(len(r["repeat_statuses"]) == 5 for r in cases)
    assert [r["repeat_statuses"] for r in cases] == [
        [run["status"] for run in r["runs"]] for r in cases
    ]
    passed = {r["id"]: r["repeat_statuses"].count("passed") for r in cases}
    scored = {r["id"]: sum(s in ("passed", "failed") for s in r["repeat_statuses"]) for r in cases}
    assert {r["id"]: (r["passed_repeats"], r["scored_repeats"]) for r in cases} == {
        c: (passed[c], scored[c]) for c in passed
    }
    every = [c for c in passed if passed[c] == scored[c]]
    some = [c for c in passed if passed[c] > 0]
    flaky = [c for c in passed if 0 < passed[c] < scored[c]]
    assert (metrics["pass_all_k"]["count"], metrics["pass_all_k"]["of"]) == (len(every), len(cases))
    assert (metrics["pass_any_k"]["count"], metrics["pass_any_k"]["of"]) == (len(some), len(cases))
    assert (metrics["flaky"]["count"], metrics["flaky"]["of"]) == (len(flaky), len(cases))
    assert (metrics["overall"]["count"], metrics["overall"]["of"]) == (
        sum(passed.values()),
        sum(scored.values()),
    )
    assert flaky, "ref/flaky must have flaky cases"
    assert (
        metrics["pass_all_k"]["rate"] < metrics["overall"]["rate"] < metrics["pass_any_k"]["rate"]
    )
    curve = results["pass_k_curve"]
    assert (curve[-1]["pass_all"], curve[-1]["pass_any"]) == (
        metrics["pass_all_k"]["rate"],
        metrics["pass_any_k"]["rate"],
    )
    assert (
        curve[0]["pass_all"] == curve[0]["pass_any"] == metrics["overall"]["rate"]
    )  # equal K per case
    for r in cases:  # the case's own verdict: passed only when every scored repeat passed
        assert r["status"] == ("passed" if passed[r["id"]] == scored[r["id"]] else "failed")
        assert len(r["runs"]) == 5 and [run["repeat"] for run in r["runs"]] == [1, 2, 3, 4, 5]
        assert all(len(run["answers_sha256"]) == len(run["steps"]) for run in r["runs"])


def test_rescore_of_repeats_is_byte_identical_run_to_run(recorded: Path, tmp_path: Path) -> None:
    rescore(recorded, MINI_SUITE, tmp_path / "one", workers=1)
    rescore(recorded, MINI_SUITE, tmp_path / "two", workers=2)

    def tree(root: Path) -> dict[str, bytes]:
        return {
            str(p.relative_to(root)): p.read_bytes() for p in sorted(root.rglob("*")) if p.is_file()
        }

    one = tree(tmp_path / "one")
    assert one == tree(tmp_path / "two")
    assert sorted(one) == [
        "calls.parquet", "cases.parquet", "front.parquet", "index.html", "leaderboard.csv",
        "leaderboard.md", "ref_first-tool/results.json", "ref_flaky/results.json",
        "ref_oracle/results.json",
    ]  # fmt: skip


def test_unrecorded_repeats_are_counted_and_named(  # type: ignore[no-untyped-def]
    recorded: Path,
    tmp_path: Path,
    capsys,
) -> None:
    cassettes = tmp_path / "cas"
    shutil.copytree(recorded, cassettes)
    shutil.rmtree(cassettes / "ref_flaky" / "repeat-5")
    manifest = json.loads((cassettes / "ref_flaky" / "run.json").read_text())
    del manifest["repeat_cases"]["5"]
    (cassettes / "ref_flaky" / "run.json").write_text(json.dumps(manifest))
    results = rescore_model(cassettes / "ref_flaky", SUITE)
    assert results["repeats"] == 5  # K asked for is kept; the missing repeat is unrecorded
    assert results["case_runs"]["unrecorded"] == len(ALL)
    assert all(
        r["repeat_statuses"][4] == "unrecorded" and r["scored_repeats"] == 4
        for r in results["results"]
    )
    assert (
        main(
            [
                "rescore",
                str(cassettes),
                "--suite",
                str(MINI_SUITE),
                "--out",
                str(tmp_path / "out"),
                "-q",
            ]
        )
        == 0
    )
    err = capsys.readouterr().err
    assert (
        f"{len(ALL)} case-run(s) of ref/flaky need recording: lobstack-eval record --model "
        "ref/flaky --repeats 5" in err
    )
