"""The rows dataset in its ecosystem's layout (issue 25): one table per root (``DIR/cases``,
``DIR/calls``), each a hive dataset of one schema that polars, DuckDB and pyarrow read as
docs/guide-rows.md and docs/scale.md show; the partition columns are in the folder names only
(issue 33: in the files too, they clashed with pyarrow's readers); the old layout is refused with
one line saying how to convert it."""

from __future__ import annotations

import shutil
from pathlib import Path

import duckdb
import polars as pl
import pyarrow as pa
import pyarrow.dataset as ds
import pyarrow.parquet as pq
import pytest

from lobstack_eval.main import main
from replay.rows.dataset import append
from replay.rows.partition import Partition, partition_of_file
from replay.rows.schema import schema
from replay.rows.store import file_schema
from tests.conftest import ROOT

KEYS = {"suite_version": pl.String, "model_slug": pl.String}  # as docs/scale.md passes them
HIVE_TYPES = "hive_types = {'suite_version': VARCHAR, 'model_slug': VARCHAR}"

REPORTS = ROOT / "reports"
# Every column a case-run that never got a verdict leaves null (the key columns, status and
# reason stay).
KEPT = (
    "model",
    "model_slug",
    "suite_name",
    "suite_version",
    "suite_sha256",
    "case_id",
    "case_index",
    "group",
)
ERRORED_NULL = [c for c in schema("cases") if c not in (*KEPT, "repeat", "status", "reason")]


def _tables() -> tuple[dict[str, pl.DataFrame], dict[str, pl.DataFrame]]:
    """Three committed models (ref_abstain makes no call), one more all errored with no calls (every
    nullable column null), and one whose suite version and slug look like numbers."""
    cases = pl.read_parquet(REPORTS / "cases.parquet").filter(
        pl.col("model_slug").is_in(["ref_oracle", "ref_noisy", "ref_abstain"])
    )
    calls = pl.read_parquet(REPORTS / "calls.parquet").filter(
        pl.col("model_slug").is_in(["ref_oracle", "ref_noisy"])
    )
    errored = cases.filter(pl.col("model_slug") == "ref_oracle").with_columns(
        pl.lit("ref/down").alias("model"),
        pl.lit("ref_down").alias("model_slug"),
        pl.lit("errored").alias("status"),
        pl.lit("HTTP 503").alias("reason"),
        *(pl.lit(None, schema("cases")[c]).alias(c) for c in ERRORED_NULL),
    )
    numeric = [
        pl.lit(v).alias(k)
        for k, v in {"model": "123", "model_slug": "123", "suite_version": "2"}.items()
    ]
    oracle = pl.col("model_slug") == "ref_oracle"
    first = {"cases": pl.concat([cases, errored]), "calls": calls}
    return first, {
        "cases": cases.filter(oracle).with_columns(numeric),
        "calls": calls.filter(oracle).with_columns(numeric),
    }


