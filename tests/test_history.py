"""Runs as history (issue 31): ``record --history`` keeps dated runs side by side, rescore dates
them and names the model behind the name from the recording itself, one rows root holds a model's
whole history, and the committed histories (cassettes/history/, scripts/record_history.py) show
ref/drifting's change at run 16 and none for ref/flaky. End to end on the stand-in (127.0.0.1,
port 0) and on the committed cassettes."""

from __future__ import annotations

import json
import shutil
from collections.abc import Callable
from datetime import UTC, date, datetime, timedelta
from pathlib import Path
from typing import Any

import polars as pl
import pytest

from lobstack_eval.main import main
from replay.rescore import rescore
from standin import StandInGateway
from tests.conftest import MINI_SUITE, ROOT

HISTORY = ROOT / "cassettes" / "history"
SUITE = ROOT / "evals" / "suite.json"
DAYS = [(date(2026, 10, 21) + timedelta(days=n)).isoformat() for n in range(20)]  # runs 1..20
# ref/drifting's broken cases under seed 0, read off the committed runs 16-20 and checked by hand
# against standin/drifting.py's rule (a tenth of the non-wobbly cases): they pass in every run
# before the change.
BROKEN = {"selection-02", "selection-08", "arguments-06", "parallel-01", "parallel-10", "chains-06"}


def results(out: Path, slug: str) -> dict[str, Any]:
    return json.loads((out / slug / "results.json").read_text(encoding="utf-8"))


def test_the_committed_history_is_twenty_dated_runs_of_two_models() -> None:
    assert sorted(p.name for p in HISTORY.iterdir()) == DAYS
    for day in DAYS:
        assert sorted(p.name for p in (HISTORY / day).iterdir()) == ["ref_drifting", "ref_flaky"]
        manifest = json.loads((HISTORY / day / "ref_drifting" / "run.json").read_text("utf-8"))
        assert manifest["run"] == {"id": day, "recorded_at": f"{day}T06:00:00+00:00"}


def test_each_run_is_dated_and_names_the_model_behind_the_name(
    scored_history: tuple[Path, Path],
) -> None:
    reports, _rows = scored_history
    for number, day in enumerate(DAYS, 1):
        drifting = results(reports / day, "ref_drifting")["run"]
        version = 2 if number >= 16 else 1
        assert drifting["id"] == day and drifting["date"] == day
        assert drifting["recorded_at"] == f"{day}T06:00:00+00:00"
        assert drifting["identity"]["model"] == [f"ref/drifting-v{version}"]
        assert drifting["identity"]["routing"] == {
            "x-lobstack-provider": ["standin-east" if version == 1 else "standin-west"]
        }
        assert len(drifting["identity"]["system_fingerprint"]) == 1
        flaky = results(reports / day, "ref_flaky")["run"]["identity"]
        assert flaky["model"] == ["ref/flaky"] and flaky["routing"] == {}
        assert len(flaky["system_fingerprint"]) == 1
    prints = {
        results(reports / day, "ref_drifting")["run"]["identity"]["system_fingerprint"][0]
        for day in DAYS
    }
    assert len(prints) == 2  # one per version


def test_ref_drifting_breaks_its_chosen_cases_from_run_16_and_ref_flaky_keeps_its_level(
    scored_history: tuple[Path, Path],
) -> None:
    reports, _rows = scored_history
    failing = {
        day: {r["id"] for r in results(reports / day, "ref_drifting")["results"]}
        - {
            r["id"]
            for r in results(reports / day, "ref_drifting")["results"]
            if r["status"] == "passed"
        }
        for day in DAYS
    }
    for day in DAYS[:15]:
        assert not failing[day] & BROKEN and len(failing[day]) <= 5
    for day in DAYS[15:]:
        assert failing[day] >= BROKEN
    overall = {
        day: results(reports / day, "ref_drifting")["metrics"]["overall"]["rate"] for day in DAYS
    }
    assert max(overall[d] for d in DAYS[15:]) < min(overall[d] for d in DAYS[:15])
    flaky = [results(reports / day, "ref_flaky")["metrics"]["overall"]["rate"] for day in DAYS]
    assert len(set(flaky)) > 1  # each run draws afresh
    assert max(flaky) - min(flaky) < 15  # around the same level: no change


