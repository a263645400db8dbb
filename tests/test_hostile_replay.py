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