@pytest.fixture(scope="module")
def rows(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("layout") / "rows"
    first, numeric = _tables()
    append(root, first)
    append(root, numeric)
    return root


def test_one_table_per_root_one_file_per_partition(rows: Path) -> None:
    found = sorted(p.relative_to(rows).as_posix() for p in rows.rglob("*.parquet"))
    slugs = ["ref_abstain", "ref_down", "ref_noisy", "ref_oracle"]
    assert found == [
        f"{table}/suite_version={v}/model_slug={s}/part-0.parquet"
        for table in ("calls", "cases")
        for v, s in [("1.2.0", s) for s in slugs] + [("2", "123")]
    ]


def test_every_partition_of_a_table_has_the_same_parquet_schema(rows: Path) -> None:
    """Physical and logical types, file by file, including a model with no calls and one whose every
    nullable column is null (DuckDB's parquet_schema reads each file's own footer)."""
    for table in ("cases", "calls"):
        files = sorted((rows / table).rglob("*.parquet"))
        schemas = {
            str(f): duckdb.execute(
                "SELECT name, type, type_length, repetition_type, converted_type, scale, "
                "precision, logical_type FROM parquet_schema(?)",
                [str(f)],
            ).fetchall()
            for f in files
        }
        assert len(schemas) == 5 and len({repr(s) for s in schemas.values()}) == 1, table


def test_polars_reads_each_table_with_its_partition_columns(rows: Path) -> None:
    """docs/guide-rows.md's polars form; the partition columns come from the folders as the strings
    ``hive_schema`` says, so a version "2" and a slug "123" stay strings, and the table has every
    column of its schema."""
    for table in ("cases", "calls"):
        frame = pl.scan_parquet(str(rows / table / "**" / "*.parquet"), hive_schema=KEYS)
        assert dict(frame.collect_schema()) == {**file_schema(table), **KEYS}
        folder = pl.scan_parquet(str(rows / table), hive_schema=KEYS)  # the folder form
        assert dict(folder.collect_schema()) == {**file_schema(table), **KEYS}
    cases = pl.scan_parquet(str(rows / "cases" / "**" / "*.parquet"), hive_schema=KEYS)
    counts = (
        cases.group_by("suite_version", "model_slug")
        .agg(pl.len())
        .sort("model_slug")
        .collect()
        .rows()
    )
    assert counts == [("2", "123", 80)] + [
        ("1.2.0", s, 80) for s in ("ref_abstain", "ref_down", "ref_noisy", "ref_oracle")
    ]
    assert (
        cases.filter(pl.col("suite_version") == "2")
        .select(pl.col("model").unique())
        .collect()
        .item()
        == "123"
    )
    down = (
        cases.filter(pl.col("model_slug") == "ref_down")
        .select(pl.col("overall").null_count())
        .collect()
        .item()
    )
    assert down == 80


def test_duckdb_reads_each_table_with_its_partition_columns(rows: Path) -> None:
    """docs/guide-rows.md's DuckDB form (hive_types over the table's root)."""
    got = duckdb.execute(
        "SELECT suite_version, model_slug, count(*), count(overall), typeof(suite_version), "
        f"typeof(model_slug) FROM read_parquet(?, {HIVE_TYPES}) GROUP BY ALL ORDER BY model_slug",
        [str(rows / "cases" / "**" / "*.parquet")],
    ).fetchall()
    assert got == [("2", "123", 80, 80, "VARCHAR", "VARCHAR")] + [
        ("1.2.0", s, 80, n, "VARCHAR", "VARCHAR")
        for s, n in (("ref_abstain", 80), ("ref_down", 0), ("ref_noisy", 80), ("ref_oracle", 80))
    ]
    calls = duckdb.execute(
        f"SELECT model_slug, count(*) FROM read_parquet(?, {HIVE_TYPES}) GROUP BY ALL ORDER BY 1",
        [str(rows / "calls" / "**" / "*.parquet")],
    ).fetchall()
    expected = pl.read_parquet(REPORTS / "calls.parquet").group_by("model_slug").len()
    by_slug = dict(expected.rows())
    assert calls == [
        ("123", by_slug["ref_oracle"]),
        ("ref_noisy", by_slug["ref_noisy"]),
        ("ref_oracle", by_slug["ref_oracle"]),
    ]


def test_pyarrow_reads_each_table_with_its_partition_columns(rows: Path) -> None:
    """pyarrow's hive readers as a user calls them (issue 33: both failed on large_string vs
    string): the plain ``partitioning="hive"`` dataset, ``pq.read_table`` of the folder, and
    docs/scale.md's string partitioning."""
    strings = ds.partitioning(
        pa.schema([("suite_version", pa.string()), ("model_slug", pa.string())]), flavor="hive"
    )
    expected = pl.scan_parquet(str(rows / "cases" / "**" / "*.parquet"), hive_schema=KEYS)
    counts = expected.group_by("suite_version", "model_slug").len().sort("model_slug").collect()
    for table in ("cases", "calls"):
        for read in (
            lambda t: ds.dataset(str(rows / t), partitioning="hive").to_table(),
            lambda t: pq.read_table(str(rows / t)),
            lambda t: ds.dataset(str(rows / t), partitioning=strings).to_table(),
        ):
            got = read(table)
            assert set(got.column_names) == set(schema(table))
            assert got.num_rows == len(pl.scan_parquet(str(rows / table)).collect())
    got = pl.from_arrow(ds.dataset(str(rows / "cases"), partitioning=strings).to_table())
    assert got.schema["suite_version"] == pl.String and got.schema["model_slug"] == pl.String
    assert got.group_by("suite_version", "model_slug").len().sort("model_slug").rows() == (
        counts.rows()
    )


def test_a_folder_value_other_than_the_files_is_the_folders_for_hive_readers(
    rows: Path, tmp_path: Path
) -> None:
    """What a clash would do: a file whose partition column disagrees with its folder (moved by
    hand) reads with the folder's value in both readers, and lobstack-eval refuses it by
    its footer."""
    moved = tmp_path / "rows"
    shutil.copytree(rows, moved)
    target = moved / "cases" / "suite_version=1.2.0" / "model_slug=ref_noisy" / "part-0.parquet"
    shutil.copyfile(
        moved / "cases" / "suite_version=1.2.0" / "model_slug=ref_oracle" / "part-0.parquet", target
    )
    glob = str(moved / "cases" / "**" / "*.parquet")
    noisy = pl.scan_parquet(glob, hive_schema=KEYS).filter(pl.col("model_slug") == "ref_noisy")
    assert noisy.select(pl.col("model").unique()).collect().item() == "ref/oracle"
    sql = f"SELECT DISTINCT model FROM read_parquet(?, {HIVE_TYPES}) WHERE model_slug = 'ref_noisy'"
    assert duckdb.execute(sql, [glob]).fetchall() == [("ref/oracle",)]
    assert (
        main(
            [
                "leaderboard",
                str(moved),
                "--suite-version",
                "1.2.0",
                "--out",
                str(tmp_path / "lb"),
                "-q",
            ]
        )
        == 1
    )


def _old_layout(rows: Path, into: Path) -> Path:
    """The layout before issue 25: both tables' files side by side in each partition folder."""
    for table in ("cases", "calls"):
        for f in (rows / table).rglob("part-0.parquet"):
            target = into / f.parent.relative_to(rows / table) / f"{table}.parquet"
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(f, target)
    return into


def test_the_old_layout_is_refused_with_how_to_convert_it(
    rows: Path, tmp_path: Path, capsys
) -> None:  # type: ignore[no-untyped-def]
    old = _old_layout(rows, tmp_path / "old")
    out = ["--out", str(tmp_path / "lb"), "-q"]
    assert main(["leaderboard", str(old), "--suite-version", "1.2.0", *out]) == 1
    err = capsys.readouterr().err
    assert err.startswith(f"error: {old}: rows in the old layout") and err.count("\n") == 1, err
    assert (
        f"moving each such cases.parquet to {old}/cases/suite_version=V/model_slug=S/part-0.parquet"
        in err
    )
    before = sorted(old.rglob("*"))
    with pytest.raises(Exception, match="old layout"):
        append(old, _tables()[0])
    assert sorted(old.rglob("*")) == before  # nothing written
    for f in sorted(
        old.rglob("*.parquet")
    ):  # following the line: moving the files is the whole conversion
        target = old / f.stem / f.parent.relative_to(old) / "part-0.parquet"
        target.parent.mkdir(parents=True, exist_ok=True)
        f.rename(target)
    for folder in sorted(old.glob("suite_version=*"), reverse=True):
        shutil.rmtree(folder)
    assert main(["leaderboard", str(old), "--suite-version", "1.2.0", *out]) == 0
    assert (
        main(
            [
                "leaderboard",
                str(old / "cases"),
                "--suite-version",
                "1.2.0",
                "--out",
                str(tmp_path / "c"),
                "-q",
            ]
        )
        == 0
    )
    assert (tmp_path / "c" / "leaderboard.csv").read_bytes() == (
        tmp_path / "lb" / "leaderboard.csv"
    ).read_bytes()


def test_rescore_rows_into_the_old_layout_is_refused_before_anything_is_written(  # type: ignore[no-untyped-def]
    rows: Path, tmp_path: Path, capsys
) -> None:
    old = _old_layout(rows, tmp_path / "old")
    before = sorted(old.rglob("*"))
    args = [
        "rescore",
        str(ROOT / "cassettes"),
        "--out",
        str(tmp_path / "o"),
        "--no-html",
        "-q",
        "--rows",
        str(old),
    ]
    assert main(args) == 1
    err = capsys.readouterr().err
    assert err.startswith(f"error: {old}: rows in the old layout") and err.count("\n") == 1, err
    assert sorted(old.rglob("*")) == before and not any((tmp_path / "o").glob("*/results.json"))


PLAIN = Path("suite_version=1.2.0", "model_slug=ref_noisy")
RUN = Path("suite_version=1.2.0", "model_slug=ref%2Fx", "run_id=2026-10-21")  # a slug's "/" quoted


@pytest.mark.parametrize(
    "expected",
    [
        Partition("1.2.0", "ref_noisy", Path("r"), PLAIN),
        Partition("1.2.0", "ref/x", Path("r"), RUN, "2026-10-21"),
    ],
    ids=["plain", "run"],
)
def test_a_partition_file_names_its_root_and_keys_by_its_folders(expected: Partition) -> None:
    for table in ("cases", "calls"):
        path = Path("r") / table / expected.folder / "part-0.parquet"
        assert partition_of_file(path) == expected
        assert expected.file(table) == path


@pytest.mark.parametrize(
    "path",
    [
        "r/cases/suite_version=1.2.0/model_slug=ref_noisy/other.parquet",  # not a partition's file
        "r/cases/1.2.0/ref_noisy/part-0.parquet",  # folders not named as levels
        "r/cases/model_slug=ref_noisy/suite_version=1.2.0/part-0.parquet",  # levels out of order
        "suite_version=1.2.0/model_slug=ref_noisy/part-0.parquet",  # no table folder above
    ],
)
def test_any_other_path_is_no_partition_file(path: str) -> None:
    assert partition_of_file(Path(path)) is None


def test_the_leaderboard_of_one_partition_file(rows: Path, tmp_path: Path) -> None:
    """METHOD decision 119 in this layout: a partition's file of the cases table is read alone."""
    part = rows / "cases" / "suite_version=1.2.0" / "model_slug=ref_noisy" / "part-0.parquet"
    assert main(["leaderboard", str(part), "--out", str(tmp_path / "one"), "-q"]) == 0
    assert (
        main(
            [
                "leaderboard",
                str(rows),
                "--suite-version",
                "1.2.0",
                "--model",
                "ref/noisy",
                "--out",
                str(tmp_path / "m"),
                "-q",
            ]
        )
        == 0
    )
    assert (tmp_path / "one" / "leaderboard.csv").read_bytes() == (
        tmp_path / "m" / "leaderboard.csv"
    ).read_bytes()
    calls = rows / "calls" / "suite_version=1.2.0" / "model_slug=ref_noisy" / "part-0.parquet"
    assert main(["leaderboard", str(calls), "--out", str(tmp_path / "c"), "-q"]) == 2