def test_one_rows_root_holds_both_models_whole_histories(
    scored_history: tuple[Path, Path],
) -> None:
    reports, rows = scored_history
    parts = sorted(
        p.relative_to(rows / "cases").parent.as_posix() for p in (rows / "cases").rglob("*.parquet")
    )
    version = results(reports / DAYS[0], "ref_drifting")["suite"]["version"]
    assert parts == sorted(
        f"suite_version={version}/model_slug={slug}/run_id={day}"
        for slug in ("ref_drifting", "ref_flaky")
        for day in DAYS
    )
    # The folders' keys as strings, as docs/guide-rows.md reads them (run_id=2026-10-21 reads as a
    # date else).
    keys = {"suite_version": pl.String, "model_slug": pl.String, "run_id": pl.String}
    cases = pl.scan_parquet(str(rows / "cases" / "**" / "*.parquet"), hive_schema=keys)
    by_run = (
        cases.filter(pl.col("overall").is_not_null())
        .group_by("model_slug", "run_id", "run_date")
        .agg((100 * pl.col("overall").mean()).alias("overall"))
        .sort("model_slug", "run_date")
        .collect()
    )
    assert by_run.height == 40
    identities = cases.select("model_slug", "run_id", "run_identity").unique().collect()
    assert identities.height == 40  # one identity per run of each model, in every row of the run
    for slug, run_id, identity in identities.iter_rows():
        assert json.loads(identity) == results(reports / run_id, slug)["run"]["identity"]
    for slug, run_id, run_date, overall in by_run.iter_rows():
        assert run_date.isoformat() == run_id
        assert overall == pytest.approx(
            results(reports / run_id, slug)["metrics"]["overall"]["rate"]
        )
    calls = pl.read_parquet(rows / "calls", hive_schema=keys)
    assert set(calls["run_id"].unique()) == set(DAYS)


def test_duckdb_reads_a_history_root_per_run_as_guide_rows_says(
    scored_history: tuple[Path, Path],
) -> None:
    """guide-rows.md's DuckDB form with run_id as VARCHAR: Overall per run is each run's
    results.json; and polars' form without run_id in hive_schema fails, as the guide warns."""
    import duckdb

    reports, rows = scored_history
    types = "hive_types = {'suite_version': VARCHAR, 'model_slug': VARCHAR, 'run_id': VARCHAR}"
    got = duckdb.execute(
        "SELECT model_slug, run_id, typeof(run_id), 100 * avg(overall::INT) "
        f"FROM read_parquet(?, {types}) GROUP BY ALL ORDER BY ALL",
        [str(rows / "cases" / "**" / "*.parquet")],
    ).fetchall()
    assert len(got) == 2 * len(DAYS)
    for slug, run_id, kind, overall in got:
        assert kind == "VARCHAR"
        assert overall == pytest.approx(
            results(reports / run_id, slug)["metrics"]["overall"]["rate"]
        )
    two_keys = {"suite_version": pl.String, "model_slug": pl.String}
    with pytest.raises(pl.exceptions.SchemaFieldNotFoundError, match="run_id"):
        pl.scan_parquet(str(rows / "cases" / "**" / "*.parquet"), hive_schema=two_keys).collect()


