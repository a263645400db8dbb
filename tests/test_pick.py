"""``lobstack-eval pick``: the table and the pick on the committed reports, bad options, and (on
loopback) the issue's case: the committed recordings plus a priced pair of stand-in models."""

from __future__ import annotations

import shutil
from pathlib import Path

import polars as pl
import pytest

from lobstack_eval.main import main
from recorder.files import read_suite
from recorder.record import record
from recorder.settings import RecordSettings
from replay.rescore import rescore
from standin.priced import worse_case
from tests.conftest import ROOT

SUITE = ROOT / "evals" / "suite.json"


def test_pick_prints_the_table_and_the_pick_of_the_committed_reports(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["pick", str(ROOT / "reports")]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0] == "lobstack-tool-calling 1.2.0: which model to pick (cost axis)"
    rows = {line.split()[0]: line for line in out[4:16]}
    assert "dominated by ref/malformed (p < 0.0001)" in rows["ref/first-tool"]
    assert "apart: partial 72/80" in rows["ref/error-in-200"]
    assert "on the front" in rows["ref/abstain"] and rows["ref/abstain"].split()[-1] == "no"
    assert (
        "Pick: ref/reasoning: within 10 points of ref/content-parts (lower bound -8.0), "
        "65% cheaper." in out
    )


def test_pick_on_the_latency_axis_and_a_delta_of_its_own(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["pick", str(ROOT / "reports" / "cases.parquet"), "--axis", "latency"]) == 0
    assert "p50 ms" in capsys.readouterr().out
    assert main(["pick", str(ROOT / "reports"), "--delta", "5"]) == 0
    out = capsys.readouterr().out
    assert "Pick: No model is shown within 5 points of ref/content-parts" in out


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--delta", "0"], "error: --delta: expected points between 0 and 100, got '0'"),
        (["--delta", "nan"], "error: --delta: expected points between 0 and 100, got 'nan'"),
        (["--axis", "price"], "error: --axis price: expected one of cost, latency"),
    ],
)
def test_bad_options_are_one_line_and_exit_2(
    args: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["pick", str(ROOT / "reports"), *args]) == 2
    assert capsys.readouterr().err.strip() == message


def test_a_missing_reports_dir_is_one_error_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["pick", str(tmp_path / "nope")]) in (1, 2)
    err = capsys.readouterr().err
    assert err.startswith("error: ") and "nope" in err and len(err.strip().splitlines()) == 1


def test_the_cheap_twin_is_picked_and_the_cheap_worse_one_is_not(
    start_gateway,  # type: ignore[no-untyped-def]
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    """The committed recordings plus ref/oracle-mini (ref/oracle's answers at a fifth of its
    price) and ref/mini-worse (the same, 4 of 80 cases wrong): recorded on loopback, rescored."""
    assert sum(worse_case(c.id) for c in read_suite(SUITE).cases) == 4  # 5 points worse
    cassettes = tmp_path / "cassettes"
    for folder in (ROOT / "cassettes").iterdir():
        if (folder / "run.json").is_file():
            shutil.copytree(folder, cassettes / folder.name)
    gateway = start_gateway(suite=SUITE)
    ids = [c.id for c in read_suite(SUITE).cases]
    for model in ("ref/oracle-mini", "ref/mini-worse"):
        record(
            SUITE,
            model,
            cassettes,
            gateway.url,
            ids,
            RecordSettings(concurrency=4),
            sleep=lambda _s: None,
        )
    out = tmp_path / "reports"
    rescore(cassettes, SUITE, out, workers=2, html=False, warn=lambda _line: None)
    front = pl.read_parquet(out / "front.parquet")
    costs = dict(zip(front["model"], front["x"], strict=True))
    assert costs["ref/oracle"] / costs["ref/oracle-mini"] == pytest.approx(5, rel=0.02)
    assert main(["pick", str(out)]) == 0
    text = capsys.readouterr().out
    assert "Pick: ref/oracle-mini: within 10 points of ref/content-parts" in text
    picked = front.filter(pl.col("picked"))["model"].to_list()
    assert picked == ["ref/oracle-mini"]
    worse = front.filter(pl.col("model") == "ref/mini-worse").row(0, named=True)
    assert worse["overall"] == 95.0 and not worse["within_delta"]
    # Without the twin, the worse one is cheapest of all near the top but is not picked.
    others = [m for m in front["model"].to_list() if m != "ref/oracle-mini"]
    assert main(["pick", str(out), *(a for m in others for a in ("--model", m))]) == 0
    text = capsys.readouterr().out
    assert "Pick: ref/reasoning: within 10 points of ref/content-parts" in text
    assert "ref/mini-worse" in text


def test_every_view_reads_the_one_computation(capsys: pytest.CaptureFixture[str]) -> None:
    """The committed reports: the pick line of leaderboard.md, of index.html and of ``pick``, and
    front.parquet's picked row, are the same figures."""
    from replay.rows.store import read_table

    assert main(["pick", str(ROOT / "reports")]) == 0
    line = next(x for x in capsys.readouterr().out.splitlines() if x.startswith("Pick: "))
    sentence = line.removeprefix("Pick: ")
    board = (ROOT / "reports" / "leaderboard.md").read_text(encoding="utf-8")
    assert f"alpha 0.05): {sentence}\n" in board
    page = (ROOT / "reports" / "index.html").read_text(encoding="utf-8")
    assert f"alpha 0.05): {sentence}</p>" in page
    assert '<svg xmlns:xlink="http://www.w3.org/1999/xlink"' in page.split('id="pick"', 1)[1]
    front = read_table(ROOT / "reports" / "front.parquet", "front")
    picked = front.filter(pl.col("picked")).row(0, named=True)
    assert picked["model"] == "ref/reasoning" and picked["status"] == "front"
    assert f"(lower bound {picked['lower_bound']:+.1f})" in sentence
    assert front["status"].to_list().count("apart") == 1
