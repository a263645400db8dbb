"""Hostile recordings and files on the replay side (issue 28): what a model, a gateway or an edited file holds never
crashes, stalls or escapes a rescore; the other models are still scored and written."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from lobstack_eval.main import main
from tests.conftest import MINI_SUITE


def _rescore(cassettes: Path, out: Path, *more: str) -> int:
    return main(["rescore", str(cassettes), "--suite", str(MINI_SUITE), "--out", str(out), "-q", *more])


def _errors(err: str) -> list[str]:
    assert "Traceback" not in err
    return [line for line in err.splitlines() if line.startswith("error:")]


@pytest.mark.parametrize("repeats", [101, 10000, 10**30])
def test_repeats_beyond_what_record_writes_is_one_error_and_the_others_are_scored(  # type: ignore[no-untyped-def]
    repeats: int, repeat_cassettes: Path, tmp_path: Path, capsys
) -> None:
    cassettes = tmp_path / "cassettes"
    for slug in ("ref_oracle", "ref_first-tool"):
        shutil.copytree(repeat_cassettes / slug, cassettes / slug)
    manifest = cassettes / "ref_first-tool" / "run.json"
    data = json.loads(manifest.read_text(encoding="utf-8"))
    data["repeats"] = repeats
    manifest.write_text(json.dumps(data), encoding="utf-8")
    out = tmp_path / "out"
    assert _rescore(cassettes, out, "--no-html") == 1
    [line] = _errors(capsys.readouterr().err)
    shown = repr(repeats) if len(repr(repeats)) <= 40 else f"{repr(repeats)[:37]}..."
    assert line == f"error: {manifest}: repeats: expected a whole number from 1 to 100, got {shown}"
    assert (out / "ref_oracle" / "results.json").is_file()
    assert not (out / "ref_first-tool").exists()


LONG = "ref/oracle~#arn:aws:bedrock:us-east-1:123456789012:application-inference-profile/" + "x" * 44
WIDE = "ref/oracle~#" + "東" * 70
HOSTILE_MODELS = ("ref/oracle~hostiletext", "ref/oracle~hostile400", LONG, WIDE)


@pytest.fixture(scope="module")
def hostile_cassettes(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """ref/oracle and the hostile stand-in models of the mini suite, recorded once (read-only: copy to edit)."""
    from recorder.record import record
    from recorder.repeats import CaseRun
    from scorer.suite_file import parse_suite
    from standin.config import GatewayConfig
    from standin.server import StandInGateway

    # No chains: a chain sends the answer back, and a lone surrogate in a request is the record side's (item 11).
    cases = parse_suite(MINI_SUITE.read_bytes(), str(MINI_SUITE)).cases
    case_ids = [case.id for case in cases if case.group != "chains"]
    cassettes = tmp_path_factory.mktemp("hostile") / "cassettes"
    with StandInGateway(GatewayConfig(suite_path=MINI_SUITE)) as gateway:
        for model in ("ref/oracle", *HOSTILE_MODELS):
            runs = [CaseRun(case_id, 1) for case_id in case_ids]
            record(MINI_SUITE, model, cassettes, gateway.url, runs, concurrency=1, sleep=lambda _s: None)
    return cassettes


def test_the_lone_surrogate_round_trips_through_results_and_every_model_is_written(  # type: ignore[no-untyped-def]
    hostile_cassettes: Path, tmp_path: Path, capsys
) -> None:
    from standin.hostile import HOSTILE_TEXT

    out = tmp_path / "out"
    assert _rescore(hostile_cassettes, out) == 0, capsys.readouterr().err
    assert _errors(capsys.readouterr().err) == []  # the chains are unrecorded: a hint each, no error
    slugs = sorted(p.name for p in hostile_cassettes.iterdir())
    assert sorted(p.parent.name for p in out.glob("*/results.json")) == slugs
    text = (out / "ref_oracle_hostiletext" / "results.json").read_text(encoding="utf-8")
    assert "\\udc80" in text  # escaped: the file is UTF-8
    results = json.loads(text)
    contents = [s["response"]["content"] for r in results["results"] for s in r.get("steps", [])]
    assert HOSTILE_TEXT in contents  # exactly as the model wrote it
    oracle = json.loads((out / "ref_oracle" / "results.json").read_text(encoding="utf-8"))
    assert [r["status"] for r in results["results"]] == [r["status"] for r in oracle["results"]]
    assert (out / "index.html").is_file()
