"""One suite version, one suite file (METHOD decision 110): rows scored with two suite files of the
same name and version (a check edited without a version bump) are never ranked together by
``lobstack-eval leaderboard``, never stored together in a rows dataset (``rescore --rows``,
``merge --rows``) and never merged into one reports dir."""

from __future__ import annotations

import hashlib
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
REAL = hashlib.sha256(MINI_SUITE.read_bytes()).hexdigest()


@pytest.fixture(scope="module")
def recorded(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Mini-suite recordings of three models, one model dir per folder (``one-<slug>/<slug>``), and
    a copy of the mini suite with one check dropped from selection-01, same name and version."""
    from standin import GatewayConfig, StandInGateway

    root = tmp_path_factory.mktemp("one-suite")
    with StandInGateway(GatewayConfig(suite_path=MINI_SUITE)) as gateway:
        for model in MODELS:
            slug = model.replace("/", "_")
            record(
                MINI_SUITE,
                model,
                root / f"one-{slug}",
                gateway.url,
                IDS,
                RecordSettings(concurrency=1),
                sleep=lambda _s: None,
            )
    edited = json.loads(MINI_SUITE.read_text(encoding="utf-8"))
    del edited["cases"][0]["steps"][0]["calls"][0]["args"]["title"]
    (root / "edited.json").write_text(json.dumps(edited, indent=2), encoding="utf-8")
    return root


@pytest.fixture
def work(recorded: Path, tmp_path: Path) -> Path:
    shutil.copytree(recorded, tmp_path / "w")
    return tmp_path / "w"


def edited_sha(work: Path) -> str:
    return hashlib.sha256((work / "edited.json").read_bytes()).hexdigest()


def rescore(work: Path, slug: str, suite: Path, out: str, *more: str) -> int:
    args = [
        "rescore",
        str(work / f"one-{slug}"),
        "--suite",
        str(suite),
        "--out",
        str(work / out),
        "-q",
        "--no-html",
    ]
    return main([*args, *more])


def one_error(capsys: pytest.CaptureFixture[str]) -> str:
    err = capsys.readouterr().err
    lines = [line for line in err.splitlines() if line.startswith("error: ")]
    assert len(lines) == 1, err
    return lines[0]


def test_the_leaderboard_refuses_a_version_scored_with_two_suite_files(  # type: ignore[no-untyped-def]
    work: Path,
    capsys,
) -> None:
    """The issue's repro: one model rescored with an edited copy of the suite (same name, same
    version), the others with the real one; their partitions end up in one rows dir (two CI jobs'
    artifacts downloaded together)."""
    assert (
        rescore(
            work,
            "ref_oracle",
            work / "edited.json",
            "r-edited",
            "--rows",
            str(work / "rows-edited"),
        )
        == 0
    )
    for slug in ("ref_noisy", "ref_abstain"):
        assert rescore(work, slug, MINI_SUITE, f"r-{slug}", "--rows", str(work / "rows")) == 0
    for table in ("cases", "calls"):
        partition = Path(table) / "suite_version=0.1.0" / "model_slug=ref_oracle"
        shutil.copytree(work / "rows-edited" / partition, work / "rows" / partition)
    capsys.readouterr()
    out = ["--out", str(work / "lb"), "-q"]
    assert main(["leaderboard", str(work / "rows"), *out]) == 1
    assert one_error(capsys) == (
        f"error: {work / 'rows'}: suite version 0.1.0 was scored with 2 different suite files, "
        f"whose scores do not compare: {_pairs(work)}; rescore them with one suite file (a changed "
        "suite needs a new version), or pick the models of one with --model"
    )
    assert not (work / "lb").exists()
    assert (
        main(["leaderboard", str(work / "rows"), *out, "--group", "chains"]) == 1
    )  # a slice by group is no way out
    capsys.readouterr()
    assert (
        main(
            [
                "leaderboard",
                str(work / "rows"),
                *out,
                "--model",
                "ref/noisy",
                "--model",
                "ref/abstain",
            ]
        )
        == 0
    )
    header = (work / "lb" / "leaderboard.md").read_text(encoding="utf-8").splitlines()[2]
    assert header.startswith(f"Suite sha256 `{REAL}`.")


def _pairs(work: Path) -> str:
    pairs = sorted([(edited_sha(work), "ref/oracle"), (REAL, "ref/abstain, ref/noisy")])
    return "; ".join(f"sha256 {sha[:12]} ({models})" for sha, models in pairs)


def test_the_leaderboard_of_a_reports_dir_refuses_two_suite_files(  # type: ignore[no-untyped-def]
    work: Path,
    capsys,
) -> None:
    """A cases.parquet made by hand from two reports dirs scored with different suite files."""
    from replay.rows.store import write_table

    assert rescore(work, "ref_oracle", work / "edited.json", "r-edited") == 0
    assert rescore(work, "ref_noisy", MINI_SUITE, "r-real") == 0
    assert rescore(work, "ref_abstain", MINI_SUITE, "r-real2") == 0
    frames = [
        pl.read_parquet(work / name / "cases.parquet") for name in ("r-edited", "r-real", "r-real2")
    ]
    (work / "mixed").mkdir()
    write_table(work / "mixed" / "cases.parquet", pl.concat(frames), "cases")
    capsys.readouterr()
    assert main(["leaderboard", str(work / "mixed"), "--out", str(work / "lb"), "-q"]) == 1
    assert one_error(capsys).startswith(
        f"error: {work / 'mixed' / 'cases.parquet'}: suite version 0.1.0 was scored with 2 "
        f"different suite files, whose scores do not compare: {_pairs(work)};"
    )


def test_a_rows_dataset_refuses_a_partition_of_another_suite_file(  # type: ignore[no-untyped-def]
    work: Path,
    capsys,
) -> None:
    """``rescore --rows`` into a dataset whose version was scored with another suite file is refused
    before anything is scored or written; replacing a model's own partition, or every partition
    of the version, is not."""
    rows = work / "rows"
    for slug in ("ref_noisy", "ref_abstain"):
        assert rescore(work, slug, MINI_SUITE, f"r-{slug}", "--rows", str(rows)) == 0
    before = sorted(p.relative_to(rows) for p in rows.rglob("*.parquet"))
    capsys.readouterr()
    assert rescore(work, "ref_oracle", work / "edited.json", "r-edited", "--rows", str(rows)) == 1
    assert one_error(capsys) == (
        f"error: --rows {rows}: its suite version 0.1.0 was scored with another suite file, sha256 "
        f"{REAL[:12]} (ref_abstain, ref_noisy), than this run's, sha256 {edited_sha(work)[:12]}; "
        "scores of one version compare only under one suite file: give the changed suite a new "
        "version, rescore with the suite file those were scored with, or write to another --rows "
        "dir"
    )
    assert sorted(p.relative_to(rows) for p in rows.rglob("*.parquet")) == before
    assert list((work / "r-edited").iterdir()) == []  # refused before scoring: no reports either
    # Re-scoring ref/noisy alone with the edited suite would still leave ref/abstain under the
    # real one.
    assert rescore(work, "ref_noisy", work / "edited.json", "r-x", "--rows", str(rows)) == 1
    assert "(ref_abstain)" in one_error(capsys)
    # Both models at once under the edited suite: every partition of 0.1.0 is replaced, the version
    # is one file.
    shutil.copytree(
        work / "one-ref_abstain" / "ref_abstain", work / "one-ref_noisy" / "ref_abstain"
    )
    assert rescore(work, "ref_noisy", work / "edited.json", "r-both", "--rows", str(rows)) == 0
    cases = (
        pl.scan_parquet(str(rows / "cases" / "**" / "*.parquet"))
        .select("suite_sha256")
        .unique()
        .collect()
    )
    assert cases["suite_sha256"].to_list() == [edited_sha(work)]
    assert main(["leaderboard", str(rows), "--out", str(work / "lb"), "-q"]) == 0


def test_rescoring_a_model_with_another_suite_file_replaces_its_own_partition(work: Path) -> None:
    rows = work / "rows"
    assert rescore(work, "ref_oracle", MINI_SUITE, "r1", "--rows", str(rows)) == 0
    assert rescore(work, "ref_oracle", work / "edited.json", "r2", "--rows", str(rows)) == 0
    partition = rows / "cases" / "suite_version=0.1.0" / "model_slug=ref_oracle" / "part-0.parquet"
    assert set(pl.read_parquet(partition)["suite_sha256"]) == {edited_sha(work)}
    assert pl.read_parquet_metadata(partition)["lobstack_eval.suite_sha256"] == edited_sha(work)


def test_a_partition_written_before_its_footer_named_the_suite_file_is_read_by_its_rows(
    work: Path, capsys
) -> None:  # type: ignore[no-untyped-def]
    """Partitions written by an older lobstack-eval have no lobstack_eval.suite_sha256 in their
    footer; their ``suite_sha256`` column says which suite file scored them."""
    rows = work / "rows"
    assert rescore(work, "ref_noisy", MINI_SUITE, "r1", "--rows", str(rows)) == 0
    partition = rows / "cases" / "suite_version=0.1.0" / "model_slug=ref_noisy" / "part-0.parquet"
    metadata = pl.read_parquet_metadata(partition)
    del metadata["lobstack_eval.suite_sha256"]
    pl.read_parquet(partition).write_parquet(partition, metadata=metadata)
    capsys.readouterr()
    assert rescore(work, "ref_oracle", work / "edited.json", "r2", "--rows", str(rows)) == 1
    assert f"another suite file, sha256 {REAL[:12]} (ref_noisy)" in one_error(capsys)


def test_merge_refuses_reports_of_two_suite_files_and_rows_of_another(  # type: ignore[no-untyped-def]
    work: Path,
    capsys,
) -> None:
    assert rescore(work, "ref_oracle", work / "edited.json", "r-edited") == 0
    assert rescore(work, "ref_noisy", MINI_SUITE, "r-real") == 0
    capsys.readouterr()
    args = [
        "merge",
        str(work / "r-edited"),
        str(work / "r-real"),
        "--out",
        str(work / "o"),
        "--no-html",
    ]
    assert main(args) == 1
    assert one_error(capsys) == (
        f"error: inconsistent shards: {work / 'r-edited'} and {work / 'r-real'} were scored with "
        f"different suite files (lobstack-tool-calling-mini 0.1.0 sha256 {edited_sha(work)[:12]} "
        f"and lobstack-tool-calling-mini 0.1.0 sha256 {REAL[:12]}); merge the shards of one run"
    )
    assert not (work / "o").exists()
    # A rows dir of the real suite file refuses the merged run of the edited one, before anything
    # is written.
    assert rescore(work, "ref_abstain", MINI_SUITE, "r-abstain", "--rows", str(work / "rows")) == 0
    capsys.readouterr()
    args = [
        "merge",
        str(work / "r-edited"),
        "--out",
        str(work / "o"),
        "--no-html",
        "--rows",
        str(work / "rows"),
    ]
    assert main(args) == 1
    assert f"another suite file, sha256 {REAL[:12]} (ref_abstain), than this run's" in one_error(
        capsys
    )
    assert not (work / "o").exists()
