"""A cassette that cannot be used stops its own case-run only: with repeats, that repeat of that
case is unrecorded and the case is judged over its other repeats; `record` records exactly that
case-run again; and a broken cassette never makes the gate green (a case that scored in A and is
unrecorded in B is a lost score)."""

from __future__ import annotations

import json
import shutil
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from lobstack_eval.main import main
from tests.conftest import MINI_SUITE, ROOT
from tests.record_helpers import requests_per_case

SUITE = ROOT / "evals" / "suite.json"


def _errors(err: str) -> list[str]:
    assert "Traceback" not in err
    return [line for line in err.splitlines() if line.startswith("error:")]


def _rescore(cassettes: Path, suite: Path, out: Path) -> int:
    return main(
        ["rescore", str(cassettes), "--suite", str(suite), "--out", str(out), "-q", "--no-html"]
    )


def _results(out: Path, slug: str) -> dict:
    return json.loads((out / slug / "results.json").read_text(encoding="utf-8"))


def test_a_broken_repeat_is_unrecorded_and_its_case_judged_over_the_others(  # type: ignore[no-untyped-def]
    repeat_cassettes: Path, tmp_path: Path, capsys
) -> None:
    cassettes = tmp_path / "cassettes"
    shutil.copytree(repeat_cassettes / "ref_flaky", cassettes / "ref_flaky")
    clean = tmp_path / "clean"
    assert _rescore(cassettes, MINI_SUITE, clean) == 0
    before = {r["id"]: r for r in _results(clean, "ref_flaky")["results"]}
    case_id = next(iter(before))
    broken = cassettes / "ref_flaky" / "repeat-2" / f"{case_id}.json"
    broken.write_text(broken.read_text(encoding="utf-8")[:300], encoding="utf-8")
    capsys.readouterr()

    out = tmp_path / "out"
    assert _rescore(cassettes, MINI_SUITE, out) == 1
    [line] = _errors(capsys.readouterr().err)
    assert line.startswith(f"error: {broken}: corrupt cassette: not valid JSON (")
    results = _results(out, "ref_flaky")
    after = {r["id"]: r for r in results["results"]}
    assert {k: v for k, v in after.items() if k != case_id} == {
        k: v for k, v in before.items() if k != case_id
    }
    case, old = after[case_id], before[case_id]
    assert case["runs"][1]["status"] == "unrecorded"
    assert case["runs"][1]["reason"] == line.removeprefix(
        f"error: {cassettes}/"
    )  # ref_flaky/repeat-2/...
    assert case["runs"][1]["reason"].startswith(
        f"ref_flaky/repeat-2/{case_id}.json: corrupt cassette: "
    )
    assert (
        case["runs"][:1] + case["runs"][2:] == old["runs"][:1] + old["runs"][2:]
    )  # the other repeats as before
    assert case["repeat_statuses"] == [
        *old["repeat_statuses"][:1],
        "unrecorded",
        *old["repeat_statuses"][2:],
    ]
    assert case["scored_repeats"] == 4
    assert (
        results["case_runs"]["unrecorded"] == 1
        and results["case_runs"]["scored"] == 5 * len(after) - 1
    )


def test_record_records_only_the_broken_case_run_again(
    start_gateway, repeat_cassettes: Path, tmp_path: Path, capsys
) -> None:  # type: ignore[no-untyped-def]
    cassettes = tmp_path / "cassettes"
    shutil.copytree(repeat_cassettes / "ref_oracle", cassettes / "ref_oracle")
    case_id = json.loads(MINI_SUITE.read_text(encoding="utf-8"))["cases"][1]["id"]
    broken = cassettes / "ref_oracle" / "repeat-3" / f"{case_id}.json"
    broken.write_text("{", encoding="utf-8")
    gateway = start_gateway()
    args = [
        "--suite",
        str(MINI_SUITE),
        "--cassettes",
        str(cassettes),
        "--base-url",
        gateway.url,
        "--repeats",
        "3",
    ]
    assert main(["record", "--model", "ref/oracle", *args]) == 0
    assert "Recording 1 case-run(s)" in capsys.readouterr().err
    assert requests_per_case(gateway.requests_seen, _suite()) == {case_id: 1}
    out = tmp_path / "out"
    assert _rescore(cassettes, MINI_SUITE, out) == 0
    assert _results(out, "ref_oracle")["case_runs"]["unrecorded"] == 0


def _suite():  # type: ignore[no-untyped-def]
    from recorder.files import read_suite

    return read_suite(MINI_SUITE)


@pytest.fixture
def two_models(tmp_path: Path) -> tuple[Path, Path]:
    """Copies of two committed model dirs and their committed reports (A: the baseline)."""
    cassettes, baseline = tmp_path / "cassettes", tmp_path / "baseline"
    for slug in ("ref_oracle", "ref_noisy"):
        shutil.copytree(ROOT / "cassettes" / slug, cassettes / slug)
        shutil.copytree(ROOT / "reports" / slug, baseline / slug)
    return cassettes, baseline


