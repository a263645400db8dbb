"""A model's wires on one board, end to end through the stand-in: one model recorded through
Chat Completions and streamed (its stream drops the call), gathered into one cassettes dir
beside another model, rescored once. The rows are labelled by wire, the model's rows sit
together, and the transport anomalies are named under every board (docs/guide-dialects.md)."""

from __future__ import annotations

import csv
import io
import json
import re
import shutil
from dataclasses import replace

import pytest

from recorder.record import record
from recorder.settings import RecordSettings
from replay.leaderboard.tables import ordered
from replay.leaderboard.text import terminal_lines
from replay.rescore import rescore
from scorer.wire.settings import Wire
from tests.conftest import MINI_SUITE

CASES = [
    "selection-01", "arguments-01", "arguments-02", "near_misses-01", "no_call-01", "no_call-02",
    "parallel-01", "chains-01",
]  # fmt: skip
FAULTY = "ref/oracle~stream-dropcall"  # drops a streamed call; its Chat answers are whole
ANOMALY = (
    "Transport anomalies (case-runs whose streamed answer broke in transit, judged as they came, "
    "counted apart from what the models chose): ref/oracle~stream-dropcall (chat+stream) 6."
)


@pytest.fixture(scope="module")
def scored(tmp_path_factory):  # type: ignore[no-untyped-def]
    """The rescore of one cassettes dir holding ref/noisy and FAULTY (Chat), and FAULTY streamed
    (its model dir renamed, as docs/guide-dialects.md says)."""
    from standin.config import GatewayConfig
    from standin.server import StandInGateway

    root = tmp_path_factory.mktemp("wires")
    gateway = StandInGateway(GatewayConfig(suite_path=MINI_SUITE)).start()
    try:
        for model in (FAULTY, "ref/noisy"):
            record(
                MINI_SUITE, model, root / "chat", gateway.url, CASES, RecordSettings(concurrency=1)
            )
        record(
            MINI_SUITE,
            FAULTY,
            root / "stream",
            gateway.url,
            CASES,
            RecordSettings(concurrency=1, wire=Wire("chat", True)),
        )
    finally:
        gateway.stop()
    shutil.move(
        root / "stream/ref_oracle_stream-dropcall", root / "chat/ref_oracle_dropcall-stream"
    )
    out = root / "out"
    return rescore(root / "chat", MINI_SUITE, out, workers=1, warn=lambda _t: None, html=False)


def test_the_rows_are_labelled_by_wire_and_a_models_rows_sit_together(scored) -> None:  # type: ignore[no-untyped-def]
    rates = {s.model_slug: s.metrics["overall"].rate for s in scored.summaries}
    # Overall alone would put ref/noisy between the model's two rows
    assert rates["ref_oracle_stream-dropcall"] > rates["ref_noisy"]
    assert rates["ref_noisy"] > rates["ref_oracle_dropcall-stream"]
    text = (scored.out / "leaderboard.md").read_text(encoding="utf-8")
    rows = [line.split(" | ")[0][2:] for line in text.splitlines() if line.startswith("| ref/")]
    assert rows == [FAULTY, f"{FAULTY} (chat+stream)", "ref/noisy"]
    assert f"\n\n{ANOMALY}\n" in text
    assert [s.model for s in ordered(scored.summaries)] == rows  # terminal and page order


def test_the_csv_keys_rows_by_model_and_wire(scored) -> None:  # type: ignore[no-untyped-def]
    text = (scored.out / "leaderboard.csv").read_text(encoding="utf-8")
    table = list(csv.DictReader(io.StringIO(text)))
    assert text.splitlines()[0].endswith(",partial,wire,transport_anomalies")
    assert [(r["model"], r["wire"], r["transport_anomalies"]) for r in table] == [
        (FAULTY, "", ""),
        (FAULTY, "chat+stream", "6"),
        ("ref/noisy", "", ""),
    ]


