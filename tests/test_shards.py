"""Shards: ``--shard I/N`` takes a stable 1/N of the (model dir, case) pairs; rescore shards merged
are byte for byte one unsharded rescore; record shards merged score exactly the verdicts of one
unsharded recording."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from lobstack_eval.main import main
from recorder.files import read_suite
from replay.shard import Shard
from tests.conftest import MINI_SUITE, ROOT

SUITE = ROOT / "evals" / "suite.json"
IDS = [case.id for case in read_suite(SUITE).cases]


def tree(root: Path) -> dict[str, bytes]:
    return {
        p.relative_to(root).as_posix(): p.read_bytes()
        for p in sorted(root.rglob("*"))
        if p.is_file()
    }


# Checked by hand with sha256sum: sha256("m/<id>") orders a..e as b, c, e, d, a; then they are dealt
# out in turn.
@pytest.mark.parametrize(
    ("count", "expected"),
    [
        (1, [["a", "b", "c", "d", "e"]]),
        (2, [["a", "b", "e"], ["c", "d"]]),
        (3, [["b", "d"], ["a", "c"], ["e"]]),
    ],
)
def test_shards_deal_out_the_sha256_order(count: int, expected: list[list[str]]) -> None:
    ids = ["a", "b", "c", "d", "e"]
    assert [Shard(i, count).select("m", ids) for i in range(1, count + 1)] == expected


@pytest.mark.parametrize("count", [1, 2, 3, 7, 80, 81])
def test_every_case_in_exactly_one_shard_and_shards_even(count: int) -> None:
    for slug in ("ref_oracle", "openai_gpt-4o"):
        owned = [Shard(i, count).select(slug, IDS) for i in range(1, count + 1)]
        assert sorted(case for part in owned for case in part) == sorted(IDS)
        assert max(map(len, owned)) - min(map(len, owned)) <= 1


def test_a_selection_keeps_only_the_shards_cases() -> None:
    mine = Shard(2, 3).select("auto", IDS)
    wanted = ["chains-01", "selection-01", "no_call-03", "parallel-02"]
    assert Shard(2, 3).select("auto", IDS, wanted) == [c for c in wanted if c in mine]


def test_shards_are_the_same_in_another_process_and_hash_seed() -> None:
    code = (
        "from replay.shard import Shard; print(Shard(2, 3).select('auto', [f'c{i}' for i in "
        "range(50)]))"
    )
    env = {**os.environ, "PYTHONHASHSEED": "12345"}
    other = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True, text=True, check=True
    )
    assert other.stdout.strip() == str(Shard(2, 3).select("auto", [f"c{i}" for i in range(50)]))


@pytest.mark.parametrize("spec", ["0/3", "4/3", "1/0", "x", "1/", "-1/2", "2/10001"])
def test_bad_shard_is_a_usage_error(
    spec: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["rescore", str(ROOT / "cassettes"), "--out", str(tmp_path), "--shard", spec]) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"error: --shard {spec!r}") and err.count("\n") == 1


def test_rescore_shards_merged_equal_the_unsharded_rescore_byte_for_byte(
    tmp_path: Path, capsys
) -> None:  # type: ignore[no-untyped-def]
    cassettes = str(ROOT / "cassettes")
    assert (
        main(["rescore", cassettes, "--suite", str(SUITE), "--out", str(tmp_path / "whole"), "-q"])
        == 0
    )
    shards = []
    for index in (1, 2, 3):
        shards.append(str(tmp_path / f"shard-{index}"))
        args = [
            "rescore",
            cassettes,
            "--suite",
            str(SUITE),
            "--out",
            shards[-1],
            "--shard",
            f"{index}/3",
        ]
        assert main(args) == 0
        assert f"Shard {index}/3: re-scored" in capsys.readouterr().err
        assert not (tmp_path / f"shard-{index}" / "leaderboard.md").exists()
    scored = [
        len(json.loads(Path(s, "ref_noisy", "results.json").read_text())["results"]) for s in shards
    ]
    assert sorted(scored) == [26, 27, 27]  # 80 cases dealt out in turn
    assert (
        main(["merge", *reversed(shards), "--out", str(tmp_path / "merged"), "--suite", str(SUITE)])
        == 0
    )
    whole, merged = tree(tmp_path / "whole"), tree(tmp_path / "merged")
    assert sorted(merged) == sorted(whole)
    assert [name for name in whole if whole[name] != merged[name]] == []
    assert {"index.html", "cases.parquet", "calls.parquet", "leaderboard.csv"} <= set(merged)


def _verdicts(reports: Path) -> dict[str, object]:
    """What a recording scores: every case's status and reason, and every metric's count and of."""
    found: dict[str, object] = {}
    for path in sorted(reports.glob("*/results.json")):
        results = json.loads(path.read_text())
        found[path.parent.name] = (
            [(r["id"], r["status"], r["reason"]) for r in results["results"]],
            {name: (m["count"], m["of"]) for name, m in results["metrics"].items()},
        )
    return found


def test_record_shards_merged_score_the_unsharded_verdicts(
    start_gateway, tmp_path: Path, capsys
) -> None:  # type: ignore[no-untyped-def]
    gateway = start_gateway()
    models = ("ref/noisy", "ref/first-tool")

    def record(cassettes: Path, *extra: str) -> None:
        for model in models:
            args = [
                "record",
                "--model",
                model,
                "--suite",
                str(MINI_SUITE),
                "--cassettes",
                str(cassettes),
            ]
            assert main([*args, "--base-url", gateway.url, "--concurrency", "1", *extra]) == 0

    record(tmp_path / "whole")
    for index in (1, 2):
        record(tmp_path / f"shard-{index}", "--shard", f"{index}/2")
    err = capsys.readouterr().err
    assert "(shard 2/2)" in err
    # A shard's dir holds part of the cases: the hint merges first, never "rescore shard-2" alone
    # (issue 25).
    assert f"the scores come from: lobstack-eval rescore {tmp_path / 'shard-2'}." not in err
    assert (
        "once all 2 shards are recorded, lobstack-eval merge SHARD_DIRS... --out merged/ then "
        in err
    )
    shard_dirs = [str(tmp_path / "shard-1"), str(tmp_path / "shard-2")]
    assert main(["merge", *shard_dirs, "--out", str(tmp_path / "merged")]) == 0
    assert (
        f"next: lobstack-eval rescore {tmp_path / 'merged'}" in capsys.readouterr().err.splitlines()
    )
    ids = [case.id for case in read_suite(MINI_SUITE).cases]
    for slug in ("ref_noisy", "ref_first-tool"):
        held = [
            sorted(json.loads(Path(d, slug, "run.json").read_text())["cases"]) for d in shard_dirs
        ]
        assert held[0] and held[1] and sorted(held[0] + held[1]) == sorted(ids)
        merged = json.loads((tmp_path / "merged" / slug / "run.json").read_text())
        whole = json.loads((tmp_path / "whole" / slug / "run.json").read_text())
        assert sorted(merged["cases"]) == sorted(ids)
        assert {k: merged[k] for k in ("model", "suite", "base_url")} == {
            k: whole[k] for k in ("model", "suite", "base_url")
        }
        # The chain is whole in one shard: its cassette holds every step's exchange.
        chain = json.loads((tmp_path / "merged" / slug / "chains-01.json").read_text())
        assert len(chain["interactions"]) == len(whole["cases"]["chains-01"]["attempts"])
    for name in ("whole", "merged"):
        args = [
            "rescore",
            str(tmp_path / name),
            "--suite",
            str(MINI_SUITE),
            "--out",
            str(tmp_path / f"r-{name}"),
        ]
        assert main([*args, "-q", "--no-html"]) == 0
    assert _verdicts(tmp_path / "r-merged") == _verdicts(tmp_path / "r-whole")


def test_rows_with_a_shard_is_refused(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    args = [
        "rescore",
        str(ROOT / "cassettes"),
        "--out",
        str(tmp_path / "o"),
        "--shard",
        "1/2",
        "--rows",
        "r",
    ]
    assert main(args) == 2
    assert "merge the shards first" in capsys.readouterr().err
