"""No write follows a symbolic link at any level below the root the user gave (issue 42, part 4;
``fileio.atomic.write_bytes_atomic``, ``fileio.safe_paths.inside``): ``--cassettes`` (with its
``history/<run-id>/`` levels), ``--out`` and ``--rows``. Each level, made a link to a folder or file
outside, is refused with one ``error:`` line naming the link, and nothing is written outside.

``record --run-id`` followed a linked ``cassettes/history`` or ``history/<id>`` (only a linked model
dir was refused).
"""

from __future__ import annotations

import os
import stat
from pathlib import Path

import pytest

from lobstack_eval.main import main
from recorder.files import read_suite
from recorder.record import record
from recorder.settings import RecordSettings
from standin import GatewayConfig, StandInGateway
from tests.conftest import MINI_SUITE
from tests.record_helpers import record_args

RUN = "2026-11-01"
VERSION = read_suite(MINI_SUITE).version
PARTITION = f"cases/suite_version={VERSION}/model_slug=ref_oracle"


def _link(root: Path, level: str, outside: Path, as_file: bool) -> Path:
    """Make ``root/level`` a link to ``outside`` (a folder, or a file not there yet), with the
    real folders above it; the link."""
    link = root / level
    link.parent.mkdir(parents=True, exist_ok=True)
    target = outside / "file" if as_file else outside
    link.symlink_to(target)
    return link


def _error_lines(err: str) -> list[str]:
    return [line for line in err.splitlines() if line.startswith("error:")]


def _untouched(outside: Path) -> None:
    assert sorted(p.name for p in outside.rglob("*")) == [], "a write went through the link"


# (level below --cassettes, the link is to a file, extra record options)
RECORD_LEVELS = {
    "history": ("history", False, ("--run-id", RUN)),
    "history-run": (f"history/{RUN}", False, ("--run-id", RUN)),
    "history-run-model": (f"history/{RUN}/m", False, ("--run-id", RUN)),
    "model": ("m", False, ()),
    "partial": ("m/.partial", False, ()),
    "manifest": ("m/run.json", True, ()),
    "cassette": ("m/selection-01.json", True, ()),
    "history-cassette": (f"history/{RUN}/m/selection-01.json", True, ("--run-id", RUN)),
}


@pytest.mark.parametrize("level", list(RECORD_LEVELS), ids=list(RECORD_LEVELS))
def test_record_follows_no_link_below_cassettes(  # type: ignore[no-untyped-def]
    gateway, tmp_path: Path, capsys, level: str
) -> None:
    name, as_file, extra = RECORD_LEVELS[level]
    outside, cassettes = tmp_path / "outside", tmp_path / "cas"
    outside.mkdir()
    link = _link(cassettes, name, outside, as_file)
    code = main(["record", *record_args("m", cassettes, gateway.url, *extra)])
    err = capsys.readouterr().err
    assert code in (1, 2), err
    (line,) = _error_lines(err)
    # below the model dir, its own checks name the link (``.partial`` says whose files it holds)
    assert line.startswith(f"error: {link}"), line
    assert "symbolic link" in line or "symlink" in line, line
    if level in ("history", "history-run", "history-run-model"):
        target = outside / "file" if as_file else outside
        assert line == (
            f"error: {link}: a symbolic link (to {target}) below {cassettes}; refusing to write "
            "through it"
        )
    _untouched(outside)
    assert gateway.requests_seen == []


def test_a_link_that_stays_inside_is_refused_too(  # type: ignore[no-untyped-def]
    gateway, tmp_path: Path, capsys
) -> None:
    cassettes = tmp_path / "cas"
    (cassettes / "other").mkdir(parents=True)
    (cassettes / "m").symlink_to(cassettes / "other")
    assert main(["record", *record_args("m", cassettes, gateway.url)]) == 2
    assert "cas/m: a symbolic link" in capsys.readouterr().err
    assert list((cassettes / "other").iterdir()) == []
    assert gateway.requests_seen == []


@pytest.fixture(scope="module")
def recorded(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """One case of ref/oracle, recorded once for the module's rescores."""
    cassettes = tmp_path_factory.mktemp("links") / "cassettes"
    with StandInGateway(GatewayConfig(suite_path=MINI_SUITE)) as gateway:
        record(
            MINI_SUITE,
            "ref/oracle",
            cassettes,
            gateway.url,
            ["selection-01"],
            RecordSettings(concurrency=1),
        )
    return cassettes


# (option, level below its root, the link is to a file)
RESCORE_LEVELS = {
    "out-model": ("--out", "ref_oracle", False),
    "out-results": ("--out", "ref_oracle/results.json", True),
    "out-html": ("--out", "index.html", True),
    "out-board": ("--out", "leaderboard.md", True),
    "out-rows-file": ("--out", "cases.parquet", True),
    "rows-table": ("--rows", "cases", False),
    "rows-version": ("--rows", PARTITION.rsplit("/", 1)[0], False),
    "rows-model": ("--rows", PARTITION, False),
    "rows-file": ("--rows", f"{PARTITION}/part-0.parquet", True),
}


@pytest.mark.parametrize("level", list(RESCORE_LEVELS), ids=list(RESCORE_LEVELS))
def test_rescore_follows_no_link_below_out_or_rows(  # type: ignore[no-untyped-def]
    recorded: Path, tmp_path: Path, capsys, level: str
) -> None:
    option, name, as_file = RESCORE_LEVELS[level]
    outside, out, rows = tmp_path / "outside", tmp_path / "out", tmp_path / "rows"
    outside.mkdir()
    link = _link(out if option == "--out" else rows, name, outside, as_file)
    args = ["rescore", str(recorded), "--suite", str(MINI_SUITE), "--out", str(out), "-q"]
    code = main([*args, "--rows", str(rows)])
    err = capsys.readouterr().err
    assert code == 2, err
    (line,) = _error_lines(err)
    assert line.startswith(f"error: {link}: a symbolic link (to "), line
    _untouched(outside)


@pytest.mark.parametrize("level", ["a", "a/b", "a/b/file.json"])
def test_the_writer_itself_refuses_a_link_at_every_level(tmp_path: Path, level: str) -> None:
    """No name check before it: the writer's own walk from the root (``O_NOFOLLOW`` at each
    level) refuses a level swapped for a link after any check."""
    from fileio.atomic import write_bytes_atomic
    from fileio.safe_paths import LinkRefused

    root, outside = tmp_path / "root", tmp_path / "outside"
    outside.mkdir()
    link = _link(root, level, outside, as_file=level.endswith(".json"))
    with pytest.raises(LinkRefused) as refused:
        write_bytes_atomic(root / "a" / "b" / "file.json", b"{}", root)
    assert str(refused.value).startswith(f"{link}: a symbolic link (to ")
    _untouched(outside)
    write_bytes_atomic(root / "c" / "d" / "file.json", b"{}", root)  # real folders: made, written
    written = root / "c" / "d" / "file.json"
    assert written.read_bytes() == b"{}"
    mask = os.umask(0)
    os.umask(mask)
    assert stat.S_IMODE(written.stat().st_mode) == 0o666 & ~mask  # shared, as before: not 0600
    assert [p.name for p in written.parent.iterdir()] == ["file.json"]  # no temp file left
