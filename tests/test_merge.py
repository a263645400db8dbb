"""``lobstack-eval merge`` refuses what would not be one run: overlapping shards, shards of
different runs or suites, an incomplete set, a mix of kinds, an --out that is not new; each is
one clear error naming the dirs."""

from __future__ import annotations

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


@pytest.fixture(scope="module")
def made(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Record shards 1/2 and 2/2 of two models (cassettes), and rescore shards 1/3..3/3 of
    them (reports)."""
    from replay.shard import Shard
    from standin import GatewayConfig, StandInGateway

    root = tmp_path_factory.mktemp("merge")
    with StandInGateway(GatewayConfig(suite_path=MINI_SUITE)) as gateway:
        for model in ("ref/oracle", "ref/noisy"):
            for index in (1, 2):
                ids = Shard(index, 2).select(model.replace("/", "_"), IDS)
                record(
                    MINI_SUITE,
                    model,
                    root / f"c{index}",
                    gateway.url,
                    ids,
                    RecordSettings(concurrency=1),
                    sleep=lambda _s: None,
                )
    assert (
        main(["merge", str(root / "c1"), str(root / "c2"), "--out", str(root / "cassettes")]) == 0
    )
    for index in (1, 2, 3):
        args = [
            "rescore",
            str(root / "cassettes"),
            "--suite",
            str(MINI_SUITE),
            "--out",
            str(root / f"r{index}"),
        ]
        assert main([*args, "--shard", f"{index}/3"]) == 0
    return root


@pytest.fixture
def work(made: Path, tmp_path: Path) -> Path:
    shutil.copytree(made, tmp_path / "w")
    return tmp_path / "w"


def one_error(capsys: pytest.CaptureFixture[str]) -> str:
    err = capsys.readouterr().err
    assert err.startswith("error: ") and err.count("\n") == 1, err
    return err


def merge(*args: object) -> int:
    return main(["merge", *map(str, args)])


def test_the_same_record_shard_twice_overlaps(  # type: ignore[no-untyped-def]
    work: Path,
    capsys,
) -> None:
    shutil.copytree(work / "c1", work / "c1-again")
    assert merge(work / "c1", work / "c1-again", "--out", work / "o") == 1
    err = one_error(capsys)
    assert (
        "overlapping shards:" in err and str(work / "c1") in err and str(work / "c1-again") in err
    )
    assert not (work / "o").exists()  # nothing is written before every check passed


def test_record_shards_of_different_runs_are_inconsistent(  # type: ignore[no-untyped-def]
    work: Path,
    capsys,
) -> None:
    manifest = work / "c2" / "ref_noisy" / "run.json"
    data = json.loads(manifest.read_text())
    data["base_url"] = (
        "http://127.0.0.1:1/v1"  # a loopback port alone is the same endpoint (decision 62)
    )
    manifest.write_text(json.dumps(data))
    assert merge(work / "c1", work / "c2", "--out", work / "same") == 0
    capsys.readouterr()
    data["base_url"] = "http://127.0.0.2/v1"  # another host is not
    manifest.write_text(json.dumps(data))
    assert merge(work / "c1", work / "c2", "--out", work / "o") == 1
    err = one_error(capsys)
    assert (
        f"inconsistent shards: {work / 'c1' / 'ref_noisy'}/run.json and {manifest} disagree on "
        "base_url" in err
    )


def test_a_missing_record_shard_is_warned_of(  # type: ignore[no-untyped-def]
    work: Path,
    capsys,
) -> None:
    """A cassette shard does not know its I/N, so one of two shards still merges (rescore fills the
    gap later), but each model short of the suite's cases is named, with how many are missing;
    all shards: no warning."""
    from replay.shard import Shard

    assert merge(work / "c1", "--out", work / "o", "--suite", MINI_SUITE) == 0
    err = capsys.readouterr().err.splitlines()
    warnings = [line for line in err if line.startswith("warning: ")]
    suite = read_suite(MINI_SUITE)
    expected = []
    for slug in ("ref_noisy", "ref_oracle"):
        missing = Shard(2, 2).select(slug, IDS)
        expected.append(
            f"warning: {work / 'o' / slug}: {len(IDS) - len(missing)} of the {len(IDS)} cases of "
            f"{suite.name} {suite.version}, {len(missing)} missing (first {missing[0]}): a shard "
            "may be missing; rescore lists the unrecorded cases and the record command that fills "
            "them"
        )
    assert warnings == expected
    assert merge(work / "c1", work / "c2", "--out", work / "o2", "--suite", MINI_SUITE) == 0
    assert "warning" not in capsys.readouterr().err


def test_record_shards_of_different_suites_are_inconsistent(  # type: ignore[no-untyped-def]
    work: Path,
    capsys,
) -> None:
    manifest = work / "c2" / "ref_oracle" / "run.json"
    data = json.loads(manifest.read_text())
    data["suite"]["sha256"] = "0" * 64
    manifest.write_text(json.dumps(data))
    assert merge(work / "c1", work / "c2", "--out", work / "o") == 1
    assert "disagree on suite sha256" in one_error(capsys)


def test_report_shard_given_twice(work: Path, capsys) -> None:  # type: ignore[no-untyped-def]
    shutil.copytree(work / "r2", work / "r2-again")
    assert merge(work / "r1", work / "r2", work / "r2-again", "--out", work / "o", "--no-html") == 1
    err = one_error(capsys)
    assert (
        f"{work / 'r2'} (shard 2/3) and {work / 'r2-again'} (shard 2/3) are the same shard" in err
    )


def test_report_shards_incomplete(work: Path, capsys) -> None:  # type: ignore[no-untyped-def]
    assert merge(work / "r1", work / "r3", "--out", work / "o", "--no-html") == 1
    assert "incomplete shards: 2/3 missing (given: 1, 3)" in one_error(capsys)


def test_report_shards_of_different_counts(  # type: ignore[no-untyped-def]
    work: Path,
    capsys,
) -> None:
    args = [
        "rescore",
        str(work / "cassettes"),
        "--suite",
        str(MINI_SUITE),
        "--out",
        str(work / "half"),
    ]
    assert main([*args, "--shard", "1/2"]) == 0
    capsys.readouterr()
    assert merge(work / "r1", work / "half", work / "r3", "--out", work / "o", "--no-html") == 1
    assert "cut the work into different numbers of shards" in one_error(capsys)


def test_a_shard_and_a_whole_report_dir_do_not_mix(  # type: ignore[no-untyped-def]
    work: Path,
    capsys,
) -> None:
    args = [
        "rescore",
        str(work / "cassettes"),
        "--suite",
        str(MINI_SUITE),
        "--out",
        str(work / "whole"),
    ]
    assert main([*args, "-q", "--no-html"]) == 0
    capsys.readouterr()
    assert merge(work / "r1", work / "whole", "--out", work / "o", "--no-html") == 1
    assert "mix a shard and a whole reports dir" in one_error(capsys)


def test_whole_report_dirs_of_the_same_model_overlap(  # type: ignore[no-untyped-def]
    work: Path,
    capsys,
) -> None:
    for name in ("a", "b"):
        args = [
            "rescore",
            str(work / "cassettes"),
            "--suite",
            str(MINI_SUITE),
            "--out",
            str(work / name),
        ]
        assert main([*args, "-q", "--no-html"]) == 0
    capsys.readouterr()
    assert merge(work / "a", work / "b", "--out", work / "o", "--no-html") == 1
    err = one_error(capsys)
    assert f"overlapping shards: {work / 'a'} and {work / 'b'} both hold case" in err


def test_whole_report_dirs_of_different_models_merge(work: Path) -> None:
    """The CI matrix by model: one rescore per model, then one reports dir, as if
    rescored together."""
    for model in ("ref_oracle", "ref_noisy"):
        (work / f"only-{model}").mkdir()
        shutil.copytree(work / "cassettes" / model, work / f"only-{model}" / model)
        args = [
            "rescore",
            str(work / f"only-{model}"),
            "--suite",
            str(MINI_SUITE),
            "--out",
            str(work / f"r-{model}"),
        ]
        assert main([*args, "-q", "--no-html"]) == 0
    args = [
        "rescore",
        str(work / "cassettes"),
        "--suite",
        str(MINI_SUITE),
        "--out",
        str(work / "both"),
        "-q",
    ]
    assert main([*args, "--no-html"]) == 0
    assert merge(work / "r-ref_oracle", work / "r-ref_noisy", "--out", work / "o", "--no-html") == 0
    for name in ("leaderboard.csv", "cases.parquet", "calls.parquet", "ref_noisy/results.json"):
        assert (work / "o" / name).read_bytes() == (work / "both" / name).read_bytes(), name


def test_a_foreign_cases_file_in_a_report_shard(  # type: ignore[no-untyped-def]
    work: Path,
    capsys,
) -> None:
    pl.DataFrame({"x": [1]}).write_parquet(work / "r2" / "cases.parquet")
    assert merge(work / "r1", work / "r2", work / "r3", "--out", work / "o", "--no-html") == 1
    assert f"{work / 'r2' / 'cases.parquet'}: expected the cases table" in one_error(capsys)


def test_html_needs_the_suite_the_shards_were_scored_with(  # type: ignore[no-untyped-def]
    work: Path,
    capsys,
) -> None:
    assert (
        merge(work / "r1", work / "r2", work / "r3", "--out", work / "o") == 1
    )  # default evals/suite.json
    assert "the shards were scored with" in one_error(capsys)
    assert (
        merge(work / "r1", work / "r2", work / "r3", "--out", work / "o", "--suite", MINI_SUITE)
        == 0
    )
    assert (work / "o" / "index.html").is_file() and not (work / "o" / "shard.json").exists()


@pytest.mark.parametrize(
    ("setup", "message"),
    [
        ("kinds", "is a cassettes dir but"),
        ("out", "must be a new or empty directory"),
        ("inside", "must not be"),
        ("neither", "neither a cassettes dir"),
        ("rows", "cassettes have no rows"),
    ],
)
def test_bad_usage(  # type: ignore[no-untyped-def]
    work: Path,
    capsys,
    setup: str,
    message: str,
) -> None:
    args: list[object] = [work / "c1", work / "c2", "--out", work / "o"]
    if setup == "kinds":
        args = [work / "c1", work / "r1", "--out", work / "o"]
    elif setup == "out":
        (work / "o").mkdir()
        (work / "o" / "x").write_text("")
    elif setup == "inside":
        args = [work / "c1", work / "c2", "--out", work / "c1" / "merged"]
    elif setup == "neither":
        (work / "empty").mkdir()
        args = [work / "c1", work / "empty", "--out", work / "o"]
    else:
        args += ["--rows", work / "rows"]
    assert merge(*args) == 2
    assert message in one_error(capsys)


def test_merged_report_shards_append_their_rows(  # type: ignore[no-untyped-def]
    work: Path,
    capsys,
) -> None:
    shards = [work / "r1", work / "r2", work / "r3"]
    assert merge(*shards, "--out", work / "o", "--no-html", "--rows", work / "rows") == 0
    assert main(["leaderboard", str(work / "rows"), "--out", str(work / "lb"), "-q"]) == 0
    assert (work / "lb" / "leaderboard.csv").read_bytes() == (
        work / "o" / "leaderboard.csv"
    ).read_bytes()


def test_report_shards_of_repeated_runs_are_refused(  # type: ignore[no-untyped-def]
    work: Path,
    capsys,
) -> None:
    path = work / "r2" / "ref_noisy" / "results.json"
    path.write_text(json.dumps({**json.loads(path.read_text()), "repeats": 3}))
    assert merge(work / "r1", work / "r2", work / "r3", "--out", work / "o", "--no-html") == 1
    assert f"{path}: merging reports of repeated runs (K > 1) is not supported yet" in one_error(
        capsys
    )


def test_record_shards_of_repeated_runs_merge_with_every_repeat(tmp_path: Path) -> None:
    """``record --repeats 3 --shard I/2``: a shard owns a case with all its repeats, so the merged
    dir has every case-run once (repeat-2/ and repeat-3/ too), run.json's ``repeats`` and
    ``repeat_cases``, and scores each case exactly as the shard that recorded it does."""
    from recorder.manifest_read import read_manifest
    from replay.rescore import rescore_model
    from standin import GatewayConfig, StandInGateway

    with StandInGateway(GatewayConfig(suite_path=MINI_SUITE)) as gateway:
        for index in (1, 2):
            args = [
                "record",
                "--model",
                "ref/flaky",
                "--suite",
                str(MINI_SUITE),
                "--base-url",
                gateway.url,
            ]
            assert (
                main(
                    [
                        *args,
                        "--cassettes",
                        str(tmp_path / f"c{index}"),
                        "--repeats",
                        "3",
                        "--shard",
                        f"{index}/2",
                    ]
                )
                == 0
            )
    assert merge(tmp_path / "c1", tmp_path / "c2", "--out", tmp_path / "merged") == 0
    merged = read_manifest(tmp_path / "merged" / "ref_flaky")
    assert merged.repeat_count == 3
    assert sorted(merged.cases) == sorted(IDS)
    assert {n: sorted(cases) for n, cases in merged.repeat_cases.items()} == {
        2: sorted(IDS),
        3: sorted(IDS),
    }
    for n in (2, 3):
        assert sorted(
            p.stem for p in (tmp_path / "merged" / "ref_flaky" / f"repeat-{n}").glob("*.json")
        ) == sorted(IDS)
    suite = read_suite(MINI_SUITE)
    whole = {r["id"]: r for r in rescore_model(tmp_path / "merged" / "ref_flaky", suite)["results"]}
    for index in (1, 2):
        shard = rescore_model(tmp_path / f"c{index}" / "ref_flaky", suite)
        for entry in shard["results"]:
            if entry["status"] != "unrecorded":  # the other shard's cases are unrecorded here
                assert whole[entry["id"]]["repeat_statuses"] == entry["repeat_statuses"], entry[
                    "id"
                ]
    assert all(
        len(r["repeat_statuses"]) == 3 and "unrecorded" not in r["repeat_statuses"]
        for r in whole.values()
    )


UNKNOWN = (
    "format_version: {!r} is not one this lobstack-eval reads (1); "
    "a newer lobstack-eval wrote it, or it is corrupt"
)


@pytest.mark.parametrize("name", ["ref_noisy/results.json", "shard.json"])
def test_a_report_shard_file_of_another_format_version(  # type: ignore[no-untyped-def]
    work: Path,
    name: str,
    capsys,
) -> None:
    """results.json and shard.json refuse a format_version they do not know, as run.json does
    (decision 118)."""
    path = work / "r2" / name
    data = json.loads(path.read_text(encoding="utf-8"))
    path.write_text(json.dumps({**data, "format_version": 99}), encoding="utf-8")
    assert merge(work / "r1", work / "r2", work / "r3", "--out", work / "o", "--no-html") == 1
    assert one_error(capsys) == f"error: {path}: {UNKNOWN.format(99)}\n"
    assert not (work / "o").exists()


@pytest.mark.parametrize("kind", ["cassettes", "reports"])
def test_a_merge_that_fails_half_way_leaves_out_empty(
    work: Path, capsys, monkeypatch: pytest.MonkeyPatch, kind: str
) -> None:  # type: ignore[no-untyped-def]
    """A full disk after the first files: --out holds nothing (no half model dir), no staging dir
    is left."""
    import errno

    import fileio.atomic

    real, written = fileio.atomic.write_bytes_atomic, []

    def full_disk(path: Path, data: bytes, root: Path | None = None) -> None:
        if len(written) == 2:
            raise OSError(errno.ENOSPC, "No space left on device", str(path))
        written.append(path)
        real(path, data, root)

    monkeypatch.setattr(fileio.atomic, "write_bytes_atomic", full_disk)
    monkeypatch.setattr("replay.merge.cassettes.write_bytes_atomic", full_disk)
    monkeypatch.setattr(
        "replay.merge.reports.write_atomic", lambda p, t, r=None: full_disk(p, t.encode(), r)
    )
    shards = (
        [work / "c1", work / "c2"] if kind == "cassettes" else [work / f"r{i}" for i in (1, 2, 3)]
    )
    out = work / "o"
    assert merge(*shards, "--out", out, "--suite", MINI_SUITE) != 0
    assert "No space left on device" in capsys.readouterr().err
    assert len(written) == 2 and all(".o.merging-" in str(p) for p in written)
    assert not out.exists() or list(out.iterdir()) == []
    assert [p.name for p in work.iterdir() if p.name.startswith(".o.")] == []


def test_a_merge_names_the_files_where_they_end_up(  # type: ignore[no-untyped-def]
    work: Path,
    capsys,
) -> None:
    out = work / "o"
    assert merge(work / "c1", work / "c2", "--out", out) == 0
    assert f"into {out}/" in capsys.readouterr().err
    assert sorted(p.name for p in out.iterdir()) == ["ref_noisy", "ref_oracle"]
    assert [p.name for p in work.iterdir() if p.name.startswith(".o.")] == []


def test_a_cassette_whose_name_is_not_utf8_is_named_and_not_copied(  # type: ignore[no-untyped-def]
    work: Path,
    capsys,
) -> None:
    import os

    model = work / "c1" / "ref_oracle"
    odd = os.path.join(
        os.fsencode(model), b"caf\xe9-01.json"
    )  # Latin-1, as an old tool may write it
    with open(odd, "wb") as handle:
        handle.write((model / next(p.name for p in model.glob("*-0*.json"))).read_bytes())
    out = work / "o"
    assert merge(work / "c1", work / "c2", "--out", out) == 0
    warnings = [line for line in capsys.readouterr().err.splitlines() if "not UTF-8" in line]
    assert warnings == [
        f"warning: {model}/caf\\xe9-01.json: the file name is not UTF-8, so it is no case's "
        "cassette; not copied"
    ]
    assert not [n for n in os.listdir(os.fsencode(out / "ref_oracle")) if b"\xe9" in n]
    assert len(list((out / "ref_oracle").glob("*.json"))) == len(IDS) + 1  # every case and run.json
