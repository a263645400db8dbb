"""Runs of different wires (dialect, streaming, --param) are compared, never pooled: the dialect
matrix shows a streaming fault's gap with its p and names its anomalies, ``diff runs`` names the
settings difference, and a history or a drift test refuses to mix wires."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from lobstack_eval.main import main
from recorder.files import read_suite
from recorder.record import record
from recorder.settings import RecordSettings
from replay.diff_runs.history import merge_history
from replay.score_models import rescore_model
from scorer.errors import HistoryError, ResultsError
from scorer.wire.settings import Wire
from tests.conftest import ROOT

SUITE = ROOT / "evals" / "suite.json"
CASES = ["selection-01", "selection-02", "selection-03", "selection-04", "arguments-01",
         "arguments-02", "arguments-03", "near_misses-01", "no_call-01"]  # fmt: skip
MODEL = "ref/oracle~stream-dropcall"  # the streamed answer drops its call (vLLM #9693's shape)


@pytest.fixture(scope="module")
def reports(tmp_path_factory) -> dict[str, Path]:  # type: ignore[no-untyped-def]
    from standin.config import GatewayConfig
    from standin.server import StandInGateway

    root = tmp_path_factory.mktemp("wires")
    suite = read_suite(SUITE)
    gateway = StandInGateway(GatewayConfig(suite_path=SUITE)).start()
    out = {}
    try:
        for name, wire in (("whole", Wire()), ("streamed", Wire("chat", True))):
            record(
                SUITE,
                MODEL,
                root / name,
                gateway.url,
                CASES,
                RecordSettings(concurrency=1, wire=wire),
            )
            results = rescore_model(root / name / "ref_oracle_stream-dropcall", suite)
            out[name] = root / f"reports-{name}"
            (out[name] / "m").mkdir(parents=True)
            (out[name] / "m" / "results.json").write_text(json.dumps(results), encoding="utf-8")
    finally:
        gateway.stop()
    return out


def _results(reports: dict[str, Path], name: str) -> dict[str, Any]:
    return json.loads(next(reports[name].glob("*/results.json")).read_text(encoding="utf-8"))


def test_the_matrix_shows_the_streaming_gap_with_its_p_and_anomalies(reports, capsys) -> None:  # type: ignore[no-untyped-def]
    assert main(["diff", "dialects", str(reports["whole"]), str(reports["streamed"])]) == 0
    out = capsys.readouterr().out
    assert f"model {MODEL}:" in out
    assert "Overall 100.0% (9/9)" in out and "Overall 11.1% (1/9)" in out
    line = next(x for x in out.splitlines() if x.startswith("  chat+stream vs chat:"))
    assert line.startswith("  chat+stream vs chat: 8 lost, 0 gained; McNemar exact p = ")
    from scipy.stats import binomtest  # the reference: exact McNemar is a binomial test

    exact = binomtest(0, 8, 0.5).pvalue
    assert float(line.rsplit("= ", 1)[1]) == pytest.approx(exact, rel=1e-3) and exact < 0.05
    assert "transport anomaly: the stop reason says calls, and no call came (8)" in out


def test_diff_runs_names_the_settings_difference(reports, capsys) -> None:  # type: ignore[no-untyped-def]
    main(["diff", "runs", str(reports["whole"]), str(reports["streamed"])])
    out = capsys.readouterr().out
    assert "settings differ: A chat, B chat+stream (dialect, streaming, --param)" in out


def test_a_history_never_pools_two_wires(reports, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    whole, streamed = _results(reports, "whole"), _results(reports, "streamed")
    assert "wire" not in whole and streamed["wire"] == {"dialect": "chat", "params": {},
                                                        "stream": True}  # fmt: skip
    with pytest.raises(ResultsError, match="recorded as chat\\+stream, but a as chat"):
        merge_history(MODEL, [("a", whole), ("b", streamed)])
    from replay.drift.load import load_history

    for n, doc in enumerate((whole, streamed)):
        dated = {**doc, "run": {"id": f"r{n}", "date": f"2026-01-0{n + 1}"}}
        (tmp_path / f"r{n}.json").write_text(json.dumps(dated), encoding="utf-8")
    with pytest.raises(HistoryError, match="one dialect, streaming and --param; these runs have 2"):
        load_history([tmp_path / "r0.json", tmp_path / "r1.json"])