def test_the_leaderboard_of_a_history_root_ranks_each_models_latest_run(
    scored_history: tuple[Path, Path], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    reports, rows = scored_history
    board, last = tmp_path / "board", tmp_path / "last"
    assert (
        main(["leaderboard", str(rows / "cases"), "--out", str(board)]) == 0
    )  # the cases folder: the root
    said = capsys.readouterr().err
    assert "160 case-run(s)" in said  # 2 models x 80 cases, not 20 runs' worth
    # it says so, and which run of each model it ranked
    assert said.endswith(
        f"; a history: each model's latest run, ref_drifting run {DAYS[-1]} (of {len(DAYS)}), "
        f"ref_flaky run {DAYS[-1]} (of {len(DAYS)}); wrote {board / 'leaderboard.md'} and "
        f"{board / 'leaderboard.csv'}\n"
    )
    assert main(["leaderboard", str(reports / DAYS[-1]), "--out", str(last)]) == 0
    err = capsys.readouterr().err
    assert "160 case-run(s)" in err  # 2 models x 80 cases, not 20 runs' worth
    assert "a history" not in err  # one run's reports: no history
    for name in ("leaderboard.csv", "leaderboard.md"):
        assert (board / name).read_bytes() == (last / name).read_bytes()


def test_rescore_of_cassettes_does_not_read_the_history(tmp_path: Path) -> None:
    """The committed reports stay as they are (test_golden); here: history/ is no model dir, and a
    cassettes dir holding only a history says where its runs are."""
    only = tmp_path / "cas"
    shutil.copytree(HISTORY / DAYS[0], only / "history" / DAYS[0])
    code = main(["rescore", str(only), "--out", str(tmp_path / "out"), "-q"])
    assert code == 1
    from replay.score_models import find_model_dirs
    from scorer.errors import CassetteError

    with pytest.raises(CassetteError, match=r"history holds dated runs: rescore one with"):
        find_model_dirs(only)
    dirs, unusable = find_model_dirs(ROOT / "cassettes")
    assert "history" not in [d.name for d in dirs] and unusable == []


def test_rescore_of_the_history_dir_scores_every_run(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """``rescore cassettes/history`` (a new user's first guess) used to refuse; it scores every run
    in one process into OUT/<run-id>/ (issue 41), each as ``rescore`` of that run writes it."""
    history = tmp_path / "cas" / "history"
    for day in DAYS[:2]:
        shutil.copytree(HISTORY / day, history / day)
    out = tmp_path / "out"
    assert main(["rescore", str(history), "--out", str(out), "-q", "--no-html"]) == 0
    err = capsys.readouterr().err
    assert f"run {DAYS[1]}: 2 model(s) -> {out / DAYS[1]}/\n" in err
    assert err.endswith(f"scored 2 run(s) of {history} into {out}/\n")
    assert sorted(p.name for p in out.iterdir()) == DAYS[:2]
    one = tmp_path / "one"
    assert main(["rescore", str(history / DAYS[0]), "--out", str(one), "-q", "--no-html"]) == 0
    for slug in ("ref_drifting", "ref_flaky"):
        got = (out / DAYS[0] / slug / "results.json").read_bytes()
        assert got == (one / slug / "results.json").read_bytes()


def test_record_history_cli_keeps_runs_side_by_side_and_dates_them(
    tmp_path: Path,
    start_gateway: Callable[..., StandInGateway],
    capsys: pytest.CaptureFixture[str],
) -> None:
    cassettes = tmp_path / "cas"
    for run in (1, 2):
        gateway = start_gateway(run=run, drift_from=2)
        args = ["record", "--model", "ref/drifting", "--suite", str(MINI_SUITE)]
        args += ["--base-url", gateway.url, "--cassettes", str(cassettes), "--concurrency", "1"]
        before = datetime.now(UTC)
        assert main([*args, "--run-id", f"day-{run}"]) == 0
        after = datetime.now(UTC)
        manifest = json.loads(
            (cassettes / "history" / f"day-{run}" / "ref_drifting" / "run.json").read_text("utf-8")
        )
        assert manifest["run"]["id"] == f"day-{run}"
        stamped = datetime.fromisoformat(manifest["run"]["recorded_at"])
        assert before.replace(microsecond=0) <= stamped <= after
        gateway.stop()
    err = capsys.readouterr().err
    assert f"lobstack-eval rescore {cassettes / 'history' / 'day-2'}" in err
    assert sorted(p.name for p in (cassettes / "history").iterdir()) == ["day-1", "day-2"]
    out = tmp_path / "out"
    rows = tmp_path / "rows"
    for day in ("day-1", "day-2"):
        assert (
            main(
                [
                    "rescore",
                    str(cassettes / "history" / day),
                    "--suite",
                    str(MINI_SUITE),
                    "--out",
                    str(out / day),
                    "--rows",
                    str(rows),
                    "-q",
                    "--no-html",
                ]
            )
            == 0
        )
    one, two = (results(out / day, "ref_drifting")["run"] for day in ("day-1", "day-2"))
    assert one["identity"]["model"] == ["ref/drifting-v1"]
    assert two["identity"]["model"] == ["ref/drifting-v2"]
    assert one["date"] == datetime.fromisoformat(one["recorded_at"]).strftime("%Y-%m-%d")
    # without --run-id, the run is named by the UTC date the recording started
    gateway = start_gateway(run=3)
    # the clock read around this record itself: a midnight UTC between the runs above and this one
    # changes the day
    before = datetime.now(UTC)
    assert main([*args[:5], "--base-url", gateway.url, "--cassettes", str(cassettes),
                 "--history"]) == 0  # fmt: skip
    after = datetime.now(UTC)
    today = [p.name for p in (cassettes / "history").iterdir() if p.name.startswith("20")]
    assert len(today) == 1 and today[0] in (before.strftime("%Y-%m-%d"), after.strftime("%Y-%m-%d"))


def test_a_plain_recording_has_no_run_and_an_old_one_moved_in_is_dated_by_its_answers(
    tmp_path: Path,
) -> None:
    plain = tmp_path / "plain"
    shutil.copytree(ROOT / "cassettes" / "ref_oracle", plain / "ref_oracle")
    rescore(plain, SUITE, tmp_path / "out-plain", html=False)
    assert "run" not in results(tmp_path / "out-plain", "ref_oracle")
    # An older recording put into a history by hand: run.json gets a run id and no recorded_at.
    moved = tmp_path / "cas" / "history" / "old" / "ref_oracle"
    shutil.copytree(ROOT / "cassettes" / "ref_oracle", moved)
    manifest = json.loads((moved / "run.json").read_text(encoding="utf-8"))
    manifest["run"] = {"id": "old"}
    (moved / "run.json").write_text(json.dumps(manifest), encoding="utf-8")
    rescore(moved.parent, SUITE, tmp_path / "out-old", html=False)
    run = results(tmp_path / "out-old", "ref_oracle")["run"]
    # the stand-in's Date header, Wed, 21 Oct 2026 00:00:00 GMT, on every committed answer
    assert run["date"] == "2026-10-21" and run["recorded_at"] is None
    assert run["identity"]["model"] == ["ref/oracle"]


@pytest.mark.parametrize(
    ("run", "line"),
    [
        ({"id": "../x"}, "run.id: expected a run folder name"),
        ({"id": "a", "recorded_at": "yesterday"}, "run.recorded_at: expected an ISO 8601"),
        (
            {"id": "a", "recorded_at": "2026-10-21T06:00:00"},
            "run.recorded_at: expected an ISO 8601",
        ),
        ("a", "run: expected an object"),
    ],
)
def test_a_bad_run_in_run_json_fails_its_model_with_one_line(
    tmp_path: Path, run: Any, line: str, capsys: pytest.CaptureFixture[str]
) -> None:
    model = tmp_path / "cas" / "ref_oracle"
    shutil.copytree(ROOT / "cassettes" / "ref_oracle", model)
    manifest = json.loads((model / "run.json").read_text(encoding="utf-8"))
    manifest["run"] = run
    (model / "run.json").write_text(json.dumps(manifest), encoding="utf-8")
    code = main(["rescore", str(model.parent), "--out", str(tmp_path / "out"), "-q", "--no-html"])
    err = capsys.readouterr().err
    assert code == 1
    assert f"error: {model / 'run.json'}: {line}" in err
    assert "Traceback" not in err


@pytest.mark.parametrize("run_id", ["../up", ".hidden", "a b", "x" * 101, ""])
def test_a_bad_run_id_is_bad_usage(
    tmp_path: Path, run_id: str, capsys: pytest.CaptureFixture[str]
) -> None:
    code = main(["record", "--model", "ref/oracle", "--base-url", "http://127.0.0.1:9/v1",
                 "--cassettes", str(tmp_path / "cas"), "--run-id", run_id])  # fmt: skip
    err = capsys.readouterr().err
    assert code == 2 and f"error: --run-id {run_id!r}: expected a folder name" in err
    assert not (tmp_path / "cas").exists()


def test_rows_of_runs_and_plain_rows_never_share_a_root(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    rows = tmp_path / "rows"
    assert (
        main(
            [
                "rescore",
                str(HISTORY / DAYS[0]),
                "--out",
                str(tmp_path / "a"),
                "--rows",
                str(rows),
                "-q",
                "--no-html",
            ]
        )
        == 0
    )
    plain = tmp_path / "plain"
    shutil.copytree(ROOT / "cassettes" / "ref_oracle", plain / "ref_oracle")
    code = main(["rescore", str(plain), "--out", str(tmp_path / "b"), "--rows", str(rows), "-q",
                 "--no-html"])  # fmt: skip
    err = capsys.readouterr().err
    assert code == 1
    assert "holds rows of runs of a history, and these are rows of plain recordings" in err
    assert not list((rows / "cases").rglob("model_slug=ref_oracle"))


def test_the_leaderboard_of_one_runs_partition_file(tmp_path: Path) -> None:
    """METHOD decision 119 for a history's rows: one run's cases file (a level deeper than a plain
    partition's) is read alone, as that run's leaderboard; its calls file stays bad usage."""
    rows = tmp_path / "rows"
    args = ["rescore", str(HISTORY / DAYS[0]), "--out", str(tmp_path / "a"), "--rows", str(rows)]
    assert main([*args, "-q", "--no-html"]) == 0
    folder = Path("suite_version=1.2.0", "model_slug=ref_drifting", f"run_id={DAYS[0]}")
    part = rows / "cases" / folder / "part-0.parquet"
    assert part.is_file()
    assert main(["leaderboard", str(part), "--out", str(tmp_path / "one"), "-q"]) == 0
    whole = ["leaderboard", str(rows), "--model", "ref/drifting", "--out", str(tmp_path / "m")]
    assert main([*whole, "-q"]) == 0
    for name in ("leaderboard.csv", "leaderboard.md"):
        assert (tmp_path / "one" / name).read_bytes() == (tmp_path / "m" / name).read_bytes()
    calls = rows / "calls" / folder / "part-0.parquet"
    assert calls.is_file()
    assert main(["leaderboard", str(calls), "--out", str(tmp_path / "c"), "-q"]) == 2


def test_the_stand_in_serves_a_day_per_run(
    start_gateway: Callable[..., StandInGateway],
) -> None:
    import requests

    body = {"model": "ref/flaky", "messages": [{"role": "user", "content": "hi"}]}
    dates = []
    for run in (None, 1, 3):
        gateway = start_gateway(**({} if run is None else {"run": run}))
        answer = requests.post(gateway.url + "/chat/completions", json=body, timeout=30)
        dates.append(answer.headers["Date"])
    assert dates == [
        "Wed, 21 Oct 2026 00:00:00 GMT",
        "Wed, 21 Oct 2026 00:00:00 GMT",
        "Fri, 23 Oct 2026 00:00:00 GMT",
    ]


def test_rescore_of_a_run_dir_writes_beside_the_plain_reports_by_default(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    project = tmp_path / "project"
    shutil.copytree(HISTORY / DAYS[0], project / "cassettes" / "history" / DAYS[0])
    shutil.copytree(ROOT / "reports" / "ref_oracle", project / "reports" / "ref_oracle")
    monkeypatch.chdir(project)
    assert (
        main(["rescore", f"cassettes/history/{DAYS[0]}", "--suite", str(SUITE), "-q", "--no-html"])
        == 0
    )
    assert (
        results(project / "reports" / "history" / DAYS[0], "ref_drifting")["run"]["id"] == DAYS[0]
    )
    # the plain reports are untouched: a run never replaces them
    assert (project / "reports" / "ref_oracle" / "results.json").read_bytes() == (
        ROOT / "reports" / "ref_oracle" / "results.json"
    ).read_bytes()
