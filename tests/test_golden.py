"""The project's own regression test of the scorer: rescoring the committed cassettes
reproduces reports/."""

from __future__ import annotations

from pathlib import Path

from replay.rescore import rescore
from tests.conftest import ROOT


def files(root: Path) -> dict[str, bytes]:
    return {
        str(p.relative_to(root)): p.read_bytes()
        for p in sorted(root.rglob("*"))
        if p.is_file() and p.suffix != ".png"  # the README screenshot is made by the browser test
    }


def test_rescore_of_committed_cassettes_equals_committed_reports(tmp_path: Path) -> None:
    rescore(ROOT / "cassettes", ROOT / "evals" / "suite.json", tmp_path / "reports")
    expected, got = files(ROOT / "reports"), files(tmp_path / "reports")
    assert sorted(got) == sorted(expected)
    changed = [name for name in expected if expected[name] != got[name]]
    hint = "if intended, update them with `lobstack-eval rescore cassettes/`"
    assert not changed, f"rescore no longer reproduces {changed}: {hint}"