@pytest.mark.parametrize(("slug", "status_a"), [("ref_oracle", "passed"), ("ref_noisy", "failed")])
def test_a_broken_cassette_never_makes_the_gate_green(  # type: ignore[no-untyped-def]
    two_models: tuple[Path, Path], tmp_path: Path, capsys, slug: str, status_a: str
) -> None:
    """Whether the case passed or failed in A, its broken cassette in B is a lost score: the gate
    fails, the JUnit file has that case as an error naming the file, and the pull-request comment
    says so."""
    cassettes, baseline = two_models
    case_id = "arguments-01"
    assert (
        next(r for r in _results(baseline, slug)["results"] if r["id"] == case_id)["status"]
        == status_a
    )
    broken = cassettes / slug / f"{case_id}.json"
    broken.write_bytes(broken.read_bytes()[:300])
    candidate = tmp_path / "candidate"
    assert _rescore(cassettes, SUITE, candidate) == 1
    [line] = _errors(capsys.readouterr().err)
    reason = line.removeprefix(f"error: {cassettes}/")
    assert reason.startswith(f"{slug}/{case_id}.json: corrupt cassette: not valid JSON (")

    junit, comment = tmp_path / "junit.xml", tmp_path / "comment.md"
    gate = ["diff", "runs", str(baseline), str(candidate), "--fail-on-regression"]
    assert main([*gate, "--junit", str(junit), "--markdown", str(comment)]) == 1
    last = capsys.readouterr().out.splitlines()[0]
    assert last.startswith(
        f"regression: 1 case scored in A errored or vanished in B ({_model(slug)}: {case_id})"
    )
    root = ET.parse(junit).getroot()
    assert (root.get("failures"), root.get("errors")) == ("0", "1")
    [error] = [c.find("error") for c in root.iter("testcase") if c.find("error") is not None]
    assert error.get("type") == "lost"
    assert error.get("message") == f"{status_a} in A, unrecorded in B: {reason}"
    markdown = comment.read_text(encoding="utf-8")
    assert "**Decided by:** errored or vanished" in markdown
    assert f"| {case_id} | {status_a} in A, unrecorded in B: " in markdown  # under **Regressions**


def _model(slug: str) -> str:
    return slug.replace("_", "/")


def test_only_the_shard_that_owns_the_case_reports_it(
    two_models: tuple[Path, Path], tmp_path: Path, capsys
) -> None:  # type: ignore[no-untyped-def]
    """Sharded rescore: the one shard holding the broken case exits 1 with its line; merged, the
    reports are the unsharded rescore's."""
    cassettes, _baseline = two_models
    broken = cassettes / "ref_noisy" / "arguments-01.json"
    broken.write_bytes(broken.read_bytes()[:300])
    whole = tmp_path / "whole"
    assert _rescore(cassettes, SUITE, whole) == 1
    [line] = _errors(capsys.readouterr().err)
    codes, lines = [], []
    for index in (1, 2, 3):
        out = tmp_path / f"shard{index}"
        codes.append(
            main(
                [
                    "rescore",
                    str(cassettes),
                    "--suite",
                    str(SUITE),
                    "--out",
                    str(out),
                    "--shard",
                    f"{index}/3",
                ]
            )
        )
        lines += _errors(capsys.readouterr().err)
    assert sorted(codes) == [0, 0, 1] and lines == [line]
    merged = tmp_path / "merged"
    assert (
        main(
            [
                "merge",
                *(str(tmp_path / f"shard{i}") for i in (1, 2, 3)),
                "--out",
                str(merged),
                "--no-html",  # what is compared is results.json, as `whole` (--no-html) wrote it
            ]
        )
        == 0
    )
    for slug in ("ref_oracle", "ref_noisy"):
        assert _results(merged, slug) == _results(whole, slug)


def test_diff_suites_says_it_once_and_compares_the_rest(
    two_models: tuple[Path, Path], capsys
) -> None:  # type: ignore[no-untyped-def]
    cassettes, _baseline = two_models
    broken = cassettes / "ref_noisy" / "arguments-01.json"
    broken.write_bytes(broken.read_bytes()[:300])
    old = ROOT / "evals" / "suite-1.0.0.json"
    assert main(["diff", "suites", str(old), str(SUITE), "--cassettes", str(cassettes)]) == 1
    captured = capsys.readouterr()
    [line] = _errors(captured.err)
    assert line.startswith(f"error: {broken}: corrupt cassette: not valid JSON (")
    lines = captured.out.splitlines()
    noisy = lines[lines.index("model ref/noisy") :]
    version = json.loads(SUITE.read_text(encoding="utf-8"))["version"]
    assert f"  needs recording under {version} (1): arguments-01" in noisy
    # 18 of the 80 cases scored under 1.0.0 (62 changed their request since), less the broken one.
    assert (
        f"  cases scored: 17 under 1.0.0, 79 under {version}; over the 17 scored under both:"
        in noisy
    )


def test_a_deleted_cassette_run_json_lists_is_said_not_taken_for_never_recorded(  # type: ignore[no-untyped-def]
    tmp_path: Path, capsys
) -> None:
    # record writes a cassette for every case-run it lists, even one with no answer (an empty one):
    # a listed case without its file lost its recording. Unrecorded like any unusable cassette,
    # said, exit 1; not "not recorded yet".
    cassettes = tmp_path / "cassettes"
    shutil.copytree(ROOT / "cassettes" / "ref_oracle", cassettes / "ref_oracle")
    gone = cassettes / "ref_oracle" / "chains-01.json"
    gone.unlink()
    out = tmp_path / "out"
    assert main(["rescore", str(cassettes), "--out", str(out), "-q", "--no-html"]) == 1
    assert _errors(capsys.readouterr().err) == [
        f"error: {gone}: missing, though run.json lists it as recorded"
    ]
    results = {r["id"]: r for r in _results(out, "ref_oracle")["results"]}
    assert results["chains-01"]["status"] == "unrecorded"
    assert (
        results["chains-01"]["reason"]
        == "ref_oracle/chains-01.json: missing, though run.json lists it as recorded"
    )
    committed = {r["id"]: r for r in _results(ROOT / "reports", "ref_oracle")["results"]}
    assert {k: v for k, v in results.items() if k != "chains-01"} == {
        k: v for k, v in committed.items() if k != "chains-01"
    }
