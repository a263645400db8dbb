"""The rows dataset (``rescore --rows DIR``) and ``lobstack-eval leaderboard`` on slices of it: hive
layout read by polars, partitions replaced not doubled, suite versions kept apart, and every
corrupt or foreign partition one clear error naming it."""

from __future__ import annotations

import csv
import json
import shutil
from pathlib import Path

import polars as pl
import pytest

from lobstack_eval.main import main
from recorder.files import read_suite
from recorder.record import record
from recorder.settings import RecordSettings
from tests.conftest import MINI_SUITE

IDS = [case.id for case in read_suite(MINI_SUITE).cases]
MODELS = ("ref/oracle", "ref/noisy", "ref/abstain")


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Mini-suite recordings of three models, rescored under 0.1.0 and a 0.2.0 into one
    rows dataset."""
    from standin import GatewayConfig, StandInGateway

    root = tmp_path_factory.mktemp("dataset")
    with StandInGateway(GatewayConfig(suite_path=MINI_SUITE)) as gateway:
        for model in MODELS:
            record(
                MINI_SUITE,
                model,
                root / "cassettes",
                gateway.url,
                IDS,
                RecordSettings(concurrency=1),
                sleep=lambda _s: None,
            )
    newer = json.loads(MINI_SUITE.read_text())
    newer["version"] = "0.2.0"
    newer["cases"].append(
        {**newer["cases"][0], "id": "selection-99"}
    )  # added: unrecorded under 0.2.0
    (root / "suite-0.2.0.json").write_text(json.dumps(newer))
    for suite, out in ((MINI_SUITE, "r1"), (root / "suite-0.2.0.json", "r2")):
        args = ["rescore", str(root / "cassettes"), "--suite", str(suite), "--out", str(root / out)]
        assert main([*args, "--rows", str(root / "rows"), "-q", "--no-html"]) == 0
    return root


@pytest.fixture
def rows(built: Path, tmp_path: Path) -> Path:
    """A private copy of the dataset, free to corrupt."""
    shutil.copytree(built / "rows", tmp_path / "rows")
    return tmp_path / "rows"


def board(path: Path) -> dict[str, dict[str, str]]:
    return {row["model"]: row for row in csv.DictReader(path.open(encoding="utf-8"))}


def one_error(capsys: pytest.CaptureFixture[str]) -> str:
    err = capsys.readouterr().err
    assert err.startswith("error: ") and err.count("\n") == 1, err
    return err


def test_hive_layout_read_lazily_by_polars(built: Path) -> None:
    folders = sorted(
        p.relative_to(built / "rows").as_posix() for p in (built / "rows").glob("*/*/*")
    )
    assert folders == [
        f"{t}/suite_version={v}/model_slug={s}"
        for t in ("calls", "cases")
        for v in ("0.1.0", "0.2.0")
        for s in ("ref_abstain", "ref_noisy", "ref_oracle")
    ]
    frame = pl.scan_parquet(
        str(built / "rows" / "cases" / "**" / "*.parquet"), hive_partitioning=True
    )
    counts = frame.group_by("suite_version").agg(pl.len()).sort("suite_version").collect()
    assert counts.rows() == [("0.1.0", 3 * len(IDS)), ("0.2.0", 3 * (len(IDS) + 1))]
    noisy = frame.filter(
        pl.col("model_slug") == "ref_noisy", pl.col("suite_version") == "0.1.0"
    ).collect()
    assert noisy["case_id"].to_list() == IDS and set(noisy["model"]) == {"ref/noisy"}


def test_rescoring_again_replaces_its_partitions(built: Path, tmp_path: Path) -> None:
    rows = tmp_path / "rows"
    shutil.copytree(built / "rows", rows)
    args = [
        "rescore",
        str(built / "cassettes"),
        "--suite",
        str(MINI_SUITE),
        "--out",
        str(tmp_path / "o"),
    ]
    assert main([*args, "--rows", str(rows), "-q", "--no-html"]) == 0
    assert pl.scan_parquet(str(rows / "cases" / "**" / "*.parquet")).select(
        pl.len()
    ).collect().item() == 3 * (2 * len(IDS) + 1)


def test_several_suite_versions_need_one_chosen(  # type: ignore[no-untyped-def]
    rows: Path,
    tmp_path: Path,
    capsys,
) -> None:
    assert main(["leaderboard", str(rows), "--out", str(tmp_path / "lb"), "-q"]) == 2
    assert "holds suite versions 0.1.0, 0.2.0" in one_error(capsys)
    assert (
        main(
            [
                "leaderboard",
                str(rows),
                "--suite-version",
                "0.2.0",
                "--out",
                str(tmp_path / "lb"),
                "-q",
            ]
        )
        == 0
    )
    got = board(tmp_path / "lb" / "leaderboard.csv")
    assert {m: r["unrecorded"] for m, r in got.items()} == dict.fromkeys(MODELS, "1")


@pytest.mark.parametrize("engine", ["rows", "reports"])
def test_slices_agree_with_the_results_files(built: Path, tmp_path: Path, engine: str) -> None:
    source = built / "rows" if engine == "rows" else built / "r1"
    base = ["leaderboard", str(source), "--suite-version", "0.1.0", "-q"]
    assert main([*base, "--group", "chains", "--out", str(tmp_path / "g")]) == 0
    for model, row in board(tmp_path / "g" / "leaderboard.csv").items():
        results = json.loads((built / "r1" / model.replace("/", "_") / "results.json").read_text())
        chains = results["groups"]["chains"]
        assert (int(row["overall_count"]), int(row["overall_of"])) == (
            chains["count"],
            chains["of"],
        )
    assert "group chains" in (tmp_path / "g" / "leaderboard.md").read_text().splitlines()[0]
    assert main([*base, "--model", "ref/noisy", "--out", str(tmp_path / "m")]) == 0
    whole = board(built / "r1" / "leaderboard.csv")
    assert board(tmp_path / "m" / "leaderboard.csv") == {"ref/noisy": whole["ref/noisy"]}


def test_a_one_model_slice_opens_only_its_partition(rows: Path, tmp_path: Path) -> None:
    (
        rows / "cases" / "suite_version=0.1.0" / "model_slug=ref_oracle" / "part-0.parquet"
    ).write_bytes(b"not parquet")
    args = [
        "leaderboard",
        str(rows),
        "--suite-version",
        "0.1.0",
        "--model",
        "ref_noisy",
        "--out",
        str(tmp_path),
    ]
    assert main([*args, "-q"]) == 0


def _partition(rows: Path, slug: str = "ref_noisy") -> Path:
    return rows / "cases" / "suite_version=0.1.0" / f"model_slug={slug}" / "part-0.parquet"


def _foreign(rows: Path) -> str:
    pl.DataFrame({"model": ["x"], "score": [1.0]}).write_parquet(_partition(rows))
    return "expected the cases table, found a file lobstack-eval did not write"


def _truncated(rows: Path) -> str:
    target = _partition(rows)
    target.write_bytes(target.read_bytes()[:200])
    return "not a readable parquet file"


def _zeroed_pages(rows: Path) -> str:
    data = bytearray(_partition(rows).read_bytes())
    data[4 : len(data) // 2] = bytes(len(data) // 2 - 4)  # the data pages; the footer stays whole
    _partition(rows).write_bytes(bytes(data))
    return "corrupt parquet data"


def _moved(rows: Path) -> str:
    shutil.copyfile(_partition(rows, "ref_oracle"), _partition(rows))
    return "belongs to model_slug 'ref_oracle', not 'ref_noisy'"


def _stray_folder(rows: Path) -> str:
    (rows / "cases" / "suite_version=0.1.0" / "backup").mkdir()
    return "not a rows partition folder (expected model_slug=VALUE)"


def _other_columns(rows: Path) -> str:
    metadata = pl.read_parquet_metadata(_partition(rows))  # ours, partition keys included
    frame = (
        pl.read_parquet(_partition(rows))
        .drop("latency_ms")
        .with_columns(pl.col("overall").cast(pl.Int8))
    )
    frame.write_parquet(
        _partition(rows), metadata={k: v for k, v in metadata.items() if k.startswith("lobstack")}
    )
    return "not the cases columns (missing ['latency_ms'], unexpected or retyped ['overall'])"


@pytest.mark.parametrize(
    "damage", [_foreign, _truncated, _zeroed_pages, _moved, _stray_folder, _other_columns]
)
def test_a_corrupt_or_foreign_partition_is_one_clear_error(
    rows: Path, tmp_path: Path, damage, capsys
) -> None:  # type: ignore[no-untyped-def]
    expected = damage(rows)
    assert (
        main(["leaderboard", str(rows), "--suite-version", "0.1.0", "--out", str(tmp_path), "-q"])
        == 1
    )
    err = one_error(capsys)
    assert expected in err
    if damage is not _stray_folder:
        assert str(_partition(rows)) in err


def test_bad_slices_are_usage_errors(  # type: ignore[no-untyped-def]
    rows: Path,
    tmp_path: Path,
    capsys,
) -> None:
    out = ["--out", str(tmp_path), "-q"]
    # A suite names its own groups: one the slice does not hold is named with those it does.
    assert (
        main(["leaderboard", str(rows), "--suite-version", "0.1.0", "--group", "nope", *out]) == 1
    )
    assert "no group 'nope' in " in one_error(capsys)
    assert main(["leaderboard", str(rows), "--suite-version", "9.9.9", *out]) == 1
    assert f"no suite version '9.9.9' in {rows}; suite versions: 0.1.0, 0.2.0" in one_error(capsys)
    # A model that is nowhere names the models there are (not "versions present: none").
    assert main(["leaderboard", str(rows), "--model", "nope", *out]) == 1
    assert f"no model 'nope' in {rows}; models: ref_abstain, ref_noisy, ref_oracle" in one_error(
        capsys
    )
    assert (
        main(["leaderboard", str(rows), "--suite-version", "9.9.9", "--model", "ref/noisy", *out])
        == 1
    )
    assert f"no suite version '9.9.9' in {rows}; suite versions: 0.1.0, 0.2.0" in one_error(capsys)
    assert main(["leaderboard", str(tmp_path / "nowhere"), *out]) == 1
    assert "no such rows directory" in one_error(capsys)
    empty = tmp_path / "empty"
    empty.mkdir()
    assert main(["leaderboard", str(empty), *out]) == 1
    assert "no rows partitions" in one_error(capsys)


@pytest.mark.parametrize("engine", ["reports", "rows"])
def test_a_slice_value_that_matches_nothing_names_the_values_there_are(  # type: ignore[no-untyped-def]
    built: Path, tmp_path: Path, engine: str, capsys
) -> None:
    """Each of --suite-version, --model (every unknown one, even beside known ones) and --group: one
    line naming the value and the values there are, exit 1; not "no rows in this slice", and no
    leaderboard written."""
    if engine == "reports":
        source, where, versions, models = (
            built / "r1",
            built / "r1" / "cases.parquet",
            "0.1.0",
            ", ".join(MODELS[::-1]),
        )
    else:
        source, where, versions, models = (
            built / "rows",
            built / "rows",
            "0.1.0, 0.2.0",
            "ref_abstain, ref_noisy, ref_oracle",
        )
    out = tmp_path / "lb"
    base = ["leaderboard", str(source), "--out", str(out), "-q"]
    slices = [
        (
            ["--suite-version", "1.1.0"],
            f"no suite version '1.1.0' in {where}; suite versions: {versions}",
        ),
        (
            ["--suite-version", "0.1.0", "--model", "gpt-5"],
            f"no model 'gpt-5' in {where} (suite version 0.1.0); models: {models}",
        ),
        (
            [
                "--suite-version",
                "0.1.0",
                "--model",
                "ref/noisy",
                "--model",
                "x/y",
                "--model",
                "ref_zz",
                "--model",
                "x_y",
            ],
            f"no models 'x/y', 'ref_zz' in {where} (suite version 0.1.0); models: {models}",
        ),
    ]
    for args, line in slices:
        assert main([*base, *args]) == 1
        assert one_error(capsys) == f"error: {line}\n"
    assert not out.exists()


def test_a_group_no_case_of_the_slice_has_is_named(  # type: ignore[no-untyped-def]
    built: Path,
    tmp_path: Path,
    capsys,
) -> None:
    """A valid group that the slice has no rows of (here: a model recorded without its
    parallel cases)."""
    from replay.rows.dataset import append

    dropped = (pl.col("model") == "ref/noisy") & (pl.col("group") == "parallel")
    tables = {
        table: pl.read_parquet(built / "r1" / f"{table}.parquet").filter(~dropped)
        for table in ("cases", "calls")
    }
    rows = tmp_path / "rows"
    append(rows, tables)
    out = ["--out", str(tmp_path / "lb"), "-q"]
    assert (
        main(["leaderboard", str(rows), "--group", "parallel", "--model", "ref/noisy", *out]) == 1
    )
    groups = "arguments, chains, near_misses, no_call, selection"
    assert (
        one_error(capsys)
        == f"error: no group 'parallel' in {rows} (model ref/noisy); groups: {groups}\n"
    )
    assert (
        main(["leaderboard", str(rows), "--group", "parallel", "--model", "ref/oracle", *out]) == 0
    )
    capsys.readouterr()


def test_the_readme_polars_query_runs_on_a_rows_dataset(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """docs/guide-rows.md's example, on the committed rows made into two Claude models of a
    suite 1.1.0."""
    from replay.rows.dataset import append
    from tests.conftest import ROOT

    cases = pl.read_parquet(ROOT / "reports" / "cases.parquet")
    calls = pl.read_parquet(ROOT / "reports" / "calls.parquet")
    names = {
        "ref_noisy": "anthropic/claude-a",
        "auto": "anthropic/claude-b",
        "ref_oracle": "openai/gpt-x",
    }
    tables = {}
    for table, frame in (("cases", cases), ("calls", calls)):
        frame = frame.filter(pl.col("model_slug").is_in(list(names)))
        tables[table] = frame.with_columns(
            pl.col("model_slug").replace_strict(names).alias("model"),
            pl.lit("1.1.0").alias("suite_version"),
        )
    append(tmp_path / "rows", tables)
    readme = (ROOT / "docs" / "guide-rows.md").read_text(encoding="utf-8")
    code = readme.split("```python\n", 1)[1].split("```", 1)[0]
    monkeypatch.chdir(tmp_path)
    scope: dict[str, object] = {}
    exec(code, scope)
    got = scope["failed_by_all"]["case_id"].to_list()  # type: ignore[index]
    chains = cases.filter(
        pl.col("group") == "chains", pl.col("model_slug").is_in(["ref_noisy", "auto"])
    )
    passed_somewhere = set(chains.filter(pl.col("status") == "passed")["case_id"])
    expected = sorted(
        set(chains.filter(pl.col("overall").is_not_null())["case_id"]) - passed_somewhere
    )
    assert got == expected and 0 < len(got) < 12


def test_the_readme_duckdb_query_runs_on_a_rows_dataset(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """docs/guide-rows.md's SQL, run by DuckDB on a rows dataset of three committed models made a
    suite 1.1.0."""
    import duckdb

    from replay.rows.dataset import append
    from tests.conftest import ROOT

    models = ["ref_noisy", "ref_abstain", "ref_oracle"]
    tables = {
        table: pl.read_parquet(ROOT / "reports" / f"{table}.parquet")
        .filter(pl.col("model_slug").is_in(models))
        .with_columns(pl.lit("1.1.0").alias("suite_version"))
        for table in ("cases", "calls")
    }
    append(tmp_path / "rows", tables)
    readme = (ROOT / "docs" / "guide-rows.md").read_text(encoding="utf-8")
    sql = readme.split("```sql\n", 1)[1].split("```", 1)[0]
    monkeypatch.chdir(tmp_path)
    got = duckdb.sql(sql).fetchall()
    chains = tables["cases"].filter(pl.col("group") == "chains", pl.col("overall").is_not_null())
    by_model = {
        m: chains.filter(pl.col("model") == m)["overall"]
        for m in ("ref/noisy", "ref/abstain", "ref/oracle")
    }
    assert {model: n for model, _pct, n in got} == {
        m: len(column) for m, column in by_model.items()
    }
    assert {model: pct for model, pct, _n in got} == pytest.approx(
        {m: 100 * c.mean() for m, c in by_model.items()}
    )
    assert [pct for _m, pct, _n in got] == sorted((pct for _m, pct, _n in got), reverse=True)