def test_results_json_says_the_wire_only_when_it_is_not_the_methods(scored) -> None:  # type: ignore[no-untyped-def]
    def results(slug: str) -> dict:  # type: ignore[type-arg]
        return json.loads((scored.out / slug / "results.json").read_text(encoding="utf-8"))

    streamed = results("ref_oracle_dropcall-stream")
    assert streamed["wire"] == {"dialect": "chat", "stream": True, "params": {}}
    assert streamed["transport_anomalies"]["cases"] == 6
    assert not {"wire", "transport_anomalies"} & set(results("ref_oracle_stream-dropcall"))


def test_the_terminal_and_the_page_name_the_anomalies(scored) -> None:  # type: ignore[no-untyped-def]
    from replay.html import render_report
    from replay.html._load import load_suite
    from replay.results.read import read_results

    lines = terminal_lines(scored.summaries, scored.suite, None)
    assert ANOMALY in lines
    typed = [read_results(p) for p in sorted(scored.out.glob("*/results.json"))]
    page = render_report(typed, load_suite(MINI_SUITE))
    assert f'<p class="warn anomalies">{ANOMALY}</p>' in page
    rows = re.findall(r'<tr data-model="([^"]*)">', page)
    assert rows == [FAULTY, f"{FAULTY} (chat+stream)", "ref/noisy"]


def test_a_wire_row_is_not_routed_to_its_own_model(scored) -> None:  # type: ignore[no-untyped-def]
    from replay.html._view import leaderboard_row
    from replay.wire_rows import labelled

    [noisy] = [s for s in scored.summaries if s.model == "ref/noisy"]
    assert set(noisy.routed_models) == {"ref/noisy"}
    row = leaderboard_row(labelled(replace(noisy, wire="responses")))
    assert (row.model, row.routed) == ("ref/noisy (responses)", ())


def test_the_board_from_rows_equals_the_board_from_rescore(scored, tmp_path) -> None:  # type: ignore[no-untyped-def]
    """The rows carry each run's wire (the cases table's footer), so `leaderboard` over the reports
    dir, or over a rows dataset, labels and orders the model's two wires and names the anomalies
    exactly as rescore did (they were told apart by model dir before)."""
    from replay.leaderboard.slices import slice_leaderboard
    from replay.leaderboard.tables import leaderboard_csv, leaderboard_md
    from replay.rows.wires import META_WIRES
    from tests.conftest import ROOT

    rows = tmp_path / "rows"
    rescore(scored.out.parent / "chat", MINI_SUITE, tmp_path / "again", workers=1,
            warn=lambda _t: None, html=False, rows=rows)  # fmt: skip
    expected_md = (scored.out / "leaderboard.md").read_text(encoding="utf-8")
    expected_csv = (scored.out / "leaderboard.csv").read_text(encoding="utf-8")
    for source in (scored.out / "cases.parquet", rows):
        board = slice_leaderboard(source)
        assert leaderboard_md(board.summaries, board.suite) == expected_md, source
        assert leaderboard_csv(board.summaries) == expected_csv, source
    footer = json.loads(pl_metadata(scored.out / "cases.parquet")[META_WIRES])
    assert footer == {
        "ref_oracle_dropcall-stream": {
            "dialect": "chat", "stream": True, "params": {}, "transport_anomalies": 6
        }
    }  # fmt: skip
    # the method's runs alone write no footer key: the committed rows are byte for byte as before
    assert META_WIRES not in pl_metadata(ROOT / "reports" / "cases.parquet")


def pl_metadata(path):  # type: ignore[no-untyped-def]
    import polars as pl

    return pl.read_parquet_metadata(path)


def test_the_front_keeps_one_row_per_run(scored) -> None:  # type: ignore[no-untyped-def]
    import polars as pl

    front = pl.read_parquet(scored.out / "front.parquet")
    assert sorted(zip(front["model"], front["model_slug"], strict=True)) == [
        ("ref/noisy", "ref_noisy"),
        (FAULTY, "ref_oracle_stream-dropcall"),
        (f"{FAULTY} (chat+stream)", "ref_oracle_dropcall-stream"),
    ]
