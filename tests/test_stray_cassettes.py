"""rescore says out loud, once per model dir, which cassette files run.json does not list (replay
never reads them)."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from lobstack_eval.main import main
from tests.conftest import other_lines

ROOT = Path(__file__).resolve().parent.parent


def _warnings(err: str) -> list[str]:
    return [line for line in other_lines(err) if line.startswith("warning:")]


def test_a_stray_cassette_is_named_once_per_model_dir(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    cassettes = tmp_path / "cassettes"
    for slug in ("ref_oracle", "ref_abstain"):
        shutil.copytree(ROOT / "cassettes" / slug, cassettes / slug)
    oracle, abstain = cassettes / "ref_oracle", cassettes / "ref_abstain"
    shutil.copy(oracle / "selection-05.json", oracle / "selection-05 (copy).json")
    for name in ("b.json", "a.json"):
        shutil.copy(abstain / "no_call-01.json", abstain / name)
    (abstain / "notes.txt").write_text("not a cassette")  # only *.json files are cassettes
    suite = str(ROOT / "evals" / "suite.json")
    args = [
        "rescore",
        str(cassettes),
        "--suite",
        suite,
        "--out",
        str(tmp_path / "out"),
        "--no-html",
        "-q",
    ]
    assert main(args) == 0
    warnings = _warnings(capsys.readouterr().err)
    assert warnings == [
        f"warning: {abstain}: 'a.json', 'b.json' are not listed in run.json, so no case reads them "
        "(ignored)",
        f"warning: {oracle}: 'selection-05 (copy).json' is not listed in run.json, so no case "
        "reads it (ignored)",
    ]
    # The strays change nothing: the results are the committed ones.
    for slug in ("ref_oracle", "ref_abstain"):
        written = (tmp_path / "out" / slug / "results.json").read_bytes()
        assert written == (ROOT / "reports" / slug / "results.json").read_bytes()


def test_listed_cassettes_give_no_warning(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    shutil.copytree(ROOT / "cassettes" / "ref_oracle", tmp_path / "cassettes" / "ref_oracle")
    suite = str(ROOT / "evals" / "suite.json")
    args = [
        "rescore",
        str(tmp_path / "cassettes"),
        "--suite",
        suite,
        "--out",
        str(tmp_path / "out"),
        "--no-html",
    ]
    assert main([*args, "-q"]) == 0
    assert _warnings(capsys.readouterr().err) == []
