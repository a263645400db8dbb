"""The plugin's baseline-refresh hint, followed as written, never removes another model's baseline
(issue 25: on a baseline of several models and cassettes of one, ``rescore --out BASELINE``
deleted the others)."""

from __future__ import annotations

import re
import shlex
import shutil
from pathlib import Path

from lobstack_eval.main import main
from pytest_lobstack.refresh import refresh_hint
from tests.conftest import ROOT


def _setup(tmp_path: Path) -> tuple[Path, Path]:
    cassettes, baseline = tmp_path / "cassettes", tmp_path / "reports"
    shutil.copytree(ROOT / "cassettes" / "ref_oracle", cassettes / "ref_oracle")
    for slug in ("ref_oracle", "ref_noisy"):
        shutil.copytree(ROOT / "reports" / slug, baseline / slug)
    return cassettes, baseline


def test_a_baseline_of_the_same_models_is_rescored_in_place(tmp_path: Path) -> None:
    cassettes, baseline = _setup(tmp_path)
    shutil.rmtree(baseline / "ref_noisy")
    assert refresh_hint("lobstack-eval rescore C", [baseline], cassettes, str) == (
        f"refresh it with: lobstack-eval rescore C --out {baseline}"
    )


def test_the_hint_followed_keeps_the_other_models(  # type: ignore[no-untyped-def]
    tmp_path: Path,
    monkeypatch,
) -> None:
    _cassettes, baseline = _setup(tmp_path)
    monkeypatch.chdir(tmp_path)
    hint = refresh_hint(
        "lobstack-eval rescore cassettes", [Path("reports")], Path("cassettes"), str
    )
    assert hint == (
        "refresh it with: lobstack-eval rescore cassettes --out reports.new, then copy "
        "reports.new/ref_oracle/results.json into the same folders of reports (--out reports "
        "itself would remove its 1 model(s) not in cassettes: ref_noisy)"
    )
    command = re.match(
        r"refresh it with: (.*?), then copy (.*?) into the same folders of (\S+) ", hint
    )
    assert command is not None
    assert main([*shlex.split(command.group(1))[1:], "--no-html", "-q"]) == 0
    for source in command.group(2).split():
        shutil.copyfile(source, Path(command.group(3)) / Path(source).relative_to("reports.new"))
    assert (baseline / "ref_noisy" / "results.json").read_bytes() == (
        ROOT / "reports" / "ref_noisy" / "results.json"
    ).read_bytes()
    assert (baseline / "ref_oracle" / "results.json").read_bytes() == (
        ROOT / "reports" / "ref_oracle" / "results.json"
    ).read_bytes()
    # What the old hint said, for the record: rescore --out the baseline itself removes the
    # other model.
    assert main(["rescore", "cassettes", "--out", "reports", "--no-html", "-q"]) == 0
    assert not (baseline / "ref_noisy").exists()
